// dm_control suite: finger (tasks: spin, turn_easy, turn_hard), as dm_control
// 1.0.50's finger.py. Spin sets the hinge's damping and turn moves the target
// site each episode, both in the model, so every env has its own model.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcFinger : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcFinger";

  static Config DefaultConfig() { return dmc::BaseConfig("spin"); }

  static EnvSpec Spec(const Config& config) {
    const bool turn = TargetRadius(config.String("task_name")) > 0;
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("position", {4}));
    spec.obs.push_back(dmc::ObsF64("velocity", {3}));
    spec.obs.push_back(dmc::ObsF64("touch", {2}));
    if (turn) {
      spec.obs.push_back(dmc::ObsF64("target_position", {2}));
      spec.obs.push_back(dmc::ObsF64("dist_to_target", {}));
    }
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcFinger(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, kControlTimestep, /*own_model=*/true),
        target_radius_(TargetRadius(config.String("task_name"))),
        target_site_(Id(mjOBJ_SITE, "target")),
        hinge_(Id(mjOBJ_JOINT, "hinge")),
        cap1_(Id(mjOBJ_GEOM, "cap1")),
        proximal_(SensorAdr("proximal")),
        distal_(SensorAdr("distal")),
        tip_(SensorAdr("tip")),
        spinner_(SensorAdr("spinner")),
        target_(SensorAdr("target")),
        proximal_velocity_(SensorAdr("proximal_velocity")),
        distal_velocity_(SensorAdr("distal_velocity")),
        hinge_velocity_(SensorAdr("hinge_velocity")),
        touchtop_(SensorAdr("touchtop")),
        touchbottom_(SensorAdr("touchbottom")),
        obs_position_(ObsField<double>(spec, "position")),
        obs_velocity_(ObsField<double>(spec, "velocity")),
        obs_touch_(ObsField<double>(spec, "touch")),
        obs_target_position_(OptionalObsField<double>(spec, "target_position")),
        obs_dist_to_target_(OptionalObsField<double>(spec, "dist_to_target")) {
    mjModel* m = mutable_model();
    if (turn()) {
      m->site_size[3 * target_site_] = target_radius_;
    } else {
      m->dof_damping[model_->jnt_dofadr[hinge_]] = 0.03;
      // spin has no target: dm_control hides the target and the tip sites.
      HideSite(target_site_);
      HideSite(Id(mjOBJ_SITE, "tip"));
    }
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    if (turn()) {
      const double angle = rng.Uniform(-M_PI, M_PI);
      const double hinge_x = data_->xanchor[3 * hinge_];
      const double hinge_z = data_->xanchor[3 * hinge_ + 2];
      const double* cap = model_->geom_size + 3 * cap1_;
      const double radius = cap[0] + cap[1] + cap[2];
      mjModel* m = mutable_model();
      m->site_pos[3 * target_site_] = hinge_x + radius * std::sin(angle);
      m->site_pos[3 * target_site_ + 2] = hinge_z + radius * std::cos(angle);
    }
    // Random joint angles until nothing touches (dm_control gives up after 1000).
    bool free = false;
    for (int attempt = 0; attempt < 1000 && !free; ++attempt) {
      RandomizeLimitedAndRotationalJoints(rng);
      AfterReset();
      free = data_->ncon == 0;
    }
    if (!free) throw std::runtime_error("finger: no collision-free state after 1000 attempts");
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    const bool success =
        turn() ? DistToTarget() <= 0 : data_->sensordata[hinge_velocity_] <= -kSpinVelocity;
    *out.reward = success ? 1.0f : 0.0f;
    *out.terminated = false;
  }

 protected:
  // turn: the target site's x, z (site_pos), which dm_control keeps in the model.
  int NumTaskState() const override { return turn() ? 2 : 0; }
  void GetTaskState(double* out) const override {
    if (!turn()) return;
    out[0] = model_->site_pos[3 * target_site_];
    out[1] = model_->site_pos[3 * target_site_ + 2];
  }
  void SetTaskState(const double* in) override {
    if (!turn()) return;
    mutable_model()->site_pos[3 * target_site_] = in[0];
    mutable_model()->site_pos[3 * target_site_ + 2] = in[1];
  }

 private:
  static constexpr double kControlTimestep = 0.02;
  static constexpr double kSpinVelocity = 15.0;

  // 0 for spin; the target's radius for the turn tasks.
  static double TargetRadius(const std::string& task) {
    if (task == "spin") return 0;
    if (task == "turn_easy") return 0.07;
    if (task == "turn_hard") return 0.03;
    throw ValueError("finger has no task '" + task + "' (tasks: spin, turn_easy, turn_hard)");
  }
  bool turn() const { return target_radius_ > 0; }

  // A framepos sensor's x and z relative to the spinner's.
  double Rel(int adr, int k) const {
    return data_->sensordata[adr + k] - data_->sensordata[spinner_ + k];
  }

  double DistToTarget() const {
    const double dx = Rel(target_, 0) - Rel(tip_, 0);
    const double dz = Rel(target_, 2) - Rel(tip_, 2);
    return std::sqrt(dx * dx + dz * dz) - model_->site_size[3 * target_site_];
  }

  void WriteObs(const StepOutput& out) const {
    const double* s = data_->sensordata;
    double* pos = out[obs_position_];
    pos[0] = s[proximal_];
    pos[1] = s[distal_];
    pos[2] = Rel(tip_, 0);
    pos[3] = Rel(tip_, 2);
    double* vel = out[obs_velocity_];
    vel[0] = s[proximal_velocity_];
    vel[1] = s[distal_velocity_];
    vel[2] = s[hinge_velocity_];
    double* touch = out[obs_touch_];
    touch[0] = std::log1p(s[touchtop_]);
    touch[1] = std::log1p(s[touchbottom_]);
    if (turn()) {
      double* target = out[obs_target_position_];
      target[0] = Rel(target_, 0);
      target[1] = Rel(target_, 2);
      *out[obs_dist_to_target_] = DistToTarget();
    }
  }

  double target_radius_;
  int target_site_;
  int hinge_;
  int cap1_;
  int proximal_, distal_, tip_, spinner_, target_;
  int proximal_velocity_, distal_velocity_, hinge_velocity_;
  int touchtop_, touchbottom_;

  // Observation fields (target_position, dist_to_target: bound for the turn tasks only).
  OutputField<double> obs_position_;
  OutputField<double> obs_velocity_;
  OutputField<double> obs_touch_;
  OutputField<double> obs_target_position_;
  OutputField<double> obs_dist_to_target_;
};

}  // namespace envpool_x
