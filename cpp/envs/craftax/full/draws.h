// The random draws of a full Craftax step. Craftax's step takes a fixed number
// of scalar draws (uniform, choice, randint) in its program's order, whatever
// the outcome; ours takes the same uniforms in [0, 1) in the same order, from
// any source with Next(): the env's own stream, or the draws a parity test
// gives both games (tests/oracles/craftax_full_oracle.py turns a uniform into
// Craftax's outcome by the rules below).
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "core/random.h"
#include "envs/craftax/classic_draws.h"

namespace envpool_x {
namespace craftax {
namespace full {

using craftax::GivenDraws;
using craftax::UniformIndex;
using craftax::WeightedIndex;

// Craftax's jax.random.randint(minval, maxval): lo + floor(u * (hi - lo)).
ENVPOOL_X_HD inline int32_t RandInt(float u, int32_t lo, int32_t hi) {
  return lo + UniformIndex(u, hi - lo);
}

// Draws from an env's own Philox stream: a float32 uniform with 24 random
// bits each, one 32-bit word of a block at a time.
struct StreamDraws {
  Rng& rng;
  uint32_t words[4];
  int left = 0;
  ENVPOOL_X_HD explicit StreamDraws(Rng& r) : rng(r) {}
  ENVPOOL_X_HD uint32_t NextWord() {
    if (left == 0) {
      const Philox4x32 block = PhiloxBlock(rng.counter(), rng.key());
      rng = Rng(rng.key(), rng.counter() + 1);
      for (int k = 0; k < 4; ++k) words[k] = block.v[k];
      left = 4;
    }
    return words[4 - left--];
  }
  ENVPOOL_X_HD float Next() { return static_cast<float>(NextWord() >> 8) * (1.0f / 16777216.0f); }
};

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
