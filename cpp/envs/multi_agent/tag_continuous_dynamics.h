// The dynamics of TagContinuous-v0 (tag_continuous.h), as per-agent functions
// over one env's structure-of-arrays state, split where WarpDrive's kernel
// synchronises its threads: move every agent, then observe, then reward
// (tags, runner exits), so that a GPU kernel with one thread per agent calls
// the same code. Arithmetic follows WarpDrive 2.7.1's numba kernel
// (tag_continuous_step_numba.py) as it runs under numba's simulator with
// NumPy 2: float32 state and float32 operations, cos / sin / sqrt in double
// rounded to float32, the direction's and the time's quotients in double.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/host_device.h"

namespace envpool_x {

constexpr double kTagTwoPi = 6.283185308;  // WarpDrive's constant, not 2 * pi

struct TagContinuousParams {
  int32_t num_taggers = 10;  // agents 0..num_taggers-1; the runners follow
  int32_t num_agents = 110;
  int32_t episode_length = 500;
  int32_t num_other_agents_observed = 10;
  float grid_length = 20.0f;
  float max_speed = 1.0f;
  float skill_level_tagger = 1.0f;
  float skill_level_runner = 1.0f;
  float edge_hit_penalty = 0.0f;
  float step_penalty_for_tagger = 0.0f;
  float step_reward_for_runner = 0.0f;
  float tag_reward_for_tagger = 10.0f;
  float tag_penalty_for_runner = -10.0f;
  float end_of_game_reward_for_runner = 1.0f;
  float distance_margin = 0.4f;  // tagging_distance * grid_length, in float32
  bool use_full_observation = false;
  bool runner_exits_game_after_tagged = true;
  int32_t num_acceleration_actions = 21;  // levels + the no-op 0
  int32_t num_turn_actions = 21;

