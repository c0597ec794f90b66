// dm_control suite: cheetah (task: run), as dm_control 1.0.50's cheetah.py.
#pragma once

#include <cmath>
#include <cstring>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcCheetah : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcCheetah";

  static Config DefaultConfig() { return dmc::BaseConfig("run"); }

  static EnvSpec Spec(const Config& config) {
    CheckTask(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("position", {m->nq - 1}));
    spec.obs.push_back(dmc::ObsF64("velocity", {m->nv}));
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcCheetah(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, /*control_timestep=*/0.0, /*own_model=*/false),
        speed_adr_(SensorAdr("torso_subtreelinvel")),
        obs_position_(ObsField<double>(spec, "position")),
        obs_velocity_(ObsField<double>(spec, "velocity")) {
    CheckTask(config.String("task_name"));
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    // Limited joints uniform in their range, then 200 steps to let the body
    // settle (dm_control resets the clock afterwards).
    for (int j = 0; j < model_->njnt; ++j) {
      if (model_->jnt_limited[j]) {
        data_->qpos[model_->jnt_qposadr[j]] =
            rng.Uniform(model_->jnt_range[2 * j], model_->jnt_range[2 * j + 1]);
      }
    }
    PhysicsStep(200);
    data_->time = 0;
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    const double speed = data_->sensordata[speed_adr_];
    *out.reward = static_cast<float>(
        dmc::Tolerance(speed, kRunSpeed, INFINITY, kRunSpeed, dmc::Sigmoid::kLinear, 0.0));
    *out.terminated = false;
  }

 private:
  static constexpr double kRunSpeed = 10;

  static void CheckTask(const std::string& task) {
    if (task != "run") throw ValueError("cheetah has no task '" + task + "' (tasks: run)");
  }

  void WriteObs(const StepOutput& out) const {
    double* pos = out[obs_position_];
    for (int i = 1; i < model_->nq; ++i) *pos++ = data_->qpos[i];
    std::memcpy(out[obs_velocity_], data_->qvel, sizeof(double) * model_->nv);
  }

  int speed_adr_;

  // Observation fields.
  OutputField<double> obs_position_;
  OutputField<double> obs_velocity_;
};

}  // namespace envpool_x
