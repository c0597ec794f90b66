// One smooth floor of the full game (Craftax's generate_smoothworld): the
// overworld, the two mines, the fire and ice levels and the boss floor, each
// from four Perlin noise layers (water, mountains, paths, trees) and its
// SmoothConfig. Draws is anything with NextWord(), Uniform() (a float in
// [0, 1)) and UniformInt(n), e.g. craftax::WorldDraws over the env's stream.
#pragma once

#include <cstdint>
#include <cstring>

#include "envs/craftax/classic_worldgen.h"
#include "envs/craftax/full/state.h"
#include "envs/craftax/full/worldgen_cells.h"
#include "envs/craftax/full/worldgen_configs.h"

namespace envpool_x {
namespace craftax {
namespace full {

// Craftax draws five uniforms per cell for the ores, one per ore k, and turns
// a cell still of block ore_from[k] into ores[k] when draw k < chance k. With
// no ore a later ore's requirement (worldgen_configs.h checks), the same law
// comes from one uniform u: ore k where u < below[k], the chance of the ores
// of that block up to k (each one's chance of what the ones before left).
struct OreRule {
  int n = 0;
  int8_t from[kNumOres] = {};
  int8_t to[kNumOres] = {};
  float below[kNumOres] = {};
  bool applies[kNumBlockTypes] = {};
  explicit OreRule(const SmoothConfig& c) {
    for (int i = 0; i < kNumOres; ++i) {
      if (c.ore_chances[i] <= 0.0f) continue;
      double left = 1.0;  // the chance the cell is still ore_from[i] at draw i
      for (int j = 0; j < i; ++j) {
        if (c.ore_from[j] == c.ore_from[i]) left *= 1.0 - c.ore_chances[j];
      }
      from[n] = c.ore_from[i];
      to[n] = c.ores[i];
      below[n] = static_cast<float>(1.0 - left + left * c.ore_chances[i]);
      applies[c.ore_from[i]] = true;
      ++n;
    }
  }
  template <class Draws>
  int8_t Apply(Draws& draws, int8_t block) const {
    if (!applies[block]) return block;
    const float u = draws.Uniform();
    for (int k = 0; k < n; ++k) {
      if (from[k] == block && u < below[k]) return to[k];
    }
    return block;
  }
};

// The light of a smooth floor: its default light, a torch's light around the
// up ladder (a 9 x 9 patch, drawn on every floor even without the ladder),
// lava's glow, clipped to [0, 1].
inline void SmoothLight(const SmoothConfig& c, const bool (*lava)[kMapSize], const int32_t up[2],
                        float (*light)[kMapSize]) {
  for (int x = 0; x < kMapSize; ++x) {
    for (int y = 0; y < kMapSize; ++y) light[x][y] = c.default_light;
  }
  const DistanceTables& tables = Distances();
  // JAX's dynamic_update_slice start: a negative index counts from the end,
  // then the start is clamped so the patch fits (a ladder in the first four
  // columns lights the far side of the map, as in Craftax).
  auto start = [](int32_t i) { return Min(Max(i < 0 ? i + kMapSize : i, 0), kMapSize - 9); };
  const int x0 = start(up[0] - 4);
  const int y0 = start(up[1] - 4);
  for (int x = 0; x < 9; ++x) {
    for (int y = 0; y < 9; ++y) {
      light[x0 + x][y0 + y] = tables.torch[x][y] * (1.0f - c.default_light) + c.default_light;
    }
  }
  if (c.lava == kLava) {
    static constexpr float kGlow[3][3] = {
        {0.2f, 0.7f, 0.2f}, {0.7f, 1.0f, 0.7f}, {0.2f, 0.7f, 0.2f}};
    for (int x = 0; x < kMapSize; ++x) {
      for (int y = 0; y < kMapSize; ++y) {
        if (!lava[x][y]) continue;
        for (int dx = -1; dx <= 1; ++dx) {
          for (int dy = -1; dy <= 1; ++dy) {
            if (InBounds(x + dx, y + dy)) light[x + dx][y + dy] += kGlow[dx + 1][dy + 1];
          }
        }
      }
    }
  }
  for (int x = 0; x < kMapSize; ++x) {
    for (int y = 0; y < kMapSize; ++y) {
      const float v = light[x][y];
      light[x][y] = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
    }
  }
}

// Floor `level` of s (map, item map, light map, ladders) from config c.
template <class Draws>
inline void GenerateSmoothFloor(Draws& draws, const SmoothConfig& c, bool always_diamond, int level,
                                FullState& s) {
  static thread_local float water[kMapSize][kMapSize], mountain[kMapSize][kMapSize],
      paths[kMapSize][kMapSize], trees[kMapSize][kMapSize];
  PerlinNoise(draws, kMapSize / 16, kMapSize / 16, water);
  PerlinNoise(draws, kMapSize / 16, kMapSize / 16, mountain);
  PerlinNoise(draws, kMapSize / 8, kMapSize / 2, paths);
  PerlinNoise(draws, kMapSize / 4, kMapSize / 4, trees);
  // Water and mountains fade out towards the start: the fade added in place
  // (a pass that vectorizes).
  const DistanceTables& tables = Distances();
  const float water_scale = 1.0f / c.water_strength;
  const float mountain_scale = 1.0f / c.mountain_strength;
  for (int x = 0; x < kMapSize; ++x) {
    for (int y = 0; y < kMapSize; ++y) {
      const float d = tables.from_start[x][y];
      float w = d * water_scale;
      w = w < c.water_max ? w : c.water_max;
      float m = d * mountain_scale;
      m = m < c.mountain_max ? m : c.mountain_max;
      water[x][y] = water[x][y] + w - 1.0f;
      mountain[x][y] = mountain[x][y] + 0.05f + m - 1.0f;
    }
  }
  // The blocks the noise decides, and lava (which Craftax writes last, over
  // trees and ores: no draw is taken under it). A pass without draws.
  int8_t (*map)[kMapSize] = s.map[level];
  bool lava[kMapSize][kMapSize];
  static thread_local int8_t path_across[kMapSize][kMapSize];  // the path noise transposed
  for (int x = 0; x < kMapSize; ++x) {
    for (int y = 0; y < kMapSize; ++y) path_across[x][y] = paths[y][x] > 0.8f;
  }
  // The config's values as locals: the int8 map may alias anything, and the
  // loop vectorizes only when they need no reloading.
  const float water_threshold = c.water_threshold, sand_threshold = c.sand_threshold;
  const int32_t sea = c.sea_block, land = c.default_block, coast = c.coast_block;
  const int32_t mountain_block = c.mountain_block, path_block = c.path_block;
  const int32_t inner = c.inner_mountain_block;
  for (int x = 0; x < kMapSize; ++x) {
    for (int y = 0; y < kMapSize; ++y) {
      const float w = water[x][y];
      const float m = mountain[x][y];
      // Selects as arithmetic on 0/1 masks: no branches, so the loop vectorizes.
      const int32_t is_sea = w > water_threshold;
      int32_t b = land + is_sea * (sea - land);
      const int32_t is_coast = (w > sand_threshold) & (b != sea);
      b += is_coast * (coast - b);
      const int32_t path = (paths[x][y] > 0.8f) | path_across[x][y];
      const int32_t high = m > 0.7f;
      b += high * (mountain_block + path * (path_block - mountain_block) - b);
      const int32_t cave = (m > 0.85f) & (w > 0.4f);
      b += cave * (inner - b);
      lava[x][y] = (m > 0.85f) & (trees[x][y] > 0.7f);
      map[x][y] = static_cast<int8_t>(b);
    }
  }
  // Trees, then ores: draws where they can change the cell.
  const OreRule ores(c);
  for (int x = 0; x < kMapSize; ++x) {
    for (int y = 0; y < kMapSize; ++y) {
      if (lava[x][y]) {
        map[x][y] = c.lava;
        continue;
      }
      int8_t b = map[x][y];
      // Craftax: (noise > perlin threshold) * uniform > uniform threshold.
      if (b == c.tree_requirement && trees[x][y] > c.tree_threshold_perlin &&
          draws.Uniform() > c.tree_threshold_uniform) {
        b = c.tree;
      }
      map[x][y] = ores.Apply(draws, b);
    }
  }
  // always_diamond (on the overworld only): a diamond on a stone cell. Craftax
  // writes stone on one stone cell otherwise (no change), or on the corner
  // (0, 0) of a floor without stone (the boss floor: its mountains are walls).
  const bool adding_diamond = c.default_block == kGrass && always_diamond;
  const BlockCells stones(map, kStone);
  if (stones.total == 0 || adding_diamond) {
    int32_t cell[2];
    stones.Pick(draws, map, cell);
    map[cell[0]][cell[1]] = adding_diamond ? kDiamond : kStone;
  }
  map[kMapSize / 2][kMapSize / 2] = c.player_spawn;

  // Ladders: two independent picks among the valid cells (they may coincide;
  // then the up ladder wins). A floor without one still records the cell.
  const BlockCells valid(map, c.valid_ladder);
  int32_t* down = s.down_ladders[level];
  int32_t* up = s.up_ladders[level];
  valid.Pick(draws, map, down);
  valid.Pick(draws, map, up);
  int8_t (*items)[kMapSize] = s.item_map[level];
  std::memset(items, 0, sizeof s.item_map[level]);
  if (c.ladder_down) items[down[0]][down[1]] = kItemLadderDown;
  if (c.ladder_up) items[up[0]][up[1]] = kItemLadderUp;
  SmoothLight(c, lava, up, s.light_map[level]);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
