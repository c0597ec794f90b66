// MountainCarContinuous-v0, matching gymnasium 1.4.0's
// Continuous_MountainCarEnv.
//
// gymnasium stores this env's state as a float32 array after every step (but
// float64 right after reset), and numpy 2's promotion rules (NEP 50) then keep
// much of the next step's arithmetic in float32. The dynamics below track, for
// each Python variable, whether it is a numpy float32 at that point, and round
// exactly where numpy does.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/params.h"
#include "envs/classic_control/numpy_math.h"

namespace envpool_x {

template <typename T>
struct MountainCarContinuousState {
  T position;
  T velocity;
  // The values are float64 (as right after gymnasium's reset), not float32.
  bool float64;
};

template <typename T>
struct MountainCarContinuousParams {
  T min_action = -1.0;
  T max_action = 1.0;
  T min_position = -1.2;
  T max_position = 0.6;
  T max_speed = 0.07;
  T goal_position = 0.45;
  T goal_velocity = 0;
  T power = 0.0015;
  T gravity = 0.0025;  // gymnasium's literal slope factor, named as MountainCar-v0's
};

template <typename T>
ENVPOOL_X_HD inline void MountainCarContinuousResetState(Rng& rng,
                                                         MountainCarContinuousState<T>& s) {
  s.position = static_cast<T>(rng.Uniform(-0.6, -0.4));
  s.velocity = T(0);
  s.float64 = true;
}

template <typename T>
ENVPOOL_X_HD inline void MountainCarContinuousObservation(const MountainCarContinuousState<T>& s,
                                                          float* obs) {
  obs[0] = static_cast<float>(s.position);
  obs[1] = static_cast<float>(s.velocity);
}

template <typename T>
ENVPOOL_X_HD inline void MountainCarContinuousDynamics(MountainCarContinuousState<T>& s,
                                                       float action,
                                                       const MountainCarContinuousParams<T>& p,
                                                       bool* terminated, T* reward) {
  bool position_f32 = !s.float64;
  bool velocity_f32 = !s.float64;
  T position = s.position;
  T velocity = s.velocity;

  // 3 * position is float32 arithmetic when position is float32; math.cos
  // and the product with 0.0025 are then float64.
  const T cos_arg =
      position_f32 ? static_cast<T>(3.0f * static_cast<float>(position)) : 3 * position;
  const T slope = p.gravity * std::cos(cos_arg);
  // force = min(max(action[0], -1.0), 1.0) stays the float32 action unless
  // clipped, when it becomes a Python float; a float32 force keeps
  // `force * power - slope` in float32.
  T increment;
  if (action < static_cast<float>(p.min_action)) {
    increment = p.min_action * p.power - slope;
  } else if (action > static_cast<float>(p.max_action)) {
    increment = p.max_action * p.power - slope;
  } else {
    const float push = action * static_cast<float>(p.power);
    increment = static_cast<T>(push - static_cast<float>(slope));
  }
  velocity = velocity_f32
                 ? static_cast<T>(static_cast<float>(velocity) + static_cast<float>(increment))
                 : velocity + increment;
  // Clipping assigns Python floats, which are float64 from then on.
  if (WeakGreater(velocity, p.max_speed, velocity_f32)) {
    velocity = p.max_speed;
    velocity_f32 = false;
  }
  if (WeakLess(velocity, -p.max_speed, velocity_f32)) {
    velocity = -p.max_speed;
    velocity_f32 = false;
  }
  position = position_f32
                 ? static_cast<T>(static_cast<float>(position) + static_cast<float>(velocity))
                 : position + velocity;
  if (WeakGreater(position, p.max_position, position_f32)) {
    position = p.max_position;
    position_f32 = false;
  }
  if (WeakLess(position, p.min_position, position_f32)) {
    position = p.min_position;
    position_f32 = false;
  }
  // The left wall is inelastic.
  if (WeakEqual(position, p.min_position, position_f32) && velocity < 0) {
    velocity = T(0);
  }
  const bool done = WeakGreaterEqual(position, p.goal_position, position_f32) &&
                    WeakGreaterEqual(velocity, p.goal_velocity, velocity_f32);
  *terminated = done;
  // The energy penalty uses the unclipped action; math.pow(a, 2) of a float32
  // a is exact in float64, so a * a is the same number.
  const T a = static_cast<T>(action);
  *reward = (done ? T(100.0) : T(0)) - a * a * T(0.1);
  s.position = static_cast<T>(static_cast<float>(position));
  s.velocity = static_cast<T>(static_cast<float>(velocity));
  s.float64 = false;
}

class MountainCarContinuous {
 public:
  static constexpr const char* kName = "MountainCarContinuous";
  static constexpr bool kCheap = true;

