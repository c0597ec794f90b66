// Scalar arithmetic done the way numpy does it, so that the classic-control
// envs reproduce gymnasium's float64 trajectories bit for bit.
#pragma once

#include <cmath>

#include "core/host_device.h"

namespace envpool_x {

// math.pi / np.pi.
constexpr double kPi = 3.141592653589793;

// libm's pow(x, 2), as numpy calls it for a scalar `x ** 2`. The volatile
// exponent stops the compiler from folding it into x * x.
template <typename T>
ENVPOOL_X_HD inline T LibmSquare(T x) {
  volatile T two = 2;
  return std::pow(x, static_cast<T>(two));
}

// numpy's scalar `x ** 2`. pow() is not always correctly rounded, so about one
// result in a thousand differs from x * x by an ulp, and chaotic envs (Acrobot)
// amplify that over an episode.
template <typename T>
ENVPOOL_X_HD inline T NumpySquare(T x) {
  return LibmSquare(x);
}

// Fast path for double: glibc's pow() is within 0.54 ulp of the exact value,
// so it can only differ from the correctly rounded x * x when the exact square
// lies within 0.04 ulp of a midpoint between two doubles. The exact error of
// x * x (from fma) rules that out for ~91% of inputs; only the rest pay for
// pow(). Subnormal squares, where that error is not exact, also take pow().
template <>
ENVPOOL_X_HD inline double NumpySquare(double x) {
  const double p = x * x;
  const double err = std::fma(x, x, -p);  // x * x == p + err exactly
  // p + 1.1 * err rounds back to p iff |err| < ~0.45 ulp on err's side of p.
  if (p + 1.1 * err == p && (p >= 2.2250738585072014e-308 || x == 0)) return p;
  return LibmSquare(x);
}

// Python's and numpy's float `a % b`: fmod, moved to take the sign of b.
template <typename T>
ENVPOOL_X_HD inline T NumpyRemainder(T a, T b) {
  T mod = std::fmod(a, b);
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = std::copysign(T(0), b);
  }
  return mod;
}

// `x < c` etc. where c is a Python float and x a numpy float32 (x_is_float32)
// or float64: numpy 2 (NEP 50) rounds c to float32 before comparing with a
// float32.
template <typename T>
ENVPOOL_X_HD inline bool WeakLess(T x, T c, bool x_is_float32) {
  return x_is_float32 ? static_cast<float>(x) < static_cast<float>(c) : x < c;
}
template <typename T>
ENVPOOL_X_HD inline bool WeakGreater(T x, T c, bool x_is_float32) {
  return x_is_float32 ? static_cast<float>(x) > static_cast<float>(c) : x > c;
}
template <typename T>
ENVPOOL_X_HD inline bool WeakEqual(T x, T c, bool x_is_float32) {
  return x_is_float32 ? static_cast<float>(x) == static_cast<float>(c) : x == c;
}
template <typename T>
ENVPOOL_X_HD inline bool WeakGreaterEqual(T x, T c, bool x_is_float32) {
  return x_is_float32 ? static_cast<float>(x) >= static_cast<float>(c) : x >= c;
}

// gymnasium declares bounds as float32 arrays; keep the exact float32 values.
inline double RoundToFloat32(double x) { return static_cast<double>(static_cast<float>(x)); }

}  // namespace envpool_x
