// Pair chunks under stress: an env stepped in parts (PartedCounter) and
// PairStress, which runs sync full steps whose last two envs per thread go as
// a pair an idle thread may take over. Used by main (PartedCounter, checked
// exactly) and by the MuJoCo families (pool_stress_families.cpp).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "pool_stress_support.h"

// Stepped in parts (core/env.h) and expensive, so that sync full steps run
// pair chunks (EnvPool's RunPairT / StealPartT). Observes [steps since reset,
// parts of the last step]; env `fault_env_id` throws in the second part of
// its `throw_at_step`-th step; odd envs end their episodes themselves
// (truncated) after `truncate_odd_at` steps.
class PartedCounter {
 public:
  static constexpr const char* kName = "PartedCounter";
  static constexpr bool kCheap = false;
  static constexpr int kParts = 4;

  static Config DefaultConfig() {
    return Config{{"fault_env_id", int64_t{-1}},
                  {"throw_at_step", int64_t{-1}},
                  {"truncate_odd_at", int64_t{-1}}};
  }
  static EnvSpec Spec(const Config&) {
    EnvSpec s;
    s.obs.push_back(ArraySpec{"obs", DType::kFloat32, {2}, {}, {}});
    s.action.discrete = true;
    s.action.n = 2;
    return s;
  }
  PartedCounter(const Config& c, const EnvSpec& spec)
      : obs_(ObsField<float>(spec, "obs")),
        fault_env_(c.Int("fault_env_id")),
        throw_at_(c.Int("throw_at_step")),
        truncate_at_(c.Int("truncate_odd_at")) {}
  void SetEnvId(int id) { env_id_ = id; }

  void Reset(Rng&, const StepOutput& out) {
    steps_ = 0;
    out[obs_][0] = out[obs_][1] = 0.0f;
  }
  void BeginStep(const void* action) {
    ++steps_;
    parts_ = 0;
    action_ = DiscreteAction(action);
  }
  bool StepPart() {
    ++parts_;
    // Some work, so that a part of one thread overlaps parts of others.
    volatile double x = 0.0;
    for (int i = 0; i < 3000; ++i) x = x + i;
    if (env_id_ == fault_env_ && steps_ == throw_at_ && parts_ == 2) {
      throw std::runtime_error("injected fault in a part");
    }
    return parts_ == kParts;
  }
  void EndStep(const StepOutput& out) {
    out[obs_][0] = static_cast<float>(steps_);
    out[obs_][1] = static_cast<float>(parts_);
    *out.reward = static_cast<float>(action_);
    *out.terminated = false;
    if (out.truncated && env_id_ % 2 == 1 && steps_ == truncate_at_) *out.truncated = true;
  }
  std::vector<double> GetState() const { return {static_cast<double>(steps_)}; }
  void SetState(const std::vector<double>& s) { steps_ = static_cast<int64_t>(s.at(0)); }

 private:
  OutputField<float> obs_;
  int64_t fault_env_;
  int64_t throw_at_;
  int64_t truncate_at_;
  int env_id_ = -1;
  int64_t steps_ = 0;
  int parts_ = 0;
  int32_t action_ = 0;
};

// Sync full steps of an env stepped in parts: each thread's last two envs go
// as a pair whose offered env an idle thread (a worker, or the caller while
// it waits) takes over; time-limit resets in both autoreset modes land inside
// pairs. `check`: the env is PartedCounter, whose rows are checked exactly;
// `faults`: it throws (some recv()s raise).
template <typename Env>
int64_t PairStress(const Config& cfg, int rounds, bool check, bool faults = false) {
  int64_t steals = 0;
  const int64_t truncate_at = check ? cfg.Int("truncate_odd_at") : -1;
  for (int threads : {1, 2, 3}) {
    for (AutoresetMode mode : {AutoresetMode::kNextStep, AutoresetMode::kSameStep}) {
      PoolOptions opt = Options(8, 0, threads, 0);
      opt.autoreset = mode;
      EnvPool<Env> pool(cfg, opt);
      const std::vector<int32_t>& all = pool.ResolveIds(nullptr, 0, false);
      pool.SendReset(all, nullptr, true);
      pool.Recv(true);
      const ActionSpec& spec = pool.spec().action;
      std::vector<float> box(static_cast<size_t>(8 * spec.NumElements()), 0.0f);
      std::vector<int32_t> discrete(8, 1);
      int errors = 0;
      for (int r = 0; r < rounds; ++r) {
        pool.StoreActions(all, spec.discrete ? static_cast<const void*>(discrete.data())
                                             : static_cast<const void*>(box.data()));
        pool.SendStepForRecv(all);
        Batch b;
        try {
          b = pool.Recv(true);
        } catch (const std::runtime_error&) {
          ++errors;
          continue;
        }
        CHECK(b.count == 8);
        const FieldLayout& L = pool.layout();
        const int32_t* ids = reinterpret_cast<const int32_t*>(b.data[L.env_id]);
        const int32_t* elapsed = reinterpret_cast<const int32_t*>(b.data[L.elapsed_step]);
        const bool* truncated = reinterpret_cast<const bool*>(b.data[L.truncated]);
        for (int k = 0; k < 8; ++k) {
          CHECK(ids[k] == k);
          if (!check) continue;
          const float* obs = reinterpret_cast<const float*>(b.data[0]) + 2 * k;
          CHECK(obs[0] == static_cast<float>(elapsed[k]));
          CHECK(elapsed[k] == 0 || obs[1] == static_cast<float>(PartedCounter::kParts));
          // Episodes end at the time limit (7), odd envs' also where they
          // truncate themselves; same_step rows show the next episode's start.
          const bool self_ends = k % 2 == 1 && truncate_at > 0;
          if (mode == AutoresetMode::kNextStep) {
            CHECK(truncated[k] == (elapsed[k] == 7 || (self_ends && elapsed[k] == truncate_at)));
            CHECK(!self_ends || elapsed[k] <= truncate_at);
          } else {
            CHECK(!truncated[k] || elapsed[k] == 0);
            CHECK(!self_ends || elapsed[k] < truncate_at);
          }
        }
      }
      CHECK(faults ? errors > 0 : errors == 0);
      steals += pool.pair_steals();
      pool.Close();
    }
  }
  return steals;
}
