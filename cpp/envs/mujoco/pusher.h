// Pusher-v4 / -v5, as gymnasium 1.4.0's pusher_v4.py / _v5.py. Never
// terminates (the time limit of 100 steps ends episodes). The object and
// the goal are slide joints, so they are part of qpos. v4 computes the reward
// from the state before the step and reports the unweighted control term;
// v5 computes it after the step and reports the weighted terms plus
// reward_near. v4 loads pusher.xml, v5 pusher_v5.xml.
//
// gymnasium refuses to build Pusher-v4 on mujoco >= 3 (its issue 950: with
// pusher.xml's nearly massless object, the arm passes through the object
// there; pusher_v5.xml makes the object 500x heavier). Ours is what the v4
// code computes on the MuJoCo we ship (3.17.0), so it inherits that flaw:
// use Pusher-v5.
#pragma once

#include <string>
#include <vector>

#include "envs/mujoco/mujoco_env.h"
#include "envs/mujoco/numpy_ops.h"

namespace envpool_x {

template <int V>
class Pusher : public MujocoEnvBase {
  static_assert(V == 4 || V == 5);

 public:
  static constexpr const char* kName = V == 4 ? "PusherV4" : "PusherV5";
  static constexpr int kArm = 7;  // arm joints observed (qpos, qvel)

  static Config DefaultConfig() {
    return Config{{"xml_file", std::string(V == 4 ? "pusher.xml" : "pusher_v5.xml")},
                  {"frame_skip", int64_t{5}},
                  {"reward_near_weight", 0.5},
                  {"reward_dist_weight", 1.0},
                  {"reward_control_weight", 0.1}};
  }

  static std::vector<const char*> InfoNames() {
    if (V == 4) return {"reward_dist", "reward_ctrl"};
    return {"reward_dist", "reward_ctrl", "reward_near"};
  }

  static EnvSpec Spec(const Config& config) {
    auto model = mujoco_detail::LoadModel(config.String("xml_file"));
    EnvSpec spec;
    spec.obs.push_back(mujoco_detail::UnboundedF64("obs", 2 * kArm + 9));
    for (const char* name : InfoNames()) spec.info.push_back(mujoco_detail::ScalarF64(name));
    spec.action = mujoco_detail::CtrlRangeAction(model.get());
    return spec;
  }

  Pusher(const Config& config, const EnvSpec& spec)
      : MujocoEnvBase(config.String("xml_file"), static_cast<int>(config.Int("frame_skip"))),
        reward_near_weight_(config.Double("reward_near_weight")),
        reward_dist_weight_(config.Double("reward_dist_weight")),
        reward_control_weight_(config.Double("reward_control_weight")),
        tips_arm_(BodyId("tips_arm")),
        object_(BodyId("object")),
        goal_(BodyId("goal")),
        obs_(ObsField<double>(spec, "obs")),
        info_(mujoco_detail::ResolveInfoF64(spec, InfoNames())),
        reward_dist_(InfoField<double>(spec, "reward_dist")),
        reward_ctrl_(InfoField<double>(spec, "reward_ctrl")),
        reward_near_(mujoco_detail::InfoF64If(V == 5, spec, "reward_near")) {
    if (nq() < kArm + 4 || nv() < kArm + 4) {
      throw ValueError("Pusher needs a model with 7 arm joints, the object's and the goal's");
    }
  }

  // gymnasium's reset_model: the arm at its initial qpos (no noise), the
  // object uniform in [-0.3, 0] x [-0.2, 0.2] but farther than 0.17 from the
  // goal (rejection), the goal at (0, 0); qvel init + U(-0.005, 0.005) with
  // the object's and goal's at 0.
  void Reset(Rng& rng, const StepOutput& out) {
    mj_resetData(model_.get(), data_.get());
    for (int i = 0; i < nq(); ++i) qpos_buf_[i] = init_qpos_[i];
    double cylinder[2];
    do {
      cylinder[0] = rng.Uniform(-0.3, 0.0);
      cylinder[1] = rng.Uniform(-0.2, 0.2);
    } while (!(mujoco_detail::NormF64(cylinder, 2) > 0.17));
    qpos_buf_[nq() - 4] = cylinder[0];
    qpos_buf_[nq() - 3] = cylinder[1];
    qpos_buf_[nq() - 2] = qpos_buf_[nq() - 1] = 0.0;
    for (int i = 0; i < nv(); ++i) qvel_buf_[i] = init_qvel_[i] + rng.Uniform(-0.005, 0.005);
    for (int i = nv() - 4; i < nv(); ++i) qvel_buf_[i] = 0.0;
    SetQposQvel(qpos_buf_.data(), qvel_buf_.data());
    WriteObs(out);
    mujoco_detail::ZeroInfo(out, info_);
  }

  // Stepped in parts (see core/env.h): the physics between BeginStep and
  // EndStep is StepPart's.
  // v4 rewards the distances before the physics, v5 after.
  void BeginStep(const void* action) {
    action_ = BoxAction(action);
    if (V == 4) Distances();
    StartSimulation(action_);
  }

  void EndStep(const StepOutput& out) {
    // numpy: -square(float32 action).sum() stays float32, and so does its
    // product with a Python float.
    const float ctrl = -mujoco_detail::SumSquaresF32(action_, nu());
    const float weighted_ctrl = ctrl * static_cast<float>(reward_control_weight_);
    if (V == 5) Distances();
    const double reward_near = near_;
    const double reward_dist = dist_;
    *out.reward =
        static_cast<float>((reward_dist + static_cast<double>(weighted_ctrl)) + reward_near);
    *out.terminated = false;
    WriteObs(out);
    *out[reward_dist_] = reward_dist;
    if (V == 4) {
      *out[reward_ctrl_] = ctrl;
    } else {
      *out[reward_ctrl_] = weighted_ctrl;
      *out[reward_near_] = reward_near;
    }
    EndEpisodeIfUnstable(out);
  }

 private:
  void Distances() {
    near_ = -Distance(object_, tips_arm_) * reward_near_weight_;
    dist_ = -Distance(object_, goal_) * reward_dist_weight_;
  }

  double Distance(int from, int to) const {
    double vec[3];
    for (int k = 0; k < 3; ++k) vec[k] = data_->xpos[3 * from + k] - data_->xpos[3 * to + k];
    return mujoco_detail::NormF64(vec, 3);
  }

  void WriteObs(const StepOutput& out) const {
    double* obs = out[obs_];
    for (int i = 0; i < kArm; ++i) *obs++ = data_->qpos[i];
    for (int i = 0; i < kArm; ++i) *obs++ = data_->qvel[i];
    for (int body : {tips_arm_, object_, goal_}) {
      for (int k = 0; k < 3; ++k) *obs++ = data_->xpos[3 * body + k];
    }
  }

  double reward_near_weight_;
  double reward_dist_weight_;
  double reward_control_weight_;
  int tips_arm_;
  int object_;
  int goal_;
  OutputField<double> obs_;
  std::vector<mujoco_detail::InfoF64> info_;  // all of InfoNames(), zeroed on reset
  OutputField<double> reward_dist_;
  OutputField<double> reward_ctrl_;
  OutputField<double> reward_near_;  // v5 only
  // The step in progress (BeginStep to EndStep).
  const float* action_ = nullptr;
  // reward_near and reward_dist (Distances): v4 before the physics, v5 after.
  double near_ = 0.0;
  double dist_ = 0.0;
};

}  // namespace envpool_x
