// The Shadow Hand manipulation tasks (gymnasium-robotics 1.4.2's
// manipulate.py, MujocoManipulateEnv, and manipulate_touch_sensors.py):
// turn and move an object (block, egg, pen) on the palm to a goal pose (its
// free joint's position and quaternion, 7 values).
//
// - options: target_position (ignore, fixed, random: a uniform offset in
//   [-0.04, 0.04] x [-0.06, 0.02] x [0, 0.06]) and target_rotation (ignore,
//   fixed, xyz, z, parallel), gymnasium-robotics' constructor keywords; the
//   touch tasks' touch_get_obs (sensordata, boolean, log, off).
// - reset (no mj_resetData: the solver's warm start and the controls carry
//   over, as gymnasium-robotics'): the initial time, qpos and qvel, mj_forward;
//   the object's quaternion turned by a random offset (per target_rotation)
//   and its position moved by N(0, 0.005) per coordinate (unless fixed), the
//   quaternion normalised; 10 env steps of the zero action; redrawn until the
//   object's centre is above z = 0.04 (still on the palm); the goal drawn.
// - observation: robot joints (48), the object's qvel (6) and qpos (7: the
//   achieved goal), then the 92 touch sensors' values (sensordata as is,
//   boolean: 1.0 where above 0, log: log(x + 1)).
// - success: the position within distance_threshold (0 when ignored) and
//   the rotation (2 acos(w) of a times b's conjugate; the pen's ignores the
//   Euler z angle) within 0.1. Reward: success - 1 (float32), or
//   -(10 d_pos + d_rot).
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "envs/robotics/hand/hand_env.h"

