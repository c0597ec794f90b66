// Acrobot-v1, matching gymnasium 1.4.0's AcrobotEnv (book dynamics, no torque
// noise, one RK4 step over dt).
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
struct AcrobotState {
  T theta1;
  T theta2;
  T dtheta1;
  T dtheta2;
};

template <typename T>
struct AcrobotParams {
  T dt = 0.2;
  T link_length_1 = 1.0;
  T link_mass_1 = 1.0;
  T link_mass_2 = 1.0;
  T link_com_pos_1 = 0.5;
  T link_com_pos_2 = 0.5;
  T link_moi = 1.0;
  T g = 9.8;
  T max_vel_1 = 4 * kPi;
  T max_vel_2 = 9 * kPi;
};

// Time derivative of (theta1, theta2, dtheta1, dtheta2) under torque a, with
// gymnasium's operation order. Squares of the velocities and of d2 are numpy
// `** 2` (libm pow); squares of the constants are exact.
template <typename T>
ENVPOOL_X_HD inline void AcrobotDerivatives(const T* s, T a, const AcrobotParams<T>& p, T* dsdt) {
  const T m1 = p.link_mass_1;
  const T m2 = p.link_mass_2;
  const T l1 = p.link_length_1;
  const T lc1 = p.link_com_pos_1;
  const T lc2 = p.link_com_pos_2;
  const T I1 = p.link_moi;
  const T I2 = p.link_moi;
  const T g = p.g;
  const T theta1 = s[0];
  const T theta2 = s[1];
  const T dtheta1 = s[2];
  const T dtheta2 = s[3];
  const T cos_theta2 = std::cos(theta2);
  const T sin_theta2 = std::sin(theta2);
  const T d1 = m1 * (lc1 * lc1) + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * cos_theta2) + I1 + I2;
  const T d2 = m2 * (lc2 * lc2 + l1 * lc2 * cos_theta2) + I2;
  const T phi2 = m2 * lc2 * g * std::cos(theta1 + theta2 - T(kPi) / T(2.0));
  const T phi1 = -m2 * l1 * lc2 * NumpySquare(dtheta2) * sin_theta2 -
                 2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * sin_theta2 +
                 (m1 * lc1 + m2 * l1) * g * std::cos(theta1 - T(kPi) / 2) + phi2;
  const T ddtheta2 =
      (a + d2 / d1 * phi1 - m2 * l1 * lc2 * NumpySquare(dtheta1) * sin_theta2 - phi2) /
      (m2 * (lc2 * lc2) + I2 - NumpySquare(d2) / d1);
  const T ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
  dsdt[0] = dtheta1;
  dsdt[1] = dtheta2;
  dsdt[2] = ddtheta1;
  dsdt[3] = ddtheta2;
}

// gymnasium's wrap(): repeated shifts, not fmod, so the rounding matches.
template <typename T>
ENVPOOL_X_HD inline T AcrobotWrap(T x, T m, T M) {
  const T diff = M - m;
  while (x > M) x = x - diff;
  while (x < m) x = x + diff;
  return x;
}

// gymnasium's bound(): min(max(x, m), M).
template <typename T>
ENVPOOL_X_HD inline T AcrobotBound(T x, T m, T M) {
  if (m > x) x = m;
  if (M < x) x = M;
  return x;
}

template <typename T>
ENVPOOL_X_HD inline void AcrobotResetState(Rng& rng, AcrobotState<T>& s) {
  // gymnasium casts the initial state to float32 (it is float64 afterwards).
  float f[4];
  for (float& x : f) x = static_cast<float>(rng.Uniform(-0.1, 0.1));
  s.theta1 = static_cast<T>(f[0]);
  s.theta2 = static_cast<T>(f[1]);
  s.dtheta1 = static_cast<T>(f[2]);
  s.dtheta2 = static_cast<T>(f[3]);
}

template <typename T>
ENVPOOL_X_HD inline void AcrobotObservation(const AcrobotState<T>& s, float* obs) {
  obs[0] = static_cast<float>(std::cos(s.theta1));
  obs[1] = static_cast<float>(std::sin(s.theta1));
  obs[2] = static_cast<float>(std::cos(s.theta2));
  obs[3] = static_cast<float>(std::sin(s.theta2));
  obs[4] = static_cast<float>(s.dtheta1);
  obs[5] = static_cast<float>(s.dtheta2);
}

