// dm_control suite: fish (tasks: upright, swim), as dm_control 1.0.50's
// fish.py.
#pragma once

#include <cmath>
#include <cstring>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcFish : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcFish";

  static Config DefaultConfig() { return dmc::BaseConfig("swim"); }

  static EnvSpec Spec(const Config& config) {
    const bool swim = IsSwim(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("joint_angles", {kNumJoints}));
    spec.obs.push_back(dmc::ObsF64("upright", {}));
    if (swim) spec.obs.push_back(dmc::ObsF64("target", {3}));
    spec.obs.push_back(dmc::ObsF64("velocity", {m->nv}));
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcFish(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, kControlTimestep,
                   /*own_model=*/IsSwim(config.String("task_name"))),
        swim_(IsSwim(config.String("task_name"))),
        torso_(Id(mjOBJ_BODY, "torso")),
        mouth_(Id(mjOBJ_GEOM, "mouth")),
        target_(Id(mjOBJ_GEOM, "target")),
        root_qpos_(JointQpos("root")),
        obs_joint_angles_(ObsField<double>(spec, "joint_angles")),
        obs_upright_(ObsField<double>(spec, "upright")),
        obs_target_(OptionalObsField<double>(spec, "target")),
        obs_velocity_(ObsField<double>(spec, "velocity")) {
    for (int i = 0; i < kNumJoints; ++i) joint_qpos_[i] = JointQpos(kJoints[i]);
    if (!swim_) HideGeom(target_);  // upright has no target (dm_control hides it)
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    // A uniformly random orientation (normalised normal draws), fins and tail
    // within 0.2 rad of straight.
    double* quat = data_->qpos + root_qpos_ + 3;
    double n2 = 0;
    for (int k = 0; k < 4; ++k) {
      quat[k] = rng.Normal();
      n2 += quat[k] * quat[k];
    }
    const double n = std::sqrt(n2);
    for (int k = 0; k < 4; ++k) quat[k] /= n;
    for (int i = 0; i < kNumJoints; ++i) data_->qpos[joint_qpos_[i]] = rng.Uniform(-0.2, 0.2);
    if (swim_) {
      const double target[3] = {rng.Uniform(-0.4, 0.4), rng.Uniform(-0.4, 0.4),
                                rng.Uniform(0.1, 0.3)};
      SetTaskState(target);
    }
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    double reward;
    if (swim_) {
      double v[3];
      MouthToTarget(v);
      const double dist = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      const double radii = model_->geom_size[3 * mouth_] + model_->geom_size[3 * target_];
      const double in_target = dmc::Tolerance(dist, 0.0, radii, 2 * radii);
      const double is_upright = 0.5 * (Upright() + 1);
      reward = (7 * in_target + is_upright) / 8;
    } else {
      reward = dmc::Tolerance(Upright(), 1.0, 1.0, 1.0);
    }
    *out.reward = static_cast<float>(reward);
    *out.terminated = false;
  }

 protected:
  // swim: the target's position (dm_control keeps it in the model's geom_pos).
  int NumTaskState() const override { return swim_ ? 3 : 0; }
  void GetTaskState(double* s) const override {
    if (swim_) std::memcpy(s, model_->geom_pos + 3 * target_, sizeof(double) * 3);
  }
  void SetTaskState(const double* s) override {
    if (swim_) std::memcpy(mutable_model()->geom_pos + 3 * target_, s, sizeof(double) * 3);
  }

 private:
  static constexpr double kControlTimestep = 0.04;
  static constexpr int kNumJoints = 7;
  static constexpr const char* kJoints[kNumJoints] = {
      "tail1",          "tail_twist",   "tail2",        "finright_roll",
      "finright_pitch", "finleft_roll", "finleft_pitch"};

  static bool IsSwim(const std::string& task) {
    if (task == "swim") return true;
    if (task == "upright") return false;
    throw ValueError("fish has no task '" + task + "' (tasks: upright, swim)");
  }

  // The torso's z axis against the world's.
  double Upright() const { return data_->xmat[9 * torso_ + 8]; }

  // Mouth-to-target vector in the mouth's frame.
  void MouthToTarget(double* out) const {
    double v[3];
    for (int i = 0; i < 3; ++i) {
      v[i] = data_->geom_xpos[3 * target_ + i] - data_->geom_xpos[3 * mouth_ + i];
    }
    mju_mulMatTVec3(out, data_->geom_xmat + 9 * mouth_, v);
  }

  void WriteObs(const StepOutput& out) const {
    double* angles = out[obs_joint_angles_];
    for (int i = 0; i < kNumJoints; ++i) angles[i] = data_->qpos[joint_qpos_[i]];
    *out[obs_upright_] = Upright();
    if (swim_) MouthToTarget(out[obs_target_]);
    std::memcpy(out[obs_velocity_], data_->qvel, sizeof(double) * model_->nv);
  }

  bool swim_;
  int torso_;
  int mouth_;
  int target_;
  int root_qpos_;
  int joint_qpos_[kNumJoints] = {};

  // Observation fields (target: bound for swim only).
  OutputField<double> obs_joint_angles_;
  OutputField<double> obs_upright_;
  OutputField<double> obs_target_;
  OutputField<double> obs_velocity_;
};

}  // namespace envpool_x
