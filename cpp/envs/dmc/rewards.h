// dm_control's reward shaping (dm_control.utils.rewards): the sigmoids and
// the tolerance function every task builds its reward from.
#pragma once

#include <cmath>
#include <string>

#include "core/errors.h"

namespace envpool_x {
namespace dmc {

enum class Sigmoid {
  kGaussian,
  kHyperbolic,
  kLongTail,
  kReciprocal,
  kCosine,
  kLinear,
  kQuadratic,
  kTanhSquared,
};

// dm_control's `_sigmoids(x, value_at_1, sigmoid)`: a function of x >= 0
// that is 1 at 0 and `value_at_1` at 1.
inline double SigmoidValue(double x, double value_at_1, Sigmoid sigmoid) {
  const bool zero_ok =
      sigmoid == Sigmoid::kCosine || sigmoid == Sigmoid::kLinear || sigmoid == Sigmoid::kQuadratic;
  if (zero_ok ? !(0.0 <= value_at_1 && value_at_1 < 1.0)
              : !(0.0 < value_at_1 && value_at_1 < 1.0)) {
    throw ValueError("tolerance: value_at_margin " + std::to_string(value_at_1) +
                     " is out of range for this sigmoid");
  }
  switch (sigmoid) {
    case Sigmoid::kGaussian: {
      const double scale = std::sqrt(-2.0 * std::log(value_at_1));
      const double s = x * scale;
      return std::exp(-0.5 * (s * s));
    }
    case Sigmoid::kHyperbolic: {
      const double scale = std::acosh(1.0 / value_at_1);
      return 1.0 / std::cosh(x * scale);
    }
    case Sigmoid::kLongTail: {
      const double scale = std::sqrt(1.0 / value_at_1 - 1.0);
      const double s = x * scale;
      return 1.0 / (s * s + 1.0);
    }
    case Sigmoid::kReciprocal: {
      const double scale = 1.0 / value_at_1 - 1.0;
      return 1.0 / (std::abs(x) * scale + 1.0);
    }
    case Sigmoid::kCosine: {
      const double scale = std::acos(2.0 * value_at_1 - 1.0) / M_PI;
      const double s = x * scale;
      return std::abs(s) < 1.0 ? (1.0 + std::cos(M_PI * s)) / 2.0 : 0.0;
    }
    case Sigmoid::kLinear: {
      const double s = x * (1.0 - value_at_1);
      return std::abs(s) < 1.0 ? 1.0 - s : 0.0;
    }
    case Sigmoid::kQuadratic: {
      const double s = x * std::sqrt(1.0 - value_at_1);
      return std::abs(s) < 1.0 ? 1.0 - s * s : 0.0;
    }
    case Sigmoid::kTanhSquared: {
      const double scale = std::atanh(std::sqrt(1.0 - value_at_1));
      const double t = std::tanh(x * scale);
      return 1.0 - t * t;
    }
  }
  return 0.0;
}

// dm_control's `rewards.tolerance`: 1 inside [lower, upper], falling off
// outside by `sigmoid` over `margin` (0 outside when margin is 0).
inline double Tolerance(double x, double lower, double upper, double margin = 0.0,
                        Sigmoid sigmoid = Sigmoid::kGaussian, double value_at_margin = 0.1) {
  if (lower > upper) throw ValueError("tolerance: lower bound must be <= upper bound");
  if (margin < 0) throw ValueError("tolerance: margin must be non-negative");
  const bool in_bounds = lower <= x && x <= upper;
  if (margin == 0) return in_bounds ? 1.0 : 0.0;
  if (in_bounds) return 1.0;
  const double d = (x < lower ? lower - x : x - upper) / margin;
  return SigmoidValue(d, value_at_margin, sigmoid);
}

}  // namespace dmc
}  // namespace envpool_x
