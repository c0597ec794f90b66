// The full Craftax game's map view in pixels, as craftax 1.6.1's
// render_craftax_pixels draws it: the 9 x 11 cells around the player on the
// player's floor (the necromancer vulnerable or not, blocked ladders down),
// the player, mobs and projectiles over them, the floor's light map, the
// night (surface only: the static from state_rng) and the sleeping dimming.
// Every texture's alpha is 0 or 1, so the blends before the light are exact
// copies; the light, night and sleep are float32 as XLA computes them.
#pragma once

#include <cstdint>
#include <cstring>

#include "envs/craftax/classic_pixels.h"  // BlendCell, ReadIndexOf
#include "envs/craftax/full/pixels_light.h"
#include "envs/craftax/full/pixels_textures.h"
#include "envs/craftax/full/state.h"

namespace envpool_x {
namespace craftax {
namespace full {

constexpr int32_t kMonstersToClearFloor = 8;  // Craftax's MONSTERS_KILLED_TO_CLEAR_LEVEL

// Craftax's is_boss_vulnerable: no melee or ranged mob left on the floor and
// the next wave not due.
inline bool BossVulnerable(const FullState& s, int level) {
  for (int i = 0; i < kMaxMeleeMobs; ++i) {
    if (s.melee_mobs.mask[level][i]) return false;
  }
  for (int i = 0; i < kMaxRangedMobs; ++i) {
    if (s.ranged_mobs.mask[level][i]) return false;
  }
  return s.boss_timesteps_to_spawn_this_round <= 0;
}

inline void CopyCell(float* px, int cols, int row, int col, int b, const float* tex) {
  for (int i = 0; i < b; ++i) {
    std::memcpy(px + ((row + i) * cols + col) * 3, tex + i * b * 3, sizeof(float) * b * 3);
  }
}

// The block and item textures of every cell in view.
inline void DrawCells(const FullState& s, int level, const FullTextures& t, float* px) {
  const int b = t.block, cols = t.Cols(), b2 = b * b * 3;
  const int boss = BossVulnerable(s, level) ? kNecromancerVulnerable : kNecromancer;
  const int ladder_down =
      s.monsters_killed[level] >= kMonstersToClearFloor ? kItemLadderDown : kItemLadderDownBlocked;
  int32_t x0, y0;
  ViewCorner(s, &x0, &y0);
  for (int r = 0; r < kViewRows; ++r) {
    for (int c = 0; c < kViewCols; ++c) {
      const int32_t x = x0 + r, y = y0 + c;
      const bool in = InBounds(x, y);
      int kind = in ? s.map[level][x][y] : int{kOutOfBounds};
      if (kind == kNecromancer) kind = boss;
      if (kind >= 0 && kind < kNumBlockTypes) {
        CopyCell(px, cols, r * b, c * b, b, t.blocks.data() + kind * b2);
      } else {  // Craftax adds no texture for an unknown block
        for (int i = 0; i < b; ++i)
          std::memset(px + ((r * b + i) * cols + c * b) * 3, 0, sizeof(float) * b * 3);
      }
      int item = in ? s.item_map[level][x][y] : int{kItemNone};
      if (item == kItemLadderDown) item = ladder_down;
      if (item >= 1 && item < kNumItemTypes) {
        BlendCell(px, cols, r * b, c * b, b, t.items.data() + item * b2,
                  t.items_alpha.data() + item * b2, false, false);
      }
    }
  }
}

// One class of mobs (or projectiles, with their directions) on the player's
// floor: those alive and in view, each over its cell, in slot order.
template <int N>
void DrawMobClass(const FullState& s, int level, const Mobs<N>& mobs, int first, int types,
                  const FullTextures& t, float* px, const int32_t (*dirs)[N][2] = nullptr) {
  const int b = t.block, b2 = b * b * 3;
  for (int i = 0; i < N; ++i) {
    const int32_t lx = mobs.position[level][i][0] - s.player_position[0] + kViewRows / 2;
    const int32_t ly = mobs.position[level][i][1] - s.player_position[1] + kViewCols / 2;
    if (!mobs.mask[level][i] || lx < 0 || lx >= kViewRows || ly < 0 || ly >= kViewCols) continue;
    const int kind = first + ReadIndexOf(mobs.type_id[level][i], types);
    // Projectile textures point up: flipped for a move down or right,
    // transposed for a sideways move.
    bool flip = false, transpose = false;
    if (dirs != nullptr) {
      flip = dirs[level][i][0] > 0 || dirs[level][i][1] > 0;
      transpose = dirs[level][i][1] != 0;
    }
    BlendCell(px, t.Cols(), lx * b, ly * b, b, t.mobs.data() + kind * b2,
              t.mobs_alpha.data() + kind * b2, flip, transpose);
  }
}

// The map rows of the picture (9 block x 11 block x 3 floats, 0..255).
inline void DrawMapView(const FullState& s, const FullTextures& t, float* px,
                        bool portable = false) {
  const int level = ReadIndexOf(s.player_level, kLevels);
  const int b = t.block, b2 = b * b * 3;
  DrawCells(s, level, t, px);
  const int look = s.is_sleeping ? 4 : ReadIndexOf(s.player_direction - 1, 5);
  BlendCell(px, t.Cols(), (kViewRows / 2) * b, (kViewCols / 2) * b, b, t.player.data() + look * b2,
            t.player_alpha.data() + look * b2, false, false);
  DrawMobClass(s, level, s.melee_mobs, 0, kMeleeTypes, t, px);
  DrawMobClass(s, level, s.passive_mobs, kFirstPassiveTexture, kPassiveTypes, t, px);
  DrawMobClass(s, level, s.ranged_mobs, kFirstRangedTexture, kRangedTypes, t, px);
  DrawMobClass(s, level, s.mob_projectiles, kFirstProjectileTexture, kProjectileTypes, t, px,
               s.mob_projectile_directions);
  DrawMobClass(s, level, s.player_projectiles, kFirstProjectileTexture, kProjectileTypes, t, px,
               s.player_projectile_directions);
  DrawLight(s, level, t, px, portable);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
