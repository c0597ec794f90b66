// Helpers that several parts of a full Craftax step share (craftax 1.6.1's
// util/game_logic_utils.py): the boss fight's state, attacking mobs, spawning
// projectiles, damage with defences, where a mob may stand, and the caps on
// the inventory and intrinsics. Reads of the map clamp as JAX's gather does,
// writes out of range are dropped as its scatter does (state.h).
#pragma once

#include <cmath>
#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/state.h"
#include "envs/craftax/full/tables.h"

namespace envpool_x {
namespace craftax {
namespace full {

ENVPOOL_X_HD inline int8_t BlockAt(const FullState& s, int32_t x, int32_t y) {
  return s.map[LevelRead(s.player_level)][ReadIndex(x)][ReadIndex(y)];
}
ENVPOOL_X_HD inline bool MobMapAt(const FullState& s, int32_t x, int32_t y) {
  return s.mob_map[LevelRead(s.player_level)][ReadIndex(x)][ReadIndex(y)];
}
ENVPOOL_X_HD inline void SetBlock(FullState& s, int32_t x, int32_t y, int8_t b) {
  const int i = WriteIndex(x), j = WriteIndex(y);
  if (i >= 0 && j >= 0) s.map[s.player_level][i][j] = b;
}
ENVPOOL_X_HD inline void SetMobMap(FullState& s, int32_t x, int32_t y, bool v) {
  const int i = WriteIndex(x), j = WriteIndex(y);
  if (i >= 0 && j >= 0) s.mob_map[s.player_level][i][j] = v;
}

ENVPOOL_X_HD inline bool IsFightingBoss(const FullState& s) {
  return s.player_level == kLevels - 1;
}
ENVPOOL_X_HD inline bool IsBossSpawnWave(const FullState& s) {
  return IsFightingBoss(s) && s.boss_timesteps_to_spawn_this_round >= 1;
}
ENVPOOL_X_HD inline bool IsBossVulnerable(const FullState& s) {
  const int level = s.player_level;
  int alive = 0;
  for (bool m : s.melee_mobs.mask[level]) alive += m;
  for (bool m : s.ranged_mobs.mask[level]) alive += m;
  return alive == 0 && s.boss_timesteps_to_spawn_this_round <= 0;
}
ENVPOOL_X_HD inline bool HasBeatenBoss(const FullState& s) {
  return s.boss_progress >= kLevels - 1;
}

ENVPOOL_X_HD inline int32_t MaxHealth(const FullState& s) { return 8 + s.player_strength; }
ENVPOOL_X_HD inline int32_t MaxFood(const FullState& s) { return 7 + 2 * s.player_dexterity; }
ENVPOOL_X_HD inline int32_t MaxDrink(const FullState& s) { return 7 + 2 * s.player_dexterity; }
ENVPOOL_X_HD inline int32_t MaxEnergy(const FullState& s) { return 7 + 2 * s.player_dexterity; }
ENVPOOL_X_HD inline int32_t MaxMana(const FullState& s) { return 6 + 3 * s.player_intelligence; }

// Damage after defence: the sum of (1 - defence) * damage over physical, fire
// and ice, each product added as one fused multiply-add (as XLA's CPU
// compiler contracts the sum).
ENVPOOL_X_HD inline float Damage(const float damage[3], const float defense[3]) {
  float total = 0.0f;
  for (int k = 0; k < 3; ++k) total = std::fma(1.0f - defense[k], damage[k], total);
  return total;
}

// The player's melee damage (physical, fire, ice): its sword, its sword's
// enchantment, scaled by strength and intelligence.
ENVPOOL_X_HD inline void PlayerDamageVector(const FullState& s, float out[3]) {
  constexpr int32_t kSwordDamage[5] = {1, 2, 3, 5, 8};
  const int32_t physical = kSwordDamage[s.inventory.sword < 0 ? 0 : Min(s.inventory.sword, 4)];
  const float fire = static_cast<float>(physical * (s.sword_enchantment == 1)) * 0.5f;
  const float ice = static_cast<float>(physical * (s.sword_enchantment == 2)) * 0.5f;
  const float strength = std::fma(0.25f, static_cast<float>(s.player_strength - 1), 1.0f);
  const float intelligence = std::fma(0.05f, static_cast<float>(s.player_intelligence - 1), 1.0f);
  out[0] = static_cast<float>(physical) * strength;
  out[1] = fire * intelligence;
  out[2] = ice * intelligence;
}

// Damage a mob class's attack does to the player, after armour and its
// enchantments, half as much again in the boss fight.
ENVPOOL_X_HD inline float DamageDoneToPlayer(const FullState& s, const float damage[3]) {
  float defense[3] = {0.0f, 0.0f, 0.0f};
  for (int i = 0; i < kNumArmour; ++i) {
    defense[0] = std::fma(static_cast<float>(s.inventory.armour[i]), 0.1f, defense[0]);
    defense[1] += (s.armour_enchantments[i] == 1) ? 0.2f : 0.0f;
    defense[2] += (s.armour_enchantments[i] == 2) ? 0.2f : 0.0f;
  }
  const float scale = IsFightingBoss(s) ? 1.0f + kBossFightExtraDamage : 1.0f;
  const float scaled[3] = {damage[0] * scale, damage[1] * scale, damage[2] * scale};
  return Damage(scaled, defense);
}

// The player's attack on one class of mobs at (x, y) (Craftax's
// attack_mob_class). Returns whether a mob was there; *killed whether it died.
template <int N>
ENVPOOL_X_HD inline bool AttackMobClass(FullState& s, Mobs<N>& mobs, int32_t x, int32_t y,
                                        const float damage[3], bool can_get_achievement,
                                        int mob_class, bool* killed) {
  const int level = s.player_level;
  int target = 0;
  bool attacking = false;
  for (int i = 0; i < N; ++i) {
    if (mobs.mask[level][i] && mobs.position[level][i][0] == x && mobs.position[level][i][1] == y) {
      if (!attacking) target = i;
      attacking = true;
    }
  }
  const int32_t type = mobs.type_id[level][target];
  const int type_row = type < 0 ? 0 : Min(type, 8);
  const float dealt = Damage(damage, kMobDefense[type_row][mob_class]);
  if (attacking) mobs.health[level][target] -= dealt;
  const bool old_mask = mobs.mask[level][target];
  for (int l = 0; l < kLevels; ++l) {
    for (int i = 0; i < N; ++i) mobs.mask[l][i] = mobs.mask[l][i] && mobs.health[l][i] > 0.0f;
  }
  *killed = old_mask && !mobs.mask[level][target];
  const int achievement = kMobAchievement[mob_class][type < 0 ? 0 : Min(type, 7)];
  s.achievements[achievement] = s.achievements[achievement] || (*killed && can_get_achievement);
  return attacking;
}

// The player's attack at (x, y) on every mob class (Craftax's attack_mob):
// eating a passive mob it kills when can_eat. Returns whether it hit a mob;
// *killed whether a mob died.
ENVPOOL_X_HD inline bool AttackMob(FullState& s, int32_t x, int32_t y, const float damage[3],
                                   bool can_eat, bool* killed) {
  bool killed_melee = false, killed_passive = false, killed_ranged = false;
  const bool hit_melee = AttackMobClass(s, s.melee_mobs, x, y, damage, true, kMelee, &killed_melee);
  const bool hit_passive =
      AttackMobClass(s, s.passive_mobs, x, y, damage, can_eat, kPassive, &killed_passive);
  if (killed_passive && can_eat) {
    s.player_food = Min(MaxFood(s), s.player_food + 6);
    s.player_hunger = 0.0f;
  }
  const bool hit_ranged =
      AttackMobClass(s, s.ranged_mobs, x, y, damage, true, kRanged, &killed_ranged);
  const bool killed_monster = killed_melee || killed_ranged;
  *killed = killed_monster || killed_passive;
  const bool was = MobMapAt(s, x, y);
  SetMobMap(s, x, y, was && !*killed);
  s.monsters_killed[s.player_level] += killed_monster ? 1 : 0;
  return hit_melee || hit_passive || hit_ranged;
}

// Puts a projectile in the first free slot of the player's floor (slot 0
// when none is free, as Craftax's argmax does), when `spawning`.
template <int N>
ENVPOOL_X_HD inline void SpawnProjectile(FullState& s, Mobs<N>& projectiles,
                                         int32_t (&directions)[kLevels][N][2], int32_t x, int32_t y,
                                         bool spawning, int32_t dx, int32_t dy, int32_t type) {
  if (!spawning) return;
  const int level = s.player_level;
  int slot = 0;
  for (int i = N - 1; i >= 0; --i) {
    if (!projectiles.mask[level][i]) slot = i;
  }
  projectiles.position[level][slot][0] = x;
  projectiles.position[level][slot][1] = y;
  projectiles.mask[level][slot] = true;
  projectiles.type_id[level][slot] = type;
  directions[level][slot][0] = dx;
  directions[level][slot][1] = dy;
}

ENVPOOL_X_HD inline bool IsInMob(const FullState& s, int32_t x, int32_t y) {
  return MobMapAt(s, x, y) || (s.player_position[0] == x && s.player_position[1] == y);
}

// Whether a mob that collides as `c` may move to (x, y): in the map, no mob or
// player there, not solid, and not ground / water / lava it collides with.
ENVPOOL_X_HD inline bool IsFreeFor(const FullState& s, int32_t x, int32_t y, const Collision& c) {
  const int8_t b = BlockAt(s, x, y);
  const bool solid = IsSolidBlock(b);
  const bool water = b == kWater;
  const bool lava = b == kLava;
  const bool ground = !solid && !water && !lava;
  return InBounds(x, y) && !IsInMob(s, x, y) && !solid && !(c.ground && ground) &&
         !(c.water && water) && !(c.lava && lava);
}

// Whether one of the eight cells around the player is `block`.
ENVPOOL_X_HD inline bool IsNearBlock(const FullState& s, int8_t block) {
  for (const auto& d : kCloseBlocks) {
    const int32_t x = s.player_position[0] + d[0], y = s.player_position[1] + d[1];
    if (InBounds(x, y) && BlockAt(s, x, y) == block) return true;
  }
  return false;
}

// Caps every inventory count at 99 and the intrinsics at their maxima (health
// at least 9 in god mode).
ENVPOOL_X_HD inline void ClipInventoryAndIntrinsics(FullState& s, const FullParams& p) {
  Inventory& inv = s.inventory;
  auto cap = [](int32_t& v) { v = Min(v, 99); };
  cap(inv.wood), cap(inv.stone), cap(inv.coal), cap(inv.iron), cap(inv.diamond);
  cap(inv.sapling), cap(inv.pickaxe), cap(inv.sword), cap(inv.bow), cap(inv.arrows);
  for (int32_t& v : inv.armour) cap(v);
  cap(inv.torches), cap(inv.ruby), cap(inv.sapphire);
  for (int32_t& v : inv.potions) cap(v);
  cap(inv.books);
  const float min_health = p.god_mode ? 9.0f : 0.0f;
  s.player_health =
      std::fmin(std::fmax(s.player_health, min_health), static_cast<float>(MaxHealth(s)));
  s.player_food = Min(Max(s.player_food, 0), MaxFood(s));
  s.player_drink = Min(Max(s.player_drink, 0), MaxDrink(s));
  s.player_energy = Min(Max(s.player_energy, 0), MaxEnergy(s));
  s.player_mana = Min(Max(s.player_mana, 0), MaxMana(s));
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
