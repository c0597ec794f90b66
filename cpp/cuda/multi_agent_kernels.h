// WarpDrive's Tag envs for the CUDA stepper: adapters for the team body
// (agent_body.h), one team of threads per env (a block on a GPU), agents
// strided over its threads. Each step calls the per-agent dynamics of
// envs/multi_agent/ in the CPU env's phases, with a barrier where the CPU
// env finishes a loop over agents before starting the next: the tag count
// and the runners leaving are team sums (shared memory on a GPU), each
// tagger's tags a per-env counter. State lives in the env's slab; host-side
// setup is in kernel_params.h.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "core/random.h"
#include "cuda/kernel_types.h"
#include "envs/multi_agent/tag_continuous.h"
#include "envs/multi_agent/tag_continuous_dynamics.h"
#include "envs/multi_agent/tag_gridworld.h"

namespace envpool_x {
namespace cuda_pool {

// Threads per env on a GPU: one per agent, in whole warps, at most 256 (an
// env with more agents has each thread loop over several).
ENVPOOL_X_HD inline int32_t TeamThreads(int32_t agents) {
  const int32_t warps = (agents + 31) / 32 * 32;
  return warps < 256 ? warps : 256;
}

struct TagGridKernelParams {
  TagGridParams tag;
  const int32_t* start_x = nullptr;  // one cell per agent
  const int32_t* start_y = nullptr;
};

struct TagGridKernel {
  using CpuEnv = TagGridworld;
  using Params = TagGridKernelParams;
  static constexpr int kWords = 0;
  static constexpr bool kDiscrete = true;
  enum Field { kObs = 0, kActive };

  // Slab: timestep (int32, padded to 8), then x, y (int32 x n) and each
  // agent's wall penalty of the step (float32 x n).
  ENVPOOL_X_HD static int64_t SlabBytes(const Params& p) {
    return 8 + (12 * int64_t{p.tag.num_agents} + 7) / 8 * 8;
  }
  ENVPOOL_X_HD static int32_t NumAgents(const Params& p) { return p.tag.num_agents; }

  struct State {
    int32_t* timestep;
    int32_t* x;
    int32_t* y;
    float* penalty;
    int32_t time;  // this thread's copy of *timestep
  };

  ENVPOOL_X_HD static void Load(const EnvArrays& env, int64_t e, const Params& p, State& s) {
    uint8_t* slab = env.slab + e * env.slab_bytes;
    const int32_t n = p.tag.num_agents;
    s.timestep = reinterpret_cast<int32_t*>(slab);
    s.x = reinterpret_cast<int32_t*>(slab + 8);
    s.y = s.x + n;
    s.penalty = reinterpret_cast<float*>(s.y + n);
    s.time = *s.timestep;
  }
  ENVPOOL_X_HD static void Store(const State& s, const EnvArrays&, int64_t, const Params&) {
    *s.timestep = s.time;
  }

  ENVPOOL_X_HD static bool ActionValid(const LaunchArgs& a, int64_t k, const Params& p, int32_t i) {
    const int64_t v = AgentActionOf(a, k, p, i);
    return v >= 0 && v < 5;
  }

  template <typename Team>
  ENVPOOL_X_HD static void Observe(const State& s, const Params& p, const RowOut& row,
                                   const Team& team) {
    float* obs = row.Field<float>(kObs);
    bool* active = row.Field<bool>(kActive);
    const int32_t size = p.tag.ObsSize();
    for (int32_t i = team.tid; i < p.tag.num_agents; i += team.size) {
      TagGridObservation(p.tag, s.x, s.y, s.time, i, obs + static_cast<int64_t>(i) * size);
      active[i] = true;  // the runner never leaves: a tag ends the game
    }
  }

  // WarpDrive's grid Tag starts every episode from the same cells.
  template <typename Team>
  ENVPOOL_X_HD static void Reset(Rng&, State& s, const Params& p, const RowOut& row,
                                 const Team& team) {
    for (int32_t i = team.tid; i < p.tag.num_agents; i += team.size) {
      s.x[i] = p.start_x[i];
      s.y[i] = p.start_y[i];
    }
    s.time = 0;
    team.Sync();
    Observe(s, p, row, team);
  }

