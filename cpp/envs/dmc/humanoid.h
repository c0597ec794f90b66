// dm_control suite: humanoid (tasks: stand, walk, run, run_pure_state), as
// dm_control 1.0.50's humanoid.py. The body, its task and its observations
// are HumanoidBody, which humanoid_CMU (humanoid_cmu.h) shares with other
// names.
#pragma once

#include <cmath>
#include <cstring>
#include <string>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {
namespace dmc {

// A standing, walking or running humanoid: dm_control's humanoid.py and
// humanoid_CMU.py differ only in the names below, the control timestep, the
// axis of the torso that counts as upright, and humanoid's pure-state task.
//   Names::kName, kDomain, kTorso, kHead, kExtremities[4], kComVelocity,
//   kControlTimestep, kUprightAxis (index into the torso's xmat),
//   MoveSpeed(task) (throws for another task), PureState(task).
template <typename Names>
class HumanoidBody : public DmcEnvBase {
 public:
  static constexpr const char* kName = Names::kName;

  static Config DefaultConfig() { return BaseConfig("walk"); }

  static EnvSpec Spec(const Config& config) {
    const std::string task = config.String("task_name");
    Names::MoveSpeed(task);
    auto m = ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    if (Names::PureState(task)) {
      spec.obs.push_back(ObsF64("position", {m->nq}));
      spec.obs.push_back(ObsF64("velocity", {m->nv}));
    } else {
      // The free root joint's 7 values are left out of joint_angles.
      spec.obs.push_back(ObsF64("joint_angles", {m->nq - 7}));
      spec.obs.push_back(ObsF64("head_height", {}));
      spec.obs.push_back(ObsF64("extremities", {3 * kNumExtremities}));
      spec.obs.push_back(ObsF64("torso_vertical", {3}));
      spec.obs.push_back(ObsF64("com_velocity", {3}));
      spec.obs.push_back(ObsF64("velocity", {m->nv}));
    }
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  HumanoidBody(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, Names::kControlTimestep, /*own_model=*/false),
        move_speed_(Names::MoveSpeed(config.String("task_name"))),
        pure_state_(Names::PureState(config.String("task_name"))),
        torso_(Id(mjOBJ_BODY, Names::kTorso)),
        head_(Id(mjOBJ_BODY, Names::kHead)),
        com_vel_adr_(SensorAdr(Names::kComVelocity)),
        obs_position_(OptionalObsField<double>(spec, "position")),
        obs_joint_angles_(OptionalObsField<double>(spec, "joint_angles")),
        obs_head_height_(OptionalObsField<double>(spec, "head_height")),
        obs_extremities_(OptionalObsField<double>(spec, "extremities")),
        obs_torso_vertical_(OptionalObsField<double>(spec, "torso_vertical")),
        obs_com_velocity_(OptionalObsField<double>(spec, "com_velocity")),
        obs_velocity_(ObsField<double>(spec, "velocity")) {
    for (int i = 0; i < kNumExtremities; ++i) {
      extremities_[i] = Id(mjOBJ_BODY, Names::kExtremities[i]);
    }
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    // Redraw the joints until the body touches nothing (the free joint's
    // position stays at the model's; only its orientation is drawn).
    int redraws = 0;
    do {
      CountRedraw(&redraws, Names::kDomain);
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
    const double standing = Tolerance(HeadHeight(), kStandHeight, INFINITY, kStandHeight / 4);
    const double upright = Tolerance(data_->xmat[9 * torso_ + Names::kUprightAxis], 0.9, INFINITY,
                                     1.9, Sigmoid::kLinear, 0.0);
    const double stand_reward = standing * upright;
    // Mean over the actuators of a quadratic fall-off of |ctrl| (as given,
    // before MuJoCo's clamping).
    double small_control = 0;
    for (int i = 0; i < model_->nu; ++i) {
      small_control += Tolerance(data_->ctrl[i], 0.0, 0.0, 1.0, Sigmoid::kQuadratic, 0.0);
    }
    small_control = (4 + small_control / model_->nu) / 5;
    const double* com_vel = data_->sensordata + com_vel_adr_;
    double move;
    if (move_speed_ == 0) {
      move = (Tolerance(com_vel[0], 0.0, 0.0, 2.0) + Tolerance(com_vel[1], 0.0, 0.0, 2.0)) / 2;
    } else {
      const double speed = std::sqrt(com_vel[0] * com_vel[0] + com_vel[1] * com_vel[1]);
      move = Tolerance(speed, move_speed_, INFINITY, move_speed_, Sigmoid::kLinear, 0.0);
      move = (5 * move + 1) / 6;
    }
    *out.reward = static_cast<float>(small_control * stand_reward * move);
    *out.terminated = false;
  }

 private:
  static constexpr double kStandHeight = 1.4;
  static constexpr int kNumExtremities = 4;

  double HeadHeight() const { return data_->xpos[3 * head_ + 2]; }

  void WriteObs(const StepOutput& out) const {
    std::memcpy(out[obs_velocity_], data_->qvel, sizeof(double) * model_->nv);
    if (pure_state_) {
      std::memcpy(out[obs_position_], data_->qpos, sizeof(double) * model_->nq);
      return;
    }
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
  }

  double move_speed_;
  bool pure_state_;
  int torso_;
  int head_;
  int com_vel_adr_;
  int extremities_[kNumExtremities] = {};

  // Observation fields (position for the pure-state task, the features for
  // the others; velocity for all).
  OutputField<double> obs_position_;
  OutputField<double> obs_joint_angles_;
  OutputField<double> obs_head_height_;
  OutputField<double> obs_extremities_;
  OutputField<double> obs_torso_vertical_;
  OutputField<double> obs_com_velocity_;
  OutputField<double> obs_velocity_;
};

// humanoid.py's names and tasks.
struct HumanoidNames {
  static constexpr const char* kName = "DmcHumanoid";
  static constexpr const char* kDomain = "Humanoid";
  static constexpr const char* kTorso = "torso";
  static constexpr const char* kHead = "head";
  static constexpr const char* kExtremities[4] = {"left_hand", "left_foot", "right_hand",
                                                  "right_foot"};
  static constexpr const char* kComVelocity = "torso_subtreelinvel";
  static constexpr double kControlTimestep = 0.025;
  static constexpr int kUprightAxis = 8;  // xmat's zz

  static double MoveSpeed(const std::string& task) {
    if (task == "stand") return 0;
    if (task == "walk") return 1;
    if (task == "run" || task == "run_pure_state") return 10;
    throw ValueError("humanoid has no task '" + task +
                     "' (tasks: stand, walk, run, run_pure_state)");
  }
  // run_pure_state observes qpos and qvel instead of the features.
  static bool PureState(const std::string& task) { return task == "run_pure_state"; }
};

}  // namespace dmc

using DmcHumanoid = dmc::HumanoidBody<dmc::HumanoidNames>;

}  // namespace envpool_x
