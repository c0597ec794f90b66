// CartPole-v0/v1, matching gymnasium 1.4.0's CartPoleEnv.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/params.h"
#include "envs/classic_control/numpy_math.h"

namespace envpool_x {

template <typename T>
struct CartPoleState {
  T x;
  T x_dot;
  T theta;
  T theta_dot;
};

template <typename T>
struct CartPoleParams {
  T gravity = 9.8;
  T masscart = 1.0;
  T masspole = 0.1;
  T total_mass = masspole + masscart;
  T length = 0.5;  // half the pole's length
  T polemass_length = masspole * length;
  T force_mag = 10.0;
  T tau = 0.02;
  T theta_threshold = 12 * 2 * kPi / 360;
  T x_threshold = 2.4;
  bool sutton_barto_reward = false;
};

template <typename T>
ENVPOOL_X_HD inline void CartPoleResetState(Rng& rng, CartPoleState<T>& s) {
  s.x = static_cast<T>(rng.Uniform(-0.05, 0.05));
  s.x_dot = static_cast<T>(rng.Uniform(-0.05, 0.05));
  s.theta = static_cast<T>(rng.Uniform(-0.05, 0.05));
  s.theta_dot = static_cast<T>(rng.Uniform(-0.05, 0.05));
}

template <typename T>
ENVPOOL_X_HD inline void CartPoleObservation(const CartPoleState<T>& s, float* obs) {
  obs[0] = static_cast<float>(s.x);
  obs[1] = static_cast<float>(s.x_dot);
  obs[2] = static_cast<float>(s.theta);
  obs[3] = static_cast<float>(s.theta_dot);
}

// One step; the expressions keep gymnasium's evaluation order so that the
// float64 results are identical (np.square is a plain multiplication).
template <typename T>
ENVPOOL_X_HD inline void CartPoleDynamics(CartPoleState<T>& s, int action,
                                          const CartPoleParams<T>& p, bool* terminated, T* reward) {
  const T force = action == 1 ? p.force_mag : -p.force_mag;
  const T costheta = std::cos(s.theta);
  const T sintheta = std::sin(s.theta);
  const T temp =
      (force + p.polemass_length * (s.theta_dot * s.theta_dot) * sintheta) / p.total_mass;
  const T thetaacc =
      (p.gravity * sintheta - costheta * temp) /
      (p.length * (T(4.0) / T(3.0) - p.masspole * (costheta * costheta) / p.total_mass));
  const T xacc = temp - p.polemass_length * thetaacc * costheta / p.total_mass;
  // gymnasium's default "euler" integrator: positions move with the old
  // velocities.
  s.x = s.x + p.tau * s.x_dot;
  s.x_dot = s.x_dot + p.tau * xacc;
  s.theta = s.theta + p.tau * s.theta_dot;
  s.theta_dot = s.theta_dot + p.tau * thetaacc;
  const bool done = s.x < -p.x_threshold || s.x > p.x_threshold || s.theta < -p.theta_threshold ||
                    s.theta > p.theta_threshold;
  *terminated = done;
  // The terminating step still earns the usual +1 (or -1 under Sutton-Barto);
  // gymnasium's steps past termination never happen here, the pool resets.
  if (p.sutton_barto_reward) {
    *reward = done ? T(-1) : T(0);
  } else {
    *reward = T(1);
  }
}

// The constants of `values` (CartPole::ParamSpecs order), with gymnasium's
// derived ones computed as its constructor does.
ENVPOOL_X_HD inline CartPoleParams<double> CartPoleParamsOf(const double* values,
                                                            bool sutton_barto_reward) {
  CartPoleParams<double> p;
  p.gravity = values[0];
  p.masscart = values[1];
  p.masspole = values[2];
  p.length = values[3];
  p.force_mag = values[4];
  p.tau = values[5];
  p.total_mass = p.masspole + p.masscart;
  p.polemass_length = p.masspole * p.length;
  p.sutton_barto_reward = sutton_barto_reward;
  return p;
}

class CartPole {
 public:
  static constexpr const char* kName = "CartPole";
  static constexpr bool kCheap = true;

