// TagGridworld-v0: WarpDrive's grid Tag (example_envs/tag_gridworld, 2.7.1).
// num_taggers taggers (agents 0..T-1) chase one runner (agent T) on the
// integer grid [0, grid_length]^2; each agent moves one cell (or stays) per
// step. The episode ends when a tagger shares the runner's cell (terminated)
// or after episode_length steps (truncated).
//
// The dynamics are per-agent functions over the env's arrays, split where
// WarpDrive's kernel synchronises its threads (move, count tags, reward and
// observe), so that a GPU kernel with one thread per agent calls the same code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/host_device.h"

namespace envpool_x {

struct TagGridParams {
  int32_t num_agents = 5;  // taggers + the runner (the last agent)
  int32_t grid_length = 100;
  int32_t episode_length = 100;
  float wall_hit_penalty = 0.1f;
  float tag_reward_for_tagger = 10.0f;
  float tag_penalty_for_runner = 5.0f;
  float step_cost_for_tagger = 0.01f;
  bool use_full_observation = true;
  ENVPOOL_X_HD int32_t ObsSize() const { return use_full_observation ? 4 * num_agents + 1 : 6; }
};

// Action index -> (dx, dy): stay, +x, -x, +y, -y (WarpDrive's order).
ENVPOOL_X_HD inline int32_t TagGridDx(int32_t action) {
  return action == 1 ? 1 : (action == 2 ? -1 : 0);
}
ENVPOOL_X_HD inline int32_t TagGridDy(int32_t action) {
  return action == 3 ? 1 : (action == 4 ? -1 : 0);
}

// Moves `agent` by its action, clipped to the grid; returns its wall penalty
// (subtracted once per clipped axis, as WarpDrive does).
ENVPOOL_X_HD inline float TagGridMove(const TagGridParams& p, int32_t* x, int32_t* y, int32_t agent,
                                      int32_t action) {
  float reward = 0.0f;
  int32_t nx = x[agent] + TagGridDx(action);
  int32_t ny = y[agent] + TagGridDy(action);
  if (nx < 0) {
    nx = 0;
    reward -= p.wall_hit_penalty;
  } else if (nx > p.grid_length) {
    nx = p.grid_length;
    reward -= p.wall_hit_penalty;
  }
  if (ny < 0) {
    ny = 0;
    reward -= p.wall_hit_penalty;
  } else if (ny > p.grid_length) {
    ny = p.grid_length;
    reward -= p.wall_hit_penalty;
  }
  x[agent] = nx;
  y[agent] = ny;
  return reward;
}

// True when tagger `agent` stands on the runner's cell (summed over taggers:
// the per-env tag count, a shared-memory reduction on the GPU).
ENVPOOL_X_HD inline bool TagGridTags(const TagGridParams& p, const int32_t* x, const int32_t* y,
                                     int32_t agent) {
  const int32_t runner = p.num_agents - 1;
  return agent < runner && x[agent] == x[runner] && y[agent] == y[runner];
}

// `agent`'s reward once the tags are counted, on top of its wall penalty.
ENVPOOL_X_HD inline float TagGridReward(const TagGridParams& p, int32_t agent, bool tagged,
                                        float wall_penalty) {
  float reward = wall_penalty;
  if (agent < p.num_agents - 1) {
    reward += tagged ? p.tag_reward_for_tagger : -p.step_cost_for_tagger;
  } else {
    reward += tagged ? -p.tag_penalty_for_runner : p.step_cost_for_tagger;
  }
  return reward;
}

// `agent`'s observation row (ObsSize floats) at `timestep`. Full: x / L of
// every agent, y / L, is-runner flags, a one-hot of `agent`, time. Partial:
// own x, y; the runner's (a tagger) or the nearest tagger's (the runner)
// x, y; is-runner; time.
ENVPOOL_X_HD inline void TagGridObservation(const TagGridParams& p, const int32_t* x,
                                            const int32_t* y, int32_t timestep, int32_t agent,
                                            float* obs) {
  const int32_t n = p.num_agents;
  const int32_t runner = n - 1;
  const double length = static_cast<double>(p.grid_length);
  const float time = static_cast<float>(timestep / static_cast<double>(p.episode_length));
  if (p.use_full_observation) {
    for (int32_t i = 0; i < n; ++i) {
      obs[i] = static_cast<float>(x[i] / length);
      obs[n + i] = static_cast<float>(y[i] / length);
      obs[2 * n + i] = i == runner ? 1.0f : 0.0f;
      obs[3 * n + i] = i == agent ? 1.0f : 0.0f;
    }
    obs[4 * n] = time;
    return;
  }
  int32_t other = runner;
  if (agent == runner) {
    // The first tagger at the smallest squared distance, starting from
    // WarpDrive's bound 2 L^2 (a tie with the bound keeps tagger 0).
    int64_t best = 2 * static_cast<int64_t>(p.grid_length) * p.grid_length;
    other = 0;
    for (int32_t i = 0; i < runner; ++i) {
      const int64_t dx = x[i] - x[runner];
      const int64_t dy = y[i] - y[runner];
      if (dx * dx + dy * dy < best) {
        best = dx * dx + dy * dy;
        other = i;
      }
    }
  }
  obs[0] = static_cast<float>(x[agent] / length);
  obs[1] = static_cast<float>(y[agent] / length);
  obs[2] = static_cast<float>(x[other] / length);
  obs[3] = static_cast<float>(y[other] / length);
  obs[4] = agent == runner ? 1.0f : 0.0f;
  obs[5] = time;
}

class TagGridworld {
 public:
  static constexpr const char* kName = "TagGridworld";
  static constexpr bool kCheap = true;