namespace envpool_x {
namespace robotics {

// What a manipulate class passes to MujocoManipulateEnv.
struct ManipulateLayout {
  bool touch;  // the *_touch_sensors model and touch_get_obs
  bool randomize_initial_rotation;
  bool ignore_z_target_rotation;
  double distance_threshold;
};

constexpr int kManipulateGoal = 7;
constexpr double kRotationThreshold = 0.1;
constexpr double kTargetRange[3][2] = {{-0.04, 0.04}, {-0.06, 0.02}, {0.0, 0.06}};
constexpr int kTouchSensors = 92;

enum class TargetPosition { kIgnore, kFixed, kRandom };
enum class TargetRotation { kIgnore, kFixed, kXyz, kZ, kParallel };
enum class TouchObs { kOff, kSensordata, kBoolean, kLog };

inline TargetPosition ParseTargetPosition(const std::string& s) {
  if (s == "ignore") return TargetPosition::kIgnore;
  if (s == "fixed") return TargetPosition::kFixed;
  if (s == "random") return TargetPosition::kRandom;
  throw ValueError("target_position must be 'ignore', 'fixed' or 'random', got '" + s + "'");
}

inline TargetRotation ParseTargetRotation(const std::string& s) {
  if (s == "ignore") return TargetRotation::kIgnore;
  if (s == "fixed") return TargetRotation::kFixed;
  if (s == "xyz") return TargetRotation::kXyz;
  if (s == "z") return TargetRotation::kZ;
  if (s == "parallel") return TargetRotation::kParallel;
  throw ValueError("target_rotation must be 'ignore', 'fixed', 'xyz', 'z' or 'parallel', got '" +
                   s + "'");
}

inline TouchObs ParseTouchObs(const ManipulateLayout& layout, const Config& config) {
  if (!layout.touch) return TouchObs::kOff;
  const std::string& s = config.String("touch_get_obs");
  if (s == "sensordata") return TouchObs::kSensordata;
  if (s == "boolean") return TouchObs::kBoolean;
  if (s == "log") return TouchObs::kLog;
  if (s == "off") return TouchObs::kOff;
  throw ValueError("touch_get_obs must be 'sensordata', 'boolean', 'log' or 'off', got '" + s +
                   "'");
}

inline Config ManipulateConfig(const ManipulateLayout& layout) {
  Config config = HandConfig();
  config.Set("target_position", std::string("random"));
  config.Set("target_rotation", std::string("xyz"));
  if (layout.touch) config.Set("touch_get_obs", std::string("sensordata"));
  return config;
}

inline EnvSpec ManipulateSpec(const ManipulateLayout& layout, const Config& config) {
  ParseTargetPosition(config.String("target_position"));
  ParseTargetRotation(config.String("target_rotation"));
  const bool touch = ParseTouchObs(layout, config) != TouchObs::kOff;
  const int64_t obs = kHandRobotObs + 6 + kManipulateGoal + (touch ? kTouchSensors : 0);
  return HandSpec(config, obs, kManipulateGoal);
}

// _goal_distance: the position distance and the rotation angle.
inline void ManipulateDistances(const double* a, const double* b, TargetPosition position,
                                TargetRotation rotation, bool ignore_z, double* d_pos,
                                double* d_rot) {
  *d_pos = position == TargetPosition::kIgnore ? 0.0 : NumpyGoalDistance(a, b, 3);
  *d_rot = 0.0;
  if (rotation == TargetRotation::kIgnore) return;
  Quat qa{a[3], a[4], a[5], a[6]};
  const Quat qb{b[3], b[4], b[5], b[6]};
  if (ignore_z) {
    Vec3 euler_a = QuatToEuler(qa);
    euler_a[2] = QuatToEuler(qb)[2];
    qa = EulerToQuat(euler_a);
  }
  const double w = QuatMul(qa, QuatConjugate(qb))[0];
  *d_rot = 2 * std::acos(std::min(std::max(w, -1.0), 1.0));
}

class ManipulateEnv : public HandEnv {
 public:
  ManipulateEnv(const ManipulateLayout& layout, const Config& config, const EnvSpec& spec)
      : HandEnv(config, spec, kManipulateGoal),
        layout_(layout),
        position_(ParseTargetPosition(config.String("target_position"))),
        rotation_(ParseTargetRotation(config.String("target_rotation"))),
        touch_(ParseTouchObs(layout, config)) {
    const int joint = Id(mjOBJ_JOINT, "object:joint");
    if (model_->jnt_type[joint] != mjJNT_FREE) throw ValueError("object:joint must be free");
    object_qpos_ = model_->jnt_qposadr[joint];
    object_dof_ = model_->jnt_dofadr[joint];
    center_ = Id(mjOBJ_SITE, "object:center");
    if (touch_ != TouchObs::kOff) {
      for (int s = 0; s < model_->nsensor; ++s) {
        const char* name = mj_id2name(model_.get(), mjOBJ_SENSOR, s);
        if (name != nullptr && std::string(name).find("robot0:TS_") != std::string::npos) {
          // gymnasium-robotics reads sensordata[sensor id].
          touch_sensors_.push_back(s);
        }
      }
      if (static_cast<int>(touch_sensors_.size()) != kTouchSensors) {
        throw ValueError("the touch model must have 92 robot0:TS_ sensors");
      }
    }
    // _env_setup (no initial joint positions): mj_forward; the initial state.
    mj_forward(model_.get(), data_.get());
    time_ = data_->time;
    qpos_.assign(data_->qpos, data_->qpos + model_->nq);
    qvel_.assign(data_->qvel, data_->qvel + model_->nv);
  }

