// What the Shadow Hand tasks share (gymnasium-robotics 1.4.2's hand_env.py,
// MujocoHandEnv): 20 position actuators driven in absolute joint positions,
// 20 MuJoCo steps per env step, and the robot part of the observation.
//
// - action (20, float32, clipped to [-1, 1]): each actuator's control is the
//   middle of its ctrlrange plus the action times half the range (float64,
//   numpy's order), clipped to the ctrlrange. gymnasium-robotics' relative
//   control (relative_control=True) reads MjData methods the mujoco bindings
//   lack, so no id uses it; it is not offered.
// - robot_get_obs: the positions, then the velocities, of every joint whose
//   name starts with "robot", in joint order (velocities are qvel, not
//   scaled by dt).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "envs/robotics/hand/rotations.h"
#include "envs/robotics/robot_env.h"

namespace envpool_x {
namespace robotics {

constexpr int kHandSubsteps = 20;
constexpr int kHandActions = 20;
//! Observation values of robot_get_obs (24 joint positions and velocities).
constexpr int kHandRobotObs = 48;

// np.linalg.norm(a - b, axis=-1) of n values: numpy's add.reduce, which sums
// eight partial sums pairwise from eight values on (n <= 128).
inline double NumpyGoalDistance(const double* a, const double* b, int n) {
  double sq[128];
  for (int k = 0; k < n; ++k) sq[k] = (a[k] - b[k]) * (a[k] - b[k]);
  double sum = 0.0;
  if (n < 8) {
    for (int k = 0; k < n; ++k) sum += sq[k];
    return std::sqrt(sum);
  }
  double r[8];
  std::copy(sq, sq + 8, r);
  const int blocks = n - n % 8;
  for (int i = 8; i < blocks; i += 8) {
    for (int j = 0; j < 8; ++j) r[j] += sq[i + j];
  }
  sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
  for (int k = blocks; k < n; ++k) sum += sq[k];
  return std::sqrt(sum);
}

inline Config HandConfig() {
  return Config{{"xml_file", std::string()}, {"reward_type", std::string("sparse")}};
}

// The spaces of a hand task: the goal fields and the 20 actions.
inline EnvSpec HandSpec(const Config& config, int64_t obs_size, int64_t goal_size) {
  EnvSpec spec;
  AddGoalFields(spec, obs_size, goal_size);
  spec.action.discrete = false;
  spec.action.box = ArraySpec{"action",
                              DType::kFloat32,
                              {kHandActions},
                              std::vector<double>(kHandActions, -1.0),
                              std::vector<double>(kHandActions, 1.0)};
  spec.reward_low = IsSparse(config) ? -1.0 : -std::numeric_limits<double>::infinity();
  spec.reward_high = 0.0;
  return spec;
}

class HandEnv : public RobotEnv {
 public:
  HandEnv(const Config& config, const EnvSpec& spec, int goal_size)
      : RobotEnv(config, spec, kHandSubsteps, goal_size), sparse_(IsSparse(config)) {
    if (model_->nu != kHandActions) {
      throw ValueError("Shadow Hand model must have 20 actuators, got " +
                       std::to_string(model_->nu));
    }
    for (int j = 0; j < model_->njnt; ++j) {
      const char* name = mj_id2name(model_.get(), mjOBJ_JOINT, j);
      if (name != nullptr && std::string(name).rfind("robot", 0) == 0) {
        robot_qpos_.push_back(model_->jnt_qposadr[j]);
        robot_dof_.push_back(model_->jnt_dofadr[j]);
      }
    }
    if (static_cast<int>(robot_qpos_.size()) * 2 != kHandRobotObs) {
      throw ValueError("Shadow Hand model must have 24 robot joints");
    }
    for (int i = 0; i < kHandActions; ++i) {
      const double low = model_->actuator_ctrlrange[2 * i];
      const double high = model_->actuator_ctrlrange[2 * i + 1];
      center_[i] = (high + low) / 2.0;
      half_range_[i] = (high - low) / 2.0;
    }
  }

 protected:
  // _set_action of a (clipped) float32 action; nullptr: the zero action.
  void SetControls(const float* action) {
    for (int i = 0; i < kHandActions; ++i) {
      const double a = action == nullptr ? 0.0 : static_cast<double>(action[i]);
      const double ctrl = center_[i] + a * half_range_[i];
      data_->ctrl[i] = std::min(std::max(ctrl, model_->actuator_ctrlrange[2 * i]),
                                model_->actuator_ctrlrange[2 * i + 1]);
    }
  }

  // The step's action clipped to [-1, 1] (float32, as numpy's clip).
  static void ClipAction(const void* action, float* clipped) {
    const float* a = BoxAction(action);
    for (int k = 0; k < kHandActions; ++k) clipped[k] = std::clamp(a[k], -1.0f, 1.0f);
  }

  // robot_get_obs into o; returns the position after it.
  double* WriteRobotObs(double* o) const {
    for (int q : robot_qpos_) *o++ = data_->qpos[q];
    for (int d : robot_dof_) *o++ = data_->qvel[d];
    return o;
  }

  bool sparse_;

 private:
  std::vector<int> robot_qpos_, robot_dof_;
  double center_[kHandActions] = {};
  double half_range_[kHandActions] = {};
};

}  // namespace robotics
}  // namespace envpool_x
