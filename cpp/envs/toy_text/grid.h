// Helpers shared by the grid-world toy text envs (FrozenLake, CliffWalking).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/host_device.h"
#include "core/random.h"

namespace envpool_x {

// The direction a slippery move goes: the intended `dir` with probability
// `success`, else one of its two neighbours in the cyclic order of the four
// directions, (dir - 1) mod 4 or (dir + 1) mod 4, each with probability
// `fail`. The branches are tried in that order (minus, intended, plus), as in
// gymnasium's transition lists; *prob receives the chosen branch's
// probability, which is what gymnasium reports in info["prob"].
ENVPOOL_X_HD inline int SlipDirection(int dir, double success, double fail, Rng& rng,
                                      double* prob) {
  const double u = rng.Uniform();
  if (u < fail) {
    *prob = fail;
    return (dir + 3) % 4;
  }
  if (u < fail + success) {
    *prob = success;
    return dir;
  }
  *prob = fail;
  return (dir + 1) % 4;
}

// Checks one value of a SetState vector: an integer in [lo, hi].
inline int64_t StateInt(const std::vector<double>& s, size_t i, int64_t lo, int64_t hi,
                        const char* what) {
  const double v = s[i];
  if (!(v >= static_cast<double>(lo) && v <= static_cast<double>(hi)) ||
      v != static_cast<double>(static_cast<int64_t>(v))) {
    throw ValueError(std::string(what) + " must be an integer in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "], got " + std::to_string(v));
  }
  return static_cast<int64_t>(v);
}

}  // namespace envpool_x
