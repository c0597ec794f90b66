// Pendulum-v1, matching gymnasium 1.4.0's PendulumEnv.
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
struct PendulumState {
  T th;
  T thdot;
};

template <typename T>
struct PendulumParams {
  T max_speed = 8;
  T max_torque = 2.0;
  T dt = 0.05;
  T g = 10.0;
  T m = 1.0;
  T l = 1.0;
  // gymnasium's subexpressions `3 * g / (2 * l)` and `3.0 / (m * l**2)`,
  // evaluated once in the same order.
  T gravity_coef = 3 * g / (2 * l);
  T torque_coef = 3.0 / (m * (l * l));

  ENVPOOL_X_HD void SetGravity(T new_g) {
    g = new_g;
    gravity_coef = 3 * g / (2 * l);
  }
  // The constants of `values` (Pendulum::ParamSpecs order: g, m, l, dt).
  ENVPOOL_X_HD void SetConstants(const double* values) {
    g = values[0];
    m = values[1];
    l = values[2];
    dt = values[3];
    gravity_coef = 3 * g / (2 * l);
    torque_coef = 3.0 / (m * (l * l));
  }
};

template <typename T>
ENVPOOL_X_HD inline T PendulumAngleNormalize(T x) {
  return NumpyRemainder(x + T(kPi), T(2 * kPi)) - T(kPi);
}

template <typename T>
ENVPOOL_X_HD inline void PendulumResetState(Rng& rng, PendulumState<T>& s) {
  s.th = static_cast<T>(rng.Uniform(-kPi, kPi));
  s.thdot = static_cast<T>(rng.Uniform(-1.0, 1.0));
}

template <typename T>
ENVPOOL_X_HD inline void PendulumObservation(const PendulumState<T>& s, float* obs) {
  obs[0] = static_cast<float>(std::cos(s.th));
  obs[1] = static_cast<float>(std::sin(s.th));
  obs[2] = static_cast<float>(s.thdot);
}

// One step. The action is float32, and under numpy's promotion rules (NEP 50)
// the clipped torque and every product of it with a Python float stay
// float32, so those terms are computed in float here too.
template <typename T>
ENVPOOL_X_HD inline void PendulumDynamics(PendulumState<T>& s, float action,
                                          const PendulumParams<T>& p, T* reward) {
  const float max_torque = static_cast<float>(p.max_torque);
  const float u = std::fmin(std::fmax(action, -max_torque), max_torque);
  const float torque_cost = static_cast<float>(0.001) * NumpySquare(u);
  const T costs = NumpySquare(PendulumAngleNormalize(s.th)) + T(0.1) * NumpySquare(s.thdot) +
                  static_cast<T>(torque_cost);
  const float torque_acc = static_cast<float>(p.torque_coef) * u;
  T newthdot = s.thdot + (p.gravity_coef * std::sin(s.th) + static_cast<T>(torque_acc)) * p.dt;
  newthdot = std::fmin(std::fmax(newthdot, -p.max_speed), p.max_speed);
  s.th = s.th + newthdot * p.dt;
  s.thdot = newthdot;
  *reward = -costs;
}

class Pendulum {
 public:
  static constexpr const char* kName = "Pendulum";
  static constexpr bool kCheap = true;

  static Config DefaultConfig() {
    const PendulumParams<double> p;
    return Config{{"g", p.g}, {"m", p.m}, {"l", p.l}, {"dt", p.dt}};
  }
  // gymnasium's names; max_speed and max_torque bound the spaces, so stay fixed.
  static std::vector<ParamSpec> ParamSpecs() {
    return {{"g", -1e3, 1e3}, {"m", 1e-3, 1e3}, {"l", 1e-3, 1e3}, {"dt", 1e-5, 1.0}};
  }
  // The kernel constants of a config (the CUDA stepper's too).
  static PendulumParams<double> ParamsFromConfig(const Config& config) {
    PendulumParams<double> p;
    p.SetConstants(ParamValuesOf(ParamSpecs(), config).data());
    return p;
  }

  static EnvSpec Spec(const Config& /*config*/) {
    const PendulumParams<double> p;
    const double max_speed = RoundToFloat32(p.max_speed);
    EnvSpec spec;
    spec.obs.push_back(
        ArraySpec{"obs", DType::kFloat32, {3}, {-1.0, -1.0, -max_speed}, {1.0, 1.0, max_speed}});
    spec.action.discrete = false;
    spec.action.box = ArraySpec{"action", DType::kFloat32, {1}, {-p.max_torque}, {p.max_torque}};
    // Worst cost: angle pi, full speed, full torque.
    spec.reward_low =
        -(kPi * kPi + 0.1 * p.max_speed * p.max_speed + 0.001 * p.max_torque * p.max_torque);
    spec.reward_high = 0.0;
    return spec;
  }

  Pendulum(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<float>(spec, "obs")), params_(ParamsFromConfig(config)) {}

  void SetParams(const double* values) { params_.SetConstants(values); }

  void Reset(Rng& rng, const StepOutput& out) {
    PendulumResetState(rng, state_);
    PendulumObservation(state_, out[obs_]);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    double reward = 0.0;
    PendulumDynamics(state_, BoxAction(action)[0], params_, &reward);
    *out.reward = static_cast<float>(reward);
    *out.terminated = false;
    PendulumObservation(state_, out[obs_]);
  }

  std::vector<double> GetState() const { return {state_.th, state_.thdot}; }

  void SetState(const std::vector<double>& s) {
    if (s.size() != 2) {
      throw ValueError("Pendulum state must have 2 values [th, thdot], got " +
                       std::to_string(s.size()));
    }
    state_ = PendulumState<double>{s[0], s[1]};
  }

 private:
  OutputField<float> obs_;
  PendulumParams<double> params_;
  PendulumState<double> state_{0.0, 0.0};
};

}  // namespace envpool_x
