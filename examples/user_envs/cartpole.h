// CartPole written as a user's env (envpool_x.register_cpp_env), the same
// dynamics as the built-in CartPole-v1 (gymnasium 1.4.0's): the tests check
// that both give the same trajectories from the same seed, and
// benchmarks/bench_user_envs.py compares their speed.
#pragma once

#include <cmath>
#include <vector>

#include "core/env.h"
#include "core/errors.h"

namespace user {

using envpool_x::Config;
using envpool_x::EnvSpec;
using envpool_x::Rng;
using envpool_x::StepOutput;

class CartPole {
 public:
  static constexpr const char* kName = "UserCartPole";
  static constexpr bool kCheap = true;  // many envs per scheduling chunk

  static Config DefaultConfig() { return Config{{"force_mag", 10.0}}; }

  static EnvSpec Spec(const Config&) {
    EnvSpec spec;
    spec.obs.push_back(envpool_x::ArraySpec{"obs", envpool_x::DType::kFloat32, {4}, {}, {}});
    spec.action.discrete = true;
    spec.action.n = 2;
    return spec;
  }

  CartPole(const Config& config, const EnvSpec& spec)
      : force_mag_(config.Double("force_mag")),
        obs_(envpool_x::ObsField<float>(spec, "obs")) {}

  void Reset(Rng& rng, const StepOutput& out) {
    for (double& v : s_) v = rng.Uniform(-0.05, 0.05);
    Observe(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const double force = envpool_x::DiscreteAction(action) == 1 ? force_mag_ : -force_mag_;
    const double costheta = std::cos(s_[2]);
    const double sintheta = std::sin(s_[2]);
    const double temp = (force + kPoleMassLength * (s_[3] * s_[3]) * sintheta) / kTotalMass;
    const double thetaacc = (kGravity * sintheta - costheta * temp) /
                            (kLength * (4.0 / 3.0 - kMassPole * (costheta * costheta) / kTotalMass));
    const double xacc = temp - kPoleMassLength * thetaacc * costheta / kTotalMass;
    s_[0] = s_[0] + kTau * s_[1];
    s_[1] = s_[1] + kTau * xacc;
    s_[2] = s_[2] + kTau * s_[3];
    s_[3] = s_[3] + kTau * thetaacc;
    *out.terminated = s_[0] < -kXThreshold || s_[0] > kXThreshold || s_[2] < -kThetaThreshold ||
                      s_[2] > kThetaThreshold;
    *out.reward = 1.0f;
    Observe(out);
  }

  std::vector<double> GetState() const { return {s_[0], s_[1], s_[2], s_[3]}; }
  void SetState(const std::vector<double>& s) {
    if (s.size() != 4) throw envpool_x::ValueError("CartPole state has 4 values");
    for (int i = 0; i < 4; ++i) s_[i] = s[i];
  }

 private:
  static constexpr double kGravity = 9.8;
  static constexpr double kMassPole = 0.1;
  static constexpr double kTotalMass = 0.1 + 1.0;
  static constexpr double kLength = 0.5;
  static constexpr double kPoleMassLength = 0.1 * 0.5;
  static constexpr double kTau = 0.02;
  static constexpr double kXThreshold = 2.4;
  static constexpr double kThetaThreshold = 12 * 2 * M_PI / 360;

  void Observe(const StepOutput& out) const {
    float* obs = out[obs_];
    for (int i = 0; i < 4; ++i) obs[i] = static_cast<float>(s_[i]);
  }

  double force_mag_;
  envpool_x::OutputField<float> obs_;
  double s_[4] = {0.0, 0.0, 0.0, 0.0};
};

}  // namespace user
