// MountainCar-v0, matching gymnasium 1.4.0's MountainCarEnv.
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
struct MountainCarState {
  T position;
  T velocity;
};

template <typename T>
struct MountainCarParams {
  T min_position = -1.2;
  T max_position = 0.6;
  T max_speed = 0.07;
  T goal_position = 0.5;
  T goal_velocity = 0;
  T force = 0.001;
  T gravity = 0.0025;
};

template <typename T>
ENVPOOL_X_HD inline void MountainCarResetState(Rng& rng, MountainCarState<T>& s) {
  s.position = static_cast<T>(rng.Uniform(-0.6, -0.4));
  s.velocity = T(0);
}

template <typename T>
ENVPOOL_X_HD inline void MountainCarObservation(const MountainCarState<T>& s, float* obs) {
  obs[0] = static_cast<float>(s.position);
  obs[1] = static_cast<float>(s.velocity);
}

template <typename T>
ENVPOOL_X_HD inline void MountainCarDynamics(MountainCarState<T>& s, int action,
                                             const MountainCarParams<T>& p, bool* terminated,
                                             T* reward) {
  T velocity =
      s.velocity + (static_cast<T>(action - 1) * p.force + std::cos(3 * s.position) * (-p.gravity));
  velocity = std::fmin(std::fmax(velocity, -p.max_speed), p.max_speed);
  T position = s.position + velocity;
  position = std::fmin(std::fmax(position, p.min_position), p.max_position);
  // The left wall is inelastic.
  if (position == p.min_position && velocity < 0) velocity = T(0);
  *terminated = position >= p.goal_position && velocity >= p.goal_velocity;
  *reward = T(-1);
  s.position = position;
  s.velocity = velocity;
}

class MountainCar {
 public:
  static constexpr const char* kName = "MountainCar";
  static constexpr bool kCheap = true;

  static Config DefaultConfig() {
    const MountainCarParams<double> p;
    return Config{{"goal_velocity", 0.0}, {"force", p.force}, {"gravity", p.gravity}};
  }
  // gymnasium's names; positions and max_speed bound the observation space.
  static std::vector<ParamSpec> ParamSpecs() {
    return {{"force", 0.0, 0.1}, {"gravity", 0.0, 0.1}};
  }
  // The kernel constants of a config (the CUDA stepper's too).
  static MountainCarParams<double> ParamsFromConfig(const Config& config) {
    MountainCarParams<double> p;
    p.goal_velocity = config.Double("goal_velocity");
    SetConstants(p, ParamValuesOf(ParamSpecs(), config).data());
    return p;
  }
  ENVPOOL_X_HD static void SetConstants(MountainCarParams<double>& p, const double* values) {
    p.force = values[0];
    p.gravity = values[1];
  }

  static EnvSpec Spec(const Config& /*config*/) {
    const MountainCarParams<double> p;
    EnvSpec spec;
    spec.obs.push_back(ArraySpec{"obs",
                                 DType::kFloat32,
                                 {2},
                                 {RoundToFloat32(p.min_position), RoundToFloat32(-p.max_speed)},
                                 {RoundToFloat32(p.max_position), RoundToFloat32(p.max_speed)}});
    spec.action.discrete = true;
    spec.action.n = 3;
    spec.reward_low = -1.0;
    spec.reward_high = -1.0;
    return spec;
  }

  MountainCar(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<float>(spec, "obs")), params_(ParamsFromConfig(config)) {}

  void SetParams(const double* values) { SetConstants(params_, values); }

  void Reset(Rng& rng, const StepOutput& out) {
    MountainCarResetState(rng, state_);
    MountainCarObservation(state_, out[obs_]);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    double reward = 0.0;
    MountainCarDynamics(state_, DiscreteAction(action), params_, out.terminated, &reward);
    *out.reward = static_cast<float>(reward);
    MountainCarObservation(state_, out[obs_]);
  }

  std::vector<double> GetState() const { return {state_.position, state_.velocity}; }

  void SetState(const std::vector<double>& s) {
    if (s.size() != 2) {
      throw ValueError("MountainCar state must have 2 values [position, velocity], got " +
                       std::to_string(s.size()));
    }
    state_ = MountainCarState<double>{s[0], s[1]};
  }

 private:
  OutputField<float> obs_;
  MountainCarParams<double> params_;
  MountainCarState<double> state_{0.0, 0.0};
};

}  // namespace envpool_x
