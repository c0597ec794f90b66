// The Fetch arm tasks (gymnasium-robotics 1.4.2's fetch_env.py, the v4
// MujocoFetchEnv): the gripper is moved by a mocap body welded to it, its
// fingers by two position actuators (PickAndPlace) or held shut.
//
// - make: the task's initial joint positions, reset_mocap_welds, the mocap
//   at the grip site plus (-0.498, 0.005, -0.431 + gripper_extra_height) with
//   the quaternion (1, 0, 1, 0), 10 env steps of warm-up; the state reached
//   is the initial state of every reset, the grip site's position
//   initial_gripper_xpos, the object's height height_offset.
// - reset: mj_resetData, the initial state; the object's x-y redrawn around
//   the gripper until 0.1 or more away; mj_forward; the goal drawn.
// - step: the action clipped to [-1, 1]; the mocap takes the gripper body's
//   pose plus 0.05 * a[:3] (float32 arithmetic, as numpy's) and a quaternion
//   plus (1, 0, 1, 0); the finger controls are their joints' positions plus
//   a[3] (0 with a blocked gripper); n_substeps mj_steps; a blocked gripper's
//   fingers are set back to 0 (mj_forward).
// - observation (25, or 10 without an object): grip position, object
//   position, object minus grip, the two finger joints, object Euler angles,
//   object linear velocity minus the grip's, object angular velocity, grip
//   velocity, finger velocities (velocities times dt).
#pragma once

#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "envs/robotics/robot_env.h"

namespace envpool_x {
namespace robotics {

// What the Fetch tasks' constructors pass to MujocoFetchEnv.
struct FetchLayout {
  const char* xml;  // under gymnasium_robotics/envs/assets/fetch (filled by Python)
  bool has_object;
  bool block_gripper;
  bool target_in_the_air;
  double gripper_extra_height;
  std::array<double, 3> target_offset;
  double obj_range;
  double target_range;
  double distance_threshold;
  std::array<double, 3> slides;       // robot0:slide0..2
  std::array<double, 7> object_qpos;  // object0:joint (with an object)
};

constexpr int kFetchSubsteps = 20;

inline Config FetchConfig() {
  return Config{{"xml_file", std::string()}, {"reward_type", std::string("sparse")}};
}

inline EnvSpec FetchSpec(const FetchLayout& layout, const Config& config) {
  IsSparse(config);
  EnvSpec spec;
  AddGoalFields(spec, layout.has_object ? 25 : 10, 3);
  spec.action.discrete = false;
  spec.action.box = ArraySpec{"action", DType::kFloat32, {4}, {-1, -1, -1, -1}, {1, 1, 1, 1}};
  spec.reward_low = IsSparse(config) ? -1.0 : -std::numeric_limits<double>::infinity();
  spec.reward_high = 0.0;
  return spec;
}

class FetchEnv : public RobotEnv {
  // What _env_setup leaves: the initial state MujocoRobotEnv keeps
  // (initial_time, initial_qpos, initial_qvel), initial_gripper_xpos and the
  // object's height_offset.
  struct WarmUp {
    std::array<double, 3> grip{};
    double height_offset = 0.0;
    double time = 0.0;
    std::vector<double> qpos, qvel;
  };

 public:
  FetchEnv(const FetchLayout& layout, const Config& config, const EnvSpec& spec)
      : RobotEnv(config, spec, kFetchSubsteps, 3), layout_(layout), sparse_(IsSparse(config)) {
    grip_ = Id(mjOBJ_SITE, "robot0:grip");
    mocap_ = model_->body_mocapid[Id(mjOBJ_BODY, "robot0:mocap")];
    // robot_get_obs()[-2:]: the last two joints named robot*.
    int found = 0;
    for (int j = model_->njnt - 1; j >= 0 && found < 2; --j) {
      const char* name = mj_id2name(model_.get(), mjOBJ_JOINT, j);
      if (name != nullptr && std::string(name).rfind("robot", 0) == 0) {
        finger_qpos_[1 - found] = model_->jnt_qposadr[j];
        finger_dof_[1 - found] = model_->jnt_dofadr[j];
        ++found;
      }
    }
    if (found < 2) throw ValueError("Fetch model needs two robot joints (the fingers)");
    left_finger_ = model_->jnt_qposadr[Id(mjOBJ_JOINT, "robot0:l_gripper_finger_joint")];
    right_finger_ = model_->jnt_qposadr[Id(mjOBJ_JOINT, "robot0:r_gripper_finger_joint")];
    if (layout_.has_object) {
      object_site_ = Id(mjOBJ_SITE, "object0");
      object_qpos_ = model_->jnt_qposadr[Id(mjOBJ_JOINT, "object0:joint")];
    }
    SetUp(config.String("xml_file"));
  }

