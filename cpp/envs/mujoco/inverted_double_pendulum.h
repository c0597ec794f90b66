// InvertedDoublePendulum-v4 / -v5, as gymnasium 1.4.0's
// inverted_double_pendulum_v4.py / _v5.py. Both end the episode when the tip
// (site 0) is at height <= 1. v4 pays the alive bonus of 10 on that step too
// and observes all of qfrc_constraint (11 values); v5 pays healthy_reward
// only while not terminated, observes qfrc_constraint[0] only (9 values) and
// reports the reward terms in info.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "envs/mujoco/mujoco_env.h"
#include "envs/mujoco/numpy_ops.h"

namespace envpool_x {

template <int V>
class InvertedDoublePendulum : public MujocoEnvBase {
  static_assert(V == 4 || V == 5);

 public:
  static constexpr const char* kName =
      V == 4 ? "InvertedDoublePendulumV4" : "InvertedDoublePendulumV5";

  static Config DefaultConfig() {
    return Config{{"xml_file", std::string("inverted_double_pendulum.xml")},
                  {"frame_skip", int64_t{5}},
                  {"healthy_reward", 10.0},
                  {"reset_noise_scale", 0.1}};
  }

  static int ObsSize(const mjModel* m) {
    return 1 + 2 * (m->nq - 1) + m->nv + (V == 4 ? m->nv : 1);
  }

  static EnvSpec Spec(const Config& config) {
    auto model = mujoco_detail::LoadModel(config.String("xml_file"));
    EnvSpec spec;
    spec.obs.push_back(mujoco_detail::UnboundedF64("obs", ObsSize(model.get())));
    if (V == 5) {
      for (const char* name : {"reward_survive", "distance_penalty", "velocity_penalty"}) {
        spec.info.push_back(mujoco_detail::ScalarF64(name));
      }
    }
    spec.action = mujoco_detail::CtrlRangeAction(model.get());
    return spec;
  }

  InvertedDoublePendulum(const Config& config, const EnvSpec& spec)
      : MujocoEnvBase(config.String("xml_file"), static_cast<int>(config.Int("frame_skip"))),
        healthy_reward_(config.Double("healthy_reward")),
        reset_noise_scale_(config.Double("reset_noise_scale")),
        obs_(ObsField<double>(spec, "obs")),
        reward_survive_(mujoco_detail::InfoF64If(V == 5, spec, "reward_survive")),
        distance_penalty_(mujoco_detail::InfoF64If(V == 5, spec, "distance_penalty")),
        velocity_penalty_(mujoco_detail::InfoF64If(V == 5, spec, "velocity_penalty")) {
    if (model_->nsite < 1 || nv() < 3) {
      throw ValueError("InvertedDoublePendulum needs a model with a tip site and 3 dofs");
    }
  }

  void Reset(Rng& rng, const StepOutput& out) {
    // qpos uniform in +-scale, qvel scale * standard normal.
    ResetWithNoise(rng, reset_noise_scale_, /*normal_qvel=*/true);
    WriteObs(out);
    if (V == 5) *out[reward_survive_] = *out[distance_penalty_] = *out[velocity_penalty_] = 0.0;
  }

  // Stepped in parts (see core/env.h): the physics between BeginStep and
  // EndStep is StepPart's.
  void BeginStep(const void* action) { StartSimulation(BoxAction(action)); }

  void EndStep(const StepOutput& out) {
    using mujoco_detail::NumpySquare;
    const double x = data_->site_xpos[0];
    const double y = data_->site_xpos[2];
    WriteObs(out);
    const bool terminated = y <= 1.0;
    const double v1 = data_->qvel[1];
    const double v2 = data_->qvel[2];
    const double dist_penalty = 0.01 * NumpySquare(x) + NumpySquare(y - 2.0);
    const double vel_penalty = 0.001 * NumpySquare(v1) + 0.005 * NumpySquare(v2);
    const double alive_bonus = V == 4 ? 10.0 : (terminated ? 0.0 : healthy_reward_);
    *out.reward = static_cast<float>(alive_bonus - dist_penalty - vel_penalty);
    *out.terminated = terminated;
    if (V == 5) {
      *out[reward_survive_] = alive_bonus;
      *out[distance_penalty_] = -dist_penalty;
      *out[velocity_penalty_] = -vel_penalty;
    }
    EndEpisodeIfUnstable(out);
  }

 private:
  void WriteObs(const StepOutput& out) const {
    double* obs = out[obs_];
    *obs++ = data_->qpos[0];
    for (int i = 1; i < nq(); ++i) *obs++ = std::sin(data_->qpos[i]);
    for (int i = 1; i < nq(); ++i) *obs++ = std::cos(data_->qpos[i]);
    for (int i = 0; i < nv(); ++i) *obs++ = std::clamp(data_->qvel[i], -10.0, 10.0);
    const int nc = V == 4 ? nv() : 1;
    for (int i = 0; i < nc; ++i) *obs++ = std::clamp(data_->qfrc_constraint[i], -10.0, 10.0);
  }

  double healthy_reward_;
  double reset_noise_scale_;
  OutputField<double> obs_;
  // v5 only:
  OutputField<double> reward_survive_;
  OutputField<double> distance_penalty_;
  OutputField<double> velocity_penalty_;
};

}  // namespace envpool_x
