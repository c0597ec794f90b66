// dm_control suite: reacher (tasks: easy, hard), as dm_control 1.0.50's
// reacher.py. The target is a geom whose position dm_control moves in the
// model each episode, so every env has its own model.
#pragma once

#include <cmath>
#include <cstring>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcReacher : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcReacher";

  static Config DefaultConfig() { return dmc::BaseConfig("easy"); }

  static EnvSpec Spec(const Config& config) {
    TargetSize(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("position", {m->nq}));
    spec.obs.push_back(dmc::ObsF64("to_target", {2}));
    spec.obs.push_back(dmc::ObsF64("velocity", {m->nv}));
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcReacher(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, /*control_timestep=*/0.0, /*own_model=*/true),
        target_(Id(mjOBJ_GEOM, "target")),
        finger_(Id(mjOBJ_GEOM, "finger")),
        obs_position_(ObsField<double>(spec, "position")),
        obs_to_target_(ObsField<double>(spec, "to_target")),
        obs_velocity_(ObsField<double>(spec, "velocity")) {
    mutable_model()->geom_size[3 * target_] = TargetSize(config.String("task_name"));
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    RandomizeLimitedAndRotationalJoints(rng);
    const double angle = rng.Uniform(0, 2 * M_PI);
    const double radius = rng.Uniform(0.05, 0.20);
    mjModel* m = mutable_model();
    m->geom_pos[3 * target_ + 0] = radius * std::sin(angle);
    m->geom_pos[3 * target_ + 1] = radius * std::cos(angle);
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    const double dx = ToTarget(0), dy = ToTarget(1);
    const double radii = model_->geom_size[3 * target_] + model_->geom_size[3 * finger_];
    *out.reward = static_cast<float>(dmc::Tolerance(std::sqrt(dx * dx + dy * dy), 0, radii));
    *out.terminated = false;
  }

 protected:
  // The target's x, y (geom_pos), which dm_control keeps in the model.
  int NumTaskState() const override { return 2; }
  void GetTaskState(double* out) const override {
    out[0] = model_->geom_pos[3 * target_];
    out[1] = model_->geom_pos[3 * target_ + 1];
  }
  void SetTaskState(const double* in) override {
    mutable_model()->geom_pos[3 * target_] = in[0];
    mutable_model()->geom_pos[3 * target_ + 1] = in[1];
  }

 private:
  static double TargetSize(const std::string& task) {
    if (task == "easy") return 0.05;
    if (task == "hard") return 0.015;
    throw ValueError("reacher has no task '" + task + "' (tasks: easy, hard)");
  }

  double ToTarget(int k) const {
    return data_->geom_xpos[3 * target_ + k] - data_->geom_xpos[3 * finger_ + k];
  }

  void WriteObs(const StepOutput& out) const {
    std::memcpy(out[obs_position_], data_->qpos, sizeof(double) * model_->nq);
    double* to_target = out[obs_to_target_];
    to_target[0] = ToTarget(0);
    to_target[1] = ToTarget(1);
    std::memcpy(out[obs_velocity_], data_->qvel, sizeof(double) * model_->nv);
  }

  int target_;
  int finger_;

  // Observation fields.
  OutputField<double> obs_position_;
  OutputField<double> obs_to_target_;
  OutputField<double> obs_velocity_;
};

}  // namespace envpool_x
