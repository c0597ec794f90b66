// The gripper caging reward of Meta-World's sweep-v3, sweep-into-v3,
// push-back-v3 and soccer-v3 (each overrides SawyerXYZEnv._gripper_caging_reward with it): the
// pads straddling the object in y and the tcp over it in x-z make `caging`;
// once caging passes 0.95, the pads closing to the object's width (not the
// gripper's action) add `gripping`.
#pragma once

#include <cmath>

#include "envs/metaworld/reward_utils.h"
#include "envs/metaworld/task_layout.h"

namespace envpool_x {
namespace metaworld {

struct SweepCagingArgs {
  const double* obj;
  const double* obj_init;
  const double* left_pad;  // the pads now (Meta-World's init_*_pad are live views)
  const double* right_pad;
  const double* tcp;
  const double* init_tcp;
  double obj_radius;
  double grip_margin;  // gripping's bound beyond obj_radius
  double xz_margin;
};

inline double SweepCagingReward(const SweepCagingArgs& c) {
  constexpr double kPadSuccessMargin = 0.05;
  const double grip_success_margin = c.obj_radius + c.grip_margin;
  const double delta_left = c.left_pad[1] - c.obj[1];
  const double delta_right = c.obj[1] - c.right_pad[1];
  const double right_margin = std::abs(std::abs(c.obj[1] - c.right_pad[1]) - kPadSuccessMargin);
  const double left_margin = std::abs(std::abs(c.obj[1] - c.left_pad[1]) - kPadSuccessMargin);
  auto tol = [](double x, double upper, double margin, double lower) {
    return Tolerance(x, lower, upper, margin, Sigmoid::kLongTail);
  };
  const double right_caging = tol(delta_right, kPadSuccessMargin, right_margin, c.obj_radius);
  const double left_caging = tol(delta_left, kPadSuccessMargin, left_margin, c.obj_radius);
  const double right_gripping = tol(delta_right, grip_success_margin, right_margin, c.obj_radius);
  const double left_gripping = tol(delta_left, grip_success_margin, left_margin, c.obj_radius);
  const double y_caging = HamacherProduct(right_caging, left_caging);
  const double y_gripping = HamacherProduct(right_gripping, left_gripping);
  // numpy's norm of (dx, 0, dz).
  auto xz_norm = [](const double* a, const double* b) {
    const double d[3] = {a[0] - b[0], 0.0, a[2] - b[2]};
    return Norm3(d);
  };
  const double xz_margin = xz_norm(c.obj_init, c.init_tcp) - c.xz_margin;
  const double xz_caging =
      Tolerance(xz_norm(c.tcp, c.obj), 0.0, c.xz_margin, xz_margin, Sigmoid::kLongTail);
  const double caging = HamacherProduct(y_caging, xz_caging);
  const double gripping = caging > 0.95 ? y_gripping : 0.0;
  return (caging + gripping) / 2;
}

}  // namespace metaworld
}  // namespace envpool_x
