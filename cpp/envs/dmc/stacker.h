// dm_control suite: stacker (tasks: stack_2, stack_4), as dm_control 1.0.50's
// stacker.py (fully observable): manipulator's planar arm and n boxes to
// stack on a target. Its model is dm_control's make_model(n_boxes), which
// drops the unused boxes, generated in Python at make time.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcStacker : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcStacker";

  static Config DefaultConfig() { return dmc::BaseConfig("stack_2"); }

  static EnvSpec Spec(const Config& config) {
    const int n = NumBoxes(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("arm_pos", {kNumArmJoints, 2}));
    spec.obs.push_back(dmc::ObsF64("arm_vel", {kNumArmJoints}));
    spec.obs.push_back(dmc::ObsF64("touch", {m->nsensordata}));
    spec.obs.push_back(dmc::ObsF64("hand_pos", {4}));
    spec.obs.push_back(dmc::ObsF64("box_pos", {n, 4}));
    spec.obs.push_back(dmc::ObsF64("box_vel", {3 * n}));
    spec.obs.push_back(dmc::ObsF64("target_pos", {2}));
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcStacker(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, kControlTimestep, /*own_model=*/true),
        num_boxes_(NumBoxes(config.String("task_name"))),
        hand_(Id(mjOBJ_BODY, "hand")),
        target_(Id(mjOBJ_BODY, "target")),
        grasp_site_(Id(mjOBJ_SITE, "grasp")),
        target_site_(Id(mjOBJ_SITE, "target")),
        box_size_(model_->geom_size[3 * Id(mjOBJ_GEOM, "target")]),
        finger_qpos_(JointQpos("finger")),
        thumb_qpos_(JointQpos("thumb")),
        obs_arm_pos_(ObsField<double>(spec, "arm_pos")),
        obs_arm_vel_(ObsField<double>(spec, "arm_vel")),
        obs_touch_(ObsField<double>(spec, "touch")),
        obs_hand_pos_(ObsField<double>(spec, "hand_pos")),
        obs_box_pos_(ObsField<double>(spec, "box_pos")),
        obs_box_vel_(ObsField<double>(spec, "box_vel")),
        obs_target_pos_(ObsField<double>(spec, "target_pos")) {
    for (int i = 0; i < kNumArmJoints; ++i) {
      const int j = Id(mjOBJ_JOINT, kArmJoints[i]);
      arm_joints_[i] = j;
      arm_qpos_[i] = model_->jnt_qposadr[j];
      arm_dof_[i] = model_->jnt_dofadr[j];
    }
    for (int b = 0; b < num_boxes_; ++b) {
      const std::string box = "box" + std::to_string(b);
      Box entry;
      entry.body = Id(mjOBJ_BODY, box.c_str());
      entry.site = Id(mjOBJ_SITE, box.c_str());
      // dm_control's order of the box joints: x, y (the hinge), z.
      const char* dims[3] = {"_x", "_y", "_z"};
      for (int k = 0; k < 3; ++k) {
        const std::string joint = box + dims[k];
        entry.qpos[k] = JointQpos(joint.c_str());
        entry.dof[k] = JointDof(joint.c_str());
      }
      boxes_.push_back(entry);
    }
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    // dm_control redraws the whole arrangement until nothing penetrates.
    int redraws = 0;
    do {
      CountRedraw(&redraws, "Stacker");
      for (int i = 0; i < kNumArmJoints; ++i) {
        const int j = arm_joints_[i];
        const bool limited = model_->jnt_limited[j];
        data_->qpos[arm_qpos_[i]] = rng.Uniform(limited ? model_->jnt_range[2 * j] : -M_PI,
                                                limited ? model_->jnt_range[2 * j + 1] : M_PI);
      }
      data_->qpos[finger_qpos_] = data_->qpos[thumb_qpos_];
      // The target sits on an odd number of box heights: 1, 3, ... (2n - 1).
      const int height = 2 * static_cast<int>(rng.UniformInt(num_boxes_)) + 1;
      const double target[2] = {rng.Uniform(-0.37, 0.37), box_size_ * height};
      SetTaskState(target);
      for (const Box& box : boxes_) {
        data_->qpos[box.qpos[0]] = rng.Uniform(0.1, 0.3);       // x
        data_->qpos[box.qpos[2]] = rng.Uniform(0.0, 0.7);       // z
        data_->qpos[box.qpos[1]] = rng.Uniform(0.0, 2 * M_PI);  // angle
      }
      AfterReset();
    } while (data_->ncon > 0);
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    double nearest = INFINITY;
    for (const Box& box : boxes_) nearest = std::min(nearest, SiteDistance(box.site, target_site_));
    const double box_is_close = dmc::Tolerance(nearest, 0.0, 0.0, 2 * box_size_);
    const double hand_is_far =
        dmc::Tolerance(SiteDistance(grasp_site_, target_site_), 0.1, INFINITY, kClose);
    *out.reward = static_cast<float>(box_is_close * hand_is_far);
    *out.terminated = false;
  }

 protected:
  // The target's x and z (dm_control keeps them in the model's body_pos).
  int NumTaskState() const override { return 2; }
  void GetTaskState(double* s) const override {
    s[0] = model_->body_pos[3 * target_];
    s[1] = model_->body_pos[3 * target_ + 2];
  }
  void SetTaskState(const double* s) override {
    mjModel* m = mutable_model();
    m->body_pos[3 * target_] = s[0];
    m->body_pos[3 * target_ + 2] = s[1];
  }

 private:
  static constexpr double kControlTimestep = 0.01;
  static constexpr double kClose = 0.01;
  static constexpr int kNumArmJoints = 8;
  static constexpr const char* kArmJoints[kNumArmJoints] = {
      "arm_root", "arm_shoulder", "arm_elbow", "arm_wrist",
      "finger",   "fingertip",    "thumb",     "thumbtip"};

  struct Box {
    int body = 0;
    int site = 0;
    int qpos[3] = {};  // x, y (hinge), z
    int dof[3] = {};
  };

  static int NumBoxes(const std::string& task) {
    if (task == "stack_2") return 2;
    if (task == "stack_4") return 4;
    throw ValueError("stacker has no task '" + task + "' (tasks: stack_2, stack_4)");
  }

  double SiteDistance(int a, int b) const {
    double d2 = 0;
    for (int i = 0; i < 3; ++i) {
      const double d = data_->site_xpos[3 * a + i] - data_->site_xpos[3 * b + i];
      d2 += d * d;
    }
    return std::sqrt(d2);
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
    for (int i = 0; i < model_->nsensordata; ++i) touch[i] = std::log1p(data_->sensordata[i]);
    Pose2d(hand_, out[obs_hand_pos_]);
    double* box_pos = out[obs_box_pos_];
    double* box_vel = out[obs_box_vel_];
    for (const Box& box : boxes_) {
      Pose2d(box.body, box_pos);
      box_pos += 4;
      for (int k = 0; k < 3; ++k) *box_vel++ = data_->qvel[box.dof[k]];
    }
    double* target = out[obs_target_pos_];
    target[0] = data_->xpos[3 * target_];
    target[1] = data_->xpos[3 * target_ + 2];
  }

  int num_boxes_;
  int hand_;
  int target_;
  int grasp_site_;
  int target_site_;
  double box_size_;
  int finger_qpos_;
  int thumb_qpos_;
  int arm_joints_[kNumArmJoints] = {};
  int arm_qpos_[kNumArmJoints] = {};
  int arm_dof_[kNumArmJoints] = {};
  std::vector<Box> boxes_;

  // Observation fields.
  OutputField<double> obs_arm_pos_;
  OutputField<double> obs_arm_vel_;
  OutputField<double> obs_touch_;
  OutputField<double> obs_hand_pos_;
  OutputField<double> obs_box_pos_;
  OutputField<double> obs_box_vel_;
  OutputField<double> obs_target_pos_;
};

}  // namespace envpool_x