  static Config DefaultConfig() {
    const CartPoleParams<double> p;
    return Config{{"sutton_barto_reward", false},
                  {"gravity", p.gravity},
                  {"masscart", p.masscart},
                  {"masspole", p.masspole},
                  {"length", p.length},
                  {"force_mag", p.force_mag},
                  {"tau", p.tau}};
  }
  // gymnasium's attribute names; `length` is half the pole's length.
  static std::vector<ParamSpec> ParamSpecs() {
    return {{"gravity", 0.0, 1e3}, {"masscart", 1e-3, 1e3}, {"masspole", 1e-4, 1e3},
            {"length", 1e-3, 1e2}, {"force_mag", 0.0, 1e4}, {"tau", 1e-5, 1.0}};
  }
  // The kernel constants of a config (the CUDA stepper's too).
  static CartPoleParams<double> ParamsFromConfig(const Config& config) {
    return CartPoleParamsOf(ParamValuesOf(ParamSpecs(), config).data(),
                            config.Bool("sutton_barto_reward"));
  }

  static EnvSpec Spec(const Config& config) {
    const double inf = std::numeric_limits<double>::infinity();
    const CartPoleParams<double> p;
    const double x_high = RoundToFloat32(p.x_threshold * 2);
    const double theta_high = RoundToFloat32(p.theta_threshold * 2);
    EnvSpec spec;
    spec.obs.push_back(ArraySpec{"obs",
                                 DType::kFloat32,
                                 {4},
                                 {-x_high, -inf, -theta_high, -inf},
                                 {x_high, inf, theta_high, inf}});
    spec.action.discrete = true;
    spec.action.n = 2;
    if (config.Bool("sutton_barto_reward")) {
      spec.reward_low = -1.0;
      spec.reward_high = 0.0;
    } else {
      spec.reward_low = 1.0;
      spec.reward_high = 1.0;
    }
    return spec;
  }

  CartPole(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<float>(spec, "obs")), own_(ParamsFromConfig(config)) {
    // gymnasium's constants: the copy shared by all envs, one in cache.
    const CartPoleParams<double>& shared = own_.sutton_barto_reward ? kSuttonBartoParams : kParams;
    params_ = SameConstants(own_, shared) ? &shared : &own_;
  }
  CartPole(const CartPole& o) : obs_(o.obs_), own_(o.own_), state_(o.state_) {
    params_ = o.params_ == &o.own_ ? &own_ : o.params_;
  }
  CartPole& operator=(const CartPole&) = delete;

  void SetParams(const double* values) {
    own_ = CartPoleParamsOf(values, own_.sutton_barto_reward);
    params_ = &own_;
  }

  void Reset(Rng& rng, const StepOutput& out) {
    CartPoleResetState(rng, state_);
    CartPoleObservation(state_, out[obs_]);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    double reward = 0.0;
    CartPoleDynamics(state_, DiscreteAction(action), *params_, out.terminated, &reward);
    *out.reward = static_cast<float>(reward);
    CartPoleObservation(state_, out[obs_]);
  }

  std::vector<double> GetState() const {
    return {state_.x, state_.x_dot, state_.theta, state_.theta_dot};
  }

  void SetState(const std::vector<double>& s) {
    if (s.size() != 4) {
      throw ValueError(
          "CartPole state must have 4 values [x, x_dot, theta, theta_dot], "
          "got " +
          std::to_string(s.size()));
    }
    state_ = CartPoleState<double>{s[0], s[1], s[2], s[3]};
  }

 private:
  // Shared by all envs: one copy in cache instead of one per env.
  static inline const CartPoleParams<double> kParams{};
  static inline const CartPoleParams<double> kSuttonBartoParams = [] {
    CartPoleParams<double> p;
    p.sutton_barto_reward = true;
    return p;
  }();
  static bool SameConstants(const CartPoleParams<double>& a, const CartPoleParams<double>& b) {
    return a.gravity == b.gravity && a.masscart == b.masscart && a.masspole == b.masspole &&
           a.length == b.length && a.force_mag == b.force_mag && a.tau == b.tau;
  }
  OutputField<float> obs_;
  CartPoleParams<double> own_;  // this env's constants, when they are not gymnasium's
  const CartPoleParams<double>* params_ = &kParams;
  CartPoleState<double> state_{0.0, 0.0, 0.0, 0.0};
};

}  // namespace envpool_x
