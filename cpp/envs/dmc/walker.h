// dm_control suite: walker (tasks: stand, walk, run), as dm_control 1.0.50's
// walker.py.
#pragma once

#include <cmath>
#include <cstring>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcWalker : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcWalker";

  static Config DefaultConfig() { return dmc::BaseConfig("walk"); }

  static EnvSpec Spec(const Config& config) {
    MoveSpeed(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("orientations", {2 * (m->nbody - 1)}));
    spec.obs.push_back(dmc::ObsF64("height", {}));
    spec.obs.push_back(dmc::ObsF64("velocity", {m->nv}));
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcWalker(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, kControlTimestep, /*own_model=*/false),
        move_speed_(MoveSpeed(config.String("task_name"))),
        torso_(Id(mjOBJ_BODY, "torso")),
        speed_adr_(SensorAdr("torso_subtreelinvel")),
        obs_orientations_(ObsField<double>(spec, "orientations")),
        obs_height_(ObsField<double>(spec, "height")),
        obs_velocity_(ObsField<double>(spec, "velocity")) {}

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
    const double standing = dmc::Tolerance(TorsoHeight(), kStandHeight, INFINITY, kStandHeight / 2);
    const double upright = (1 + data_->xmat[9 * torso_ + 8]) / 2;
    const double stand_reward = (3 * standing + upright) / 4;
    double reward = stand_reward;
    if (move_speed_ != 0) {
      const double move_reward =
          dmc::Tolerance(data_->sensordata[speed_adr_], move_speed_, INFINITY, move_speed_ / 2,
                         dmc::Sigmoid::kLinear, 0.5);
      reward = stand_reward * (5 * move_reward + 1) / 6;
    }
    *out.reward = static_cast<float>(reward);
    *out.terminated = false;
  }

 private:
  static constexpr double kControlTimestep = 0.025;
  static constexpr double kStandHeight = 1.2;

  static double MoveSpeed(const std::string& task) {
    if (task == "stand") return 0;
    if (task == "walk") return 1;
    if (task == "run") return 8;
    throw ValueError("walker has no task '" + task + "' (tasks: stand, walk, run)");
  }

  double TorsoHeight() const { return data_->xpos[3 * torso_ + 2]; }

  void WriteObs(const StepOutput& out) const {
    // xmat's xx and xz of every body but the world.
    double* o = out[obs_orientations_];
    for (int b = 1; b < model_->nbody; ++b) {
      *o++ = data_->xmat[9 * b + 0];
      *o++ = data_->xmat[9 * b + 2];
    }
    *out[obs_height_] = TorsoHeight();
    std::memcpy(out[obs_velocity_], data_->qvel, sizeof(double) * model_->nv);
  }

  double move_speed_;
  int torso_;
  int speed_adr_;

  // Observation fields.
  OutputField<double> obs_orientations_;
  OutputField<double> obs_height_;
  OutputField<double> obs_velocity_;
};

}  // namespace envpool_x
