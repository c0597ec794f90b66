// Small pieces the floor generators share: a uniform pick among the cells of
// one block (Craftax's jax.random.choice over a flattened mask) and the
// Euclidean distance tables (its get_distance_map), made once.
#pragma once

#include <cmath>
#include <cstdint>

#include "envs/craftax/full/state.h"

namespace envpool_x {
namespace craftax {
namespace full {

// The cells of one block on a floor, counted per row (a pass that
// vectorizes), for uniform picks among them (Craftax's jax.random.choice over
// the flattened mask).
struct BlockCells {
  int8_t block;
  int total = 0;
  int per_row[kMapSize];
  BlockCells(const int8_t (*map)[kMapSize], int8_t b) : block(b) {
    for (int x = 0; x < kMapSize; ++x) {
      int n = 0;
      for (int y = 0; y < kMapSize; ++y) n += map[x][y] == b;
      per_row[x] = n;
      total += n;
    }
  }
  // The cell (row, column) of a uniform pick, in row-major order. Craftax's
  // weighted choice with no weight anywhere (all zero, or 0 / 0) lands on
  // index 0, the corner (0, 0).
  template <class Draws>
  void Pick(Draws& draws, const int8_t (*map)[kMapSize], int32_t out[2]) const {
    out[0] = out[1] = 0;
    if (total <= 0) return;
    int k = static_cast<int>(draws.UniformInt(static_cast<uint32_t>(total)));
    int x = 0;
    while (k >= per_row[x]) k -= per_row[x++];
    for (int y = 0; y < kMapSize; ++y) {
      if (map[x][y] == block && k-- == 0) {
        out[0] = x;
        out[1] = y;
        return;
      }
    }
  }
};

// sqrt(dx^2 + dy^2) from the start cell (kMapSize / 2, kMapSize / 2), and the
// light a torch gives around it in a 9 x 9 patch: clip(1 - distance / 5, 0, 1).
struct DistanceTables {
  float from_start[kMapSize][kMapSize];
  float torch[9][9];
  DistanceTables() {
    for (int x = 0; x < kMapSize; ++x) {
      for (int y = 0; y < kMapSize; ++y) {
        const int dx = x - kMapSize / 2;
        const int dy = y - kMapSize / 2;
        from_start[x][y] = std::sqrt(static_cast<float>(dx * dx + dy * dy));
      }
    }
    for (int x = 0; x < 9; ++x) {
      for (int y = 0; y < 9; ++y) {
        const float d = std::sqrt(static_cast<float>((x - 4) * (x - 4) + (y - 4) * (y - 4)));
        const float light = 1.0f - d / 5.0f;
        torch[x][y] = light < 0.0f ? 0.0f : (light > 1.0f ? 1.0f : light);
      }
    }
  }
};

inline const DistanceTables& Distances() {
  static const DistanceTables tables;
  return tables;
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
