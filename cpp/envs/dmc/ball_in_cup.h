// dm_control suite: ball_in_cup (task: catch), as dm_control 1.0.50's
// ball_in_cup.py.
#pragma once

#include <cmath>
#include <cstring>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcBallInCup : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcBallInCup";

  static Config DefaultConfig() { return dmc::BaseConfig("catch"); }

  static EnvSpec Spec(const Config& config) {
    CheckTask(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("position", {m->nq}));
    spec.obs.push_back(dmc::ObsF64("velocity", {m->nv}));
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcBallInCup(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, kControlTimestep, /*own_model=*/false),
        ball_x_(JointQpos("ball_x")),
        ball_z_(JointQpos("ball_z")),
        target_(Id(mjOBJ_SITE, "target")),
        ball_body_(Id(mjOBJ_BODY, "ball")),
        ball_geom_(Id(mjOBJ_GEOM, "ball")),
        obs_position_(ObsField<double>(spec, "position")),
        obs_velocity_(ObsField<double>(spec, "velocity")) {
    CheckTask(config.String("task_name"));
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    // Redraw the ball until it touches nothing.
    int redraws = 0;
    do {
      CountRedraw(&redraws, "BallInCup");
      data_->qpos[ball_x_] = rng.Uniform(-0.2, 0.2);
      data_->qpos[ball_z_] = rng.Uniform(0.2, 0.5);
      AfterReset();
    } while (data_->ncon > 0);
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    // In the cup: |target - ball| < target half-size - ball radius, in x and z.
    const double ball_size = model_->geom_size[3 * ball_geom_];
    bool inside = true;
    for (int k : {0, 2}) {
      const double d = data_->site_xpos[3 * target_ + k] - data_->xpos[3 * ball_body_ + k];
      inside = inside && std::abs(d) < model_->site_size[3 * target_ + k] - ball_size;
    }
    *out.reward = inside ? 1.0f : 0.0f;
    *out.terminated = false;
  }

 private:
  static constexpr double kControlTimestep = 0.02;

  static void CheckTask(const std::string& task) {
    if (task != "catch") throw ValueError("ball_in_cup has no task '" + task + "' (tasks: catch)");
  }

  void WriteObs(const StepOutput& out) const {
    std::memcpy(out[obs_position_], data_->qpos, sizeof(double) * model_->nq);
    std::memcpy(out[obs_velocity_], data_->qvel, sizeof(double) * model_->nv);
  }

  int ball_x_;
  int ball_z_;
  int target_;
  int ball_body_;
  int ball_geom_;

  // Observation fields.
  OutputField<double> obs_position_;
  OutputField<double> obs_velocity_;
};

}  // namespace envpool_x
