// The quaternion and Euler arithmetic of gymnasium-robotics 1.4.2's
// utils/rotations.py and the manipulate tasks' quat_from_angle_and_axis,
// written so that each value is computed in numpy's order (quaternions are
// (w, x, y, z); Euler angles are its xyz convention; matrices row-major).
#pragma once

#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace envpool_x {
namespace robotics {

using Quat = std::array<double, 4>;
using Vec3 = std::array<double, 3>;
using Mat3 = std::array<double, 9>;

// np.linalg.norm of a short vector (no axis): numpy's dot, which sums the
// squares left to right for 3 and 4 values.
template <size_t N>
inline double Norm(const std::array<double, N>& v) {
  double sum = 0.0;
  for (double x : v) sum += x * x;
  return std::sqrt(sum);
}

inline Quat QuatMul(const Quat& a, const Quat& b) {
  return {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
          a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
          a[0] * b[2] + a[2] * b[0] + a[3] * b[1] - a[1] * b[3],
          a[0] * b[3] + a[3] * b[0] + a[1] * b[2] - a[2] * b[1]};
}

inline Quat QuatConjugate(const Quat& q) { return {q[0], -q[1], -q[2], -q[3]}; }

// quat_from_angle_and_axis: the axis normalised, then the quaternion.
inline Quat QuatFromAngleAndAxis(double angle, Vec3 axis) {
  const double n = Norm(axis);
  for (double& a : axis) a /= n;
  const double s = std::sin(angle / 2.0);
  Quat q{std::cos(angle / 2.0), s * axis[0], s * axis[1], s * axis[2]};
  const double m = Norm(q);
  for (double& x : q) x /= m;
  return q;
}

inline Mat3 EulerToMat(const Vec3& e) {
  const double ai = -e[2], aj = -e[1], ak = -e[0];
  const double si = std::sin(ai), sj = std::sin(aj), sk = std::sin(ak);
  const double ci = std::cos(ai), cj = std::cos(aj), ck = std::cos(ak);
  const double cc = ci * ck, cs = ci * sk, sc = si * ck, ss = si * sk;
  return {cj * ci,      cj * si,      -sj,      // row 0
          sj * cs - sc, sj * ss + cc, cj * sk,  // row 1
          sj * cc + ss, sj * sc - cs, cj * ck};
}

inline Vec3 MatToEuler(const Mat3& m) {
  constexpr double kEps4 = std::numeric_limits<double>::epsilon() * 4.0;
  const double cy = std::sqrt(m[8] * m[8] + m[5] * m[5]);
  const bool regular = cy > kEps4;
  return {regular ? -std::atan2(m[5], m[8]) : 0.0, -std::atan2(-m[2], cy),
          regular ? -std::atan2(m[1], m[0]) : -std::atan2(-m[3], m[4])};
}

inline Quat EulerToQuat(const Vec3& e) {
  const double ai = e[2] / 2, aj = -e[1] / 2, ak = e[0] / 2;
  const double si = std::sin(ai), sj = std::sin(aj), sk = std::sin(ak);
  const double ci = std::cos(ai), cj = std::cos(aj), ck = std::cos(ak);
  const double cc = ci * ck, cs = ci * sk, sc = si * ck, ss = si * sk;
  return {cj * cc + sj * ss, cj * cs - sj * sc, -(cj * ss + sj * cc), cj * sc - sj * cs};
}

inline Mat3 QuatToMat(const Quat& q) {
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  const double nq = w * w + x * x + y * y + z * z;
  if (!(nq > std::numeric_limits<double>::epsilon())) return {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const double s = 2.0 / nq;
  const double X = x * s, Y = y * s, Z = z * s;
  const double wX = w * X, wY = w * Y, wZ = w * Z;
  const double xX = x * X, xY = x * Y, xZ = x * Z;
  const double yY = y * Y, yZ = y * Z, zZ = z * Z;
  return {1.0 - (yY + zZ), xY - wZ,         xZ + wY,  // row 0
          xY + wZ,         1.0 - (xX + zZ), yZ - wX,  // row 1
          xZ - wY,         yZ + wX,         1.0 - (xX + yY)};
}

inline Vec3 QuatToEuler(const Quat& q) { return MatToEuler(QuatToMat(q)); }

// get_parallel_rotations' 24 axis-aligned rotations (Euler angles made
// canonical through a matrix), as quaternions, in its order.
inline const std::vector<Quat>& ParallelQuats() {
  static const std::vector<Quat> quats = [] {
    const double half_pi = M_PI / 2;
    const double mult90[4] = {0.0, half_pi, -half_pi, M_PI};
    std::vector<Vec3> rotations;
    for (double a : mult90) {
      for (double b : mult90) {
        for (double c : mult90) {
          Vec3 canonical = MatToEuler(EulerToMat({a, b, c}));
          for (double& v : canonical) v = std::nearbyint(v / half_pi);
          if (canonical[0] == -2) canonical[0] = 2;
          if (canonical[2] == -2) canonical[2] = 2;
          for (double& v : canonical) v *= half_pi;
          bool fresh = true;
          for (const Vec3& r : rotations) fresh = fresh && r != canonical;
          if (fresh) rotations.push_back(canonical);
        }
      }
    }
    std::vector<Quat> out;
    for (const Vec3& r : rotations) out.push_back(EulerToQuat(r));
    return out;
  }();
  return quats;
}

}  // namespace robotics
}  // namespace envpool_x
