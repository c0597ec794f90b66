// Scalar arithmetic done the way numpy does it, so that the classic-control
// envs reproduce gymnasium's float64 trajectories bit for bit.
#pragma once

#include <cmath>

#include "core/host_device.h"

namespace envpool_x {

// math.pi / np.pi.
constexpr double kPi = 3.141592653589793;

// numpy evaluates `x ** 2` on a scalar with libm's pow(), which is not always
// correctly rounded: about one result in a thousand differs from x * x by one
// ulp, and chaotic envs (Acrobot) amplify that over an episode. The volatile
// exponent stops the compiler from folding pow(x, 2) into x * x.
template <typename T>
ENVPOOL_X_HD inline T NumpySquare(T x) {
  volatile T two = 2;
  return std::pow(x, static_cast<T>(two));
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
  return x_is_float32 ? static_cast<float>(x) == static_cast<float>(c)
                      : x == c;
}
template <typename T>
ENVPOOL_X_HD inline bool WeakGreaterEqual(T x, T c, bool x_is_float32) {
  return x_is_float32 ? static_cast<float>(x) >= static_cast<float>(c)
                      : x >= c;
}

// gymnasium declares bounds as float32 arrays; keep the exact float32 values.
inline double RoundToFloat32(double x) {
  return static_cast<double>(static_cast<float>(x));
}

}  // namespace envpool_x
