// dm_control suite: acrobot (tasks: swingup, swingup_sparse), as dm_control
// 1.0.50's acrobot.py.
#pragma once

#include <cmath>
#include <cstring>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcAcrobot : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcAcrobot";

  static Config DefaultConfig() { return dmc::BaseConfig("swingup"); }

  static EnvSpec Spec(const Config& config) {
    Sparse(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("orientations", {4}));
    spec.obs.push_back(dmc::ObsF64("velocity", {m->nv}));
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcAcrobot(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, /*control_timestep=*/0.0, /*own_model=*/false),
        sparse_(Sparse(config.String("task_name"))),
        upper_(Id(mjOBJ_BODY, "upper_arm")),
        lower_(Id(mjOBJ_BODY, "lower_arm")),
        target_(Id(mjOBJ_SITE, "target")),
        tip_(Id(mjOBJ_SITE, "tip")),
        shoulder_(JointQpos("shoulder")),
        elbow_(JointQpos("elbow")),
        obs_orientations_(ObsField<double>(spec, "orientations")),
        obs_velocity_(ObsField<double>(spec, "velocity")) {}

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    data_->qpos[shoulder_] = rng.Uniform(-M_PI, M_PI);
    data_->qpos[elbow_] = rng.Uniform(-M_PI, M_PI);
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    double d2 = 0;
    for (int k = 0; k < 3; ++k) {
      const double d = data_->site_xpos[3 * target_ + k] - data_->site_xpos[3 * tip_ + k];
      d2 += d * d;
    }
    const double radius = model_->site_size[3 * target_];
    *out.reward = static_cast<float>(dmc::Tolerance(std::sqrt(d2), 0, radius, sparse_ ? 0.0 : 1.0));
    *out.terminated = false;
  }

 private:
  static bool Sparse(const std::string& task) {
    if (task == "swingup") return false;
    if (task == "swingup_sparse") return true;
    throw ValueError("acrobot has no task '" + task + "' (tasks: swingup, swingup_sparse)");
  }

  void WriteObs(const StepOutput& out) const {
    double* o = out[obs_orientations_];
    o[0] = data_->xmat[9 * upper_ + 2];
    o[1] = data_->xmat[9 * lower_ + 2];
    o[2] = data_->xmat[9 * upper_ + 8];
    o[3] = data_->xmat[9 * lower_ + 8];
    std::memcpy(out[obs_velocity_], data_->qvel, sizeof(double) * model_->nv);
  }

  bool sparse_;
  int upper_;
  int lower_;
  int target_;
  int tip_;
  int shoulder_;
  int elbow_;

  // Observation fields.
  OutputField<double> obs_orientations_;
  OutputField<double> obs_velocity_;
};

}  // namespace envpool_x
