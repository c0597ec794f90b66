// dm_control suite: quadruped (tasks: walk, run, escape, fetch), as
// dm_control 1.0.50's quadruped.py. Its walk/run model is dm_control's
// make_model(floor_size=...): no terrain, rangefinders, walls or ball;
// escape's is make_model(floor_size=40, terrain=True, rangefinders=True);
// fetch's is make_model(walls_and_ball=True); all generated in Python at make
// time. Escape draws a new heightfield each episode (terrain.h) into the env's
// own copy of the model's heightfield data.
#pragma once

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/dmc/dmc_env.h"
#include "envs/dmc/terrain.h"

namespace envpool_x {

class DmcQuadruped : public dmc::DmcEnvBase {
 public:
  static constexpr const char* kName = "DmcQuadruped";

  static Config DefaultConfig() { return dmc::BaseConfig("walk"); }

  static EnvSpec Spec(const Config& config) {
    const std::string task = config.String("task_name");
    const bool fetch = DesiredSpeed(task) == kFetch;
    auto m = dmc::ModelRegistry::Get().Load(config.String("model")).model;
    const int hinges = static_cast<int>(JointsOfType(m.get(), mjJNT_HINGE).size());
    EnvSpec spec;
    spec.obs.push_back(dmc::ObsF64("egocentric_state", {2 * hinges + m->na}));
    spec.obs.push_back(dmc::ObsF64("torso_velocity", {3}));
    spec.obs.push_back(dmc::ObsF64("torso_upright", {}));
    spec.obs.push_back(dmc::ObsF64("imu", {SensorDim(m.get(), kImuSensors)}));
    spec.obs.push_back(dmc::ObsF64("force_torque", {SensorDim(m.get(), kForceTorqueSensors)}));
    if (fetch) {
      spec.obs.push_back(dmc::ObsF64("ball_state", {9}));
      spec.obs.push_back(dmc::ObsF64("target_position", {3}));
    }
    if (task == "escape") {
      spec.obs.push_back(dmc::ObsF64("origin", {3}));
      spec.obs.push_back(dmc::ObsF64("rangefinder", {SensorDim(m.get(), kRangefinders)}));
    }
    spec.action = mujoco_detail::CtrlRangeAction(m.get());
    spec.reward_low = 0.0;
    spec.reward_high = 1.0;
    return spec;
  }

  DmcQuadruped(const Config& config, const EnvSpec& spec)
      : DmcEnvBase(config, kControlTimestep, /*own_model=*/false,
                   /*own_heightfields=*/DesiredSpeed(config.String("task_name")) == kEscape),
        desired_speed_(DesiredSpeed(config.String("task_name"))),
        torso_(Id(mjOBJ_BODY, "torso")),
        root_qpos_(JointQpos("root")),
        velocimeter_adr_(SensorAdr("velocimeter")),
        hinges_(JointsOfType(model_, mjJNT_HINGE)),
        obs_egocentric_state_(ObsField<double>(spec, "egocentric_state")),
        obs_torso_velocity_(ObsField<double>(spec, "torso_velocity")),
        obs_torso_upright_(ObsField<double>(spec, "torso_upright")),
        obs_imu_(ObsField<double>(spec, "imu")),
        obs_force_torque_(ObsField<double>(spec, "force_torque")),
        obs_ball_state_(OptionalObsField<double>(spec, "ball_state")),
        obs_target_position_(OptionalObsField<double>(spec, "target_position")),
        obs_origin_(OptionalObsField<double>(spec, "origin")),
        obs_rangefinder_(OptionalObsField<double>(spec, "rangefinder")) {
    if (desired_speed_ == kFetch) {
      ball_ = Id(mjOBJ_BODY, "ball");
      ball_geom_ = Id(mjOBJ_GEOM, "ball");
      ball_qpos_ = JointQpos("ball_root");
      ball_dof_ = JointDof("ball_root");
      root_dof_ = JointDof("root");
      workspace_ = Id(mjOBJ_SITE, "workspace");
      target_ = Id(mjOBJ_SITE, "target");
      floor_size_ = model_->geom_size[3 * Id(mjOBJ_GEOM, "floor")];
    }
    for (int s = 0; s < model_->nsensor; ++s) {
      const int type = model_->sensor_type[s];
      if (type == mjSENS_GYRO || type == mjSENS_ACCELEROMETER) imu_.push_back(s);
      if (type == mjSENS_FORCE || type == mjSENS_TORQUE) force_torque_.push_back(s);
      if (type == mjSENS_RANGEFINDER) rangefinders_.push_back(s);
    }
    if (desired_speed_ == kEscape) {
      workspace_ = Id(mjOBJ_SITE, "workspace");
      if (model_->nhfield < 1 || model_->hfield_nrow[0] != model_->hfield_ncol[0]) {
        throw ValueError("quadruped escape: the model needs a square heightfield");
      }
    }
  }

