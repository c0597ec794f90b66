// dm_control suite: dog (tasks: stand, walk, trot, run, fetch), as dm_control
// 1.0.50's dog.py. Its models are dm_control's get_model_and_assets(...): the
// floor sized by the task's speed, without the ball, target and walls except
// for fetch; the meshes are dm_control's dog_assets.
#pragma once

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "envs/dmc/dmc_env.h"

namespace envpool_x {

class DmcDog : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcDog";

  static Config DefaultConfig() { return dmc::BaseConfig("stand"); }

  static EnvSpec Spec(const Config& config) {
    const Task task = Parse(config.String("task_name"));
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    EnvSpec spec;
    const int hinges = static_cast<int>(Hinges(m.get()).size());
    spec.obs.push_back(dmc::ObsF64("joint_angles", {hinges}));
    spec.obs.push_back(dmc::ObsF64("joint_velocites", {hinges}));  // dm_control's spelling
    spec.obs.push_back(dmc::ObsF64("torso_pelvis_height", {2}));
    spec.obs.push_back(dmc::ObsF64("z_projection", {9}));
    spec.obs.push_back(dmc::ObsF64("torso_com_velocity", {3}));
    spec.obs.push_back(dmc::ObsF64("inertial_sensors", {9}));
    spec.obs.push_back(dmc::ObsF64("foot_forces", {12}));
    spec.obs.push_back(dmc::ObsF64("touch_sensors", {4}));
    spec.obs.push_back(dmc::ObsF64("actuator_state", {m->na}));
    if (task.fetch) {
      spec.obs.push_back(dmc::ObsF64("ball_state", {6}));
      spec.obs.push_back(dmc::ObsF64("target_position", {3}));
    }
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcDog(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, kControlTimestep, /*own_model=*/false),
        task_(Parse(config.String("task_name"))),
        hinges_(Hinges(model_)),
        torso_(Id(mjOBJ_BODY, "torso")),
        pelvis_(Id(mjOBJ_BODY, "pelvis")),
        skull_(Id(mjOBJ_BODY, "skull")),
        root_qpos_(JointQpos("root")),
        com_vel_adr_(SensorAdr("torso_linvel")),
        floor_size_(model_->geom_size[3 * Id(mjOBJ_GEOM, "floor")]),
        obs_joint_angles_(ObsField<double>(spec, "joint_angles")),
        obs_joint_velocities_(ObsField<double>(spec, "joint_velocites")),
        obs_torso_pelvis_height_(ObsField<double>(spec, "torso_pelvis_height")),
        obs_z_projection_(ObsField<double>(spec, "z_projection")),
        obs_torso_com_velocity_(ObsField<double>(spec, "torso_com_velocity")),
        obs_inertial_(ObsField<double>(spec, "inertial_sensors")),
        obs_foot_forces_(ObsField<double>(spec, "foot_forces")),
        obs_touch_(ObsField<double>(spec, "touch_sensors")),
        obs_actuator_state_(ObsField<double>(spec, "actuator_state")),
        obs_ball_state_(OptionalObsField<double>(spec, "ball_state")),
        obs_target_position_(OptionalObsField<double>(spec, "target_position")) {
    if (model_->nu != model_->na) throw ValueError("dog: every actuator must have a state");
    const char* inertial[3] = {"accelerometer", "velocimeter", "gyro"};
    for (int i = 0; i < 3; ++i) inertial_adr_[i] = SensorAdr(inertial[i]);
    const char* forces[4] = {"foot_L", "foot_R", "hand_L", "hand_R"};
    for (int i = 0; i < 4; ++i) force_adr_[i] = SensorAdr(forces[i]);
    const char* touch[4] = {"palm_L", "palm_R", "sole_L", "sole_R"};
    for (int i = 0; i < 4; ++i) touch_adr_[i] = SensorAdr(touch[i]);
    if (task_.fetch) {
      ball_geom_ = Id(mjOBJ_GEOM, "ball");
      target_geom_ = Id(mjOBJ_GEOM, "target");
      head_site_ = Id(mjOBJ_SITE, "head");
      upper_bite_ = Id(mjOBJ_SITE, "upper_bite");
      lower_bite_ = Id(mjOBJ_SITE, "lower_bite");
      ball_qpos_ = JointQpos("ball_root");
      ball_dof_ = JointDof("ball_root");
    }
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    // Standing heights: 0.9 of the torso's and pelvis's in the model's pose.
    stand_height_[0] = kStandHeightFraction * data_->xpos[3 * torso_ + 2];
    stand_height_[1] = kStandHeightFraction * data_->xpos[3 * pelvis_ + 2];
    // The body's weight, at each episode as dm_control measures it (gravity_scale).
    body_weight_ = -model_->opt.gravity[2] * model_->body_subtreemass[torso_];
    // A random heading, a random horizontal push and yaw rate.
    const double azimuth = rng.Uniform(0, 2 * M_PI);
    double* quat = data_->qpos + root_qpos_ + 3;
    quat[0] = std::cos(azimuth / 2);
    quat[1] = 0;
    quat[2] = 0;
    quat[3] = std::sin(azimuth / 2);
    data_->qvel[0] = 2 * rng.Normal();
    data_->qvel[1] = 2 * rng.Normal();
    data_->qvel[5] = 2 * rng.Normal();
    for (int i = 0; i < model_->nu; ++i) {
      data_->act[i] =
          rng.Uniform(model_->actuator_ctrlrange[2 * i], model_->actuator_ctrlrange[2 * i + 1]);
    }
    if (task_.fetch) ThrowBall(rng);
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    double reward = StandReward();
    if (task_.speed > 0) {
      double v[3];
      TorsoComVelocity(v);
      const double margin = task_.speed > 1.0 ? task_.speed : 1.0;
      const double forward =
          dmc::Tolerance(v[0], task_.speed, 2 * task_.speed, margin, dmc::Sigmoid::kLinear, 0.0);
      reward *= (4 * forward + 1) / 5;
    }
    if (task_.fetch) FetchFactors(&reward);
    *out.reward = static_cast<float>(reward);
    *out.terminated = false;
  }

 private:
  static constexpr double kControlTimestep = 0.015;
  static constexpr double kStandHeightFraction = 0.9;

  struct Task {
    double speed;  // 0: stand or fetch
    bool fetch;
  };
  static Task Parse(const std::string& task) {
    if (task == "stand") return {0, false};
    if (task == "walk") return {1, false};
    if (task == "trot") return {3, false};
    if (task == "run") return {9, false};
    if (task == "fetch") return {0, true};
    throw ValueError("dog has no task '" + task + "' (tasks: stand, walk, trot, run, fetch)");
  }

  static std::vector<int> Hinges(const mjModel* m) {
    std::vector<int> ids;
    for (int j = 0; j < m->njnt; ++j) {
      if (m->jnt_type[j] == mjJNT_HINGE) ids.push_back(j);
    }
    return ids;
  }

  // dm_control's Fetch: the ball flies from 3/4 of the floor's half size
  // towards the centre, upwards, with some noise in its heading.
  void ThrowBall(Rng& rng) {
    const double radius = 0.75 * floor_size_;
    const double azimuth = rng.Uniform(0, 2 * M_PI);
    double* pos = data_->qpos + ball_qpos_;
    pos[0] = radius * std::sin(azimuth);
    pos[1] = radius * std::cos(azimuth);
    pos[2] = 0.05;
    const double height = rng.Uniform(0, 3);
    const double vertical = std::sqrt(2 * -model_->opt.gravity[2] * height);
    const double speed = rng.Uniform(0, 5);
    const double dx = -std::sin(azimuth) + 0.05 * rng.Normal();
    const double dy = -std::cos(azimuth) + 0.05 * rng.Normal();
    double* vel = data_->qvel + ball_dof_;
    vel[0] = speed * dx;
    vel[1] = speed * dy;
    vel[2] = vertical;
  }

  // The product of the standing factors: torso and pelvis heights, the
  // skull's, torso's and pelvis's z axes up, the touch forces up to the
  // body's weight.
  double StandReward() const {
    const double torso =
        dmc::Tolerance(data_->xpos[3 * torso_ + 2], stand_height_[0], INFINITY, stand_height_[0]);
    const double pelvis =
        dmc::Tolerance(data_->xpos[3 * pelvis_ + 2], stand_height_[1], INFINITY, stand_height_[1]);
    const double min_cos = std::cos(30.0 * M_PI / 180.0);
    double reward = torso * pelvis;
    for (int body : {skull_, torso_, pelvis_}) {
      reward *= dmc::Tolerance(data_->xmat[9 * body + 8], min_cos, INFINITY, min_cos + 1,
                               dmc::Sigmoid::kLinear, 0.0);
    }
    double touch = 0;
    for (int adr : touch_adr_) touch += data_->sensordata[adr];
    reward *=
        dmc::Tolerance(touch, body_weight_, INFINITY, body_weight_, dmc::Sigmoid::kLinear, 0.9);
    return reward;
  }

  // Fetch's factors, multiplied in one at a time as numpy's prod does: the
  // mouth near the ball (until the ball is at the target), the ball near the
  // target.
  void FetchFactors(double* reward) const {
    const double* ball = data_->geom_xpos + 3 * ball_geom_;
    const double mouth = 0.5 * (Distance(ball, data_->site_xpos + 3 * upper_bite_) +
                                Distance(ball, data_->site_xpos + 3 * lower_bite_));
    const double bite_radius = model_->site_size[3 * upper_bite_];
    double reach = dmc::Tolerance(mouth, 0, bite_radius, 2.0, dmc::Sigmoid::kReciprocal);
    reach = (6 * reach + 1) / 7;
    const double to_target = Distance(ball, data_->geom_xpos + 3 * target_geom_);
    const double target_radius = model_->geom_size[3 * target_geom_];
    const double near =
        dmc::Tolerance(to_target, 0, target_radius, floor_size_, dmc::Sigmoid::kReciprocal);
    if (to_target < 2 * target_radius) reach = 1;
    *reward *= reach;
    *reward *= (near + 1) / 2;
  }

  static double Distance(const double* a, const double* b) {
    const double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  }

  // The centre of mass's velocity in the torso's frame (row vector times xmat).
  void TorsoComVelocity(double* out) const {
    mju_mulMatTVec3(out, data_->xmat + 9 * torso_, data_->sensordata + com_vel_adr_);
  }

  void WriteObs(const StepOutput& out) const {
    double* angles = out[obs_joint_angles_];
    double* velocities = out[obs_joint_velocities_];
    for (size_t i = 0; i < hinges_.size(); ++i) {
      angles[i] = data_->qpos[model_->jnt_qposadr[hinges_[i]]];
      velocities[i] = data_->qvel[model_->jnt_dofadr[hinges_[i]]];
    }
    double* height = out[obs_torso_pelvis_height_];
    height[0] = data_->xpos[3 * torso_ + 2];
    height[1] = data_->xpos[3 * pelvis_ + 2];
    double* z = out[obs_z_projection_];
    for (int body : {skull_, torso_, pelvis_}) {
      std::memcpy(z, data_->xmat + 9 * body + 6, sizeof(double) * 3);
      z += 3;
    }
    TorsoComVelocity(out[obs_torso_com_velocity_]);
    double* inertial = out[obs_inertial_];
    for (int i = 0; i < 3; ++i) {
      std::memcpy(inertial + 3 * i, data_->sensordata + inertial_adr_[i], sizeof(double) * 3);
    }
    double* forces = out[obs_foot_forces_];
    for (int i = 0; i < 4; ++i) {
      std::memcpy(forces + 3 * i, data_->sensordata + force_adr_[i], sizeof(double) * 3);
    }
    double* touch = out[obs_touch_];
    for (int i = 0; i < 4; ++i) touch[i] = data_->sensordata[touch_adr_[i]];
    std::memcpy(out[obs_actuator_state_], data_->act, sizeof(double) * model_->na);
    if (task_.fetch) WriteFetchObs(out);
  }

  // The ball's position and velocity, and the target's position, relative
  // to the head site in its frame.
  void WriteFetchObs(const StepOutput& out) const {
    const double* head_frame = data_->site_xmat + 9 * head_site_;
    const double* head_pos = data_->site_xpos + 3 * head_site_;
    double head_vel[6];
    double ball_vel[6];  // MuJoCo's (angular, linear)
    mj_objectVelocity(model_, data_.get(), mjOBJ_SITE, head_site_, head_vel, 0);
    mj_objectVelocity(model_, data_.get(), mjOBJ_GEOM, ball_geom_, ball_vel, 0);
    double rel[3];
    double* ball = out[obs_ball_state_];
    for (int i = 0; i < 3; ++i) rel[i] = data_->geom_xpos[3 * ball_geom_ + i] - head_pos[i];
    mju_mulMatTVec3(ball, head_frame, rel);
    for (int i = 0; i < 3; ++i) rel[i] = ball_vel[3 + i] - head_vel[3 + i];
    mju_mulMatTVec3(ball + 3, head_frame, rel);
    for (int i = 0; i < 3; ++i) rel[i] = data_->geom_xpos[3 * target_geom_ + i] - head_pos[i];
    mju_mulMatTVec3(out[obs_target_position_], head_frame, rel);
  }

  Task task_;
  std::vector<int> hinges_;
  int torso_;
  int pelvis_;
  int skull_;
  int root_qpos_;
  int com_vel_adr_;
  double floor_size_;
  double body_weight_ = 0.0;
  double stand_height_[2] = {};
  int inertial_adr_[3] = {};
  int force_adr_[4] = {};
  int touch_adr_[4] = {};
  // fetch only
  int ball_geom_ = -1;
  int target_geom_ = -1;
  int head_site_ = -1;
  int upper_bite_ = -1;
  int lower_bite_ = -1;
  int ball_qpos_ = 0;
  int ball_dof_ = 0;

  // Observation fields (ball_state and target_position: fetch only).
  OutputField<double> obs_joint_angles_;
  OutputField<double> obs_joint_velocities_;
  OutputField<double> obs_torso_pelvis_height_;
  OutputField<double> obs_z_projection_;
  OutputField<double> obs_torso_com_velocity_;
  OutputField<double> obs_inertial_;
  OutputField<double> obs_foot_forces_;
  OutputField<double> obs_touch_;
  OutputField<double> obs_actuator_state_;
  OutputField<double> obs_ball_state_;
  OutputField<double> obs_target_position_;
};

}  // namespace envpool_x
