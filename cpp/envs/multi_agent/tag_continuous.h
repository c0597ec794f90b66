// TagContinuous-v0: WarpDrive's continuous Tag (example_envs/tag_continuous,
// 2.7.1). num_taggers taggers (agents 0..T-1) and num_runners runners move on
// the square [0, grid_length]^2 by choosing an acceleration level and a turn
// level each step. A runner within tagging_distance * grid_length of its
// nearest tagger is tagged (and leaves the game with
// runner_exits_game_after_tagged). The episode ends when no runner is left
// (terminated) or after episode_length steps (truncated). Dynamics:
// tag_continuous_dynamics.h.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "envs/multi_agent/tag_continuous_dynamics.h"

namespace envpool_x {

class TagContinuous {
 public:
  static constexpr const char* kName = "TagContinuous";
  static constexpr bool kCheap = false;

  // WarpDrive's keys; defaults from its run_configs/tag_continuous.yaml.
  // Empty starting lists: uniform positions and one of the four axis
  // directions per agent, drawn from the env's seed at every reset.
  static Config DefaultConfig() {
    return Config{{"num_taggers", int64_t{10}},
                  {"num_runners", int64_t{100}},
                  {"grid_length", 20.0},
                  {"episode_length", int64_t{500}},
                  {"max_acceleration", 0.1},
                  {"min_acceleration", -0.1},
                  {"max_turn", 2.356},
                  {"min_turn", -2.356},
                  {"num_acceleration_levels", int64_t{20}},
                  {"num_turn_levels", int64_t{20}},
                  {"skill_level_runner", 1.0},
                  {"skill_level_tagger", 1.0},
                  {"max_speed", 1.0},
                  {"use_full_observation", false},
                  {"runner_exits_game_after_tagged", true},
                  {"num_other_agents_observed", int64_t{10}},
                  {"tag_reward_for_tagger", 10.0},
                  {"tag_penalty_for_runner", -10.0},
                  {"step_penalty_for_tagger", 0.0},
                  {"step_reward_for_runner", 0.0},
                  {"edge_hit_penalty", 0.0},
                  {"end_of_game_reward_for_runner", 1.0},
                  {"tagging_distance", 0.02},
                  {"starting_location_x", std::vector<double>{}},
                  {"starting_location_y", std::vector<double>{}},
                  {"starting_directions", std::vector<double>{}}};
  }

