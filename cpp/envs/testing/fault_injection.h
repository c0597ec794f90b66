// A tiny env that misbehaves on request: throws at a chosen step, stalls, or
// emits NaN. It is always built so that reliability tests (and users checking
// their own error handling) can drive the pool into its error paths.
#pragma once

#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/env.h"

namespace envpool_x {

class FaultInjection {
 public:
  static constexpr const char* kName = "FaultInjection";
  static constexpr bool kCheap = false;
  // A stalled step may take seconds: it must never run on the thread that
  // waits in recv() (Ctrl-C would be ignored meanwhile).
  static constexpr bool kMayStall = true;

  static Config DefaultConfig() {
    return Config{{"fault_env_id", int64_t{-1}},    // which env misbehaves (-1: all)
                  {"throw_at_step", int64_t{-1}},   // step Step() throws at (-1: never)
                  {"nan_at_step", int64_t{-1}},     // step whose obs/reward are NaN
                  {"stall_ms", int64_t{0}},         // sleep per step of the faulty env
                  {"reset_stall_ms", int64_t{0}},   // sleep per reset of the faulty env
                  {"episode_length", int64_t{0}}};  // terminate after this many steps (0: never)
  }

  static EnvSpec Spec(const Config&) {
    EnvSpec s;
    ArraySpec obs;
    obs.name = "obs";
    obs.dtype = DType::kFloat32;
    obs.shape = {2};  // [steps since reset, last action]
    s.obs.push_back(obs);
    s.action.discrete = true;
    s.action.n = 2;
    return s;
  }

  FaultInjection(const Config& c, const EnvSpec& spec)
      : obs_(ObsField<float>(spec, "obs")),
        fault_env_(c.Int("fault_env_id")),
        throw_at_(c.Int("throw_at_step")),
        nan_at_(c.Int("nan_at_step")),
        stall_ms_(c.Int("stall_ms")),
        reset_stall_ms_(c.Int("reset_stall_ms")),
        episode_length_(c.Int("episode_length")) {}

  // The pool tells each env its id once, before the first reset.
  void SetEnvId(int id) { env_id_ = id; }

  void Reset(Rng& rng, const StepOutput& out) {
    if ((fault_env_ < 0 || fault_env_ == env_id_) && reset_stall_ms_ > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(reset_stall_ms_));
    }
    steps_ = 0;
    float* o = out[obs_];
    o[0] = 0.0f;
    o[1] = static_cast<float>(rng.Uniform());
  }

  void Step(const void* action, Rng&, const StepOutput& out) {
    ++steps_;
    bool faulty = fault_env_ < 0 || fault_env_ == env_id_;
    if (faulty && stall_ms_ > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(stall_ms_));
    }
    if (faulty && steps_ == throw_at_) {
      throw std::runtime_error("injected fault at step " + std::to_string(steps_));
    }
    float* o = out[obs_];
    o[0] = static_cast<float>(steps_);
    o[1] = static_cast<float>(DiscreteAction(action));
    *out.reward = 1.0f;
    if (faulty && steps_ == nan_at_) {
      o[0] = std::numeric_limits<float>::quiet_NaN();
      *out.reward = std::numeric_limits<float>::quiet_NaN();
    }
    *out.terminated = episode_length_ > 0 && steps_ >= episode_length_;
  }

  std::vector<double> GetState() const { return {static_cast<double>(steps_)}; }
  void SetState(const std::vector<double>& s) {
    if (s.size() != 1) throw ValueError("FaultInjection state has 1 value");
    steps_ = static_cast<int64_t>(s[0]);
  }

 private:
  OutputField<float> obs_;
  int64_t fault_env_, throw_at_, nan_at_, stall_ms_, reset_stall_ms_, episode_length_;
  int env_id_ = -1;
  int64_t steps_ = 0;
};

}  // namespace envpool_x