  ENVPOOL_X_HD bool IsTagger(int32_t agent) const { return agent < num_taggers; }
  ENVPOOL_X_HD int32_t ObsSize() const {
    return use_full_observation ? 7 * (num_agents - 1) + 1 : 7 * num_other_agents_observed + 1;
  }
  ENVPOOL_X_HD float MaxSpeedOf(int32_t agent) const {
    return max_speed * (IsTagger(agent) ? skill_level_tagger : skill_level_runner);
  }
};

// WarpDrive's starting directions: 0, pi / 2, pi, 3 pi / 2 (index k of 4).
ENVPOOL_X_HD inline double TagAxisDirection(uint64_t k) {
  constexpr double kPi = 3.14159265358979323846;
  return k == 0 ? 0.0 : (k == 1 ? kPi / 2 : (k == 2 ? kPi : kPi * 3 / 2));
}

// One env's state, one entry per agent (still: 1 while in the game).
struct TagContinuousState {
  float* x;
  float* y;
  float* speed;
  float* direction;
  float* acceleration;
  int32_t* still;
};

// numpy.linspace(start, stop, num) of float32 ends (evaluated in float32, as
// NumPy does for float32 inputs) with a 0 (the no-op) put first: WarpDrive's
// acceleration and turn action tables. `out` has num + 1 entries.
inline void TagActionLevels(float start, float stop, int32_t num, float* out) {
  out[0] = 0.0f;
  if (num <= 0) return;
  const int32_t div = num - 1;
  const float delta = stop - start;
  const float step = div > 0 ? delta / static_cast<float>(div) : 0.0f;
  for (int32_t i = 0; i < num; ++i) {
    float v;
    if (div > 0 && step == 0.0f) {
      v = static_cast<float>(i) / static_cast<float>(div) * delta;
    } else if (div > 0) {
      v = static_cast<float>(i) * step;
    } else {
      v = static_cast<float>(i) * delta;
    }
    out[1 + i] = v + start;
  }
  if (num > 1) out[num] = stop;
}

// Python's float modulo (the result takes the divisor's sign), in float32.
ENVPOOL_X_HD inline float TagPyModF(float a, float b) {
  float m = std::fmod(a, b);
  if (m != 0.0f && ((b < 0.0f) != (m < 0.0f))) m += b;
  return m;
}

// Moves `agent` by its action (acceleration and turn indices); returns its
// edge penalty (edge_hit_penalty when it was clipped back onto the square).
ENVPOOL_X_HD inline float TagContinuousMove(const TagContinuousParams& p, TagContinuousState s,
                                            const float* acceleration_actions,
                                            const float* turn_actions, int32_t agent,
                                            const int32_t* action) {
  const int32_t i = agent;
  s.acceleration[i] += acceleration_actions[action[0]];
  const float turned =
      TagPyModF(s.direction[i] + turn_actions[action[1]], static_cast<float>(kTagTwoPi));
  s.direction[i] = s.still[i] ? turned : 0.0f;
  const float top = p.MaxSpeedOf(i);
  float speed = s.speed[i] + s.acceleration[i];
  speed = speed > 0.0f ? speed : 0.0f;
  speed = speed < top ? speed : top;
  s.speed[i] = s.still[i] ? speed : 0.0f;
  if (s.speed[i] <= 0.0f || s.speed[i] >= top) s.acceleration[i] = 0.0f;
  s.x[i] += s.speed[i] * static_cast<float>(std::cos(static_cast<double>(s.direction[i])));
  s.y[i] += s.speed[i] * static_cast<float>(std::sin(static_cast<double>(s.direction[i])));
  const float length = p.grid_length;
  if (s.x[i] < 0.0f || s.x[i] > length || s.y[i] < 0.0f || s.y[i] > length) {
    s.x[i] = s.x[i] < 0.0f ? 0.0f : (s.x[i] > length ? length : s.x[i]);
    s.y[i] = s.y[i] < 0.0f ? 0.0f : (s.y[i] > length ? length : s.y[i]);
    return p.edge_hit_penalty;
  }
  return 0.0f;
}

// Distance between agents a and b: float32 squares, sqrt in double, float32.
ENVPOOL_X_HD inline float TagDistance(const TagContinuousState& s, int32_t a, int32_t b) {
  const float dx = s.x[a] - s.x[b];
  const float dy = s.y[a] - s.y[b];
  return static_cast<float>(std::sqrt(static_cast<double>(dx * dx + dy * dy)));
}

// The 7 features of `other` seen from `agent`, at column `k` of `obs` whose
// feature blocks are `stride` wide.
ENVPOOL_X_HD inline void TagRelativeFeatures(const TagContinuousParams& p,
                                             const TagContinuousState& s, int32_t agent,
                                             int32_t other, int32_t k, int32_t stride, float* obs) {
  const float diagonal = static_cast<float>(1.4142135623730951) * p.grid_length;
  const float speed_scale = p.max_speed + 1e-10f;
  obs[0 * stride + k] = (s.x[other] - s.x[agent]) / diagonal;
  obs[1 * stride + k] = (s.y[other] - s.y[agent]) / diagonal;
  obs[2 * stride + k] = (s.speed[other] - s.speed[agent]) / speed_scale;
  obs[3 * stride + k] = (s.acceleration[other] - s.acceleration[agent]) / speed_scale;
  obs[4 * stride + k] =
      static_cast<float>(static_cast<double>(s.direction[other] - s.direction[agent]) / kTagTwoPi);
  obs[5 * stride + k] = p.IsTagger(other) ? 1.0f : 0.0f;
  obs[6 * stride + k] = static_cast<float>(s.still[other]);
}

// `agent`'s observation row (ObsSize floats). Full: the 7 features of every
// other agent (feature-major), then the time; an agent out of the game sees
// only the others' types and in-game flags. Partial: the same features of
// the num_other_agents_observed nearest agents still in the game (nearest
// first; zeros pad), the time; all zeros for an agent out of the game.
// `ids` / `dist` are scratch of num_agents - 1 entries for this agent.
ENVPOOL_X_HD inline void TagContinuousObservation(const TagContinuousParams& p,
                                                  const TagContinuousState& s, int32_t timestep,
                                                  int32_t agent, float* obs, int32_t* ids,
                                                  float* dist) {
  const int32_t n = p.num_agents;
  const int32_t size = p.ObsSize();
  for (int32_t k = 0; k < size; ++k) obs[k] = 0.0f;
  const float time = static_cast<float>(static_cast<double>(timestep) / p.episode_length);
  if (p.use_full_observation) {
    const int32_t stride = n - 1;
    int32_t k = 0;
    for (int32_t other = 0; other < n; ++other) {
      if (other == agent) continue;
      if (s.still[agent]) {
        TagRelativeFeatures(p, s, agent, other, k, stride, obs);
      } else {
        obs[5 * stride + k] = p.IsTagger(other) ? 1.0f : 0.0f;
        obs[6 * stride + k] = static_cast<float>(s.still[other]);
      }
      ++k;
    }
    if (s.still[agent]) obs[7 * stride] = time;
    return;
  }
  if (!s.still[agent]) return;
  const int32_t stride = p.num_other_agents_observed;
  int32_t valid = 0;
  for (int32_t other = 0; other < n; ++other) {
    if (other != agent && s.still[other]) ids[valid++] = other;
  }
  for (int32_t k = 0; k < valid; ++k) dist[k] = TagDistance(s, agent, ids[k]);
  // WarpDrive's partial selection sort (its tie order included).
  const int32_t seen = valid < stride ? valid : stride;
  for (int32_t i = 0; i < seen; ++i) {
    for (int32_t j = i + 1; j < valid; ++j) {
      if (dist[j] < dist[i]) {
        const float d = dist[i];
        dist[i] = dist[j];
        dist[j] = d;
        const int32_t t = ids[i];
        ids[i] = ids[j];
        ids[j] = t;
      }
    }
  }
  for (int32_t k = 0; k < seen; ++k) TagRelativeFeatures(p, s, agent, ids[k], k, stride, obs);
  obs[7 * stride] = time;
}

// The tagger that tags `runner` this step: the nearest tagger (the first
// of equals) within the tagging distance, or -1 (none, a tagger, or a
// runner out of the game when the phase began: `in_game`).
ENVPOOL_X_HD inline int32_t TagTaggedBy(const TagContinuousParams& p, const TagContinuousState& s,
                                        int32_t runner, bool in_game) {
  if (p.IsTagger(runner) || !in_game) return -1;
  float best = p.grid_length * static_cast<float>(1.4142135623730951);
  int32_t nearest = -1;
  for (int32_t t = 0; t < p.num_taggers; ++t) {
    const float d = TagDistance(s, runner, t);
    if (d < best) {
      best = d;
      nearest = t;
    }
  }
  return nearest >= 0 && best < p.distance_margin ? nearest : -1;
}

// A runner's own reward in the reward phase, added to its base reward
// (TagBaseReward): the tag penalty when tagged, and at the episode's last
// step the end-of-game reward. WarpDrive's kernel pays the latter to every
// runner that was in the game when the last step began, even one tagged in it.
ENVPOOL_X_HD inline float TagRunnerReward(const TagContinuousParams& p, int32_t timestep,
                                          bool in_game, bool tagged, float reward) {
  if (!in_game) return reward;
  if (tagged) reward += p.tag_penalty_for_runner;
  if (timestep == p.episode_length) reward += p.end_of_game_reward_for_runner;
  return reward;
}

// A tagger's reward after `tags` runners were tagged by it: the tag reward
// added once per tag (the order of the CPU env's additions; all addends are
// equal, so counting them first on a GPU gives the same float32 sum).
ENVPOOL_X_HD inline float TagTaggerReward(const TagContinuousParams& p, int32_t tags,
                                          float reward) {
  for (int32_t k = 0; k < tags; ++k) reward += p.tag_reward_for_tagger;
  return reward;
}

// An agent's own reward before tags: edge penalty and step reward, while in
// the game.
ENVPOOL_X_HD inline float TagBaseReward(const TagContinuousParams& p, const TagContinuousState& s,
                                        int32_t agent, float edge_penalty) {
  if (!s.still[agent]) return 0.0f;
  float r = 0.0f;
  r += edge_penalty;
  r += p.IsTagger(agent) ? p.step_penalty_for_tagger : p.step_reward_for_runner;
  return r;
}

}  // namespace envpool_x
