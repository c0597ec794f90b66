// Scalar operations written the way numpy computes them in gymnasium's envs,
// so rewards and info match to the last bit where it is cheap to do so.
#pragma once

#include <cmath>

namespace envpool_x::mujoco_detail {

// np.linalg.norm of a short float64 vector: sqrt(x.dot(x)), and numpy's dot
// is BLAS ddot. OpenBLAS's x86-64 ddot (the kernel numpy's wheels use on
// FMA-capable CPUs) sums a vector this short in its scalar tail loop,
// compiled to one fused multiply-add per element; std::fma reproduces that
// exactly (checked against numpy 2.4 on 2- and 3-vectors). A BLAS without
// FMA would differ from this by about one ulp.
inline double NormF64(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s = std::fma(x[i], x[i], s);
  return std::sqrt(s);
}

// numpy's `x ** 2` on a float64 scalar calls libm's pow(x, 2.0), which is
// not always the correctly rounded x * x. The compiler rewrites
// pow(x, 2.0) into x * x when it sees the constant, so the exponent is read
// through a volatile.
inline double NumpySquare(double x) {
  static volatile double two = 2.0;
  return std::pow(x, two);
}

}  // namespace envpool_x::mujoco_detail
