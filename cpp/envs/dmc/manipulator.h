// dm_control suite: manipulator (tasks: bring_ball, bring_peg, insert_ball,
// insert_peg), as dm_control 1.0.50's manipulator.py (fully observable). Its
// models are dm_control's make_model(use_peg, insert), which keeps the task's
// props (ball or peg, its target, and for insert the cup or slot), generated
// in Python at make time.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "envs/dmc/planar_arm.h"

namespace envpool_x {

class DmcManipulator : public dmc::PlanarArmEnv {
 public:
  static constexpr const char* kName = "DmcManipulator";

  static Config DefaultConfig() { return dmc::BaseConfig("bring_ball"); }

  static EnvSpec Spec(const Config& config) {
    Parse(config.String("task_name"));
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
      : PlanarArmEnv(config, kControlTimestep, spec),
        task_(Parse(config.String("task_name"))),
        object_(Id(mjOBJ_BODY, task_.peg ? "peg" : "ball")),
        target_(Id(mjOBJ_BODY, task_.peg ? "target_peg" : "target_ball")),
        receptacle_(task_.insert ? Id(mjOBJ_BODY, task_.peg ? "slot" : "cup") : -1),
        object_site_(Id(mjOBJ_SITE, task_.peg ? "peg" : "ball")),
        target_site_(Id(mjOBJ_SITE, task_.peg ? "target_peg" : "target_ball")),
        obs_touch_(ObsField<double>(spec, "touch")),
        obs_object_pos_(ObsField<double>(spec, "object_pos")),
        obs_object_vel_(ObsField<double>(spec, "object_vel")),
        obs_target_pos_(ObsField<double>(spec, "target_pos")) {
    if (task_.peg) {
      peg_sites_[0] = Id(mjOBJ_SITE, "peg_grasp");
      peg_sites_[1] = Id(mjOBJ_SITE, "peg_pinch");
      peg_sites_[2] = Id(mjOBJ_SITE, "pinch");
      peg_sites_[3] = Id(mjOBJ_SITE, "target_peg_tip");
      peg_sites_[4] = Id(mjOBJ_SITE, "peg_tip");
    }
    const char* object = task_.peg ? "peg" : "ball";
    // dm_control's order of the object's joints: x, z, y (the hinge).
    const char* dims[3] = {"_x", "_z", "_y"};
    for (int i = 0; i < 3; ++i) {
      const std::string joint = std::string(object) + dims[i];
      object_qpos_[i] = JointQpos(joint.c_str());
      object_dof_[i] = JointDof(joint.c_str());
    }
    for (int i = 0; i < kNumTouch; ++i) touch_adr_[i] = SensorAdr(kTouch[i]);
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    // dm_control redraws the whole arrangement until nothing penetrates.
    int redraws = 0;
    do {
      CountRedraw(&redraws, "Manipulator");
      RandomArmPose(rng);
      const double target_x = rng.Uniform(-0.4, 0.4);
      const double target_z = rng.Uniform(0.1, 0.4);
      // Insert: the receptacle, turned at most 60 degrees, holds the target.
      const double max_angle = task_.insert ? M_PI / 3 : M_PI;
      const double target_angle = rng.Uniform(-max_angle, max_angle);
      const double pose[4] = {target_x, target_z, std::cos(target_angle / 2),
                              std::sin(target_angle / 2)};
      const double poses[8] = {pose[0], pose[1], pose[2], pose[3],
                               pose[0], pose[1], pose[2], pose[3]};
      SetTaskState(poses);
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
    *out.reward = static_cast<float>(task_.peg ? PegReward() : Close(object_site_, target_site_));
    *out.terminated = false;
  }

 protected:
  // The target's x, z and the w, y of its orientation, then the receptacle's
  // (insert tasks; dm_control keeps them in the model's body_pos / body_quat).
  int NumTaskState() const override { return task_.insert ? 8 : 4; }
  void GetTaskState(double* s) const override {
    GetPose(target_, s);
    if (task_.insert) GetPose(receptacle_, s + 4);
  }
  void SetTaskState(const double* s) override {
    SetPose(target_, s);
    if (task_.insert) SetPose(receptacle_, s + 4);
  }

 private:
  static constexpr double kControlTimestep = 0.01;
  static constexpr double kClose = 0.01;
  static constexpr double kPInHand = 0.1;
  static constexpr double kPInTarget = 0.1;
  static constexpr int kNumTouch = 5;
  static constexpr const char* kTouch[kNumTouch] = {"palm_touch", "finger_touch", "thumb_touch",
                                                    "fingertip_touch", "thumbtip_touch"};

  struct Task {
    bool peg;     // the peg (else the ball)
    bool insert;  // into the slot / cup (else to a free target)
  };
  static Task Parse(const std::string& task) {
    if (task == "bring_ball") return {false, false};
    if (task == "bring_peg") return {true, false};
    if (task == "insert_ball") return {false, true};
    if (task == "insert_peg") return {true, true};
    throw ValueError("manipulator has no task '" + task +
                     "' (tasks: bring_ball, bring_peg, insert_ball, insert_peg)");
  }

  void GetPose(int body, double* s) const {
    s[0] = model_->body_pos[3 * body];
    s[1] = model_->body_pos[3 * body + 2];
    s[2] = model_->body_quat[4 * body];
    s[3] = model_->body_quat[4 * body + 2];
  }
  void SetPose(int body, const double* s) {
    mjModel* m = mutable_model();
    m->body_pos[3 * body] = s[0];
    m->body_pos[3 * body + 2] = s[1];
    m->body_quat[4 * body] = s[2];
    m->body_quat[4 * body + 2] = s[3];
  }

  // dm_control's _is_close: 1 within 1 cm, a Gaussian fall-off over 2 cm.
  double Close(int site1, int site2) const {
    return dmc::Tolerance(SiteDistance(site1, site2), 0.0, kClose, 2 * kClose);
  }

  // The peg brought (body and tip at the target's), or a third of it for
  // holding the peg (grasp and pinch sites at the hand's).
  double PegReward() const {
    const double grasping =
        (Close(peg_sites_[0], grasp_site_) + Close(peg_sites_[1], peg_sites_[2])) / 2;
    const double bringing =
        (Close(object_site_, target_site_) + Close(peg_sites_[3], peg_sites_[4])) / 2;
    return std::max(bringing, grasping / 3);
  }

  void WriteObs(const StepOutput& out) const {
    WriteArmObs(out);
    double* touch = out[obs_touch_];
    for (int i = 0; i < kNumTouch; ++i) touch[i] = std::log1p(data_->sensordata[touch_adr_[i]]);
    Pose2d(object_, out[obs_object_pos_]);
    double* object_vel = out[obs_object_vel_];
    for (int i = 0; i < 3; ++i) object_vel[i] = data_->qvel[object_dof_[i]];
    Pose2d(target_, out[obs_target_pos_]);
  }

  Task task_;
  int object_;
  int target_;
  int receptacle_;
  int object_site_;
  int target_site_;
  // peg_grasp, peg_pinch, pinch, target_peg_tip, peg_tip (peg tasks)
  int peg_sites_[5] = {};
  int object_qpos_[3] = {};
  int object_dof_[3] = {};
  int touch_adr_[kNumTouch] = {};

  // Observation fields.
  OutputField<double> obs_touch_;
  OutputField<double> obs_object_pos_;
  OutputField<double> obs_object_vel_;
  OutputField<double> obs_target_pos_;
};

}  // namespace envpool_x