  void Reset(Rng& rng, const StepOutput& out) {
    mujoco_detail::DropDefaultTimer();
    while (!ResetSim(rng)) {
    }
    SampleGoal(rng);
    WriteObservation(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    mujoco_detail::DropDefaultTimer();
    float clipped[kHandActions];
    ClipAction(action, clipped);
    SetControls(clipped);
    Simulate();
    double d_pos = 0.0, d_rot = 0.0;
    const bool success = WriteObservation(out, &d_pos, &d_rot);
    *out.reward = sparse_ ? (success ? 0.0f : -1.0f) : static_cast<float>(-(10.0 * d_pos + d_rot));
    *out.terminated = false;
  }

 private:
  // A random rotation offset per target_rotation (xyz's also for ignore).
  Quat RandomRotation(Rng& rng, TargetRotation mode) const {
    const double angle = rng.Uniform(-M_PI, M_PI);
    if (mode == TargetRotation::kZ) return QuatFromAngleAndAxis(angle, {0.0, 0.0, 1.0});
    if (mode == TargetRotation::kParallel) {
      const Quat z = QuatFromAngleAndAxis(angle, {0.0, 0.0, 1.0});
      const std::vector<Quat>& parallel = ParallelQuats();
      return QuatMul(z, parallel[rng.UniformInt(parallel.size())]);
    }
    Vec3 axis;
    for (double& a : axis) a = rng.Uniform(-1.0, 1.0);
    return QuatFromAngleAndAxis(angle, axis);
  }

  // _reset_sim; false when the object fell off the palm.
  bool ResetSim(Rng& rng) {
    data_->time = time_;
    std::copy(qpos_.begin(), qpos_.end(), data_->qpos);
    std::copy(qvel_.begin(), qvel_.end(), data_->qvel);
    mj_forward(model_.get(), data_.get());
    double* object = data_->qpos + object_qpos_;
    Quat quat{object[3], object[4], object[5], object[6]};
    if (layout_.randomize_initial_rotation && rotation_ != TargetRotation::kFixed) {
      quat = QuatMul(quat, RandomRotation(rng, rotation_));
    }
    if (position_ != TargetPosition::kFixed) {
      for (int k = 0; k < 3; ++k) object[k] += 0.005 * rng.Normal();
    }
    const double norm = Norm(quat);
    for (int k = 0; k < 4; ++k) object[3 + k] = quat[k] / norm;
    for (int k = 0; k < 10; ++k) {
      SetControls(nullptr);
      Simulate();
    }
    mj_forward(model_.get(), data_.get());
    return data_->site_xpos[3 * center_ + 2] > 0.04;
  }

  // _sample_goal. For target_rotation ignore and fixed gymnasium-robotics
  // 1.4.2 raises (it calls an MjData method the mujoco bindings lack); here
  // the goal keeps the object's quaternion, what the option names.
  void SampleGoal(Rng& rng) {
    const double* object = data_->qpos + object_qpos_;
    for (int k = 0; k < 3; ++k) goal_[k] = object[k];
    if (position_ == TargetPosition::kRandom) {
      for (int k = 0; k < 3; ++k) {
        goal_[k] = object[k] + rng.Uniform(kTargetRange[k][0], kTargetRange[k][1]);
      }
    }
    Quat quat{object[3], object[4], object[5], object[6]};
    if (rotation_ != TargetRotation::kIgnore && rotation_ != TargetRotation::kFixed) {
      quat = RandomRotation(rng, rotation_);
    }
    const double norm = Norm(quat);
    for (int k = 0; k < 4; ++k) goal_[3 + k] = quat[k] / norm;
  }

  bool WriteObservation(const StepOutput& out, double* d_pos = nullptr, double* d_rot = nullptr) {
    double* o = WriteRobotObs(ObservationOut(out));
    for (int k = 0; k < 6; ++k) *o++ = data_->qvel[object_dof_ + k];
    double* achieved = o;
    for (int k = 0; k < kManipulateGoal; ++k) *o++ = data_->qpos[object_qpos_ + k];
    for (int s : touch_sensors_) {
      const double v = data_->sensordata[s];
      if (touch_ == TouchObs::kSensordata) *o++ = v;
      if (touch_ == TouchObs::kBoolean) *o++ = v > 0.0 ? 1.0 : 0.0;
      if (touch_ == TouchObs::kLog) *o++ = std::log(v + 1.0);
    }
    WriteGoalFields(out, achieved);
    double pos = 0.0, rot = 0.0;
    ManipulateDistances(achieved, goal_.data(), position_, rotation_,
                        layout_.ignore_z_target_rotation, &pos, &rot);
    const bool success = pos < layout_.distance_threshold && rot < kRotationThreshold;
    WriteSuccess(out, success);
    if (d_pos != nullptr) *d_pos = pos;
    if (d_rot != nullptr) *d_rot = rot;
    return success;
  }

  const ManipulateLayout& layout_;
  TargetPosition position_;
  TargetRotation rotation_;
  TouchObs touch_;
  int object_qpos_ = 0, object_dof_ = 0, center_ = 0;
  std::vector<int> touch_sensors_;
  double time_ = 0.0;
  std::vector<double> qpos_, qvel_;
};

}  // namespace robotics
}  // namespace envpool_x