  template <typename Team>
  ENVPOOL_X_HD static void Step(State& s, const LaunchArgs& a, int64_t k, const Params& p,
                                const RowOut& row, float* reward, bool* terminated, bool* truncated,
                                const Team& team) {
    const int32_t n = p.tag.num_agents;
    ++s.time;
    for (int32_t i = team.tid; i < n; i += team.size) {
      s.penalty[i] =
          TagGridMove(p.tag, s.x, s.y, i, static_cast<int32_t>(AgentActionOf(a, k, p, i)));
    }
    team.Sync();
    int32_t tags = 0;
    for (int32_t i = team.tid; i < n; i += team.size) tags += TagGridTags(p.tag, s.x, s.y, i);
    tags = team.Sum(tags);
    for (int32_t i = team.tid; i < n; i += team.size) {
      reward[i] = TagGridReward(p.tag, i, tags > 0, s.penalty[i]);
    }
    Observe(s, p, row, team);
    *terminated = tags > 0;
    *truncated = tags == 0 && s.time >= p.tag.episode_length;
  }

 private:
  ENVPOOL_X_HD static int64_t AgentActionOf(const LaunchArgs& a, int64_t k, const Params& p,
                                            int32_t i) {
    const int64_t at = k * p.tag.num_agents + i;
    return a.action_type == ActionType::kInt64 ? static_cast<const int64_t*>(a.action)[at]
                                               : static_cast<const int32_t*>(a.action)[at];
  }
};

struct TagContinuousKernelParams {
  TagContinuousParams tag;
  int32_t threads = 32;                         // TeamThreads: scratch slots per env
  const float* acceleration_actions = nullptr;  // num_acceleration_actions levels
  const float* turn_actions = nullptr;
  const float* start = nullptr;  // x, y, direction per agent (3n); nullptr: random
  bool random_x = true, random_y = true, random_direction = true;
};

struct TagContinuousKernel {
  using CpuEnv = TagContinuous;
  using Params = TagContinuousKernelParams;
  static constexpr int kWords = 0;
  static constexpr bool kDiscrete = true;
  enum Field { kObs = 0, kActive };

  // Slab: timestep, runners left (int32); x, y, speed, direction,
  // acceleration, penalty (float32 x n); still, tags per tagger (int32 x n);
  // partial observation: per thread slot, n ids (int32) and n distances.
  ENVPOOL_X_HD static int64_t ScratchBytes(const Params& p) {
    return p.tag.use_full_observation ? 0 : 8 * int64_t{p.threads} * p.tag.num_agents;
  }
  ENVPOOL_X_HD static int64_t SlabBytes(const Params& p) {
    return 8 + 32 * int64_t{p.tag.num_agents} + ScratchBytes(p);
  }
  ENVPOOL_X_HD static int32_t NumAgents(const Params& p) { return p.tag.num_agents; }

  struct State {
    int32_t* head;  // timestep, runners left
    TagContinuousState s;
    float* penalty;
    int32_t* tags;
    int32_t* scratch;
    int32_t time;  // this thread's copies of head[0], head[1]
    int32_t runners;
  };

  ENVPOOL_X_HD static void Load(const EnvArrays& env, int64_t e, const Params& p, State& s) {
    uint8_t* slab = env.slab + e * env.slab_bytes;
    const int32_t n = p.tag.num_agents;
    s.head = reinterpret_cast<int32_t*>(slab);
    float* f = reinterpret_cast<float*>(slab + 8);
    s.penalty = f + 5 * n;
    int32_t* i = reinterpret_cast<int32_t*>(f + 6 * n);
    s.s = TagContinuousState{f, f + n, f + 2 * n, f + 3 * n, f + 4 * n, i};
    s.tags = i + n;
    s.scratch = i + 2 * n;
    s.time = s.head[0];
    s.runners = s.head[1];
  }
  ENVPOOL_X_HD static void Store(const State& s, const EnvArrays&, int64_t, const Params&) {
    s.head[0] = s.time;
    s.head[1] = s.runners;
  }

  ENVPOOL_X_HD static bool ActionValid(const LaunchArgs& a, int64_t k, const Params& p, int32_t i) {
    int32_t act[2];
    return LoadAction(a, k, p, i, act);
  }

  template <typename Team>
  ENVPOOL_X_HD static void Observe(const State& s, const Params& p, const RowOut& row,
                                   const Team& team) {
    float* obs = row.Field<float>(kObs);
    bool* active = row.Field<bool>(kActive);
    const int32_t n = p.tag.num_agents;
    const int32_t size = p.tag.ObsSize();
    int32_t* ids = s.scratch + 2 * int64_t{team.tid} * n;
    float* dist = reinterpret_cast<float*>(ids + n);
    for (int32_t i = team.tid; i < n; i += team.size) {
      TagContinuousObservation(p.tag, s.s, s.time, i, obs + static_cast<int64_t>(i) * size, ids,
                               dist);
      active[i] = s.s.still[i] != 0;
    }
  }

