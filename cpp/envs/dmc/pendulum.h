// dm_control suite: pendulum (task: swingup), as dm_control 1.0.50's
// pendulum.py.
#pragma once

#include <cmath>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcPendulum : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcPendulum";

  static Config DefaultConfig() { return dmc::BaseConfig("swingup"); }

  static EnvSpec Spec(const Config& config) {
    CheckTask(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("orientation", {2}));
    spec.obs.push_back(dmc::ObsF64("velocity", {1}));
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcPendulum(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, /*control_timestep=*/0.0, /*own_model=*/false),
        pole_(Id(mjOBJ_BODY, "pole")),
        hinge_qpos_(JointQpos("hinge")),
        hinge_dof_(JointDof("hinge")),
        obs_orientation_(ObsField<double>(spec, "orientation")),
        obs_velocity_(ObsField<double>(spec, "velocity")) {
    CheckTask(config.String("task_name"));
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    data_->qpos[hinge_qpos_] = rng.Uniform(-M_PI, M_PI);
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    // cos(8 degrees), as numpy's cos(deg2rad(8)).
    static const double kCosineBound = std::cos(8.0 * (M_PI / 180.0));
    *out.reward = static_cast<float>(dmc::Tolerance(data_->xmat[9 * pole_ + 8], kCosineBound, 1));
    *out.terminated = false;
  }

 private:
  static void CheckTask(const std::string& task) {
    if (task != "swingup") throw ValueError("pendulum has no task '" + task + "' (tasks: swingup)");
  }

  void WriteObs(const StepOutput& out) const {
    double* o = out[obs_orientation_];
    o[0] = data_->xmat[9 * pole_ + 8];
    o[1] = data_->xmat[9 * pole_ + 2];
    *out[obs_velocity_] = data_->qvel[hinge_dof_];
  }

  int pole_;
  int hinge_qpos_;
  int hinge_dof_;

  // Observation fields.
  OutputField<double> obs_orientation_;
  OutputField<double> obs_velocity_;
};

}  // namespace envpool_x
