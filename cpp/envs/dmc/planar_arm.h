// The planar arm that dm_control's manipulator and stacker share (its XML
// parts come from one model): eight arm and gripper joints, a hand and a grasp
// site. What both tasks do with it: the random arm pose of their
// initialize_episode, the arm's observations (joint sines / cosines and
// velocities, the hand's pose) and the distance between two sites.
#pragma once

#include <cmath>

#include "envs/dmc/dmc_env.h"

namespace envpool_x::dmc {

class PlanarArmEnv : public DmcEnvBase {
 public:
  static constexpr int kNumArmJoints = 8;

  // Both tasks' own models (each env writes its task's poses into its copy).
  PlanarArmEnv(const Config& config, double control_timestep, const EnvSpec& spec)
      : DmcEnvBase(config, control_timestep, /*own_model=*/true),
        hand_(Id(mjOBJ_BODY, "hand")),
        grasp_site_(Id(mjOBJ_SITE, "grasp")),
        finger_qpos_(JointQpos("finger")),
        thumb_qpos_(JointQpos("thumb")),
        obs_arm_pos_(ObsField<double>(spec, "arm_pos")),
        obs_arm_vel_(ObsField<double>(spec, "arm_vel")),
        obs_hand_pos_(ObsField<double>(spec, "hand_pos")) {
    for (int i = 0; i < kNumArmJoints; ++i) {
      const int j = Id(mjOBJ_JOINT, kArmJoints[i]);
      arm_joints_[i] = j;
      arm_qpos_[i] = model_->jnt_qposadr[j];
      arm_dof_[i] = model_->jnt_dofadr[j];
    }
  }

 protected:
  // Limited joints uniform in their range, the others in [-pi, pi); the
  // finger follows the thumb.
  void RandomArmPose(Rng& rng) {
    for (int i = 0; i < kNumArmJoints; ++i) {
      const int j = arm_joints_[i];
      const bool limited = model_->jnt_limited[j];
      data_->qpos[arm_qpos_[i]] = rng.Uniform(limited ? model_->jnt_range[2 * j] : -M_PI,
                                              limited ? model_->jnt_range[2 * j + 1] : M_PI);
    }
    data_->qpos[finger_qpos_] = data_->qpos[thumb_qpos_];
  }

  // arm_pos (sin, cos per joint), arm_vel and hand_pos.
  void WriteArmObs(const StepOutput& out) const {
    double* pos = out[obs_arm_pos_];
    double* vel = out[obs_arm_vel_];
    for (int i = 0; i < kNumArmJoints; ++i) {
      const double q = data_->qpos[arm_qpos_[i]];
      pos[2 * i] = std::sin(q);
      pos[2 * i + 1] = std::cos(q);
      vel[i] = data_->qvel[arm_dof_[i]];
    }
    Pose2d(hand_, out[obs_hand_pos_]);
  }

  // A body's x, z and the w, y of its orientation.
  void Pose2d(int body, double* out) const {
    out[0] = data_->xpos[3 * body];
    out[1] = data_->xpos[3 * body + 2];
    out[2] = data_->xquat[4 * body];
    out[3] = data_->xquat[4 * body + 2];
  }

  double SiteDistance(int a, int b) const {
    double d2 = 0;
    for (int i = 0; i < 3; ++i) {
      const double d = data_->site_xpos[3 * a + i] - data_->site_xpos[3 * b + i];
      d2 += d * d;
    }
    return std::sqrt(d2);
  }

  int hand_;
  int grasp_site_;

 private:
  static constexpr const char* kArmJoints[kNumArmJoints] = {
      "arm_root", "arm_shoulder", "arm_elbow", "arm_wrist",
      "finger",   "fingertip",    "thumb",     "thumbtip"};

  int finger_qpos_;
  int thumb_qpos_;
  int arm_joints_[kNumArmJoints] = {};
  int arm_qpos_[kNumArmJoints] = {};
  int arm_dof_[kNumArmJoints] = {};
  OutputField<double> obs_arm_pos_;
  OutputField<double> obs_arm_vel_;
  OutputField<double> obs_hand_pos_;
};

}  // namespace envpool_x::dmc
