// dm_control suite: point_mass (tasks: easy, hard), as dm_control 1.0.50's
// point_mass.py. "hard" draws the actuators' gain directions per episode
// (tendon wrap_prm, a model value), so each of its envs has its own model.
#pragma once

#include <cmath>
#include <cstring>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcPointMass : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcPointMass";

  static Config DefaultConfig() { return dmc::BaseConfig("easy"); }

  static EnvSpec Spec(const Config& config) {
    RandomizeGains(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("position", {m->nq}));
    spec.obs.push_back(dmc::ObsF64("velocity", {m->nv}));
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcPointMass(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, /*control_timestep=*/0.0,
                   /*own_model=*/RandomizeGains(config.String("task_name"))),
        randomize_gains_(RandomizeGains(config.String("task_name"))),
        target_(Id(mjOBJ_GEOM, "target")),
        pointmass_(Id(mjOBJ_GEOM, "pointmass")),
        obs_position_(ObsField<double>(spec, "position")),
        obs_velocity_(ObsField<double>(spec, "velocity")) {
    if (randomize_gains_ && model_->nwrap < 4) {
      throw ValueError("point_mass model has fewer than 4 tendon wraps");
    }
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    RandomizeLimitedAndRotationalJoints(rng);
    if (randomize_gains_) {
      double dir1[2], dir2[2];
      UnitNormal2(rng, dir1);
      do {
        UnitNormal2(rng, dir2);
      } while (std::abs(dir1[0] * dir2[0] + dir1[1] * dir2[1]) > 0.9);
      mjModel* m = mutable_model();
      m->wrap_prm[0] = dir1[0];
      m->wrap_prm[1] = dir1[1];
      m->wrap_prm[2] = dir2[0];
      m->wrap_prm[3] = dir2[1];
    }
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    double d2 = 0;
    for (int k = 0; k < 3; ++k) {
      const double d = data_->geom_xpos[3 * target_ + k] - data_->geom_xpos[3 * pointmass_ + k];
      d2 += d * d;
    }
    const double target_size = model_->geom_size[3 * target_];
    const double near_target = dmc::Tolerance(std::sqrt(d2), 0, target_size, target_size);
    double sum = 0;
    for (int i = 0; i < model_->nu; ++i) {
      sum += dmc::Tolerance(data_->ctrl[i], 0, 0, 1, dmc::Sigmoid::kQuadratic, 0);
    }
    const double small_control = (sum / model_->nu + 4) / 5;
    *out.reward = static_cast<float>(near_target * small_control);
    *out.terminated = false;
  }

 protected:
  // hard: the four gain-direction values (wrap_prm[0:4]).
  int NumTaskState() const override { return randomize_gains_ ? 4 : 0; }
  void GetTaskState(double* out) const override {
    if (randomize_gains_) std::memcpy(out, model_->wrap_prm, 4 * sizeof(double));
  }
  void SetTaskState(const double* in) override {
    if (randomize_gains_) std::memcpy(mutable_model()->wrap_prm, in, 4 * sizeof(double));
  }

 private:
  static bool RandomizeGains(const std::string& task) {
    if (task == "easy") return false;
    if (task == "hard") return true;
    throw ValueError("point_mass has no task '" + task + "' (tasks: easy, hard)");
  }

  static void UnitNormal2(Rng& rng, double* v) {
    v[0] = rng.Normal();
    v[1] = rng.Normal();
    const double n = std::sqrt(v[0] * v[0] + v[1] * v[1]);
    v[0] /= n;
    v[1] /= n;
  }

  void WriteObs(const StepOutput& out) const {
    std::memcpy(out[obs_position_], data_->qpos, sizeof(double) * model_->nq);
    std::memcpy(out[obs_velocity_], data_->qvel, sizeof(double) * model_->nv);
  }

  bool randomize_gains_;
  int target_;
  int pointmass_;

  // Observation fields.
  OutputField<double> obs_position_;
  OutputField<double> obs_velocity_;
};

}  // namespace envpool_x
