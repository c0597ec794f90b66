// Craftax-Classic's symbolic observation (1345 float32): the 7x9 cells around
// the player, one-hot over 17 block types then 4 mob kinds per cell; then the
// inventory and the intrinsics as float16(v) / 10, the facing direction
// one-hot, the light level and whether the player sleeps.
#pragma once

#include <cmath>
#include <cstdint>

#include "envs/craftax/classic_state.h"

namespace envpool_x {
namespace craftax {

// v / 10 in float16 as XLA's CPU compiler evaluates Craftax's
// float16(v) / 10.0: v times float16(0.1), rounded to float16 (11 significant
// bits, ties to even).
ENVPOOL_X_HD inline float HalfTenth(int32_t v) {
  const float q = static_cast<float>(v) * 0.0999755859375f;  // exact: float16(0.1) = 1638 / 2^14
  if (q == 0.0f) return 0.0f;
  int exponent;
  std::frexp(q, &exponent);
  const float scale = std::ldexp(1.0f, 11 - exponent);
  return std::nearbyint(q * scale) / scale;
}

// HalfTenth in integers, for 0 <= v < 2^13 (where v * 1638 < 2^24, so the
// product above is exact): v * 1638 / 2^14 kept to 11 significant bits, ties
// to even. Usable at compile time.
ENVPOOL_X_HD constexpr float HalfTenthExact(int32_t v) {
  uint32_t n = static_cast<uint32_t>(v) * 1638u;
  int bits = 0;
  for (uint32_t m = n; m != 0; m >>= 1) ++bits;
  if (bits > 11) {
    const int shift = bits - 11;
    const uint32_t rest = n & ((1u << shift) - 1u);
    const uint32_t half = 1u << (shift - 1);
    n >>= shift;
    if (rest > half || (rest == half && (n & 1u) != 0)) ++n;
    n <<= shift;
  }
  return static_cast<float>(n) / 16384.0f;
}

struct HalfTenthTable {
  float value[16];
  constexpr HalfTenthTable() : value{} {
    for (int v = 0; v < 16; ++v) value[v] = HalfTenthExact(v);
  }
};

// HalfTenth of a count: tabled for 0..15 (the inventory and the intrinsics
// stay in 0..9), as frexp, ldexp and nearbyint cost more than the rest of the
// observation.
ENVPOOL_X_HD inline float HalfTenthOfCount(int32_t v) {
  constexpr HalfTenthTable table{};
  return v >= 0 && v < 16 ? table.value[v] : HalfTenth(v);
}

constexpr int kCellChannels = kNumBlockTypes + kNumMobKinds;

template <int N>
ENVPOOL_X_HD inline void MarkMobs(const ClassicState& s, const MobSlots<N>& mobs, int kind,
                                  float* obs) {
  for (int i = 0; i < N; ++i) {
    int lx = mobs.x[i] - s.player_x + kViewRows / 2;
    int ly = mobs.y[i] - s.player_y + kViewCols / 2;
    const bool seen = lx >= 0 && lx < kViewRows && ly >= 0 && ly < kViewCols && mobs.mask[i];
    // JAX's scatter: negative indices count from the end, others outside drop.
    if (lx < 0) lx += kViewRows;
    if (ly < 0) ly += kViewCols;
    if (lx < 0 || lx >= kViewRows || ly < 0 || ly >= kViewCols) continue;
    obs[(lx * kViewCols + ly) * kCellChannels + kNumBlockTypes + kind] = seen ? 1.0f : 0.0f;
  }
}

ENVPOOL_X_HD inline void WriteSymbolicObs(const ClassicState& s, float* obs) {
  for (int i = 0; i < kObsSize; ++i) obs[i] = 0.0f;
  for (int r = 0; r < kViewRows; ++r) {
    for (int c = 0; c < kViewCols; ++c) {
      const int32_t x = s.player_x - kViewRows / 2 + r;
      const int32_t y = s.player_y - kViewCols / 2 + c;
      const int block = InBounds(x, y) ? static_cast<int>(s.map[x][y]) : int{kOutOfBounds};
      obs[(r * kViewCols + c) * kCellChannels + block] = 1.0f;
    }
  }
  MarkMobs(s, s.zombies, 0, obs);
  MarkMobs(s, s.cows, 1, obs);
  MarkMobs(s, s.skeletons, 2, obs);
  MarkMobs(s, s.arrows, 3, obs);
  float* tail = obs + kViewRows * kViewCols * kCellChannels;
  for (int i = 0; i < kInventorySize; ++i) *tail++ = HalfTenthOfCount(s.inventory[i]);
  const int32_t intrinsics[4] = {s.health, s.food, s.drink, s.energy};
  for (int32_t v : intrinsics) *tail++ = HalfTenthOfCount(v);
  for (int d = 1; d <= 4; ++d) *tail++ = s.player_direction == d ? 1.0f : 0.0f;
  *tail++ = s.light_level;
  *tail = s.is_sleeping ? 1.0f : 0.0f;
}

}  // namespace craftax
}  // namespace envpool_x