  // WarpDrive's keys; defaults from its run_configs/tag_gridworld.yaml
  // (use_full_observation from TagGridWorld's constructor). Empty starting
  // locations: taggers at the centre, the runner at (0, 0).
  static Config DefaultConfig() {
    return Config{{"num_taggers", int64_t{4}},
                  {"grid_length", int64_t{100}},
                  {"episode_length", int64_t{100}},
                  {"wall_hit_penalty", 0.1},
                  {"tag_reward_for_tagger", 10.0},
                  {"tag_penalty_for_runner", 5.0},
                  {"step_cost_for_tagger", 0.01},
                  {"use_full_observation", true},
                  {"starting_location_x", std::vector<double>{}},
                  {"starting_location_y", std::vector<double>{}}};
  }

  static TagGridParams Params(const Config& c) {
    TagGridParams p;
    const int64_t taggers = c.Int("num_taggers");
    if (taggers < 1 || taggers > 4095) {
      throw ValueError("TagGridworld needs 1 to 4095 num_taggers, got " + std::to_string(taggers));
    }
    if (c.Int("grid_length") < 1 || c.Int("grid_length") > 46340) {
      throw ValueError("TagGridworld grid_length must be in [1, 46340], got " +
                       std::to_string(c.Int("grid_length")));
    }
    if (c.Int("episode_length") < 1) {
      throw ValueError("TagGridworld episode_length must be positive, got " +
                       std::to_string(c.Int("episode_length")));
    }
    p.num_agents = static_cast<int32_t>(taggers + 1);
    p.grid_length = static_cast<int32_t>(c.Int("grid_length"));
    p.episode_length = static_cast<int32_t>(c.Int("episode_length"));
    p.wall_hit_penalty = static_cast<float>(c.Double("wall_hit_penalty"));
    p.tag_reward_for_tagger = static_cast<float>(c.Double("tag_reward_for_tagger"));
    p.tag_penalty_for_runner = static_cast<float>(c.Double("tag_penalty_for_runner"));
    p.step_cost_for_tagger = static_cast<float>(c.Double("step_cost_for_tagger"));
    p.use_full_observation = c.Bool("use_full_observation");
    for (const char* key : {"starting_location_x", "starting_location_y"}) {
      const size_t got = c.Doubles(key).size();
      if (got != 0 && got != static_cast<size_t>(p.num_agents)) {
        throw ValueError(std::string("TagGridworld ") + key + " must list one cell per agent (" +
                         std::to_string(p.num_agents) + "), got " + std::to_string(got));
      }
    }
    return p;
  }

