// dm_control suite: stacker (tasks: stack_2, stack_4), as dm_control 1.0.50's
// stacker.py (fully observable): manipulator's planar arm and n boxes to
// stack on a target. Its model is dm_control's make_model(n_boxes), which
// drops the unused boxes, generated in Python at make time.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "envs/dmc/planar_arm.h"

namespace envpool_x {

class DmcStacker : public dmc::PlanarArmEnv {
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
      : PlanarArmEnv(config, kControlTimestep, spec),
        num_boxes_(NumBoxes(config.String("task_name"))),
        target_(Id(mjOBJ_BODY, "target")),
        target_site_(Id(mjOBJ_SITE, "target")),
        box_size_(model_->geom_size[3 * Id(mjOBJ_GEOM, "target")]),
        obs_touch_(ObsField<double>(spec, "touch")),
        obs_box_pos_(ObsField<double>(spec, "box_pos")),
        obs_box_vel_(ObsField<double>(spec, "box_vel")),
        obs_target_pos_(ObsField<double>(spec, "target_pos")) {
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
      RandomArmPose(rng);
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

  void WriteObs(const StepOutput& out) const {
    WriteArmObs(out);
    double* touch = out[obs_touch_];
    for (int i = 0; i < model_->nsensordata; ++i) touch[i] = std::log1p(data_->sensordata[i]);
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
  int target_;
  int target_site_;
  double box_size_;
  std::vector<Box> boxes_;

  // Observation fields.
  OutputField<double> obs_touch_;
  OutputField<double> obs_box_pos_;
  OutputField<double> obs_box_vel_;
  OutputField<double> obs_target_pos_;
};

}  // namespace envpool_x
