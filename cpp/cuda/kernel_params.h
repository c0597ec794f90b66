// Host side of the CUDA stepper's adapters: each env's kernel Params built
// from its config, as the CPU env class builds its own, and for the envs over
// a shared instance (MaxCut's graphs, TSP's fixed cities) that instance
// uploaded once to device memory the pool owns. ParamsOf<CpuEnv>::Make is
// what CudaPool calls; nothing here runs on the device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/errors.h"
#include "core/spec.h"
#include "cuda/env_kinds.h"
#include "envs/combinatorial/graph_registry.h"

namespace envpool_x {
namespace cuda_pool {

// What building Params may use. upload(host, bytes) copies host data into
// device memory owned (and freed) by the pool, and returns the device pointer.
struct ParamContext {
  const Config& cfg;
  int64_t num_envs;
  int32_t max_episode_steps;
  std::function<void*(const void*, size_t)> upload;

  template <typename T>
  const T* Upload(const std::vector<T>& v) const {
    return static_cast<const T*>(upload(v.data(), sizeof(T) * v.size()));
  }
};

template <typename Env>
struct ParamsOf;

// Classic control: the CPU env's own reading of its config, so that every
// declared constant (core/params.h) reaches the kernel as it reaches the env.
template <>
struct ParamsOf<CartPole> {
  static CartPoleKernel::Params Make(const ParamContext& c) {
    return CartPole::ParamsFromConfig(c.cfg);
  }
};
template <>
struct ParamsOf<Pendulum> {
  static PendulumKernel::Params Make(const ParamContext& c) {
    return Pendulum::ParamsFromConfig(c.cfg);
  }
};
template <>
struct ParamsOf<MountainCar> {
  static MountainCarKernel::Params Make(const ParamContext& c) {
    return MountainCar::ParamsFromConfig(c.cfg);
  }
};
template <>
struct ParamsOf<MountainCarContinuous> {
  static MountainCarContinuousKernel::Params Make(const ParamContext& c) {
    return MountainCarContinuous::ParamsFromConfig(c.cfg);
  }
};
template <>
struct ParamsOf<Acrobot> {
  static AcrobotKernel::Params Make(const ParamContext& c) {
    return Acrobot::ParamsFromConfig(c.cfg);
  }
};

// The pool's graphs (one, or one per env as the CPU pool gives env i graph
// i) concatenated into one CSR array set on the device.
template <>
struct ParamsOf<MaxCut> {
  static MaxCutKernelParams Make(const ParamContext& c) {
    const std::vector<std::string>& keys = c.cfg.Strings("graph_keys");
    if (keys.empty()) {
      throw ValueError("MaxCut needs a graph: make it through envpool_x with graph=...");
    }
    if (keys.size() > 1 && static_cast<int64_t>(keys.size()) < c.num_envs) {
      throw ValueError("MaxCut: " + std::to_string(keys.size()) + " graphs for a pool of " +
                       std::to_string(c.num_envs) + " envs");
    }
    auto& registry = combinatorial::GraphRegistry::Get();
    const size_t graphs = keys.size() > 1 ? static_cast<size_t>(c.num_envs) : 1;
    std::vector<std::shared_ptr<const combinatorial::Graph>> gs;
    for (size_t i = 0; i < graphs; ++i) gs.push_back(registry.Load(keys[i]));
    const int32_t n = gs[0]->n;
    std::vector<int64_t> offset;
    std::vector<int32_t> nbr;
    std::vector<int64_t> weight;
    offset.reserve(graphs * n + 1);
    for (const auto& g : gs) {
      if (g->n != n) throw ValueError("MaxCut graphs of one pool need the same node count");
      const int64_t base = static_cast<int64_t>(nbr.size());
      for (int32_t v = 0; v < n; ++v) offset.push_back(base + g->offset[v]);
      nbr.insert(nbr.end(), g->nbr.begin(), g->nbr.end());
      weight.insert(weight.end(), g->weight.begin(), g->weight.end());
    }
    offset.push_back(static_cast<int64_t>(nbr.size()));
    MaxCutKernelParams p;
    p.n = n;
    p.max_episode_steps = c.max_episode_steps;
    p.zeros = c.cfg.String("init") == "zeros";
    p.graph_per_env = graphs > 1;
    p.offset = c.Upload(offset);
    p.nbr = c.Upload(nbr);
    p.weight = c.Upload(weight);
    return p;
  }
};

template <>
struct ParamsOf<Tsp> {
  static TspKernelParams Make(const ParamContext& c) {
    TspKernelParams p;
    p.n = static_cast<int32_t>(Tsp::NumCities(c.cfg));
    p.max_episode_steps = c.max_episode_steps;
    p.two_opt = c.cfg.String("mode") == "2opt";
    p.rounded = c.cfg.Bool("round_distances");
    const std::vector<double>& xy = c.cfg.Doubles("coord_values");
    if (!xy.empty()) p.xy = c.Upload(xy);
    return p;
  }
};

// The start cells (WarpDrive's defaults: taggers at the centre, the runner
// at the origin, as the CPU env's constructor sets them).
template <>
struct ParamsOf<TagGridworld> {
  static TagGridKernelParams Make(const ParamContext& c) {
    TagGridKernelParams p;
    p.tag = TagGridworld::Params(c.cfg);
    const std::vector<double>& sx = c.cfg.Doubles("starting_location_x");
    const std::vector<double>& sy = c.cfg.Doubles("starting_location_y");
    const int32_t n = p.tag.num_agents;
    std::vector<int32_t> x(n), y(n);
    for (int32_t i = 0; i < n; ++i) {
      const int32_t centre = i == n - 1 ? 0 : p.tag.grid_length / 2;
      x[i] = sx.empty() ? centre : static_cast<int32_t>(sx[i]);
      y[i] = sy.empty() ? centre : static_cast<int32_t>(sy[i]);
    }
    p.start_x = c.Upload(x);
    p.start_y = c.Upload(y);
    return p;
  }
};

// The action tables as the CPU env builds them, and any fixed starts.
template <>
struct ParamsOf<TagContinuous> {
  static TagContinuousKernelParams Make(const ParamContext& c) {
    TagContinuousKernelParams p;
    p.tag = TagContinuous::Params(c.cfg);
    const int32_t n = p.tag.num_agents;
    p.threads = TeamThreads(n);
    std::vector<float> acc(p.tag.num_acceleration_actions), turn(p.tag.num_turn_actions);
    TagActionLevels(static_cast<float>(c.cfg.Double("min_acceleration")),
                    static_cast<float>(c.cfg.Double("max_acceleration")),
                    p.tag.num_acceleration_actions - 1, acc.data());
    TagActionLevels(static_cast<float>(c.cfg.Double("min_turn")),
                    static_cast<float>(c.cfg.Double("max_turn")), p.tag.num_turn_actions - 1,
                    turn.data());
    p.acceleration_actions = c.Upload(acc);
    p.turn_actions = c.Upload(turn);
    // The CPU env keeps the starts as float64 and rounds them at each reset:
    // the same float32 values.
    std::vector<float> start(3 * static_cast<size_t>(n), 0.0f);
    const char* keys[3] = {"starting_location_x", "starting_location_y", "starting_directions"};
    bool* random[3] = {&p.random_x, &p.random_y, &p.random_direction};
    for (int j = 0; j < 3; ++j) {
      const std::vector<double>& v = c.cfg.Doubles(keys[j]);
      *random[j] = v.empty();
      for (size_t i = 0; i < v.size(); ++i) start[j * n + i] = static_cast<float>(v[i]);
    }
    p.start = c.Upload(start);
    return p;
  }
};

// What else a valid discrete action must be, beyond its range (for the
// error message of a recorded bad action); nothing for most envs.
template <typename P>
std::string ActionRule(const P&) {
  return "";
}
inline std::string ActionRule(const TspKernelParams& p) {
  return p.two_opt ? "" : ", naming a city not yet visited (action_mask 1)";
}

// What a valid action is, for the message of a bad action a launch recorded
// (`discrete`, `num_actions` and `rule` are the adapter's).
inline std::string ValidActions(const ActionSpec& action, bool discrete, int64_t num_actions,
                                const std::string& rule) {
  if (action.num_agents > 1) {
    if (action.nvec.empty()) return "integers in [0, " + std::to_string(action.n) + ")";
    std::string want = "rows of integers, element j in [0, nvec[j]) with nvec = [";
    for (size_t j = 0; j < action.nvec.size(); ++j) {
      want += (j ? ", " : "") + std::to_string(action.nvec[j]);
    }
    return want + "]";
  }
  return discrete ? "integers in [0, " + std::to_string(num_actions) + ")" + rule
                  : std::string("finite numbers");
}

// Throws what the error words `e` of a launch record (CudaPool::CheckErrors;
// e[0] != 0): bits, first env, first agent.
inline void ThrowLaunchErrors(const uint32_t* e, const ActionSpec& action, bool discrete,
                              int64_t num_actions, const std::string& rule) {
  const std::string env = std::to_string(e[1]);
  if (e[0] & kErrBadAction) {
    const std::string want = ValidActions(action, discrete, num_actions, rule);
    if (action.num_agents > 1) {
      throw ValueError("env " + env + ", agent " + std::to_string(e[2]) +
                       " got an invalid action in a step since the last check (actions must "
                       "be " +
                       want +
                       "); the env's episode was ended (truncated) and it resets on its next "
                       "step");
    }
    throw ValueError("env " + env +
                     " got an invalid action in a step since the last check (actions must "
                     "be " +
                     want + "); its episode was ended (truncated) and it resets on its next step");
  }
  throw StateError("env " + env +
                   " was stepped after its episode ended with autoreset_mode='disabled' (the "
                   "step was ignored); reset it first (reset(env_id=...) or "
                   "options={'reset_mask': mask})");
}

// Bytes a pool keeps for any adapter's Params (16-byte aligned).
constexpr size_t kParamsBytes = 256;

// Writes the Params of `kind` into `params` (kParamsBytes), with its slab
// bytes per env and its action rule: what a pool is built with, and what
// its memory sizes are computed from.
inline void MakeKindParams(EnvKind kind, const ParamContext& ctx, unsigned char* params,
                           int64_t* slab_bytes, std::string* action_rule) {
  VisitKind(kind, [&](auto tag) {
    using K = typename decltype(tag)::Kernel;
    static_assert(std::is_trivially_copyable_v<typename K::Params>);
    static_assert(sizeof(typename K::Params) <= kParamsBytes);
    typename K::Params p = ParamsOf<typename K::CpuEnv>::Make(ctx);
    std::memcpy(params, &p, sizeof(p));
    *slab_bytes = K::SlabBytes(p);
    *action_rule = ActionRule(p);
  });
}

}  // namespace cuda_pool
}  // namespace envpool_x
