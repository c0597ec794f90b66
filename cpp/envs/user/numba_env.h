// NumbaEnv: an env whose reset and step are a user's numba functions, compiled
// by numba.cfunc to C callbacks (envpool_x.register_numba_env writes the
// wrappers). The worker threads call them like any env's code, without the
// GIL. The config carries the callbacks' addresses and the arrays' sizes.
//
// Callbacks (return 0, or nonzero when the user's function raised):
//   int32 reset(float64* state, void* obs, const float64* rand)
//   int32 step(float64* state, const void* action, void* obs, const float64* rand,
//              float32* reward, uint8* terminated)
// `rand` holds reset_random (for reset) or step_random (for step) uniforms in
// [0, 1) from the env's own seed stream, drawn before the call.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/spec.h"
#include "core/step_output.h"

namespace envpool_x {

class NumbaEnv {
 public:
  static constexpr const char* kName = "NumbaEnv";
  static constexpr bool kCheap = true;

  using ResetFn = int32_t (*)(double*, void*, const double*);
  using StepFn = int32_t (*)(double*, const void*, void*, const double*, float*, uint8_t*);

  static Config DefaultConfig() {
    return Config{{"reset_fn", int64_t{0}},
                  {"step_fn", int64_t{0}},
                  {"state_size", int64_t{1}},
                  {"obs_shape", std::vector<double>{1}},
                  {"obs_dtype", std::string("float32")},
                  {"obs_low", std::vector<double>{}},
                  {"obs_high", std::vector<double>{}},
                  {"num_actions", int64_t{0}},
                  {"action_shape", std::vector<double>{}},
                  {"action_low", std::vector<double>{}},
                  {"action_high", std::vector<double>{}},
                  {"reset_random", int64_t{0}},
                  {"step_random", int64_t{0}}};
  }

  static EnvSpec Spec(const Config& config) {
    if (config.Int("reset_fn") == 0 || config.Int("step_fn") == 0) {
      throw ValueError(
          "a numba env is made by envpool_x.register_numba_env, which compiles its "
          "reset and step");
    }
    // Per-env buffers and per-call draws are sized by these: beyond an int
    // they could not even be indexed (a larger buffer that cannot be had is a
    // MemoryError when the pool is built).
    CountKey(config, "state_size", 1);
    CountKey(config, "reset_random", 0);
    CountKey(config, "step_random", 0);
    EnvSpec spec;
    spec.obs.push_back(ArraySpec{"obs", ParseDType(config.String("obs_dtype")),
                                 Shape(config.Doubles("obs_shape"), "obs_shape"),
                                 config.Doubles("obs_low"), config.Doubles("obs_high")});
    const int64_t n = config.Int("num_actions");
    if (n > 0) {
      spec.action.discrete = true;
      spec.action.n = n;
    } else {
      spec.action.discrete = false;
      spec.action.box = ArraySpec{"action", DType::kFloat32,
                                  Shape(config.Doubles("action_shape"), "action_shape"),
                                  config.Doubles("action_low"), config.Doubles("action_high")};
    }
    return spec;
  }

  NumbaEnv(const Config& config, const EnvSpec& spec)
      : reset_(reinterpret_cast<ResetFn>(static_cast<intptr_t>(config.Int("reset_fn")))),
        step_(reinterpret_cast<StepFn>(static_cast<intptr_t>(config.Int("step_fn")))),
        reset_random_(static_cast<int>(config.Int("reset_random"))),
        step_random_(static_cast<int>(config.Int("step_random"))),
        state_(static_cast<size_t>(config.Int("state_size")), 0.0),
        rand_(static_cast<size_t>(std::max(reset_random_, step_random_)), 0.0) {
    const DType dtype = spec.obs[0].dtype;
    if (dtype == DType::kFloat32) obs_f32_ = ObsField<float>(spec, "obs");
    if (dtype == DType::kFloat64) obs_f64_ = ObsField<double>(spec, "obs");
    if (dtype == DType::kInt32) obs_i32_ = ObsField<int32_t>(spec, "obs");
  }

  void Reset(Rng& rng, const StepOutput& out) {
    Draw(rng, reset_random_);
    if (reset_(state_.data(), Obs(out), rand_.data()) != 0) {
      throw std::runtime_error(
          "the numba env's reset raised an exception (nopython mode keeps "
          "no message: call the Python function itself to see it)");
    }
  }

  void Step(const void* action, Rng& rng, const StepOutput& out) {
    Draw(rng, step_random_);
    uint8_t terminated = 0;
    if (step_(state_.data(), action, Obs(out), rand_.data(), out.reward, &terminated) != 0) {
      throw std::runtime_error(
          "the numba env's step raised an exception (nopython mode keeps "
          "no message: call the Python function itself to see it)");
    }
    *out.terminated = terminated != 0;
  }

  // The state a test copies in and out: the float64 state array.
  std::vector<double> GetState() const { return state_; }
  void SetState(const std::vector<double>& s) {
    if (s.size() != state_.size()) {
      throw ValueError("numba env state must have state_size = " + std::to_string(state_.size()) +
                       " values, got " + std::to_string(s.size()));
    }
    state_ = s;
  }

 private:
  static DType ParseDType(const std::string& name) {
    if (name == "float32") return DType::kFloat32;
    if (name == "float64") return DType::kFloat64;
    if (name == "int32") return DType::kInt32;
    throw ValueError("obs_dtype must be 'float32', 'float64' or 'int32', got '" + name + "'");
  }

  static constexpr int64_t kMaxCount = std::numeric_limits<int32_t>::max();

  static void CountKey(const Config& config, const char* key, int64_t low) {
    const int64_t v = config.Int(key);
    if (v < low || v > kMaxCount) {
      throw ValueError(std::string(key) + " must be in [" + std::to_string(low) + ", " +
                       std::to_string(kMaxCount) + "], got " + std::to_string(v));
    }
  }

  // Positive ints whose product (elements per env) is at most kMaxCount.
  static std::vector<int64_t> Shape(const std::vector<double>& dims, const char* key) {
    std::vector<int64_t> shape;
    int64_t elements = 1;
    for (double d : dims) {
      if (!(d >= 1 && d <= static_cast<double>(kMaxCount)) ||
          d != static_cast<double>(static_cast<int64_t>(d))) {
        throw ValueError(std::string(key) + " must hold positive ints");
      }
      shape.push_back(static_cast<int64_t>(d));
      elements *= shape.back();  // both factors <= 2^31: no overflow
      if (elements > kMaxCount) {
        throw ValueError(std::string(key) + " must have at most " + std::to_string(kMaxCount) +
                         " elements");
      }
    }
    return shape;
  }

  void Draw(Rng& rng, int n) {
    for (int i = 0; i < n; ++i) rand_[i] = rng.Uniform();
  }

  void* Obs(const StepOutput& out) const {
    if (obs_f32_.bound()) return out[obs_f32_];
    if (obs_f64_.bound()) return out[obs_f64_];
    return out[obs_i32_];
  }

  ResetFn reset_;
  StepFn step_;
  int reset_random_;
  int step_random_;
  std::vector<double> state_;
  std::vector<double> rand_;
  OutputField<float> obs_f32_;
  OutputField<double> obs_f64_;
  OutputField<int32_t> obs_i32_;
};

}  // namespace envpool_x
