// Constants and index rules that the player's own actions need (craftax
// 1.6.1's constants.py): the rows of DIRECTIONS as JAX reads them, the floor
// index as JAX reads it, and a torch's light.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/state.h"

namespace envpool_x {
namespace craftax {
namespace full {

// Craftax's DIRECTIONS has 16 rows; JAX reads row i after counting a negative
// i from the end and clamping, so only rows 1..4 move (tables.h's
// DirectionDx / DirectionDy take the row).
ENVPOOL_X_HD inline int32_t DirectionRow(int32_t i) {
  constexpr int32_t kRows = 16;
  if (i < 0) i += kRows;
  return i < 0 ? 0 : (i >= kRows ? kRows - 1 : i);
}

// A read of a per-floor array at floor i as JAX's gather does it.
ENVPOOL_X_HD inline int LevelRead(int32_t i) {
  if (i < 0) i += kLevels;
  return i < 0 ? 0 : (i >= kLevels ? kLevels - 1 : i);
}

// A torch's light at offset (dx, dy) from it (TORCH_LIGHT_MAP, 9 x 9 around
// the torch): 1 - distance / 5, clipped to [0, 1], in float32 as Craftax
// computes it when its constants load (a true division, not a multiply by
// the reciprocal).
ENVPOOL_X_HD inline float TorchLight(int32_t dx, int32_t dy) {
  const float distance = std::sqrt(static_cast<float>(dx * dx + dy * dy));
  const float light = 1.0f - distance / 5.0f;
  return light < 0.0f ? 0.0f : (light > 1.0f ? 1.0f : light);
}
constexpr int kTorchReach = 4;

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