  static EnvSpec Spec(const Config& config) {
    const TagGridParams p = Params(config);
    EnvSpec spec;
    spec.obs.push_back(
        ArraySpec{"obs", DType::kFloat32, {p.num_agents, p.ObsSize()}, {0.0}, {1.0}});
    spec.info.push_back(ArraySpec{"active", DType::kBool, {p.num_agents}, {}, {}});
    spec.action.discrete = true;
    spec.action.n = 5;
    spec.action.num_agents = p.num_agents;
    return spec;
  }

  TagGridworld(const Config& config, const EnvSpec& spec)
      : p_(Params(config)),
        obs_(ObsField<float>(spec, "obs")),
        active_(InfoField<bool>(spec, "active")),
        x_(p_.num_agents),
        y_(p_.num_agents),
        start_x_(p_.num_agents),
        start_y_(p_.num_agents),
        penalty_(p_.num_agents) {
    const std::vector<double>& sx = config.Doubles("starting_location_x");
    const std::vector<double>& sy = config.Doubles("starting_location_y");
    for (int32_t i = 0; i < p_.num_agents; ++i) {
      const bool runner = i == p_.num_agents - 1;
      const int32_t centre = p_.grid_length / 2;  // WarpDrive's int(0.5 * grid_length)
      start_x_[i] = sx.empty() ? (runner ? 0 : centre) : static_cast<int32_t>(sx[i]);
      start_y_[i] = sy.empty() ? (runner ? 0 : centre) : static_cast<int32_t>(sy[i]);
    }
  }

  // WarpDrive's grid Tag starts every episode from the same cells.
  void Reset(Rng& /*rng*/, const StepOutput& out) {
    x_ = start_x_;
    y_ = start_y_;
    timestep_ = 0;
    Observe(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const int32_t* actions = static_cast<const int32_t*>(action);
    ++timestep_;
    int32_t tags = 0;
    for (int32_t i = 0; i < p_.num_agents; ++i) {
      penalty_[i] = TagGridMove(p_, x_.data(), y_.data(), i, actions[i]);
    }
    for (int32_t i = 0; i < p_.num_agents; ++i) tags += TagGridTags(p_, x_.data(), y_.data(), i);
    for (int32_t i = 0; i < p_.num_agents; ++i) {
      out.reward[i] = TagGridReward(p_, i, tags > 0, penalty_[i]);
    }
    Observe(out);
    *out.terminated = tags > 0;
    if (tags == 0 && timestep_ >= p_.episode_length) *out.truncated = true;
  }

  // [timestep, x of every agent, y of every agent].
  std::vector<double> GetState() const {
    std::vector<double> s{static_cast<double>(timestep_)};
    s.insert(s.end(), x_.begin(), x_.end());
    s.insert(s.end(), y_.begin(), y_.end());
    return s;
  }

  void SetState(const std::vector<double>& s) {
    const size_t n = p_.num_agents;
    if (s.size() != 1 + 2 * n) {
      throw ValueError("TagGridworld state must have " + std::to_string(1 + 2 * n) +
                       " values [timestep, x..., y...], got " + std::to_string(s.size()));
    }
    timestep_ = static_cast<int32_t>(s[0]);
    for (size_t i = 0; i < n; ++i) {
      x_[i] = static_cast<int32_t>(s[1 + i]);
      y_[i] = static_cast<int32_t>(s[1 + n + i]);
    }
  }

 private:
  void Observe(const StepOutput& out) const {
    float* obs = out[obs_];
    bool* active = out[active_];
    const int32_t size = p_.ObsSize();
    for (int32_t i = 0; i < p_.num_agents; ++i) {
      TagGridObservation(p_, x_.data(), y_.data(), timestep_, i, obs + i * size);
      active[i] = true;  // the runner never leaves: a tag ends the game
    }
  }

  TagGridParams p_;
  OutputField<float> obs_;
  OutputField<bool> active_;
  std::vector<int32_t> x_, y_, start_x_, start_y_;
  std::vector<float> penalty_;
  int32_t timestep_ = 0;
};

}  // namespace envpool_x
