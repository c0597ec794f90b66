// dm_control suite: hopper (tasks: stand, hop), as dm_control 1.0.50's
// hopper.py.
#pragma once

#include <cmath>
#include <cstring>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcHopper : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcHopper";

  static Config DefaultConfig() { return dmc::BaseConfig("hop"); }

  static EnvSpec Spec(const Config& config) {
    Hopping(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("position", {m->nq - 1}));
    spec.obs.push_back(dmc::ObsF64("velocity", {m->nv}));
    spec.obs.push_back(dmc::ObsF64("touch", {2}));
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcHopper(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, kControlTimestep, /*own_model=*/false),
        hopping_(Hopping(config.String("task_name"))),
        torso_(Id(mjOBJ_BODY, "torso")),
        foot_(Id(mjOBJ_BODY, "foot")),
        speed_adr_(SensorAdr("torso_subtreelinvel")),
        toe_adr_(SensorAdr("touch_toe")),
        heel_adr_(SensorAdr("touch_heel")),
        obs_position_(ObsField<double>(spec, "position")),
        obs_velocity_(ObsField<double>(spec, "velocity")),
        obs_touch_(ObsField<double>(spec, "touch")) {}

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    RandomizeLimitedAndRotationalJoints(rng);
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    const double height = data_->xipos[3 * torso_ + 2] - data_->xipos[3 * foot_ + 2];
    const double standing = dmc::Tolerance(height, kStandHeight, 2);
    double reward;
    if (hopping_) {
      const double hopping = dmc::Tolerance(data_->sensordata[speed_adr_], kHopSpeed, INFINITY,
                                            kHopSpeed / 2, dmc::Sigmoid::kLinear, 0.5);
      reward = standing * hopping;
    } else {
      double sum = 0;
      for (int i = 0; i < model_->nu; ++i) {
        sum += dmc::Tolerance(data_->ctrl[i], 0, 0, 1, dmc::Sigmoid::kQuadratic, 0);
      }
      const double small_control = (sum / model_->nu + 4) / 5;
      reward = standing * small_control;
    }
    *out.reward = static_cast<float>(reward);
    *out.terminated = false;
  }

 private:
  static constexpr double kControlTimestep = 0.02;
  static constexpr double kStandHeight = 0.6;
  static constexpr double kHopSpeed = 2;

  static bool Hopping(const std::string& task) {
    if (task == "stand") return false;
    if (task == "hop") return true;
    throw ValueError("hopper has no task '" + task + "' (tasks: stand, hop)");
  }

  void WriteObs(const StepOutput& out) const {
    double* pos = out[obs_position_];
    for (int i = 1; i < model_->nq; ++i) *pos++ = data_->qpos[i];
    std::memcpy(out[obs_velocity_], data_->qvel, sizeof(double) * model_->nv);
    double* touch = out[obs_touch_];
    touch[0] = std::log1p(data_->sensordata[toe_adr_]);
    touch[1] = std::log1p(data_->sensordata[heel_adr_]);
  }

  bool hopping_;
  int torso_;
  int foot_;
  int speed_adr_;
  int toe_adr_;
  int heel_adr_;

  // Observation fields.
  OutputField<double> obs_position_;
  OutputField<double> obs_velocity_;
  OutputField<double> obs_touch_;
};

}  // namespace envpool_x
