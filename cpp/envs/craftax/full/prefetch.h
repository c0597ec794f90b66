// Cache hints for a step of the full game in a batch of thousands of envs,
// where each env's 145 KiB state is cold when its turn comes. The
// observation reads the light map of every cell in view, one load after
// another, and each missed (the observation's largest cost at 4,096 envs).
// Asking for those lines before the step lets them arrive while it runs
// (1.13x at 1,024 and 4,096 envs, with symbolic_obs.h's tables gone). Hints
// only: no value changes (host code; a GPU step has no use for them).
#pragma once

#include <cstdint>

#include "envs/craftax/full/state.h"
#include "envs/craftax/full/symbolic_obs.h"

namespace envpool_x {
namespace craftax {
namespace full {

// The first and last cache line of rows [x0, x1) x columns [y0, y1] of one
// floor of the block, item and light maps (a span of at most 64 bytes
// of each row, so two lines cover it).
inline void PrefetchArea(const FullState& s, int level, int32_t x0, int32_t x1, int32_t y0,
                         int32_t y1) {
  x0 = Max(x0, 0);
  x1 = Min(x1, kMapSize);
  y0 = Max(y0, 0);
  y1 = Min(y1, kMapSize - 1);
  if (y0 > y1) return;
  for (int32_t x = x0; x < x1; ++x) {
    __builtin_prefetch(&s.map[level][x][y0]);
    __builtin_prefetch(&s.map[level][x][y1]);
    __builtin_prefetch(&s.item_map[level][x][y0]);
    __builtin_prefetch(&s.item_map[level][x][y1]);
    __builtin_prefetch(&s.light_map[level][x][y0]);
    __builtin_prefetch(&s.light_map[level][x][y1]);
  }
}

// What the observation after a step of `s` will read: its view, a cell wider
// for the player's move. (The cells around the mobs, asked for too, gained
// nothing measurable.)
inline void PrefetchView(const FullState& s) {
  const int level = LevelIndex(s.player_level);
  const int32_t x = s.player_position[0], y = s.player_position[1];
  PrefetchArea(s, level, x - kObsRows / 2 - 1, x + kObsRows / 2 + 2, y - kObsCols / 2 - 1,
               y + kObsCols / 2 + 1);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
