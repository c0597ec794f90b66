// A user's own env for envpool_x.register_cpp_env: a point mass in a square
// arena pushed by a 2-D force towards a target. The episode ends when the
// point is within success_radius of the target.
//
// Observation (float32, 6): position, velocity, target - position.
// Action (float32, 2): the force, each component in [-1, 1].
// Reward: -distance to the target - 0.01 |force|^2, +10 on reaching it.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/env.h"
#include "core/errors.h"

namespace reacher {

using envpool_x::Config;
using envpool_x::EnvSpec;
using envpool_x::Rng;
using envpool_x::StepOutput;

class PointReacher {
 public:
  static constexpr const char* kName = "PointReacher";
  static constexpr bool kCheap = true;

  // Every key here becomes a keyword of make_gymnasium / make_dm.
  static Config DefaultConfig() {
    return Config{{"arena", 1.0}, {"damping", 0.5}, {"success_radius", 0.05}};
  }

  static EnvSpec Spec(const Config& config) {
    if (!(config.Double("arena") > 0) || !(config.Double("success_radius") > 0)) {
      throw envpool_x::ValueError("arena and success_radius must be > 0");
    }
    EnvSpec spec;
    spec.obs.push_back(envpool_x::ArraySpec{"obs", envpool_x::DType::kFloat32, {6}, {}, {}});
    spec.action.discrete = false;
    spec.action.box = envpool_x::ArraySpec{"action", envpool_x::DType::kFloat32, {2}, {-1}, {1}};
    return spec;
  }

  PointReacher(const Config& config, const EnvSpec& spec)
      : arena_(config.Double("arena")),
        damping_(config.Double("damping")),
        radius_(config.Double("success_radius")),
        obs_(envpool_x::ObsField<float>(spec, "obs")) {}

  void Reset(Rng& rng, const StepOutput& out) {
    for (int i = 0; i < 2; ++i) {
      pos_[i] = rng.Uniform(-arena_, arena_);
      vel_[i] = 0.0;
      target_[i] = rng.Uniform(-arena_, arena_);
    }
    Observe(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const float* force = envpool_x::BoxAction(action);
    double effort = 0.0;
    for (int i = 0; i < 2; ++i) {
      const double f = std::clamp(static_cast<double>(force[i]), -1.0, 1.0);
      effort += f * f;
      vel_[i] += kDt * (f - damping_ * vel_[i]);
      pos_[i] = std::clamp(pos_[i] + kDt * vel_[i], -arena_, arena_);
    }
    const double distance = std::hypot(target_[0] - pos_[0], target_[1] - pos_[1]);
    const bool reached = distance < radius_;
    *out.reward = static_cast<float>(-distance - 0.01 * effort + (reached ? 10.0 : 0.0));
    *out.terminated = reached;
    Observe(out);
  }

  // What tests and users copy in and out (get_state / set_state).
  std::vector<double> GetState() const {
    return {pos_[0], pos_[1], vel_[0], vel_[1], target_[0], target_[1]};
  }
  void SetState(const std::vector<double>& s) {
    if (s.size() != 6) throw envpool_x::ValueError("PointReacher state has 6 values");
    pos_[0] = s[0], pos_[1] = s[1], vel_[0] = s[2], vel_[1] = s[3];
    target_[0] = s[4], target_[1] = s[5];
  }

 private:
  static constexpr double kDt = 0.1;

  void Observe(const StepOutput& out) const {
    float* obs = out[obs_];
    for (int i = 0; i < 2; ++i) {
      obs[i] = static_cast<float>(pos_[i]);
      obs[2 + i] = static_cast<float>(vel_[i]);
      obs[4 + i] = static_cast<float>(target_[i] - pos_[i]);
    }
  }

  double arena_, damping_, radius_;
  envpool_x::OutputField<float> obs_;
  double pos_[2] = {0, 0}, vel_[2] = {0, 0}, target_[2] = {0, 0};
};

}  // namespace reacher
