// AdroitHandHammer-v1 / AdroitHandHammerSparse-v1 (gymnasium-robotics
// 1.4.2's AdroitHandHammerEnv): pick up the hammer and drive the nail in.
//
// - reset: the nail board's height (body_pos z) drawn uniform in [0.1, 0.25].
// - observation (46): qpos[:-6], the last 6 qvel clipped to [-1, 1], the
//   palm (S_grasp), the hammer's position and Euler angles (quat2euler of
//   its xquat), the nail (S_target), the S_nail sensor clipped to [-1, 1]
//   (read at the sensor's id, as gymnasium-robotics reads it).
// - reward: sparse 10 when the nail is within 0.01 of nail_goal, else
//   -0.1; dense 0.1 * |palm - hammer| (a plus, as in 1.4.2) - |head - nail|
//   - 10 |nail - goal| - 0.01 |qvel|, +2 with the hammer and its head above
//   0.04, +25 / +75 within 0.02 / 0.01. success: within 0.01.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "envs/robotics/adroit/adroit_env.h"

namespace envpool_x {

class AdroitHandHammer : public robotics::AdroitEnv {
 public:
  static constexpr const char* kName = "AdroitHandHammer";
  static constexpr int kObsSize = 46;

  static Config DefaultConfig() { return robotics::AdroitConfig(); }
  static EnvSpec Spec(const Config& config) { return robotics::AdroitSpec(config, kObsSize); }

  AdroitHandHammer(const Config& config, const EnvSpec& spec) : AdroitEnv(config, spec) {
    nail_ = Id(mjOBJ_SITE, "S_target");
    grasp_ = Id(mjOBJ_SITE, "S_grasp");
    hammer_ = Id(mjOBJ_BODY, "Object");
    head_ = Id(mjOBJ_SITE, "tool");
    goal_ = Id(mjOBJ_SITE, "nail_goal");
    board_ = Id(mjOBJ_BODY, "nail_board");
    sensor_ = Id(mjOBJ_SENSOR, "S_nail");
    AddExtra(BodyPos(board_), 3);
  }

 protected:
  void Draw(Rng& rng) override { BodyPos(board_)[2] = rng.Uniform(0.1, 0.25); }

  void WriteObs(double* obs) const override {
    const int nq = model_->nq, nv = model_->nv;
    std::copy(data_->qpos, data_->qpos + nq - 6, obs);
    double* o = obs + (nq - 6);
    for (int i = 0; i < 6; ++i) o[i] = std::clamp(data_->qvel[nv - 6 + i], -1.0, 1.0);
    const double* palm = SiteXpos(grasp_);
    std::copy(palm, palm + 3, o + 6);
    const double* hammer = BodyXpos(hammer_);
    std::copy(hammer, hammer + 3, o + 9);
    QuatToEuler(data_->xquat + 4 * hammer_, o + 12);
    const double* nail = SiteXpos(nail_);
    std::copy(nail, nail + 3, o + 15);
    o[18] = std::clamp(data_->sensordata[sensor_], -1.0, 1.0);
  }

  double Reward(bool* success) const override {
    const double* hammer = BodyXpos(hammer_);
    const double* head = SiteXpos(head_);
    const double* nail = SiteXpos(nail_);
    const double goal_distance = Distance(nail, SiteXpos(goal_));
    *success = goal_distance < 0.01;
    if (sparse_) return *success ? 10.0 : -0.1;
    double reward = 0.1 * Distance(SiteXpos(grasp_), hammer);
    reward -= Distance(head, nail);
    reward -= 10 * goal_distance;
    // numpy's norm of the 33 velocities is BLAS ddot, which sums in SIMD
    // blocks: this sum may differ from it in the last bit.
    reward -= 1e-2 * std::sqrt(mujoco_detail::SumSquaresF64(data_->qvel, model_->nv));
    if (hammer[2] > 0.04 && head[2] > 0.04) reward += 2;
    if (goal_distance < 0.020) reward += 25;
    if (goal_distance < 0.010) reward += 75;
    return reward;
  }

 private:
  // rotations.quat2euler: the quaternion's rotation matrix (quat2mat, with
  // its 2 / |q|^2 scaling), then mat2euler.
  static void QuatToEuler(const double* q, double* euler) {
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    const double norm2 = ((w * w + x * x) + y * y) + z * z;
    double m[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    if (norm2 > std::numeric_limits<double>::epsilon()) {
      const double s = 2.0 / norm2;
      const double X = x * s, Y = y * s, Z = z * s;
      const double wX = w * X, wY = w * Y, wZ = w * Z;
      const double xX = x * X, xY = x * Y, xZ = x * Z;
      const double yY = y * Y, yZ = y * Z, zZ = z * Z;
      const double rows[9] = {1.0 - (yY + zZ), xY - wZ, xZ + wY, xY + wZ,        1.0 - (xX + zZ),
                              yZ - wX,         xZ - wY, yZ + wX, 1.0 - (xX + yY)};
      std::copy(rows, rows + 9, m);
    }
    const double cy = std::sqrt(m[8] * m[8] + m[5] * m[5]);
    const bool regular = cy > std::numeric_limits<double>::epsilon() * 4.0;
    euler[2] = regular ? -std::atan2(m[1], m[0]) : -std::atan2(-m[3], m[4]);
    euler[1] = -std::atan2(-m[2], cy);
    euler[0] = regular ? -std::atan2(m[5], m[8]) : 0.0;
  }

  int nail_ = 0, grasp_ = 0, hammer_ = 0, head_ = 0, goal_ = 0, board_ = 0, sensor_ = 0;
};

}  // namespace envpool_x