  // Positions and directions drawn in the CPU env's order (x, y, direction
  // per agent, from one stream): by the lead thread alone.
  template <typename Team>
  ENVPOOL_X_HD static void Reset(Rng& rng, State& s, const Params& p, const RowOut& row,
                                 const Team& team) {
    const int32_t n = p.tag.num_agents;
    if (team.tid == 0) {
      const double length = p.tag.grid_length;
      for (int32_t i = 0; i < n; ++i) {
        s.s.x[i] = static_cast<float>(p.random_x ? length * rng.Uniform() : p.start[i]);
        s.s.y[i] = static_cast<float>(p.random_y ? length * rng.Uniform() : p.start[n + i]);
        s.s.direction[i] = static_cast<float>(
            p.random_direction ? TagAxisDirection(rng.UniformInt(4)) : p.start[2 * n + i]);
        s.s.speed[i] = 0.0f;
        s.s.acceleration[i] = 0.0f;
        s.s.still[i] = 1;
      }
    }
    s.time = 0;
    s.runners = n - p.tag.num_taggers;
    team.Sync();
    Observe(s, p, row, team);
  }

  template <typename Team>
  ENVPOOL_X_HD static void Step(State& s, const LaunchArgs& a, int64_t k, const Params& p,
                                const RowOut& row, float* reward, bool* terminated, bool* truncated,
                                const Team& team) {
    const int32_t n = p.tag.num_agents;
    const int32_t taggers = p.tag.num_taggers;
    ++s.time;
    for (int32_t i = team.tid; i < n; i += team.size) {
      int32_t act[2];
      LoadAction(a, k, p, i, act);
      s.penalty[i] = TagContinuousMove(p.tag, s.s, p.acceleration_actions, p.turn_actions, i, act);
    }
    team.Sync();
    Observe(s, p, row, team);
    for (int32_t i = team.tid; i < n; i += team.size) {
      reward[i] = TagBaseReward(p.tag, s.s, i, s.penalty[i]);
      if (i < taggers) s.tags[i] = 0;
    }
    team.Sync();
    // Each runner reads only its own in-game flag and the taggers' places.
    int32_t left = 0;
    for (int32_t i = taggers + team.tid; i < n; i += team.size) {
      const bool in_game = s.s.still[i] != 0;
      const int32_t by = TagTaggedBy(p.tag, s.s, i, in_game);
      reward[i] = TagRunnerReward(p.tag, s.time, in_game, by >= 0, reward[i]);
      if (by >= 0) {
        team.Add(s.tags + by, 1);
        if (p.tag.runner_exits_game_after_tagged) {
          s.s.still[i] = 0;
          ++left;
        }
      }
    }
    left = team.Sum(left);  // a barrier: every tag is counted
    bool* active = row.Field<bool>(kActive);
    for (int32_t i = team.tid; i < n; i += team.size) {
      if (i < taggers) reward[i] = TagTaggerReward(p.tag, s.tags[i], reward[i]);
      active[i] = s.s.still[i] != 0;
    }
    s.runners -= left;
    *terminated = s.runners == 0;
    *truncated = s.runners > 0 && s.time >= p.tag.episode_length;
  }

 private:
  // Agent i's (acceleration, turn) in row k; false when out of range.
  ENVPOOL_X_HD static bool LoadAction(const LaunchArgs& a, int64_t k, const Params& p, int32_t i,
                                      int32_t* act) {
    bool ok = true;
    for (int32_t c = 0; c < 2; ++c) {
      const int64_t at = (k * p.tag.num_agents + i) * 2 + c;
      const int64_t v = a.action_type == ActionType::kInt64
                            ? static_cast<const int64_t*>(a.action)[at]
                            : static_cast<const int32_t*>(a.action)[at];
      const int64_t top = c == 0 ? p.tag.num_acceleration_actions : p.tag.num_turn_actions;
      ok = ok && v >= 0 && v < top;
      act[c] = ok ? static_cast<int32_t>(v) : 0;
    }
    return ok;
  }
};

// Which adapters run on the team body (agent_body.h) instead of RunRow.
template <typename K>
struct IsAgentKernel {
  static constexpr bool value = false;
};
template <>
struct IsAgentKernel<TagGridKernel> {
  static constexpr bool value = true;
};
template <>
struct IsAgentKernel<TagContinuousKernel> {
  static constexpr bool value = true;
};

}  // namespace cuda_pool
}  // namespace envpool_x