  // The config checked as WarpDrive's constructor asserts it.
  static TagContinuousParams Params(const Config& c) {
    auto require = [](bool ok, const std::string& what) {
      if (!ok) throw ValueError("TagContinuous " + what);
    };
    const int64_t taggers = c.Int("num_taggers");
    const int64_t runners = c.Int("num_runners");
    require(taggers >= 1 && runners >= 1 && taggers + runners <= 65536,
            "needs num_taggers >= 1, num_runners >= 1 and at most 65536 agents, got " +
                std::to_string(taggers) + " and " + std::to_string(runners));
    require(c.Int("episode_length") >= 1, "episode_length must be positive");
    require(c.Double("grid_length") > 0, "grid_length must be positive");
    require(c.Int("num_acceleration_levels") >= 0 && c.Int("num_turn_levels") >= 0,
            "num_acceleration_levels and num_turn_levels must be >= 0");
    require(c.Int("num_other_agents_observed") >= 0 &&
                c.Int("num_other_agents_observed") <= taggers + runners,
            "num_other_agents_observed must be in [0, num_taggers + num_runners]");
    require(c.Double("tagging_distance") >= 0 && c.Double("tagging_distance") <= 1,
            "tagging_distance must be in [0, 1]");
    require(c.Double("edge_hit_penalty") <= 0, "edge_hit_penalty must be <= 0");
    require(c.Double("tag_reward_for_tagger") >= 0, "tag_reward_for_tagger must be >= 0");
    require(c.Double("step_penalty_for_tagger") <= 0, "step_penalty_for_tagger must be <= 0");
    require(c.Double("tag_penalty_for_runner") <= 0, "tag_penalty_for_runner must be <= 0");
    require(c.Double("step_reward_for_runner") >= 0, "step_reward_for_runner must be >= 0");
    require(c.Double("end_of_game_reward_for_runner") >= 0,
            "end_of_game_reward_for_runner must be >= 0");
    TagContinuousParams p;
    p.num_taggers = static_cast<int32_t>(taggers);
    p.num_agents = static_cast<int32_t>(taggers + runners);
    p.episode_length = static_cast<int32_t>(c.Int("episode_length"));
    p.num_other_agents_observed = static_cast<int32_t>(c.Int("num_other_agents_observed"));
    auto f = [&c](const char* key) { return static_cast<float>(c.Double(key)); };
    p.grid_length = f("grid_length");
    p.max_speed = f("max_speed");
    p.skill_level_tagger = f("skill_level_tagger");
    p.skill_level_runner = f("skill_level_runner");
    p.edge_hit_penalty = f("edge_hit_penalty");
    p.step_penalty_for_tagger = f("step_penalty_for_tagger");
    p.step_reward_for_runner = f("step_reward_for_runner");
    p.tag_reward_for_tagger = f("tag_reward_for_tagger");
    p.tag_penalty_for_runner = f("tag_penalty_for_runner");
    p.end_of_game_reward_for_runner = f("end_of_game_reward_for_runner");
    // NumPy 2 multiplies a Python float by a float32 in float32.
    p.distance_margin = f("tagging_distance") * p.grid_length;
    p.use_full_observation = c.Bool("use_full_observation");
    p.runner_exits_game_after_tagged = c.Bool("runner_exits_game_after_tagged");
    p.num_acceleration_actions = static_cast<int32_t>(c.Int("num_acceleration_levels") + 1);
    p.num_turn_actions = static_cast<int32_t>(c.Int("num_turn_levels") + 1);
    for (const char* key : {"starting_location_x", "starting_location_y", "starting_directions"}) {
      const size_t got = c.Doubles(key).size();
      require(got == 0 || got == static_cast<size_t>(p.num_agents),
              std::string(key) + " must list one value per agent (" + std::to_string(p.num_agents) +
                  "), got " + std::to_string(got));
    }
    return p;
  }

  static EnvSpec Spec(const Config& config) {
    const TagContinuousParams p = Params(config);
    EnvSpec spec;
    spec.obs.push_back(ArraySpec{"obs", DType::kFloat32, {p.num_agents, p.ObsSize()}, {}, {}});
    spec.info.push_back(ArraySpec{"active", DType::kBool, {p.num_agents}, {}, {}});
    spec.action.discrete = true;
    spec.action.nvec = {p.num_acceleration_actions, p.num_turn_actions};
    spec.action.num_agents = p.num_agents;
    return spec;
  }

  TagContinuous(const Config& config, const EnvSpec& spec)
      : p_(Params(config)),
        obs_(ObsField<float>(spec, "obs")),
        active_(InfoField<bool>(spec, "active")),
        start_x_(config.Doubles("starting_location_x")),
        start_y_(config.Doubles("starting_location_y")),
        start_direction_(config.Doubles("starting_directions")),
        acceleration_actions_(p_.num_acceleration_actions),
        turn_actions_(p_.num_turn_actions),
        floats_(5 * p_.num_agents),
        still_(p_.num_agents),
        penalty_(p_.num_agents),
        ids_(p_.num_agents),
        dist_(p_.num_agents) {
    TagActionLevels(static_cast<float>(config.Double("min_acceleration")),
                    static_cast<float>(config.Double("max_acceleration")),
                    p_.num_acceleration_actions - 1, acceleration_actions_.data());
    TagActionLevels(static_cast<float>(config.Double("min_turn")),
                    static_cast<float>(config.Double("max_turn")), p_.num_turn_actions - 1,
                    turn_actions_.data());
  }

