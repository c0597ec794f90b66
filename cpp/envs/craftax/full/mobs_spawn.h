// New mobs in the full Craftax game (craftax 1.6.1's spawn_mobs): a passive
// mob, a melee mob and a ranged mob may each appear on the player's floor,
// with chances by floor, by darkness (melee on the surface at night), three
// times as often on a floor not yet cleared, and in waves in the boss fight
// (on graves near the player). Two draws a class (the chance, then the cell),
// always taken; the cell is looked for only when the mob spawns.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/mobs_common.h"
#include "envs/craftax/full/state.h"
#include "envs/craftax/full/tables.h"
#include "envs/craftax/full/utils.h"

namespace envpool_x {
namespace craftax {
namespace full {

constexpr int kDrawsPerSpawn = 2;
constexpr int kDeepThingType = 5;  // a ranged type that spawns in water
constexpr int32_t kPassiveMinDistance2 = 3 * 3;
constexpr int32_t kMonsterMinDistance2 = 9 * 9;
constexpr int32_t kBossMonsterMaxDistance2 = 6 * 6;
constexpr int32_t kBossWaveSpawnScale = 1000;

// Which blocks a class may spawn on.
enum SpawnBlocks : int { kSpawnOnGround, kSpawnOnWater, kSpawnOnGraves };

// One class's spawn rule: its blocks, and the player's Euclidean distance
// (squared, compared as integers: Craftax compares float32 square roots with
// whole numbers, the same) it must be over (min2) or at most (max2).
struct SpawnRule {
  SpawnBlocks blocks;
  int32_t min2;  // distance squared must exceed this
  int32_t max2;  // and be at most this (-1: no bound but the despawn distance)
};

ENVPOOL_X_HD inline bool SpawnBlockOk(int8_t b, SpawnBlocks blocks) {
  switch (blocks) {
    case kSpawnOnWater:
      return b == kWater;
    case kSpawnOnGraves:
      return b == kGrave || b == kGrave2 || b == kGrave3;
    default:
      return b == kGrass || b == kPath || b == kFireGrass || b == kIceGrass;
  }
}

ENVPOOL_X_HD inline bool SpawnCellOk(const FullState& s, int x, int y, const SpawnRule& rule,
                                     const FullParams& p) {
  const int level = s.player_level;
  const int32_t dx = x - s.player_position[0], dy = y - s.player_position[1];
  const int32_t d2 = dx * dx + dy * dy;
  const int32_t reach = p.mob_despawn_distance;
  return SpawnBlockOk(s.map[level][x][y], rule.blocks) && d2 > rule.min2 &&
         (rule.max2 < 0 || d2 <= rule.max2) && reach > 0 && d2 < reach * reach &&
         !s.mob_map[level][x][y];
}

// The cells a spawn may take lie within the despawn distance of the player:
// rows and columns [lo, hi) of that square, in the map.
ENVPOOL_X_HD inline void SpawnWindow(int32_t centre, int32_t reach, int* lo, int* hi) {
  *lo = Max(centre - reach + 1, 0);
  *hi = Min(centre + reach, kMapSize);
}

// Craftax's weighted choice over the flattened map with weight 1 / count on
// each allowed cell (row-major): the first cell whose running weight exceeds
// u * total. Every running sum of a float32 weight, up to 48 * 48 of them, is
// exact in double, so the total is count * w and the k-th allowed cell's
// running weight k * w, without a pass to add them. -1 when no cell is allowed.
ENVPOOL_X_HD inline int DrawSpawnCell(const FullState& s, const SpawnRule& rule, float u,
                                      const FullParams& p) {
  int x0, x1, y0, y1;
  SpawnWindow(s.player_position[0], p.mob_despawn_distance, &x0, &x1);
  SpawnWindow(s.player_position[1], p.mob_despawn_distance, &y0, &y1);
  int count = 0;
  for (int x = x0; x < x1; ++x) {
    for (int y = y0; y < y1; ++y) count += SpawnCellOk(s, x, y, rule, p);
  }
  if (count == 0) return -1;
  const double w = static_cast<double>(1.0f / static_cast<float>(count));
  const double target = static_cast<double>(u) * (count * w);
  int k = 0;
  for (int x = x0; x < x1; ++x) {
    for (int y = y0; y < y1; ++y) {
      if (!SpawnCellOk(s, x, y, rule, p)) continue;
      ++k;
      if (k * w > target) return x * kMapSize + y;
    }
  }
  return kMapSize * kMapSize - 1;  // rounding left the target unreached
}

// Spawns into the first free slot when `spawn` (cell >= 0). Whether it spawns
// or not, Craftax sets that slot's type to the new type and marks the mob map
// at the slot's position with its mask (with every slot taken: slot 0).
template <int N>
ENVPOOL_X_HD inline void SpawnInto(FullState& s, Mobs<N>& mobs, int cell, int32_t type,
                                   int mob_class) {
  const int level = s.player_level;
  int slot = 0;
  for (int i = N - 1; i >= 0; --i) {
    if (!mobs.mask[level][i]) slot = i;
  }
  if (cell >= 0) {
    mobs.position[level][slot][0] = cell / kMapSize;
    mobs.position[level][slot][1] = cell % kMapSize;
    mobs.health[level][slot] = kMobHealth[TableRow(type, 9)][mob_class];
    mobs.mask[level][slot] = true;
  }
  mobs.type_id[level][slot] = type;
  const int32_t x = mobs.position[level][slot][0], y = mobs.position[level][slot][1];
  SetMobMap(s, x, y, MobMapAt(s, x, y) || mobs.mask[level][slot]);
}

template <int N>
ENVPOOL_X_HD inline bool HasFreeSlot(const FullState& s, const Mobs<N>& mobs) {
  int alive = 0;
  for (bool m : mobs.mask[s.player_level]) alive += m;
  return alive < N;
}

// One class's spawn: the chance's draw, then the cell's, both always taken.
template <int N, class Draws>
ENVPOOL_X_HD inline void SpawnClass(FullState& s, Mobs<N>& mobs, int mob_class, bool allowed,
                                    float chance, int32_t type, const SpawnRule& rule, Draws& draws,
                                    const FullParams& p) {
  const bool roll = draws.Next() < chance;
  const float cell_draw = draws.Next();
  const bool tries = allowed && roll && HasFreeSlot(s, mobs);
  SpawnInto(s, mobs, tries ? DrawSpawnCell(s, rule, cell_draw, p) : -1, type, mob_class);
}

template <class Draws>
ENVPOOL_X_HD inline void SpawnMobs(FullState& s, Draws& draws, const FullParams& p) {
  const int level = s.player_level;
  const bool boss = IsFightingBoss(s);
  const int32_t uncleared = s.monsters_killed[level] < kMonstersKilledToClearLevel;
  const int32_t coeff = (1 + 2 * uncleared) * (boss ? IsBossSpawnWave(s) * kBossWaveSpawnScale : 1);
  float chance[4];  // copied: a table's address is not for device code
  for (int k = 0; k < 4; ++k) chance[k] = kFloorSpawnChance[level][k];

  const SpawnRule passive_rule{kSpawnOnGround, kPassiveMinDistance2, -1};
  SpawnClass(s, s.passive_mobs, kPassive, !boss, chance[0], kFloorMobType[level][kPassive],
             passive_rule, draws, p);

  // Monsters: far from the player, or on graves near it in the boss fight,
  // of the types of the floor whose wave it is.
  const int type_floor = boss ? TableRow(s.boss_progress, kLevels) : level;
  const SpawnRule far{kSpawnOnGround, kMonsterMinDistance2, -1};
  const SpawnRule graves{kSpawnOnGraves, -1, kBossMonsterMaxDistance2};
  const float dark = 1.0f - s.light_level;
  // base + night * dark^2 as one fused multiply-add (XLA's CPU compiler).
  const float melee_chance = std::fma(chance[3], dark * dark, chance[1]);
  SpawnClass(s, s.melee_mobs, kMelee, true, melee_chance * static_cast<float>(coeff),
             kFloorMobType[type_floor][kMelee], boss ? graves : far, draws, p);

  const int32_t ranged_type = kFloorMobType[type_floor][kRanged];
  SpawnRule ranged_rule = boss ? graves : far;
  if (!boss && ranged_type == kDeepThingType) ranged_rule.blocks = kSpawnOnWater;
  SpawnClass(s, s.ranged_mobs, kRanged, true, chance[2] * static_cast<float>(coeff), ranged_type,
             ranged_rule, draws, p);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