template <typename T>
ENVPOOL_X_HD inline void AcrobotDynamics(AcrobotState<T>& s, int action, const AcrobotParams<T>& p,
                                         bool* terminated, T* reward) {
  const T torque = static_cast<T>(action - 1);  // AVAIL_TORQUE = [-1, 0, +1]
  // One classic RK4 step over [0, dt], elementwise like gymnasium's rk4().
  const T y0[4] = {s.theta1, s.theta2, s.dtheta1, s.dtheta2};
  const T dt = p.dt;
  const T dt2 = dt / T(2.0);
  T k1[4], k2[4], k3[4], k4[4], y[4];
  AcrobotDerivatives(y0, torque, p, k1);
  for (int i = 0; i < 4; ++i) y[i] = y0[i] + dt2 * k1[i];
  AcrobotDerivatives(y, torque, p, k2);
  for (int i = 0; i < 4; ++i) y[i] = y0[i] + dt2 * k2[i];
  AcrobotDerivatives(y, torque, p, k3);
  for (int i = 0; i < 4; ++i) y[i] = y0[i] + dt * k3[i];
  AcrobotDerivatives(y, torque, p, k4);
  const T dt6 = dt / T(6.0);
  for (int i = 0; i < 4; ++i) {
    y[i] = y0[i] + dt6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  s.theta1 = AcrobotWrap(y[0], T(-kPi), T(kPi));
  s.theta2 = AcrobotWrap(y[1], T(-kPi), T(kPi));
  s.dtheta1 = AcrobotBound(y[2], -p.max_vel_1, p.max_vel_1);
  s.dtheta2 = AcrobotBound(y[3], -p.max_vel_2, p.max_vel_2);
  const bool done = -std::cos(s.theta1) - std::cos(s.theta2 + s.theta1) > T(1.0);
  *terminated = done;
  *reward = done ? T(0) : T(-1);
}

class Acrobot {
 public:
  static constexpr const char* kName = "Acrobot";
  static constexpr bool kCheap = true;

  static Config DefaultConfig() {
    Config c;
    AcrobotParams<double> p;
    const std::vector<ParamSpec> specs = ParamSpecs();
    for (size_t k = 0; k < specs.size(); ++k) c.Set(specs[k].name, Constant(p, k));
    return c;
  }
  // gymnasium's class constants in lower case (its `g` is a local of _dsdt);
  // max_vel_1 / max_vel_2 bound the observation space, so stay fixed.
  static std::vector<ParamSpec> ParamSpecs() {
    return {{"dt", 1e-4, 1.0},
            {"link_length_1", 1e-3, 1e2},
            {"link_mass_1", 1e-3, 1e3},
            {"link_mass_2", 1e-3, 1e3},
            {"link_com_pos_1", 0.0, 1e2},
            {"link_com_pos_2", 0.0, 1e2},
            {"link_moi", 0.0, 1e3},
            {"g", 0.0, 1e3}};
  }
  // The kernel constants of a config (the CUDA stepper's too).
  static AcrobotParams<double> ParamsFromConfig(const Config& config) {
    AcrobotParams<double> p;
    SetConstants(p, ParamValuesOf(ParamSpecs(), config).data());
    return p;
  }
  ENVPOOL_X_HD static void SetConstants(AcrobotParams<double>& p, const double* values) {
    for (size_t k = 0; k < kNumParams; ++k) Constant(p, k) = values[k];
  }
  // Where parameter k of ParamSpecs lives in AcrobotParams (a switch, not a
  // table of member pointers, so that the CUDA stepper's kernel can use it).
  ENVPOOL_X_HD static double& Constant(AcrobotParams<double>& p, size_t k) {
    switch (k) {
      case 0:
        return p.dt;
      case 1:
        return p.link_length_1;
      case 2:
        return p.link_mass_1;
      case 3:
        return p.link_mass_2;
      case 4:
        return p.link_com_pos_1;
      case 5:
        return p.link_com_pos_2;
      case 6:
        return p.link_moi;
      default:
        return p.g;
    }
  }

  static EnvSpec Spec(const Config& /*config*/) {
    const AcrobotParams<double> p;
    const double v1 = RoundToFloat32(p.max_vel_1);
    const double v2 = RoundToFloat32(p.max_vel_2);
    EnvSpec spec;
    spec.obs.push_back(ArraySpec{"obs",
                                 DType::kFloat32,
                                 {6},
                                 {-1.0, -1.0, -1.0, -1.0, -v1, -v2},
                                 {1.0, 1.0, 1.0, 1.0, v1, v2}});
    spec.action.discrete = true;
    spec.action.n = 3;
    spec.reward_low = -1.0;
    spec.reward_high = 0.0;
    return spec;
  }

  Acrobot(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<float>(spec, "obs")), params_(ParamsFromConfig(config)) {}

  void SetParams(const double* values) { SetConstants(params_, values); }

  void Reset(Rng& rng, const StepOutput& out) {
    AcrobotResetState(rng, state_);
    AcrobotObservation(state_, out[obs_]);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    double reward = 0.0;
    AcrobotDynamics(state_, DiscreteAction(action), params_, out.terminated, &reward);
    *out.reward = static_cast<float>(reward);
    AcrobotObservation(state_, out[obs_]);
  }

  std::vector<double> GetState() const {
    return {state_.theta1, state_.theta2, state_.dtheta1, state_.dtheta2};
  }

  void SetState(const std::vector<double>& s) {
    if (s.size() != 4) {
      throw ValueError(
          "Acrobot state must have 4 values [theta1, theta2, dtheta1, "
          "dtheta2], got " +
          std::to_string(s.size()));
    }
    // The step wraps angles by repeated shifts of 2 pi (as gymnasium does):
    // an infinite or huge angle would never (or only after ages) come back.
    for (double v : s) {
      if (!(std::abs(v) <= 1e6)) {
        throw ValueError("Acrobot state values must be finite and at most 1e6 in magnitude");
      }
    }
    state_ = AcrobotState<double>{s[0], s[1], s[2], s[3]};
  }

 private:
  static constexpr size_t kNumParams = 8;
  OutputField<float> obs_;
  AcrobotParams<double> params_;
  AcrobotState<double> state_{0.0, 0.0, 0.0, 0.0};
};

}  // namespace envpool_x