  void Reset(Rng& rng, const StepOutput& out) {
    const TagContinuousState s = State();
    const double length = p_.grid_length;
    for (int32_t i = 0; i < p_.num_agents; ++i) {
      s.x[i] = static_cast<float>(start_x_.empty() ? length * rng.Uniform() : start_x_[i]);
      s.y[i] = static_cast<float>(start_y_.empty() ? length * rng.Uniform() : start_y_[i]);
      s.direction[i] = static_cast<float>(
          start_direction_.empty() ? TagAxisDirection(rng.UniformInt(4)) : start_direction_[i]);
      s.speed[i] = 0.0f;
      s.acceleration[i] = 0.0f;
      s.still[i] = 1;
    }
    timestep_ = 0;
    num_runners_ = p_.num_agents - p_.num_taggers;
    Observe(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const int32_t* actions = static_cast<const int32_t*>(action);
    const TagContinuousState s = State();
    ++timestep_;
    for (int32_t i = 0; i < p_.num_agents; ++i) {
      penalty_[i] = TagContinuousMove(p_, s, acceleration_actions_.data(), turn_actions_.data(), i,
                                      actions + 2 * i);
    }
    Observe(out);
    float* reward = out.reward;
    for (int32_t i = 0; i < p_.num_agents; ++i) reward[i] = TagBaseReward(p_, s, i, penalty_[i]);
    // Each runner decides from its own in-game flag at the step's start;
    // ids_ counts each tagger's tags.
    for (int32_t i = 0; i < p_.num_taggers; ++i) ids_[i] = 0;
    for (int32_t i = p_.num_taggers; i < p_.num_agents; ++i) {
      const bool in_game = still_[i] != 0;
      const int32_t by = TagTaggedBy(p_, s, i, in_game);
      reward[i] = TagRunnerReward(p_, timestep_, in_game, by >= 0, reward[i]);
      if (by >= 0) {
        ++ids_[by];
        if (p_.runner_exits_game_after_tagged) {
          still_[i] = 0;
          --num_runners_;
        }
      }
    }
    for (int32_t i = 0; i < p_.num_taggers; ++i)
      reward[i] = TagTaggerReward(p_, ids_[i], reward[i]);
    bool* active = out[active_];
    for (int32_t i = 0; i < p_.num_agents; ++i) active[i] = still_[i] != 0;
    *out.terminated = num_runners_ == 0;
    if (num_runners_ > 0 && timestep_ >= p_.episode_length) *out.truncated = true;
  }

  // [timestep, x..., y..., speed..., direction..., acceleration..., still...]
  // (one value per agent in each block).
  std::vector<double> GetState() const {
    std::vector<double> s{static_cast<double>(timestep_)};
    s.insert(s.end(), floats_.begin(), floats_.end());
    s.insert(s.end(), still_.begin(), still_.end());
    return s;
  }

  void SetState(const std::vector<double>& s) {
    const size_t n = p_.num_agents;
    if (s.size() != 1 + 6 * n) {
      throw ValueError("TagContinuous state must have " + std::to_string(1 + 6 * n) +
                       " values [timestep, x, y, speed, direction, acceleration, still (one per "
                       "agent each)], got " +
                       std::to_string(s.size()));
    }
    timestep_ = static_cast<int32_t>(s[0]);
    for (size_t k = 0; k < 5 * n; ++k) floats_[k] = static_cast<float>(s[1 + k]);
    num_runners_ = 0;
    for (size_t i = 0; i < n; ++i) {
      still_[i] = s[1 + 5 * n + i] != 0.0 ? 1 : 0;
      if (static_cast<int32_t>(i) >= p_.num_taggers) num_runners_ += still_[i];
    }
  }

 private:
  TagContinuousState State() {
    float* f = floats_.data();
    const int32_t n = p_.num_agents;
    return TagContinuousState{f, f + n, f + 2 * n, f + 3 * n, f + 4 * n, still_.data()};
  }

  void Observe(const StepOutput& out) {
    const TagContinuousState s = State();
    float* obs = out[obs_];
    bool* active = out[active_];
    const int32_t size = p_.ObsSize();
    for (int32_t i = 0; i < p_.num_agents; ++i) {
      TagContinuousObservation(p_, s, timestep_, i, obs + static_cast<int64_t>(i) * size,
                               ids_.data(), dist_.data());
      active[i] = still_[i] != 0;
    }
  }

  TagContinuousParams p_;
  OutputField<float> obs_;
  OutputField<bool> active_;
  std::vector<double> start_x_, start_y_, start_direction_;
  std::vector<float> acceleration_actions_, turn_actions_;
  std::vector<float> floats_;  // x, y, speed, direction, acceleration: n each
  std::vector<int32_t> still_;
  std::vector<float> penalty_;
  std::vector<int32_t> ids_;  // observation scratch; tags per tagger
  std::vector<float> dist_;
  int32_t timestep_ = 0;
  int32_t num_runners_ = 0;
};

}  // namespace envpool_x
