// dm_control suite: lqr (tasks: lqr_2_1, lqr_6_2), as dm_control 1.0.50's
// lqr.py: a chain of n bodies on springs (slide joints), the first m driven
// by unbounded motors, with a quadratic cost as reward. dm_control generates
// the chain in Python, drawing each joint's stiffness from the task's random
// state; the model registered here is that XML, and each env draws its own
// stiffnesses (uniform in [15, 25), damping 0) from a stream of its seed, so
// an env keeps one model across its episodes, as a dm_control environment.
#pragma once

#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcLqr : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcLqr";

  static Config DefaultConfig() { return dmc::BaseConfig("lqr_2_1"); }

  static EnvSpec Spec(const Config& config) {
    Parse(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("position", {m->nq}));
    spec.obs.push_back(dmc::ObsF64("velocity", {m->nv}));
    // dm_control's bounds of an actuator without a ctrlrange: +-mjMAXVAL.
    spec.action.discrete = false;
    spec.action.box = ArraySpec{"action", DType::kFloat32, {m->nu}, {}, {}};
    for (int i = 0; i < m->nu; ++i) {
      const bool limited = m->actuator_ctrllimited[i];
      spec.action.box.low.push_back(
          static_cast<float>(limited ? m->actuator_ctrlrange[2 * i] : -mjMAXVAL));
      spec.action.box.high.push_back(
          static_cast<float>(limited ? m->actuator_ctrlrange[2 * i + 1] : mjMAXVAL));
    }
    // 1 - (|q|^2 + 0.1 |u|^2) / 2: at most 1, unbounded below.
    spec.reward_low = -std::numeric_limits<double>::infinity();
    spec.reward_high = 1.0;
    return spec;
  }

  DmcLqr(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, /*control_timestep=*/0.0, /*own_model=*/true),
        obs_position_(ObsField<double>(spec, "position")),
        obs_velocity_(ObsField<double>(spec, "velocity")) {
    const Task t = Parse(config.String("task_name"));
    if (model_->njnt != t.bodies || model_->nu != t.actuators) {
      throw ValueError("the lqr model has " + std::to_string(model_->njnt) + " joints and " +
                       std::to_string(model_->nu) + " actuators, not the task's " +
                       std::to_string(t.bodies) + " and " + std::to_string(t.actuators));
    }
  }

  void Reset(Rng& rng, const StepOutput& out) {
    // The model belongs to the env's seed: drawn again only when the seed
    // changes (dm_control draws it once, when the environment is built).
    if (!model_drawn_ || rng.key() != model_seed_) DrawModel(rng.key());
    PhysicsReset();
    // A point of the sphere of radius sqrt(2), uniformly.
    double n2 = 0;
    for (int i = 0; i < model_->nq; ++i) {
      data_->qpos[i] = rng.Normal();
      n2 += data_->qpos[i] * data_->qpos[i];
    }
    const double n = std::sqrt(n2);
    for (int i = 0; i < model_->nq; ++i) data_->qpos[i] = std::sqrt(2.0) * data_->qpos[i] / n;
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    double position2 = 0;
    for (int i = 0; i < model_->nq; ++i) position2 += data_->qpos[i] * data_->qpos[i];
    double control2 = 0;
    for (int i = 0; i < model_->nu; ++i) control2 += data_->ctrl[i] * data_->ctrl[i];
    *out.reward = static_cast<float>(1 - (0.5 * position2 + 0.5 * control2 * kControlCost));
    // dm_control ends the episode (discount 0) once the state is at rest at 0.
    double state2 = position2;
    for (int i = 0; i < model_->nv; ++i) state2 += data_->qvel[i] * data_->qvel[i];
    for (int i = 0; i < model_->na; ++i) state2 += data_->act[i] * data_->act[i];
    *out.terminated = std::sqrt(state2) < kTerminalTolerance;
  }

 protected:
  // Each joint's stiffness (dm_control's model of a seed; a test copies it).
  int NumTaskState() const override { return model_->njnt; }
  void GetTaskState(double* s) const override {
    std::memcpy(s, model_->jnt_stiffness, sizeof(double) * model_->njnt);
  }
  void SetTaskState(const double* s) override {
    std::memcpy(mutable_model()->jnt_stiffness, s, sizeof(double) * model_->njnt);
  }

 private:
  static constexpr double kControlCost = 0.1;
  static constexpr double kTerminalTolerance = 1e-6;
  static constexpr double kStiffnessLow = 15;
  static constexpr double kStiffnessHigh = 25;
  // Separates the model's stream from the episodes' (same seed).
  static constexpr uint64_t kModelStream = 0x6C71725F6D6F646CULL;

  struct Task {
    int bodies;
    int actuators;
  };
  static Task Parse(const std::string& task) {
    if (task == "lqr_2_1") return {2, 1};
    if (task == "lqr_6_2") return {6, 2};
    throw ValueError("lqr has no task '" + task + "' (tasks: lqr_2_1, lqr_6_2)");
  }

  void DrawModel(uint64_t seed) {
    // The damping stays the XML's 0 (dm_control draws it from [0, 0]).
    Rng model_rng(SplitMix64(seed ^ kModelStream));
    mjModel* m = mutable_model();
    for (int j = 0; j < m->njnt; ++j) {
      m->jnt_stiffness[j] = model_rng.Uniform(kStiffnessLow, kStiffnessHigh);
    }
    model_seed_ = seed;
    model_drawn_ = true;
  }

  void WriteObs(const StepOutput& out) const {
    std::memcpy(out[obs_position_], data_->qpos, sizeof(double) * model_->nq);
    std::memcpy(out[obs_velocity_], data_->qvel, sizeof(double) * model_->nv);
  }

  bool model_drawn_ = false;
  uint64_t model_seed_ = 0;

  OutputField<double> obs_position_;
  OutputField<double> obs_velocity_;
};

}  // namespace envpool_x