  void Reset(Rng& rng, const StepOutput& out) {
    PhysicsReset();
    if (desired_speed_ == kFetch) return ResetFetch(rng, out);
    // Escape: a new terrain first (dm_control draws it before the pose).
    if (desired_speed_ == kEscape) {
      const int res = model_->hfield_nrow[0];
      const std::vector<double> terrain = dmc::DrawEscapeTerrain(rng, model_->hfield_size[0], res);
      SetTaskState(terrain.data());
    }
    double orientation[4];
    double n2 = 0;
    for (double& q : orientation) {
      q = rng.Normal();
      n2 += q * q;
    }
    const double n = std::sqrt(n2);
    for (double& q : orientation) q /= n;
    FindNonContactingHeight(orientation, 0.0, 0.0);
    AfterReset();
    WriteObs(out);
  }

  // dm_control's Fetch: a random heading and place in 0.9 of the floor, then
  // the ball dropped from 2 m at a random place, rolling sideways.
  void ResetFetch(Rng& rng, const StepOutput& out) {
    const double azimuth = rng.Uniform(0, 2 * M_PI);
    const double orientation[4] = {std::cos(azimuth / 2), 0, 0, std::sin(azimuth / 2)};
    const double spawn = 0.9 * floor_size_;
    const double x = rng.Uniform(-spawn, spawn);
    const double y = rng.Uniform(-spawn, spawn);
    FindNonContactingHeight(orientation, x, y);
    double* ball = data_->qpos + ball_qpos_;
    ball[0] = rng.Uniform(-spawn, spawn);
    ball[1] = rng.Uniform(-spawn, spawn);
    ball[2] = 2;
    data_->qvel[ball_dof_] = 5 * rng.Normal();
    data_->qvel[ball_dof_ + 1] = 5 * rng.Normal();
    AfterReset();
    WriteObs(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const bool ok = ControlStep(action);
    WriteObs(out);
    if (!ok) return EndOnPhysicsError(out);
    if (desired_speed_ == kFetch) {
      *out.reward = static_cast<float>(FetchReward());
      *out.terminated = false;
      return;
    }
    if (desired_speed_ == kEscape) {
      *out.reward = static_cast<float>(EscapeReward());
      *out.terminated = false;
      return;
    }
    const double move = dmc::Tolerance(data_->sensordata[velocimeter_adr_], desired_speed_,
                                       INFINITY, desired_speed_, dmc::Sigmoid::kLinear, 0.5);
    // Upright: 1 with the torso's z axis up, falling linearly to 0 upside down.
    const double upright =
        dmc::Tolerance(TorsoUpright(), 1.0, INFINITY, 2.0, dmc::Sigmoid::kLinear, 0.0);
    *out.reward = static_cast<float>(upright * move);
    *out.terminated = false;
  }

 private:
  static constexpr double kControlTimestep = 0.02;
  static constexpr int kImuSensors = 0;
  static constexpr int kForceTorqueSensors = 1;
  static constexpr int kRangefinders = 2;
  static constexpr int kMaxAttempts = 10000;
  // Tasks without a speed (their own rewards).
  static constexpr double kFetch = -1;
  static constexpr double kEscape = -2;

  static double DesiredSpeed(const std::string& task) {
    if (task == "walk") return 0.5;
    if (task == "run") return 5;
    if (task == "escape") return kEscape;
    if (task == "fetch") return kFetch;
    throw ValueError("quadruped has no task '" + task + "' (tasks: walk, run, escape, fetch)");
  }

  static std::vector<int> JointsOfType(const mjModel* m, int type) {
    std::vector<int> ids;
    for (int j = 0; j < m->njnt; ++j) {
      if (m->jnt_type[j] == type) ids.push_back(j);
    }
    return ids;
  }

  // Values of the IMU (gyro, accelerometer), force/torque or rangefinder sensors.
  static int SensorDim(const mjModel* m, int group) {
    int dim = 0;
    for (int s = 0; s < m->nsensor; ++s) {
      const int type = m->sensor_type[s];
      const bool imu = type == mjSENS_GYRO || type == mjSENS_ACCELEROMETER;
      const bool ft = type == mjSENS_FORCE || type == mjSENS_TORQUE;
      const bool rf = type == mjSENS_RANGEFINDER;
      if (group == kImuSensors ? imu : group == kForceTorqueSensors ? ft : rf) {
        dim += m->sensor_dim[s];
      }
    }
    return dim;
  }

 protected:
  // Escape's heightfield (dm_control keeps its terrain in the model): its
  // res x res heights, row-major, which MuJoCo stores as float.
  int NumTaskState() const override {
    return desired_speed_ == kEscape ? model_->hfield_nrow[0] * model_->hfield_ncol[0] : 0;
  }
  void GetTaskState(double* s) const override {
    const float* h = model_->hfield_data + model_->hfield_adr[0];
    for (int i = 0; i < NumTaskState(); ++i) s[i] = h[i];
  }
  void SetTaskState(const double* s) override {
    if (desired_speed_ != kEscape) return;  // no heightfield of its own
    float* h = mutable_model()->hfield_data + model_->hfield_adr[0];
    for (int i = 0; i < NumTaskState(); ++i) h[i] = static_cast<float>(s[i]);
  }

 private:
  // dm_control's _find_non_contacting_height at (x, y): from z = 0 up in
  // 1 cm steps, each try a fresh reset with the root placed, until nothing
  // touches.
  void FindNonContactingHeight(const double* orientation, double x, double y) {
    double z = 0.0;
    for (int attempt = 1;; ++attempt) {
      PhysicsReset();
      double* root = data_->qpos + root_qpos_;
      root[0] = x;
      root[1] = y;
      root[2] = z;
      for (int k = 0; k < 4; ++k) root[3 + k] = orientation[k];
      AfterReset();
      if (data_->ncon == 0) return;
      z += 0.01;
      if (attempt > kMaxAttempts) {
        throw std::runtime_error(
            "quadruped: no non-contacting height found for the drawn orientation");
      }
    }
  }

  double TorsoUpright() const { return data_->xmat[9 * torso_ + 8]; }

  static double HorizontalDistance(const double* a, const double* b) {
    const double dx = a[0] - b[0];
    const double dy = a[1] - b[1];
    return std::sqrt(dx * dx + dy * dy);
  }

  // Upright within 20 degrees, times getting out of the terrain: 0 at its
  // centre rising linearly to 1 at its edge (the heightfield's half-size).
  double EscapeReward() const {
    const double* w = data_->site_xpos + 3 * workspace_;
    const double distance = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    const double edge = model_->hfield_size[0];
    const double escape =
        dmc::Tolerance(distance, edge, INFINITY, edge, dmc::Sigmoid::kLinear, 0.0);
    const double deviation = std::cos(20.0 * (M_PI / 180.0));
    const double upright = dmc::Tolerance(TorsoUpright(), deviation, INFINITY, 1.0 + deviation,
                                          dmc::Sigmoid::kLinear, 0.0);
    return upright * escape;
  }

  // The origin in the torso's frame; the rangefinders' readings, squashed
  // with tanh (1: nothing hit).
  void WriteEscapeObs(const StepOutput& out) const {
    const double* frame = data_->xmat + 9 * torso_;
    const double* torso = data_->xpos + 3 * torso_;
    double* origin = out[obs_origin_];
    mju_mulMatTVec3(origin, frame, torso);
    for (int i = 0; i < 3; ++i) origin[i] = -origin[i];
    double* rf = out[obs_rangefinder_];
    for (int s : rangefinders_) {
      for (int k = 0; k < model_->sensor_dim[s]; ++k) {
        const double reading = data_->sensordata[model_->sensor_adr[s] + k];
        *rf++ = reading == -1.0 ? 1.0 : std::tanh(reading);
      }
    }
  }

  // Upright, times reaching the ball, times (1 + bringing it to the target) / 2.
  double FetchReward() const {
    const double arena = floor_size_ * std::sqrt(2.0);
    const double* ball = data_->xpos + 3 * ball_;
    const double reach_bound =
        model_->site_size[3 * workspace_] + model_->geom_size[3 * ball_geom_];
    const double reach = dmc::Tolerance(HorizontalDistance(data_->site_xpos + 3 * workspace_, ball),
                                        0, reach_bound, arena, dmc::Sigmoid::kLinear, 0.0);
    const double fetch =
        dmc::Tolerance(HorizontalDistance(data_->site_xpos + 3 * target_, ball), 0,
                       model_->site_size[3 * target_], arena, dmc::Sigmoid::kLinear, 0.0);
    const double upright =
        dmc::Tolerance(TorsoUpright(), 1.0, INFINITY, 2.0, dmc::Sigmoid::kLinear, 0.0);
    return upright * (reach * (0.5 + 0.5 * fetch));
  }

  // The ball's position, velocity and spin, and the target's position,
  // relative to the torso in its frame.
  void WriteFetchObs(const StepOutput& out) const {
    const double* frame = data_->xmat + 9 * torso_;
    const double* torso = data_->xpos + 3 * torso_;
    double rel[3];
    double* ball = out[obs_ball_state_];
    for (int i = 0; i < 3; ++i) rel[i] = data_->xpos[3 * ball_ + i] - torso[i];
    mju_mulMatTVec3(ball, frame, rel);
    for (int i = 0; i < 3; ++i) rel[i] = data_->qvel[ball_dof_ + i] - data_->qvel[root_dof_ + i];
    mju_mulMatTVec3(ball + 3, frame, rel);
    mju_mulMatTVec3(ball + 6, frame, data_->qvel + ball_dof_ + 3);
    for (int i = 0; i < 3; ++i) rel[i] = data_->site_xpos[3 * target_ + i] - torso[i];
    mju_mulMatTVec3(out[obs_target_position_], frame, rel);
  }

  void WriteObs(const StepOutput& out) const {
    // Hinge angles, hinge velocities, actuator activations.
    double* ego = out[obs_egocentric_state_];
    for (int j : hinges_) *ego++ = data_->qpos[model_->jnt_qposadr[j]];
    for (int j : hinges_) *ego++ = data_->qvel[model_->jnt_dofadr[j]];
    for (int i = 0; i < model_->na; ++i) *ego++ = data_->act[i];
    std::memcpy(out[obs_torso_velocity_], data_->sensordata + velocimeter_adr_, sizeof(double) * 3);
    *out[obs_torso_upright_] = TorsoUpright();
    double* imu = out[obs_imu_];
    for (int s : imu_) {
      for (int k = 0; k < model_->sensor_dim[s]; ++k) {
        *imu++ = data_->sensordata[model_->sensor_adr[s] + k];
      }
    }
    // Force/torque readings squashed with asinh.
    double* ft = out[obs_force_torque_];
    for (int s : force_torque_) {
      for (int k = 0; k < model_->sensor_dim[s]; ++k) {
        *ft++ = std::asinh(data_->sensordata[model_->sensor_adr[s] + k]);
      }
    }
    if (desired_speed_ == kFetch) WriteFetchObs(out);
    if (desired_speed_ == kEscape) WriteEscapeObs(out);
  }

  double desired_speed_;
  int torso_;
  int root_qpos_;
  int velocimeter_adr_;
  std::vector<int> hinges_;
  std::vector<int> imu_;
  std::vector<int> force_torque_;
  std::vector<int> rangefinders_;

  // Observation fields.
  OutputField<double> obs_egocentric_state_;
  OutputField<double> obs_torso_velocity_;
  OutputField<double> obs_torso_upright_;
  OutputField<double> obs_imu_;
  OutputField<double> obs_force_torque_;
  OutputField<double> obs_ball_state_;
  OutputField<double> obs_target_position_;
  OutputField<double> obs_origin_;
  OutputField<double> obs_rangefinder_;

  // fetch and escape
  int workspace_ = -1;
  // fetch only
  int ball_ = -1;
  int ball_geom_ = -1;
  int ball_qpos_ = 0;
  int ball_dof_ = 0;
  int root_dof_ = 0;
  int target_ = -1;
  double floor_size_ = 0;
};

}  // namespace envpool_x