  void Reset(Rng& rng, const StepOutput& out) {
    mujoco_detail::DropDefaultTimer();
    mj_resetData(model_.get(), data_.get());
    data_->time = warm_.time;
    std::copy(warm_.qpos.begin(), warm_.qpos.end(), data_->qpos);
    std::copy(warm_.qvel.begin(), warm_.qvel.end(), data_->qvel);
    if (layout_.has_object) {
      double xy[2] = {warm_.grip[0], warm_.grip[1]};
      // np.linalg.norm(object_xpos - initial_gripper_xpos[:2]) < 0.1
      while (Norm2(xy[0] - warm_.grip[0], xy[1] - warm_.grip[1]) < 0.1) {
        for (int k = 0; k < 2; ++k) {
          xy[k] = warm_.grip[k] + rng.Uniform(-layout_.obj_range, layout_.obj_range);
        }
      }
      data_->qpos[object_qpos_] = xy[0];
      data_->qpos[object_qpos_ + 1] = xy[1];
    }
    mj_forward(model_.get(), data_.get());
    SampleGoal(rng);
    WriteObservation(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    mujoco_detail::DropDefaultTimer();
    const float* a = BoxAction(action);
    float clipped[4];
    for (int k = 0; k < 4; ++k) clipped[k] = std::clamp(a[k], -1.0f, 1.0f);
    const double gripper = layout_.block_gripper ? 0.0 : static_cast<double>(clipped[3]);
    // ctrl_set_action: position actuators are driven relative to their joint.
    for (int i = 0; i < std::min(static_cast<int>(model_->nu), 2); ++i) {
      if (model_->actuator_biastype[i] == mjBIAS_NONE) {
        data_->ctrl[i] = gripper;
      } else {
        const int joint = model_->actuator_trnid[2 * i];
        data_->ctrl[i] = data_->qpos[model_->jnt_qposadr[joint]] + gripper;
      }
    }
    // mocap_set_action.
    ResetMocapToBodies();
    double* pos = data_->mocap_pos + 3 * mocap_;
    for (int k = 0; k < 3; ++k) pos[k] += static_cast<double>(clipped[k] * 0.05f);
    double* quat = data_->mocap_quat + 4 * mocap_;
    quat[0] += 1.0;
    quat[2] += 1.0;
    Simulate();
    if (layout_.block_gripper) {
      data_->qpos[left_finger_] = 0.0;
      data_->qpos[right_finger_] = 0.0;
      mj_forward(model_.get(), data_.get());
    }
    const double distance = WriteObservation(out);
    // -(d > threshold) in float32 (a success is -0.0, as numpy's), or -d.
    *out.reward = sparse_ ? (distance > layout_.distance_threshold ? -1.0f : -0.0f)
                          : static_cast<float>(-distance);
    *out.terminated = false;
  }

 private:
  // _env_setup: the welds reset, then the warm-up, whose result (the initial
  // state MujocoRobotEnv keeps) is the same for every env of a model and
  // task: run once per process (200 MuJoCo steps), then copied.
  void SetUp(const std::string& xml) {
    ResetWeldData();
    static std::mutex mu;
    static std::map<std::pair<std::string, const FetchLayout*>, WarmUp> cache;
    std::lock_guard<std::mutex> lock(mu);
    auto [it, fresh] = cache.try_emplace({xml, &layout_});
    if (fresh) it->second = WarmUpFromScratch();
    warm_ = it->second;
  }

  WarmUp WarmUpFromScratch() {
    for (int k = 0; k < 3; ++k) {
      static const char* const kSlides[] = {"robot0:slide0", "robot0:slide1", "robot0:slide2"};
      data_->qpos[model_->jnt_qposadr[Id(mjOBJ_JOINT, kSlides[k])]] = layout_.slides[k];
    }
    if (layout_.has_object) {
      std::copy(layout_.object_qpos.begin(), layout_.object_qpos.end(), data_->qpos + object_qpos_);
    }
    mj_forward(model_.get(), data_.get());  // reset_mocap_welds' own
    mj_forward(model_.get(), data_.get());
    const double offset[3] = {-0.498, 0.005, -0.431 + layout_.gripper_extra_height};
    const double* grip = data_->site_xpos + 3 * grip_;
    double target[3];
    for (int k = 0; k < 3; ++k) target[k] = offset[k] + grip[k];
    std::copy(target, target + 3, data_->mocap_pos + 3 * mocap_);
    const double rotation[4] = {1.0, 0.0, 1.0, 0.0};
    std::copy(rotation, rotation + 4, data_->mocap_quat + 4 * mocap_);
    for (int k = 0; k < 10; ++k) Simulate();
    WarmUp warm;
    std::copy(data_->site_xpos + 3 * grip_, data_->site_xpos + 3 * grip_ + 3, warm.grip.begin());
    if (layout_.has_object) warm.height_offset = data_->site_xpos[3 * object_site_ + 2];
    warm.time = data_->time;
    warm.qpos.assign(data_->qpos, data_->qpos + model_->nq);
    warm.qvel.assign(data_->qvel, data_->qvel + model_->nv);
    return warm;
  }

  // _sample_goal (uniform offsets from the env's seed stream).
  void SampleGoal(Rng& rng) {
    const double r = layout_.target_range;
    for (int k = 0; k < 3; ++k) goal_[k] = warm_.grip[k] + rng.Uniform(-r, r);
    if (!layout_.has_object) return;
    for (int k = 0; k < 3; ++k) goal_[k] += layout_.target_offset[k];
    goal_[2] = warm_.height_offset;
    if (layout_.target_in_the_air && rng.Uniform() < 0.5) goal_[2] += rng.Uniform(0.0, 0.45);
  }

  // _get_obs; also the goal fields and is_success. Returns the distance.
  double WriteObservation(const StepOutput& out) {
    const double dt = Dt();
    double* o = ObservationOut(out);
    const double* grip = data_->site_xpos + 3 * grip_;
    double grip_velp[3];
    SiteVelocity(grip_, false, grip_velp);
    std::copy(grip, grip + 3, o);
    const double fingers[2] = {data_->qpos[finger_qpos_[0]], data_->qpos[finger_qpos_[1]]};
    const double finger_vel[2] = {data_->qvel[finger_dof_[0]] * dt,
                                  data_->qvel[finger_dof_[1]] * dt};
    double* tail = o + 3;
    const double* achieved = grip;
    if (layout_.has_object) {
      const double* object = data_->site_xpos + 3 * object_site_;
      achieved = object;
      std::copy(object, object + 3, o + 3);
      for (int k = 0; k < 3; ++k) o[6 + k] = object[k] - grip[k];
      o[9] = fingers[0];
      o[10] = fingers[1];
      MatrixToEuler(data_->site_xmat + 9 * object_site_, o + 11);
      SiteVelocity(object_site_, false, o + 14);
      for (int k = 0; k < 3; ++k) o[14 + k] -= grip_velp[k];
      SiteVelocity(object_site_, true, o + 17);
      tail = o + 20;
    } else {
      o[3] = fingers[0];
      o[4] = fingers[1];
      tail = o + 5;
    }
    std::copy(grip_velp, grip_velp + 3, tail);
    tail[3] = finger_vel[0];
    tail[4] = finger_vel[1];
    const double distance = WriteGoals(out, achieved);
    WriteSuccess(out, distance < layout_.distance_threshold);
    return distance;
  }

  static double Norm2(double x, double y) { return std::sqrt(x * x + y * y); }

  // rotations.mat2euler of a row-major 3x3 matrix.
  static void MatrixToEuler(const double* m, double* euler) {
    const double cy = std::sqrt(m[8] * m[8] + m[5] * m[5]);
    const bool regular = cy > 4.0 * std::numeric_limits<double>::epsilon();
    euler[2] = regular ? -std::atan2(m[1], m[0]) : -std::atan2(-m[3], m[4]);
    euler[1] = -std::atan2(-m[2], cy);
    euler[0] = regular ? -std::atan2(m[5], m[8]) : 0.0;
  }

  const FetchLayout& layout_;
  bool sparse_;
  int grip_ = 0, mocap_ = 0, object_site_ = 0, object_qpos_ = 0;
  int left_finger_ = 0, right_finger_ = 0;
  int finger_qpos_[2] = {0, 0}, finger_dof_[2] = {0, 0};
  WarmUp warm_;
};

}  // namespace robotics
}  // namespace envpool_x
