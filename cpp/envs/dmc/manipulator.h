// dm_control suite: manipulator (task: bring_ball), as dm_control 1.0.50's
// manipulator.py (fully observable). Its model is dm_control's
// make_model(use_peg=False, insert=False), generated in Python at make time.
#pragma once

#include <cmath>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcManipulator : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcManipulator";

  static Config DefaultConfig() { return dmc::BaseConfig("bring_ball"); }

  static EnvSpec Spec(const Config& config) {
    CheckTask(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("arm_pos", {kNumArmJoints, 2}));
    spec.obs.push_back(dmc::ObsF64("arm_vel", {kNumArmJoints}));
    spec.obs.push_back(dmc::ObsF64("touch", {kNumTouch}));
    spec.obs.push_back(dmc::ObsF64("hand_pos", {4}));
    spec.obs.push_back(dmc::ObsF64("object_pos", {4}));
    spec.obs.push_back(dmc::ObsF64("object_vel", {3}));
    spec.obs.push_back(dmc::ObsF64("target_pos", {4}));
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcManipulator(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, kControlTimestep, /*own_model=*/true),
        hand_(Id(mjOBJ_BODY, "hand")),
        object_(Id(mjOBJ_BODY, "ball")),
        target_(Id(mjOBJ_BODY, "target_ball")),
        grasp_site_(Id(mjOBJ_SITE, "grasp")),
        ball_site_(Id(mjOBJ_SITE, "ball")),
        target_site_(Id(mjOBJ_SITE, "target_ball")),
        finger_qpos_(JointQpos("finger")),
        thumb_qpos_(JointQpos("thumb")),
        obs_arm_pos_(ObsField<double>(spec, "arm_pos")),
        obs_arm_vel_(ObsField<double>(spec, "arm_vel")),
        obs_touch_(ObsField<double>(spec, "touch")),
        obs_hand_pos_(ObsField<double>(spec, "hand_pos")),
        obs_object_pos_(ObsField<double>(spec, "object_pos")),
        obs_object_vel_(ObsField<double>(spec, "object_vel")),
        obs_target_pos_(ObsField<double>(spec, "target_pos")) {
    CheckTask(config.String("task_name"));
    for (int i = 0; i < kNumArmJoints; ++i) {
      const int j = Id(mjOBJ_JOINT, kArmJoints[i]);
      arm_joints_[i] = j;
      arm_qpos_[i] = model_->jnt_qposadr[j];
      arm_dof_[i] = model_->jnt_dofadr[j];
    }
    for (int i = 0; i < 3; ++i) {
      object_qpos_[i] = JointQpos(kObjectJoints[i]);
      object_dof_[i] = JointDof(kObjectJoints[i]);
    }
    for (int i = 0; i < kNumTouch; ++i) touch_adr_[i] = SensorAdr(kTouch[i]);
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    // dm_control redraws the whole arrangement until nothing penetrates.
    int redraws = 0;
    do {
      CountRedraw(&redraws, "Manipulator");
      for (int i = 0; i < kNumArmJoints; ++i) {
        const int j = arm_joints_[i];
        const bool limited = model_->jnt_limited[j];
        data_->qpos[arm_qpos_[i]] = rng.Uniform(limited ? model_->jnt_range[2 * j] : -M_PI,
                                                limited ? model_->jnt_range[2 * j + 1] : M_PI);
      }
      data_->qpos[finger_qpos_] = data_->qpos[thumb_qpos_];
      const double target_x = rng.Uniform(-0.4, 0.4);
      const double target_z = rng.Uniform(0.1, 0.4);
      const double target_angle = rng.Uniform(-M_PI, M_PI);
      const double target[4] = {target_x, target_z, std::cos(target_angle / 2),
                                std::sin(target_angle / 2)};
      SetTaskState(target);
      // The ball starts in the hand (p 0.1), in the target (p 0.1) or
      // anywhere, thrown sideways (p 0.8).
      const double u = rng.Uniform();
      double object[3];
      if (u < kPInHand) {
        AfterReset();
        const double* grasp_mat = data_->site_xmat + 9 * grasp_site_;
        object[0] = data_->site_xpos[3 * grasp_site_];
        object[1] = data_->site_xpos[3 * grasp_site_ + 2];
        object[2] = M_PI - std::atan2(grasp_mat[6], grasp_mat[0]);
      } else if (u < kPInHand + kPInTarget) {
        object[0] = target_x;
        object[1] = target_z;
        object[2] = target_angle;
      } else {
        object[0] = rng.Uniform(-0.5, 0.5);
        object[1] = rng.Uniform(0.0, 0.7);
        object[2] = rng.Uniform(0.0, 2 * M_PI);
        data_->qvel[object_dof_[0]] = rng.Uniform(-5.0, 5.0);
      }
      for (int i = 0; i < 3; ++i) data_->qpos[object_qpos_[i]] = object[i];
      AfterReset();
    } while (data_->ncon > 0);
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    double d2 = 0;
    for (int i = 0; i < 3; ++i) {
      const double d =
          data_->site_xpos[3 * target_site_ + i] - data_->site_xpos[3 * ball_site_ + i];
      d2 += d * d;
    }
    *out.reward = static_cast<float>(dmc::Tolerance(std::sqrt(d2), 0.0, kClose, 2 * kClose));
    *out.terminated = false;
  }

 protected:
  // The target's x, z and the w, y of its orientation (dm_control keeps them
  // in the model's body_pos / body_quat).
  int NumTaskState() const override { return 4; }
  void GetTaskState(double* s) const override {
    s[0] = model_->body_pos[3 * target_];
    s[1] = model_->body_pos[3 * target_ + 2];
    s[2] = model_->body_quat[4 * target_];
    s[3] = model_->body_quat[4 * target_ + 2];
  }
  void SetTaskState(const double* s) override {
    mjModel* m = mutable_model();
    m->body_pos[3 * target_] = s[0];
    m->body_pos[3 * target_ + 2] = s[1];
    m->body_quat[4 * target_] = s[2];
    m->body_quat[4 * target_ + 2] = s[3];
  }

 private:
  static constexpr double kControlTimestep = 0.01;
  static constexpr double kClose = 0.01;
  static constexpr double kPInHand = 0.1;
  static constexpr double kPInTarget = 0.1;
  static constexpr int kNumArmJoints = 8;
  static constexpr const char* kArmJoints[kNumArmJoints] = {
      "arm_root", "arm_shoulder", "arm_elbow", "arm_wrist",
      "finger",   "fingertip",    "thumb",     "thumbtip"};
  static constexpr const char* kObjectJoints[3] = {"ball_x", "ball_z", "ball_y"};
  static constexpr int kNumTouch = 5;
  static constexpr const char* kTouch[kNumTouch] = {"palm_touch", "finger_touch", "thumb_touch",
                                                    "fingertip_touch", "thumbtip_touch"};

  static void CheckTask(const std::string& task) {
    if (task != "bring_ball") {
      throw ValueError("manipulator has no task '" + task + "' (tasks: bring_ball)");
    }
  }

  // A body's x, z and the w, y of its orientation.
  void Pose2d(int body, double* out) const {
    out[0] = data_->xpos[3 * body];
    out[1] = data_->xpos[3 * body + 2];
    out[2] = data_->xquat[4 * body];
    out[3] = data_->xquat[4 * body + 2];
  }

  void WriteObs(const StepOutput& out) const {
    double* pos = out[obs_arm_pos_];
    double* vel = out[obs_arm_vel_];
    for (int i = 0; i < kNumArmJoints; ++i) {
      const double q = data_->qpos[arm_qpos_[i]];
      pos[2 * i] = std::sin(q);
      pos[2 * i + 1] = std::cos(q);
      vel[i] = data_->qvel[arm_dof_[i]];
    }
    double* touch = out[obs_touch_];
    for (int i = 0; i < kNumTouch; ++i) touch[i] = std::log1p(data_->sensordata[touch_adr_[i]]);
    Pose2d(hand_, out[obs_hand_pos_]);
    Pose2d(object_, out[obs_object_pos_]);
    double* object_vel = out[obs_object_vel_];
    for (int i = 0; i < 3; ++i) object_vel[i] = data_->qvel[object_dof_[i]];
    Pose2d(target_, out[obs_target_pos_]);
  }

  int hand_;
  int object_;
  int target_;
  int grasp_site_;
  int ball_site_;
  int target_site_;
  int finger_qpos_;
  int thumb_qpos_;
  int arm_joints_[kNumArmJoints] = {};
  int arm_qpos_[kNumArmJoints] = {};
  int arm_dof_[kNumArmJoints] = {};
  int object_qpos_[3] = {};
  int object_dof_[3] = {};
  int touch_adr_[kNumTouch] = {};

  // Observation fields.
  OutputField<double> obs_arm_pos_;
  OutputField<double> obs_arm_vel_;
  OutputField<double> obs_touch_;
  OutputField<double> obs_hand_pos_;
  OutputField<double> obs_object_pos_;
  OutputField<double> obs_object_vel_;
  OutputField<double> obs_target_pos_;
};

}  // namespace envpool_x
