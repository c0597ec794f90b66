// dm_control suite: humanoid (tasks: stand, walk, run), as dm_control
// 1.0.50's humanoid.py with its feature observations (not pure_state).
#pragma once

#include <cmath>
#include <cstring>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcHumanoid : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcHumanoid";

  static Config DefaultConfig() { return dmc::BaseConfig("walk"); }

  static EnvSpec Spec(const Config& config) {
    MoveSpeed(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    // The free root joint's 7 values are left out of joint_angles.
    spec.obs.push_back(dmc::ObsF64("joint_angles", {m->nq - 7}));
    spec.obs.push_back(dmc::ObsF64("head_height", {}));
    spec.obs.push_back(dmc::ObsF64("extremities", {3 * kNumExtremities}));
    spec.obs.push_back(dmc::ObsF64("torso_vertical", {3}));
    spec.obs.push_back(dmc::ObsF64("com_velocity", {3}));
    spec.obs.push_back(dmc::ObsF64("velocity", {m->nv}));
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcHumanoid(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, kControlTimestep, /*own_model=*/false),
        move_speed_(MoveSpeed(config.String("task_name"))),
        torso_(Id(mjOBJ_BODY, "torso")),
        head_(Id(mjOBJ_BODY, "head")),
        com_vel_adr_(SensorAdr("torso_subtreelinvel")),
        obs_joint_angles_(ObsField<double>(spec, "joint_angles")),
        obs_head_height_(ObsField<double>(spec, "head_height")),
        obs_extremities_(ObsField<double>(spec, "extremities")),
        obs_torso_vertical_(ObsField<double>(spec, "torso_vertical")),
        obs_com_velocity_(ObsField<double>(spec, "com_velocity")),
        obs_velocity_(ObsField<double>(spec, "velocity")) {
    for (int i = 0; i < kNumExtremities; ++i) extremities_[i] = Id(mjOBJ_BODY, kExtremities[i]);
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    // Redraw the joints until the body touches nothing (the free joint's
    // position stays at the model's; only its orientation is drawn).
    int redraws = 0;
    do {
      CountRedraw(&redraws, "Humanoid");
      RandomizeLimitedAndRotationalJoints(rng);
      AfterReset();
    } while (data_->ncon > 0);
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    const double standing = dmc::Tolerance(HeadHeight(), kStandHeight, INFINITY, kStandHeight / 4);
    const double upright =
        dmc::Tolerance(data_->xmat[9 * torso_ + 8], 0.9, INFINITY, 1.9, dmc::Sigmoid::kLinear, 0.0);
    const double stand_reward = standing * upright;
    // Mean over the actuators of a quadratic fall-off of |ctrl| (as given,
    // before MuJoCo's clamping).
    double small_control = 0;
    for (int i = 0; i < model_->nu; ++i) {
      small_control += dmc::Tolerance(data_->ctrl[i], 0.0, 0.0, 1.0, dmc::Sigmoid::kQuadratic, 0.0);
    }
    small_control = (4 + small_control / model_->nu) / 5;
    const double* com_vel = data_->sensordata + com_vel_adr_;
    double move;
    if (move_speed_ == 0) {
      move =
          (dmc::Tolerance(com_vel[0], 0.0, 0.0, 2.0) + dmc::Tolerance(com_vel[1], 0.0, 0.0, 2.0)) /
          2;
    } else {
      const double speed = std::sqrt(com_vel[0] * com_vel[0] + com_vel[1] * com_vel[1]);
      move = dmc::Tolerance(speed, move_speed_, INFINITY, move_speed_, dmc::Sigmoid::kLinear, 0.0);
      move = (5 * move + 1) / 6;
    }
    *out.reward = static_cast<float>(small_control * stand_reward * move);
    *out.terminated = false;
  }

 private:
  static constexpr double kControlTimestep = 0.025;
  static constexpr double kStandHeight = 1.4;
  static constexpr int kNumExtremities = 4;
  static constexpr const char* kExtremities[kNumExtremities] = {"left_hand", "left_foot",
                                                                "right_hand", "right_foot"};

  static double MoveSpeed(const std::string& task) {
    if (task == "stand") return 0;
    if (task == "walk") return 1;
    if (task == "run") return 10;
    throw ValueError("humanoid has no task '" + task + "' (tasks: stand, walk, run)");
  }

  double HeadHeight() const { return data_->xpos[3 * head_ + 2]; }

  void WriteObs(const StepOutput& out) const {
    std::memcpy(out[obs_joint_angles_], data_->qpos + 7, sizeof(double) * (model_->nq - 7));
    *out[obs_head_height_] = HeadHeight();
    // Torso-to-limb vectors in the torso's frame (row vector times xmat).
    const double* frame = data_->xmat + 9 * torso_;
    const double* torso_pos = data_->xpos + 3 * torso_;
    double* ext = out[obs_extremities_];
    for (int e = 0; e < kNumExtremities; ++e) {
      double v[3];
      for (int i = 0; i < 3; ++i) v[i] = data_->xpos[3 * extremities_[e] + i] - torso_pos[i];
      mju_mulMatTVec3(ext + 3 * e, frame, v);
    }
    // The torso's z axis row: xmat's zx, zy, zz.
    std::memcpy(out[obs_torso_vertical_], frame + 6, sizeof(double) * 3);
    std::memcpy(out[obs_com_velocity_], data_->sensordata + com_vel_adr_, sizeof(double) * 3);
    std::memcpy(out[obs_velocity_], data_->qvel, sizeof(double) * model_->nv);
  }

  double move_speed_;
  int torso_;
  int head_;
  int com_vel_adr_;
  int extremities_[kNumExtremities] = {};

  // Observation fields.
  OutputField<double> obs_joint_angles_;
  OutputField<double> obs_head_height_;
  OutputField<double> obs_extremities_;
  OutputField<double> obs_torso_vertical_;
  OutputField<double> obs_com_velocity_;
  OutputField<double> obs_velocity_;
};

}  // namespace envpool_x
