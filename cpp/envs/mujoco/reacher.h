// Reacher-v4 / -v5, as gymnasium 1.4.0's reacher_v4.py / _v5.py. Never
// terminates (the time limit of 50 steps ends episodes). The target is two
// slide joints, so it is part of qpos. v4 computes the reward from the state
// before the step and observes the full 3-d fingertip - target vector (11
// values); v5 computes it after the step, weighs its two terms and observes
// the x, y of that vector (10 values).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "envs/mujoco/mujoco_env.h"
#include "envs/mujoco/numpy_ops.h"

namespace envpool_x {

template <int V>
class Reacher : public MujocoEnvBase {
  static_assert(V == 4 || V == 5);

 public:
  static constexpr const char* kName = V == 4 ? "ReacherV4" : "ReacherV5";

  static Config DefaultConfig() {
    return Config{{"xml_file", std::string("reacher.xml")},
                  {"frame_skip", int64_t{2}},
                  {"reward_dist_weight", 1.0},
                  {"reward_control_weight", 1.0}};
  }

  static EnvSpec Spec(const Config& config) {
    auto model = mujoco_detail::LoadModel(config.String("xml_file"));
    EnvSpec spec;
    // cos, sin of the two arm angles, the target's qpos, the arm's qvel and
    // fingertip - target.
    const int size = 4 + (model->nq - 2) + 2 + (V == 4 ? 3 : 2);
    spec.obs.push_back(mujoco_detail::UnboundedF64("obs", size));
    for (const char* name : {"reward_dist", "reward_ctrl"}) {
      spec.info.push_back(mujoco_detail::ScalarF64(name));
    }
    spec.action = mujoco_detail::CtrlRangeAction(model.get());
    return spec;
  }

  Reacher(const Config& config, const EnvSpec& spec)
      : MujocoEnvBase(config.String("xml_file"), static_cast<int>(config.Int("frame_skip"))),
        reward_dist_weight_(config.Double("reward_dist_weight")),
        reward_control_weight_(config.Double("reward_control_weight")),
        fingertip_(BodyId("fingertip")),
        target_(BodyId("target")),
        obs_(ObsField<double>(spec, "obs")),
        reward_dist_(InfoField<double>(spec, "reward_dist")),
        reward_ctrl_(InfoField<double>(spec, "reward_ctrl")) {
    if (nq() < 4 || nv() < 4) throw ValueError("Reacher needs a model with 4 qpos and qvel");
  }

  // gymnasium's reset_model: arm angles init + U(-0.1, 0.1); the target
  // uniform in the disk of radius 0.2 (rejection from the square); qvel
  // init + U(-0.005, 0.005) with the target's at 0.
  void Reset(Rng& rng, const StepOutput& out) {
    mj_resetData(model_.get(), data_.get());
    for (int i = 0; i < nq(); ++i) qpos_buf_[i] = init_qpos_[i] + rng.Uniform(-0.1, 0.1);
    double goal[2];
    do {
      goal[0] = rng.Uniform(-0.2, 0.2);
      goal[1] = rng.Uniform(-0.2, 0.2);
    } while (!(mujoco_detail::NormF64(goal, 2) < 0.2));
    qpos_buf_[nq() - 2] = goal[0];
    qpos_buf_[nq() - 1] = goal[1];
    for (int i = 0; i < nv(); ++i) qvel_buf_[i] = init_qvel_[i] + rng.Uniform(-0.005, 0.005);
    qvel_buf_[nv() - 2] = qvel_buf_[nv() - 1] = 0.0;
    SetQposQvel(qpos_buf_.data(), qvel_buf_.data());
    WriteObs(out);
    *out[reward_dist_] = *out[reward_ctrl_] = 0.0;
  }

  // Stepped in parts (see core/env.h): the physics between BeginStep and
  // EndStep is StepPart's.
  // v4 rewards the distance before the physics, v5 after.
  void BeginStep(const void* action) {
    action_ = BoxAction(action);
    if (V == 4) dist_before_ = -Distance();
    StartSimulation(action_);
  }

  void EndStep(const StepOutput& out) {
    // numpy: -square(float32 action).sum() stays float32.
    const float ctrl = -mujoco_detail::SumSquaresF32(action_, nu());
    double reward_dist;
    float reward_ctrl;
    if (V == 4) {
      reward_dist = dist_before_;
      reward_ctrl = ctrl;
    } else {
      reward_dist = -Distance() * reward_dist_weight_;
      reward_ctrl = ctrl * static_cast<float>(reward_control_weight_);
    }
    *out.reward = static_cast<float>(reward_dist + static_cast<double>(reward_ctrl));
    *out.terminated = false;
    WriteObs(out);
    *out[reward_dist_] = reward_dist;
    *out[reward_ctrl_] = reward_ctrl;
    EndEpisodeIfUnstable(out);
  }

 private:
  void TipToTarget(double* vec) const {
    for (int k = 0; k < 3; ++k) {
      vec[k] = data_->xpos[3 * fingertip_ + k] - data_->xpos[3 * target_ + k];
    }
  }

  double Distance() const {
    double vec[3];
    TipToTarget(vec);
    return mujoco_detail::NormF64(vec, 3);
  }

  void WriteObs(const StepOutput& out) const {
    double* obs = out[obs_];
    *obs++ = std::cos(data_->qpos[0]);
    *obs++ = std::cos(data_->qpos[1]);
    *obs++ = std::sin(data_->qpos[0]);
    *obs++ = std::sin(data_->qpos[1]);
    for (int i = 2; i < nq(); ++i) *obs++ = data_->qpos[i];
    *obs++ = data_->qvel[0];
    *obs++ = data_->qvel[1];
    double vec[3];
    TipToTarget(vec);
    for (int k = 0; k < (V == 4 ? 3 : 2); ++k) *obs++ = vec[k];
  }

  double reward_dist_weight_;
  double reward_control_weight_;
  int fingertip_;
  int target_;
  OutputField<double> obs_;
  OutputField<double> reward_dist_;
  OutputField<double> reward_ctrl_;
  // The step in progress (BeginStep to EndStep).
  const float* action_ = nullptr;
  double dist_before_ = 0.0;  // v4: -distance before the physics
};

}  // namespace envpool_x