  static Config DefaultConfig() {
    const MountainCarContinuousParams<double> p;
    return Config{{"goal_velocity", 0.0}, {"power", p.power}, {"gravity", p.gravity}};
  }
  // Positions, max_speed and the action bounds bound the spaces: fixed.
  static std::vector<ParamSpec> ParamSpecs() {
    return {{"power", 0.0, 0.1}, {"gravity", 0.0, 0.1}};
  }
  // The kernel constants of a config (the CUDA stepper's too).
  static MountainCarContinuousParams<double> ParamsFromConfig(const Config& config) {
    MountainCarContinuousParams<double> p;
    p.goal_velocity = config.Double("goal_velocity");
    SetConstants(p, ParamValuesOf(ParamSpecs(), config).data());
    return p;
  }
  ENVPOOL_X_HD static void SetConstants(MountainCarContinuousParams<double>& p,
                                        const double* values) {
    p.power = values[0];
    p.gravity = values[1];
  }

  static EnvSpec Spec(const Config& /*config*/) {
    const MountainCarContinuousParams<double> p;
    EnvSpec spec;
    spec.obs.push_back(ArraySpec{"obs",
                                 DType::kFloat32,
                                 {2},
                                 {RoundToFloat32(p.min_position), RoundToFloat32(-p.max_speed)},
                                 {RoundToFloat32(p.max_position), RoundToFloat32(p.max_speed)}});
    spec.action.discrete = false;
    spec.action.box = ArraySpec{"action", DType::kFloat32, {1}, {p.min_action}, {p.max_action}};
    // The penalty grows with the unclipped action, so there is no lower bound.
    spec.reward_high = 100.0;
    return spec;
  }

  MountainCarContinuous(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<float>(spec, "obs")), params_(ParamsFromConfig(config)) {}

  void SetParams(const double* values) { SetConstants(params_, values); }

  void Reset(Rng& rng, const StepOutput& out) {
    MountainCarContinuousResetState(rng, state_);
    MountainCarContinuousObservation(state_, out[obs_]);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    double reward = 0.0;
    MountainCarContinuousDynamics(state_, BoxAction(action)[0], params_, out.terminated, &reward);
    *out.reward = static_cast<float>(reward);
    MountainCarContinuousObservation(state_, out[obs_]);
  }

  std::vector<double> GetState() const { return {state_.position, state_.velocity}; }

  // Values that are not both exact float32 numbers are taken to be a fresh
  // float64 state (gymnasium's state right after reset).
  void SetState(const std::vector<double>& s) {
    if (s.size() != 2) {
      throw ValueError(
          "MountainCarContinuous state must have 2 values [position, "
          "velocity], got " +
          std::to_string(s.size()));
    }
    const bool float32 = RoundToFloat32(s[0]) == s[0] && RoundToFloat32(s[1]) == s[1];
    state_ = MountainCarContinuousState<double>{s[0], s[1], !float32};
  }

 private:
  OutputField<float> obs_;
  MountainCarContinuousParams<double> params_;
  MountainCarContinuousState<double> state_{0.0, 0.0, true};
};

}  // namespace envpool_x
