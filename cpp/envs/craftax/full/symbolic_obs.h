// The full Craftax game's symbolic observation (Craftax-Symbolic-v1, 8268
// float32s), as Craftax 1.6.1's render_craftax_symbolic writes it: for each of
// the 9 x 11 cells around the player, the block one-hot (37), the item one-hot
// (5), the mobs (5 classes x 8 types), all zeroed where the cell is dark, and
// the cell's light; then the inventory, the potions, the intrinsics, the
// direction, the armour, its enchantments and a few flags.
#pragma once

#include <cmath>
#include <cstdint>

#include "envs/craftax/full/state.h"

namespace envpool_x {
namespace craftax {
namespace full {

constexpr int kObsRows = 9;
constexpr int kObsCols = 11;
constexpr int kMobTypesPerClass = 8;
constexpr int kObsMobChannels = 5 * kMobTypesPerClass;
constexpr int kObsItemOffset = kNumBlockTypes;
constexpr int kObsMobOffset = kObsItemOffset + kNumItemTypes;
constexpr int kObsLightChannel = kObsMobOffset + kObsMobChannels;
constexpr int kObsCellChannels = kObsLightChannel + 1;  // 83
constexpr int kObsMapSize = kObsRows * kObsCols * kObsCellChannels;
constexpr int kObsTailSize = 16 + kNumPotions + 9 + 4 + kNumArmour + kNumArmour + 8;
constexpr int kSymbolicObsSize = kObsMapSize + kObsTailSize;
static_assert(kSymbolicObsSize == 8268, "Craftax-Symbolic-v1's observation size");

// x / 10 as XLA's CPU compiler evaluates it: x times float32(0.1).
ENVPOOL_X_HD constexpr float Tenth(float x) { return x * 0.1f; }

// A count's n / 10 and sqrt(n) / 10 as Craftax computes them in float32
// (sqrtf is correctly rounded, as jnp.sqrt is).
ENVPOOL_X_HD inline float TenthOfCount(int32_t n) { return Tenth(static_cast<float>(n)); }
ENVPOOL_X_HD inline float SqrtTenthOfCount(int32_t n) {
  return Tenth(std::sqrt(static_cast<float>(n)));
}

// A floor index as JAX's x[level] reads it: negative counts from the end,
// then clamped.
ENVPOOL_X_HD inline int LevelIndex(int32_t level) {
  if (level < 0) level += kLevels;
  return level < 0 ? 0 : (level >= kLevels ? kLevels - 1 : level);
}

// One class of mobs into the view, in slot order: Craftax *sets* the flag of
// each slot's (cell, type) to whether the slot is alive and on screen, so a
// dead or off-screen slot clears what an earlier one set there. Its scatter
// counts negative indices from the end and drops the rest outside; a dark
// cell keeps zero (Craftax masks the view by the light afterwards).
template <int N>
ENVPOOL_X_HD inline void MarkObsMobs(const FullState& s, const Mobs<N>& mobs, int level,
                                     int mob_class, const bool* lit, float* obs) {
  for (int i = 0; i < N; ++i) {
    int32_t lx = mobs.position[level][i][0] - s.player_position[0] + kObsRows / 2;
    int32_t ly = mobs.position[level][i][1] - s.player_position[1] + kObsCols / 2;
    int32_t id = mob_class * kMobTypesPerClass + mobs.type_id[level][i];
    const bool seen = lx >= 0 && lx < kObsRows && ly >= 0 && ly < kObsCols && mobs.mask[level][i];
    if (lx < 0) lx += kObsRows;
    if (ly < 0) ly += kObsCols;
    if (id < 0) id += kObsMobChannels;
    if (lx < 0 || lx >= kObsRows || ly < 0 || ly >= kObsCols || id < 0 || id >= kObsMobChannels) {
      continue;
    }
    const int cell = lx * kObsCols + ly;
    if (lit[cell]) obs[cell * kObsCellChannels + kObsMobOffset + id] = seen ? 1.0f : 0.0f;
  }
}

ENVPOOL_X_HD inline float Flag(bool b) { return b ? 1.0f : 0.0f; }

// Writes the observation of `s` into obs[0 .. kSymbolicObsSize).
ENVPOOL_X_HD inline void WriteSymbolicObs(const FullState& s, float* obs) {
  for (int i = 0; i < kSymbolicObsSize; ++i) obs[i] = 0.0f;
  const int level = LevelIndex(s.player_level);
  // Craftax slices the view out of the map padded by 13 cells, its corner
  // clamped into the padded map; a clamp happens only with the view wholly
  // in the padding (all zeros either way), so the corner is the player's.
  const int32_t x0 = s.player_position[0] - kObsRows / 2;
  const int32_t y0 = s.player_position[1] - kObsCols / 2;
  bool lit[kObsRows * kObsCols];
  for (int r = 0; r < kObsRows; ++r) {
    const int32_t x = x0 + r;
    for (int c = 0; c < kObsCols; ++c) {
      const int32_t y = y0 + c;
      const int cell = r * kObsCols + c;
      float* out = obs + cell * kObsCellChannels;
      // Outside the map the padded light is 0: the cell, its out-of-bounds
      // block included, reads all zeros.
      if (!InBounds(x, y)) {
        lit[cell] = false;
        continue;
      }
      lit[cell] = s.light_map[level][x][y] > 0.05f;
      if (!lit[cell]) continue;
      const int block = s.map[level][x][y];
      const int item = s.item_map[level][x][y];
      if (block >= 0 && block < kNumBlockTypes) out[block] = 1.0f;
      if (item >= 0 && item < kNumItemTypes) out[kObsItemOffset + item] = 1.0f;
      out[kObsLightChannel] = 1.0f;
    }
  }
  MarkObsMobs(s, s.melee_mobs, level, 0, lit, obs);
  MarkObsMobs(s, s.passive_mobs, level, 1, lit, obs);
  MarkObsMobs(s, s.ranged_mobs, level, 2, lit, obs);
  MarkObsMobs(s, s.mob_projectiles, level, 3, lit, obs);
  MarkObsMobs(s, s.player_projectiles, level, 4, lit, obs);

  float* tail = obs + kObsMapSize;
  const Inventory& inv = s.inventory;
  const int32_t counts[10] = {inv.wood,     inv.stone, inv.coal,    inv.iron,    inv.diamond,
                              inv.sapphire, inv.ruby,  inv.sapling, inv.torches, inv.arrows};
  for (int32_t n : counts) *tail++ = SqrtTenthOfCount(n);
  *tail++ = static_cast<float>(inv.books) * 0.5f;  // / 2 and / 4: exact either way
  *tail++ = static_cast<float>(inv.pickaxe) * 0.25f;
  *tail++ = static_cast<float>(inv.sword) * 0.25f;
  *tail++ = static_cast<float>(s.sword_enchantment);
  *tail++ = static_cast<float>(s.bow_enchantment);
  *tail++ = static_cast<float>(inv.bow);
  for (int i = 0; i < kNumPotions; ++i) *tail++ = SqrtTenthOfCount(inv.potions[i]);
  *tail++ = Tenth(s.player_health);
  const int32_t intrinsics[8] = {s.player_food,     s.player_drink,       s.player_energy,
                                 s.player_mana,     s.player_xp,          s.player_dexterity,
                                 s.player_strength, s.player_intelligence};
  for (int32_t n : intrinsics) *tail++ = TenthOfCount(n);
  for (int d = 1; d <= 4; ++d) *tail++ = Flag(s.player_direction == d);
  for (int i = 0; i < kNumArmour; ++i) *tail++ = static_cast<float>(inv.armour[i]) * 0.5f;
  for (int i = 0; i < kNumArmour; ++i) *tail++ = static_cast<float>(s.armour_enchantments[i]);
  *tail++ = s.light_level;
  *tail++ = Flag(s.is_sleeping);
  *tail++ = Flag(s.is_resting);
  *tail++ = Flag(s.learned_spells[0]);
  *tail++ = Flag(s.learned_spells[1]);
  *tail++ = TenthOfCount(s.player_level);
  *tail++ = Flag(s.monsters_killed[level] >= 8);  // Craftax's MONSTERS_KILLED_TO_CLEAR_LEVEL
  bool boss_vulnerable = s.boss_timesteps_to_spawn_this_round <= 0;
  for (int i = 0; i < kMaxMeleeMobs; ++i) boss_vulnerable &= !s.melee_mobs.mask[level][i];
  for (int i = 0; i < kMaxRangedMobs; ++i) boss_vulnerable &= !s.ranged_mobs.mask[level][i];
  *tail = Flag(boss_vulnerable);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
