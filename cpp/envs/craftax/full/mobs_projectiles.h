// The full Craftax game's projectiles in flight on the player's floor
// (craftax 1.6.1's _move_mob_projectile and _move_player_projectile): every
// slot moves one cell a step, dead ones too; the mobs' shots hurt the player
// and break tables and furnaces, the player's hurt the mobs they meet. No
// draws.
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

// Whether a projectile stops at (x, y): a solid block (water is not: shots
// fly over it).
ENVPOOL_X_HD inline bool ProjectileInWall(const FullState& s, int32_t x, int32_t y) {
  const int8_t b = BlockAt(s, x, y);
  return IsSolidBlock(b) && b != kWater;
}

ENVPOOL_X_HD inline void MoveMobProjectile(FullState& s, int j) {
  Mobs<kMaxMobProjectiles>& pr = s.mob_projectiles;
  const int level = s.player_level;
  const int32_t x = pr.position[level][j][0];
  const int32_t y = pr.position[level][j][1];
  const int32_t nx = x + s.mob_projectile_directions[level][j][0];
  const int32_t ny = y + s.mob_projectile_directions[level][j][1];
  const bool alive = pr.mask[level][j];
  const int32_t px = s.player_position[0], py = s.player_position[1];
  // It hits the player where it is or where it goes.
  const bool hit_player = alive && ((x == px && y == py) || (nx == px && ny == py));
  const bool flies_on =
      InBounds(nx, ny) && !ProjectileInWall(s, nx, ny) && !IsInMob(s, nx, ny) && !hit_player;
  const int8_t block = BlockAt(s, nx, ny);
  const bool breaks = alive && (block == kFurnace || block == kCraftingTable);
  float hit[3];  // copied: a table's address is not for device code
  for (int k = 0; k < 3; ++k) hit[k] = kMobDamage[TableRow(pr.type_id[level][j], 8)][3][k];
  const float damage = DamageDoneToPlayer(s, hit);
  pr.position[level][j][0] = nx;
  pr.position[level][j][1] = ny;
  pr.mask[level][j] = flies_on && alive;
  if (hit_player) {
    s.player_health -= damage;
    s.is_sleeping = false;
    s.is_resting = false;
  }
  if (breaks) SetBlock(s, nx, ny, kPath);
}

// The damage (physical, fire, ice) of the player's projectile in slot j: its
// type's, none when the slot is dead; an arrow adds half its physical damage
// as its bow's enchantment and scales with dexterity, a fireball or iceball
// with intelligence.
ENVPOOL_X_HD inline void PlayerProjectileDamage(const FullState& s, int j, float out[3]) {
  const Mobs<kMaxPlayerProjectiles>& pr = s.player_projectiles;
  const int level = s.player_level;
  const int32_t type = pr.type_id[level][j];
  const float alive = pr.mask[level][j] ? 1.0f : 0.0f;
  for (int k = 0; k < 3; ++k) out[k] = kMobDamage[TableRow(type, 8)][3][k] * alive;
  const bool is_arrow = type == kArrow || type == kArrow2;
  const bool is_magic = type == kFireball || type == kIceball;
  if (is_arrow) {
    float add[3] = {0.0f, 0.0f, 0.0f};
    int32_t e = s.bow_enchantment;  // a write at a JAX index: wraps once, else dropped
    if (e < 0) e += 3;
    if (e >= 0 && e < 3) add[e] = out[0] / 2.0f;
    add[0] = 0.0f;
    for (int k = 0; k < 3; ++k) out[k] += add[k];
    // 1 + 0.2 * (dexterity - 1), one fused multiply-add as XLA's CPU compiler makes it.
    const float dexterity = std::fma(0.2f, static_cast<float>(s.player_dexterity - 1), 1.0f);
    for (int k = 0; k < 3; ++k) out[k] *= dexterity;
  }
  if (is_magic) {
    const float intelligence = std::fma(0.5f, static_cast<float>(s.player_intelligence - 1), 1.0f);
    for (int k = 0; k < 3; ++k) out[k] *= intelligence;
  }
}

ENVPOOL_X_HD inline void MovePlayerProjectile(FullState& s, int j) {
  Mobs<kMaxPlayerProjectiles>& pr = s.player_projectiles;
  const int level = s.player_level;
  float damage[3];
  PlayerProjectileDamage(s, j, damage);
  const int32_t x = pr.position[level][j][0];
  const int32_t y = pr.position[level][j][1];
  const int32_t nx = x + s.player_projectile_directions[level][j][0];
  const int32_t ny = y + s.player_projectile_directions[level][j][1];
  const bool free_path = InBounds(nx, ny) && !ProjectileInWall(s, nx, ny);
  // It hits a mob where it is, else one where it goes (a dead slot too, for
  // no damage: Craftax attacks with every slot).
  bool killed = false;
  const bool hit_here = AttackMob(s, x, y, damage, false, &killed);
  if (hit_here) {
    for (float& d : damage) d *= 0.0f;
  }
  const bool hit_there = AttackMob(s, nx, ny, damage, false, &killed);
  const bool alive = pr.mask[level][j];
  pr.position[level][j][0] = nx;
  pr.position[level][j][1] = ny;
  pr.mask[level][j] = free_path && !hit_here && !hit_there && alive;
}

ENVPOOL_X_HD inline void MoveProjectiles(FullState& s) {
  for (int j = 0; j < kMaxMobProjectiles; ++j) MoveMobProjectile(s, j);
  for (int j = 0; j < kMaxPlayerProjectiles; ++j) MovePlayerProjectile(s, j);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
