// The raw single-thread loop of one env type: the baseline the benchmarks
// measure pools against (no pool, no threads, no Python in the loop).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "core/env.h"
#include "core/random.h"
#include "core/spec.h"

namespace envpool_x {

// Actions for the raw loops: kRawLoopActions pre-drawn uniform choices of
// [0, n), cycled. Uniform like the benchmarks' pools, because a cheap fixed
// pattern does less work (Pong's paddle never moves under NOOP/FIRE, so fewer
// screen rows change and the preprocessing skips them) and would flatter the
// baseline the pools are measured against.
constexpr int kRawLoopActions = 64;
inline std::vector<int32_t> RawLoopDiscreteActions(int64_t n, uint64_t seed) {
  Rng draw(seed ^ 0x2545f4914f6cdd1dULL);
  std::vector<int32_t> out(kRawLoopActions, 0);
  for (int32_t& a : out) a = static_cast<int32_t>(draw.UniformInt(std::max<int64_t>(n, 1)));
  return out;
}

// The same for an action of several values (agents, MultiDiscrete):
// kRawLoopActions rows of a.NumElements() values, value j in [0, Categories(j)).
inline std::vector<int32_t> RawLoopDiscreteRows(const ActionSpec& a, uint64_t seed) {
  if (a.NumElements() == 1) return RawLoopDiscreteActions(a.n, seed);
  Rng draw(seed ^ 0x2545f4914f6cdd1dULL);
  const int64_t m = a.NumElements();
  std::vector<int32_t> out(kRawLoopActions * m, 0);
  for (int64_t i = 0; i < kRawLoopActions * m; ++i) {
    out[i] = static_cast<int32_t>(draw.UniformInt(std::max<int64_t>(a.Categories(i % m), 1)));
  }
  return out;
}

// Which of the kRawLoopActions pre-drawn actions each step of a raw loop over
// `num_envs` envs takes: env i of round r takes action
// (r * (num_envs + stride) + i) mod kRawLoopActions, the stride making that
// step odd so that every env cycles through all the actions. Cycling by the
// step count alone would give every env of a loop whose size is a multiple of
// kRawLoopActions one action forever (a CartPole pushed one way, a Craftax
// player walking into one wall): less work than a pool's random actions.
class RawLoopActionCycle {
 public:
  explicit RawLoopActionCycle(int64_t num_envs) : stride_(num_envs % 2 == 0 ? 1 : 2) {}
  // The action of the step counted `done` (all envs' steps so far).
  int64_t Index(int64_t done) const { return (done + shift_) % kRawLoopActions; }
  // Call after each pass over the envs.
  void NextRound() { shift_ += stride_; }

 private:
  int64_t stride_;
  int64_t shift_ = 0;
};

// One env's output row in buffers of its own, for loops that step envs
// outside a pool (the raw loop, profilers): every field of `spec`, one reward
// per agent, the end flags.
struct RawLoopOutputs {
  std::vector<std::vector<uint8_t>> obs, info;
  std::vector<float> reward;
  bool terminated = false;
  bool truncated = false;
  StepOutput out;

  explicit RawLoopOutputs(const EnvSpec& spec)
      : obs(spec.obs.size()), info(spec.info.size()), reward(spec.num_agents(), 0.0f) {
    for (size_t f = 0; f < obs.size(); ++f) {
      obs[f].resize(spec.obs[f].NumBytes());
      out.slots[f] = obs[f].data();
    }
    for (size_t f = 0; f < info.size(); ++f) {
      info[f].resize(spec.info[f].NumBytes());
      out.slots[StepOutput::kInfoSlot + f] = info[f].data();
    }
    out.reward = reward.data();
    out.terminated = &terminated;
    out.truncated = &truncated;
  }
  RawLoopOutputs(const RawLoopOutputs&) = delete;
  RawLoopOutputs& operator=(const RawLoopOutputs&) = delete;
};

// The raw single-thread rate of Env: a plain loop, pre-drawn uniform actions,
// a reset when an episode ends: terminated, or `max_episode_steps` (> 0) steps
// after its reset, the pools' time limit. Without the time limit the loop
// would measure other work than a pool does: a MuJoCo episode that never ends
// settles into states whose steps cost less (an Ant on its back has fewer
// contacts) than the first thousand steps after a reset.
// Returns the seconds the steps took and how many episodes ended meanwhile.
template <typename Env>
std::pair<double, int64_t> RawLoopSeconds(const Config& cfg, int num_envs, int64_t steps,
                                          uint64_t seed, int max_episode_steps = 0) {
  EnvSpec spec = Env::Spec(cfg);
  std::deque<Env> envs;
  std::vector<Rng> rngs;
  for (int i = 0; i < num_envs; ++i) {
    envs.emplace_back(cfg, spec);
    rngs.emplace_back(DeriveEnvSeed(seed, i));
    ApplyMaxEpisodeSteps(envs.back(), max_episode_steps);
  }
  RawLoopOutputs row(spec);
  const StepOutput& out = row.out;
  bool& terminated = row.terminated;
  bool& truncated = row.truncated;
  // Continuous actions: pre-drawn uniform vectors within the bounds (0
  // where unbounded), cycled, so physics envs do real work (an all-zero
  // action leaves a MuJoCo body at rest).
  const int64_t box_size = spec.action.NumElements();
  std::vector<float> boxes(kRawLoopActions * box_size, 0.0f);
  const std::vector<int32_t> discrete = RawLoopDiscreteRows(spec.action, seed);
  if (!spec.action.discrete) {
    Rng draw(seed ^ 0x9e3779b97f4a7c15ULL);
    for (int k = 0; k < kRawLoopActions; ++k) {
      for (int64_t j = 0; j < box_size; ++j) {
        const double lo = spec.action.box.Low(j % spec.action.AgentElements());
        const double hi = spec.action.box.High(j % spec.action.AgentElements());
        if (std::isfinite(lo) && std::isfinite(hi)) {
          boxes[k * box_size + j] = static_cast<float>(draw.Uniform(lo, hi));
        }
      }
    }
  }
  // Steps since each env's reset, counted as the pool counts them.
  std::vector<int64_t> elapsed(num_envs, 0);
  auto reset = [&](int i) {
    envs[i].Reset(rngs[i], out);
    elapsed[i] = ElapsedAfterResetOf(envs[i]);
  };
  for (int i = 0; i < num_envs; ++i) reset(i);
  auto t0 = std::chrono::steady_clock::now();
  int64_t done = 0;
  int64_t episodes = 0;
  RawLoopActionCycle cycle(num_envs);
  for (; done < steps; cycle.NextRound()) {
    for (int i = 0; i < num_envs && done < steps; ++i, ++done) {
      const int64_t k = cycle.Index(done);
      const void* a = spec.action.discrete ? static_cast<const void*>(&discrete[k * box_size])
                                           : static_cast<const void*>(&boxes[k * box_size]);
      truncated = false;
      StepWhole(envs[i], a, rngs[i], out);
      ++elapsed[i];
      if (terminated || truncated || (max_episode_steps > 0 && elapsed[i] >= max_episode_steps)) {
        reset(i);
        ++episodes;
      }
    }
  }
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), episodes};
}

}  // namespace envpool_x
