// dm_control suite: cartpole (tasks: balance, balance_sparse, swingup,
// swingup_sparse, two_poles, three_poles), as dm_control 1.0.50's cartpole.py.
// The models of two_poles / three_poles are the XML that dm_control builds
// in Python (envpool_x.dmc hands it over).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcCartpole : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcCartpole";

  static Config DefaultConfig() { return dmc::BaseConfig("balance"); }

  static EnvSpec Spec(const Config& config) {
    Parse(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("position", {1 + 2 * (m->nbody - 2)}));
    spec.obs.push_back(dmc::ObsF64("velocity", {m->nv}));
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcCartpole(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, /*control_timestep=*/0.0, /*own_model=*/false),
        slider_(JointQpos("slider")),
        hinge_1_(JointQpos("hinge_1")),
        obs_position_(ObsField<double>(spec, "position")),
        obs_velocity_(ObsField<double>(spec, "velocity")) {
    const Options o = Parse(config.String("task_name"));
    swing_up_ = o.swing_up;
    sparse_ = o.sparse;
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    const int nv = model_->nv;
    double* qpos = data_->qpos;
    if (swing_up_) {
      qpos[slider_] = 0.01 * rng.Normal();
      qpos[hinge_1_] = M_PI + 0.01 * rng.Normal();
      for (int i = 2; i < nv; ++i) qpos[i] = 0.1 * rng.Normal();
    } else {
      qpos[slider_] = rng.Uniform(-0.1, 0.1);
      for (int i = 1; i < nv; ++i) qpos[i] = rng.Uniform(-0.034, 0.034);
    }
    for (int i = 0; i < nv; ++i) data_->qvel[i] = 0.01 * rng.Normal();
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    *out.reward = static_cast<float>(Reward());
    *out.terminated = false;
  }

 private:
  struct Options {
    bool swing_up;
    bool sparse;
  };
  static Options Parse(const std::string& task) {
    if (task == "balance") return {false, false};
    if (task == "balance_sparse") return {false, true};
    if (task == "swingup" || task == "two_poles" || task == "three_poles") return {true, false};
    if (task == "swingup_sparse") return {true, true};
    throw ValueError("cartpole has no task '" + task +
                     "' (tasks: balance, balance_sparse, swingup, swingup_sparse, two_poles, "
                     "three_poles)");
  }

  // zz of pole p's orientation (bodies 2, 3, ... are the poles).
  double PoleCos(int b) const { return data_->xmat[9 * b + 8]; }

  double Reward() const {
    const double cart = data_->qpos[slider_];
    if (sparse_) {
      const double cart_in_bounds = dmc::Tolerance(cart, -0.25, 0.25);
      double angle_in_bounds = 1.0;
      for (int b = 2; b < model_->nbody; ++b) {
        angle_in_bounds *= dmc::Tolerance(PoleCos(b), 0.995, 1);
      }
      return cart_in_bounds * angle_in_bounds;
    }
    double upright_sum = 0;
    for (int b = 2; b < model_->nbody; ++b) upright_sum += (PoleCos(b) + 1) / 2;
    const double upright = upright_sum / (model_->nbody - 2);
    const double centered = (1 + dmc::Tolerance(cart, 0, 0, 2)) / 2;
    const double small_control =
        (4 + dmc::Tolerance(data_->ctrl[0], 0, 0, 1, dmc::Sigmoid::kQuadratic, 0)) / 5;
    double small_velocity = INFINITY;
    for (int i = 1; i < model_->nv; ++i) {
      small_velocity = std::min(small_velocity, dmc::Tolerance(data_->qvel[i], 0, 0, 5));
    }
    small_velocity = (1 + small_velocity) / 2;
    return upright * small_control * small_velocity * centered;
  }

  void WriteObs(const StepOutput& out) const {
    double* pos = out[obs_position_];
    *pos++ = data_->qpos[slider_];
    for (int b = 2; b < model_->nbody; ++b) {
      *pos++ = data_->xmat[9 * b + 8];
      *pos++ = data_->xmat[9 * b + 2];
    }
    std::memcpy(out[obs_velocity_], data_->qvel, sizeof(double) * model_->nv);
  }

  int slider_;
  int hinge_1_;
  bool swing_up_ = false;
  bool sparse_ = false;

  // Observation fields.
  OutputField<double> obs_position_;
  OutputField<double> obs_velocity_;
};

}  // namespace envpool_x
