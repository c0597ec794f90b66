// The random draws of a Craftax-Classic step. A step takes exactly
// kDrawsPerStep uniforms in [0, 1) (float32 values with 24 random bits), in
// Craftax's own order, whether or not an outcome needs them: the count is
// fixed, so a GPU thread can skip a step's draws, and a test can hand the same
// numbers to Craftax's JAX step (tests/families/test_craftax_classic.py).
// The step is a template on its source of draws (anything with Next()).
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "core/random.h"
#include "envs/craftax/classic_state.h"

namespace envpool_x {
namespace craftax {

// 1 (sapling) + 3 per zombie + 1 per cow + 3 per skeleton + 2 per spawn kind.
constexpr int kDrawsPerStep = 1 + 3 * 3 + 1 * 3 + 3 * 2 + 2 * 3;

// A step's draws from the env's own Philox stream: kDrawsPerStep uniforms,
// then the next state_rng, taken from all four 32-bit words of kStepBlocks
// consecutive blocks (one block gives four draws), made up front.
constexpr int kStepWords = kDrawsPerStep + 2;
constexpr int kStepBlocks = (kStepWords + 3) / 4;

struct StepDraws {
  uint32_t words[kStepBlocks * 4];
  int used = 0;
  ENVPOOL_X_HD explicit StepDraws(Rng& rng) {
    const uint64_t key = rng.key(), counter = rng.counter();
    for (int b = 0; b < kStepBlocks; ++b) {
      const Philox4x32 block = PhiloxBlock(counter + b, key);
      for (int k = 0; k < 4; ++k) words[b * 4 + k] = block.v[k];
    }
    rng = Rng(key, counter + kStepBlocks);
  }
  // A uniform in [0, 1): a float32 with 24 random bits.
  ENVPOOL_X_HD float Next() {
    return static_cast<float>(words[used++] >> 8) * (1.0f / 16777216.0f);
  }
  // The state_rng that follows the step (Craftax splits one off its step's key).
  ENVPOOL_X_HD void NextStateRng(ClassicState& s) const {
    s.state_rng[0] = words[kDrawsPerStep];
    s.state_rng[1] = words[kDrawsPerStep + 1];
  }
};

// Draws given by the caller (a test), in order.
struct GivenDraws {
  const float* values;
  int count;
  int used = 0;
  ENVPOOL_X_HD float Next() { return used < count ? values[used++] : (++used, 0.0f); }
};

// A uniform index in [0, n) from one draw.
ENVPOOL_X_HD inline int UniformIndex(float u, int n) {
  const int i = static_cast<int>(static_cast<double>(u) * n);
  return i < n ? i : n - 1;
}

// A weighted index from one draw: the first i whose running weight exceeds
// u * total (weights summed in double); n - 1 when none does (NaN weights).
ENVPOOL_X_HD inline int WeightedIndex(float u, const float* weights, int n) {
  double total = 0.0;
  for (int i = 0; i < n; ++i) total += weights[i];
  const double target = static_cast<double>(u) * total;
  double running = 0.0;
  for (int i = 0; i < n; ++i) {
    running += weights[i];
    if (running > target) return i;
  }
  return n - 1;
}

}  // namespace craftax
}  // namespace envpool_x
