// Meta-World's reward shaping (metaworld 3.1.1's utils/reward_utils.py, which
// follows dm_control's): `tolerance` with the two sigmoids the v3 rewards use,
// and the Hamacher t-norm that combines reward terms.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace envpool_x {
namespace metaworld {

enum class Sigmoid { kLongTail, kGaussian };

// The value of the sigmoid at distance 1 (one margin) from the bounds.
constexpr double kValueAtMargin = 0.1;

// numpy's `s ** 2` for a float64 scalar: libm's pow(s, 2), which can differ
// from s * s in the last bit (the compiler would fold a constant exponent
// into s * s, hence the volatile).
inline double NumpySquare(double s) {
  volatile double two = 2.0;
  return std::pow(s, two);
}

// tolerance(x, bounds=(lower, upper), margin, sigmoid): 1 inside the bounds,
// falling off with the distance to the nearest bound in units of `margin`
// (0 outside when margin is 0).
inline double Tolerance(double x, double lower, double upper, double margin, Sigmoid sigmoid) {
  if (lower > upper) throw std::invalid_argument("tolerance: lower bound above upper bound");
  if (margin < 0) throw std::invalid_argument("tolerance: negative margin");
  const bool in_bounds = lower <= x && x <= upper;
  if (in_bounds) return 1.0;
  if (margin == 0) return 0.0;
  const double d = (x < lower ? lower - x : x - upper) / margin;
  if (sigmoid == Sigmoid::kLongTail) {
    const double scale = std::sqrt(1.0 / kValueAtMargin - 1.0);
    return 1.0 / (NumpySquare(d * scale) + 1.0);
  }
  const double scale = std::sqrt(-2.0 * std::log(kValueAtMargin));
  return std::exp(-0.5 * NumpySquare(d * scale));
}

// A number as Meta-World's numpy arithmetic holds it: a double (a Python
// float, as `tolerance` returns) or an np.float32, which comes in with the
// float32 action (the gripper's effort). Under numpy 2's promotion rules
// (NEP 50) a Python float meeting an np.float32 is rounded to float32 and the
// operation is done in float32, so a reward term that takes the effort is a
// float32 from there on.
struct NpNumber {
  double value = 0;
  bool f32 = false;
};
inline NpNumber Combine(NpNumber a, NpNumber b, char op) {
  if (a.f32 || b.f32) {
    const float x = static_cast<float>(a.value), y = static_cast<float>(b.value);
    const float r = op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y;
    return {static_cast<double>(r), true};
  }
  const double x = a.value, y = b.value;
  return {op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : x / y, false};
}
inline NpNumber operator+(NpNumber a, NpNumber b) { return Combine(a, b, '+'); }
inline NpNumber operator-(NpNumber a, NpNumber b) { return Combine(a, b, '-'); }
inline NpNumber operator*(NpNumber a, NpNumber b) { return Combine(a, b, '*'); }
inline NpNumber operator/(NpNumber a, NpNumber b) { return Combine(a, b, '/'); }
inline NpNumber Py(double v) { return {v, false}; }

// min(max(0, a), effort) / effort for the float32 action value `a`: `a` (a
// float32) inside (0, effort], else the Python number 0 or effort over effort.
inline NpNumber GripperClosed(float a, double effort = 1.0) {
  NpNumber closed = a > 0 ? NpNumber{static_cast<double>(a), true} : Py(0.0);
  if (effort < closed.value) closed = Py(effort);
  return closed / Py(effort);
}

// The Hamacher product a b / (a + b - a b), 0 when both are 0. Meta-World
// raises for arguments outside [0, 1]; its rewards never pass one.
inline NpNumber HamacherProduct(NpNumber a, NpNumber b) {
  if (!(0.0 <= a.value && a.value <= 1.0 && 0.0 <= b.value && b.value <= 1.0)) {
    throw std::invalid_argument("hamacher_product: arguments must be in [0, 1]");
  }
  const NpNumber product = a * b;
  const NpNumber denominator = (a + b) - product;
  return denominator.value > 0 ? product / denominator : Py(0.0);
}
inline double HamacherProduct(double a, double b) { return HamacherProduct(Py(a), Py(b)).value; }

// SawyerXYZEnv._gripper_caging_reward: the pads straddling the object in y,
// the fingertips' centre (tcp) near it in x-z, and (once caged) the gripper
// closing. Positions are (x, y, z); `action_grip` is the action's last value.
struct CagingArgs {
  const double* obj;       // the object now
  const double* obj_init;  // obj_init_pos
  const double* left_pad;  // the pads' body positions now
  const double* right_pad;
  const double* tcp;       // tcp now
  const double* init_tcp;  // tcp after the hand's reset
  float action_grip;
  double obj_radius, pad_success_thresh, object_reach_radius, xz_thresh;
  double desired_gripper_effort = 1.0;
  bool high_density = false, medium_density = false;
};

inline NpNumber GripperCagingReward(const CagingArgs& c) {
  if (c.high_density && c.medium_density) {
    throw std::invalid_argument("caging reward: high_density and medium_density both set");
  }
  const double pad_y[2] = {c.left_pad[1], c.right_pad[1]};
  double caging_lr[2];
  for (int i = 0; i < 2; ++i) {
    const double to_obj = std::abs(pad_y[i] - c.obj[1]);
    const double to_obj_init = std::abs(pad_y[i] - c.obj_init[1]);
    const double margin = std::abs(to_obj_init - c.pad_success_thresh);
    caging_lr[i] =
        Tolerance(to_obj, c.obj_radius, c.pad_success_thresh, margin, Sigmoid::kLongTail);
  }
  const double caging_y = HamacherProduct(caging_lr[0], caging_lr[1]);
  auto xz_norm = [](const double* a, const double* b) {
    const double dx = a[0] - b[0], dz = a[2] - b[2];
    return std::sqrt(dx * dx + dz * dz);
  };
  const double xz_margin = xz_norm(c.obj_init, c.init_tcp) - c.xz_thresh;
  const double caging_xz =
      Tolerance(xz_norm(c.tcp, c.obj), 0.0, c.xz_thresh, xz_margin, Sigmoid::kLongTail);
  const NpNumber closed = GripperClosed(c.action_grip, c.desired_gripper_effort);
  const double caging = HamacherProduct(caging_y, caging_xz);
  const NpNumber gripping = caging > 0.97 ? closed : Py(0.0);
  NpNumber caging_and_gripping = HamacherProduct(Py(caging), gripping);
  if (c.high_density) caging_and_gripping = (caging_and_gripping + Py(caging)) / Py(2);
  if (c.medium_density) {
    const double d[3] = {c.obj[0] - c.tcp[0], c.obj[1] - c.tcp[1], c.obj[2] - c.tcp[2]};
    const double d0[3] = {c.obj_init[0] - c.init_tcp[0], c.obj_init[1] - c.init_tcp[1],
                          c.obj_init[2] - c.init_tcp[2]};
    const double tcp_to_obj = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    const double tcp_to_obj_init = std::sqrt(d0[0] * d0[0] + d0[1] * d0[1] + d0[2] * d0[2]);
    const double reach_margin = std::abs(tcp_to_obj_init - c.object_reach_radius);
    const double reach =
        Tolerance(tcp_to_obj, 0.0, c.object_reach_radius, reach_margin, Sigmoid::kLongTail);
    caging_and_gripping = (caging_and_gripping + Py(reach)) / Py(2);
  }
  return caging_and_gripping;
}

}  // namespace metaworld
}  // namespace envpool_x
