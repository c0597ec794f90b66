// Where a Craftax step's time goes (Craftax-Classic's or the full game's): one thread steps a few
// envs as the raw loop does (its random actions, a reset when an episode ends or reaches the time
// limit) and reads the clock as each part of a step ends (ClassicStep's or FullStep's laps, then
// the env's draws and observation). Used by benchmarks/bench_craftax.py; not part of any pool.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "core/raw_loop.h"
#include "envs/craftax/craftax_classic.h"

namespace envpool_x {
namespace craftax {

using ProfileClock = std::chrono::steady_clock;

// A StepPart's laps: the time since the last lap goes to the part that ended.
struct PartClock {
  double* seconds;
  ProfileClock::time_point* last;
  void operator()(StepPart part) const {
    const auto now = ProfileClock::now();
    seconds[part] += std::chrono::duration<double>(now - *last).count();
    *last = now;
  }
};

// Microseconds per step of each part (a reset's cost spread over the steps),
// the clock's own cost per lap taken out; "resets" counts the episodes ended.
template <class Env>
std::vector<std::pair<std::string, double>> ProfileClassic(const Config& cfg, int num_envs,
                                                           int64_t steps, uint64_t seed) {
  const EnvSpec spec = Env::Spec(cfg);
  std::deque<Env> envs;
  std::vector<Rng> rngs;
  for (int i = 0; i < num_envs; ++i) {
    envs.emplace_back(cfg, spec);
    rngs.emplace_back(DeriveEnvSeed(seed, i));
  }
  RawLoopOutputs row(spec);
  const StepOutput& out = row.out;
  const bool& terminated = row.terminated;
  const std::vector<int32_t> actions = RawLoopDiscreteActions(spec.action.n, seed);
  const int64_t limit = Env::Params(cfg).max_timesteps;

  double seconds[kNumStepParts] = {};
  double reset_seconds = 0.0;
  std::vector<int64_t> elapsed(num_envs, 0);
  for (int i = 0; i < num_envs; ++i) envs[i].Reset(rngs[i], out);
  int64_t resets = 0;
  auto last = ProfileClock::now();
  const PartClock laps{seconds, &last};
  RawLoopActionCycle cycle(num_envs);
  for (int64_t done = 0; done < steps; cycle.NextRound()) {
    for (int i = 0; i < num_envs && done < steps; ++i, ++done) {
      last = ProfileClock::now();
      envs[i].StepParts(actions[cycle.Index(done)], rngs[i], out, laps);
      if (terminated || ++elapsed[i] >= limit) {
        const auto t0 = ProfileClock::now();
        envs[i].Reset(rngs[i], out);
        reset_seconds += std::chrono::duration<double>(ProfileClock::now() - t0).count();
        elapsed[i] = 0;
        ++resets;
      }
    }
  }
  // The clock's cost per lap: laps with nothing between them.
  double idle[kNumStepParts] = {};
  const PartClock idle_laps{idle, &last};
  const int64_t calls = 100000;
  last = ProfileClock::now();
  for (int64_t k = 0; k < calls; ++k) idle_laps(kPartDraws);
  const double per_lap = idle[kPartDraws] / calls;

  const char* names[kNumStepParts] = {"draws", "player", "mobs", "spawns", "upkeep", "obs"};
  std::vector<std::pair<std::string, double>> result;
  const double per_step = 1e6 / static_cast<double>(steps);
  for (int part = 0; part < kNumStepParts; ++part) {
    const double s = seconds[part] - per_lap * static_cast<double>(steps);
    result.emplace_back(names[part], (s > 0.0 ? s : 0.0) * per_step);
  }
  result.emplace_back("reset", reset_seconds * per_step);
  result.emplace_back("clock_per_lap", per_lap * 1e6);
  result.emplace_back("resets", static_cast<double>(resets));
  return result;
}

}  // namespace craftax
}  // namespace envpool_x
