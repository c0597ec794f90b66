// The full Craftax game's ranged mobs (skeletons, gnome archers, orc mages,
// kobolds, archers, deep things, fire and ice elementals) on the player's
// floor (craftax 1.6.1's _move_ranged_mob): they close in from afar, back off
// when too close, and shoot at range 4-5 or when cornered. Three draws a
// slot, alive or not.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/mobs_common.h"
#include "envs/craftax/full/state.h"
#include "envs/craftax/full/tables.h"
#include "envs/craftax/full/utils.h"

namespace envpool_x {
namespace craftax {
namespace full {

constexpr int kDrawsPerRangedMob = 3;
constexpr int32_t kRangedFarDistance = 6;
constexpr int32_t kRangedTooCloseDistance = 3;
constexpr float kRangedPurposefulMove = 0.85f;  // a purposeful move above this draw
constexpr int32_t kRangedCooldown = 4;

template <class Draws>
ENVPOOL_X_HD inline void MoveRangedMob(FullState& s, int i, Draws& draws, const FullParams& p) {
  Mobs<kMaxRangedMobs>& m = s.ranged_mobs;
  const int level = s.player_level;
  const int32_t x = m.position[level][i][0];
  const int32_t y = m.position[level][i][1];
  int32_t rx, ry, tx, ty;
  RandomMove(draws.Next(), &rx, &ry);
  MoveTowardsPlayer(s, x, y, draws.Next(), &tx, &ty);
  const int32_t distance = PlayerDistance(s, x, y);
  const bool too_close = distance <= kRangedTooCloseDistance;
  int32_t mx = distance >= kRangedFarDistance ? tx : rx;
  int32_t my = distance >= kRangedFarDistance ? ty : ry;
  if (too_close) {
    mx = -tx;
    my = -ty;
  }
  if (!(draws.Next() > kRangedPurposefulMove)) {
    mx = rx;
    my = ry;
  }
  int32_t nx = x + mx;
  int32_t ny = y + my;
  const Collision collision = kMobCollision[TableRow(m.type_id[level][i], 9)][kRanged];
  bool attacking =
      (distance >= 4 && distance <= 5) || (too_close && !IsFreeFor(s, nx, ny, collision));
  attacking = attacking && m.attack_cooldown[level][i] <= 0 && m.mask[level][i];
  int live_projectiles = 0;
  for (bool alive : s.mob_projectiles.mask[level]) live_projectiles += alive;
  SpawnProjectile(s, s.mob_projectiles, s.mob_projectile_directions, x, y,
                  attacking && live_projectiles < kMaxMobProjectiles, tx, ty,
                  kRangedProjectile[TableRow(m.type_id[level][i], 8)]);
  if (attacking) {
    nx = x;
    ny = y;
  }
  m.attack_cooldown[level][i] = attacking ? kRangedCooldown : m.attack_cooldown[level][i] - 1;
  const bool stays = distance < p.mob_despawn_distance || IsFightingBoss(s);
  SettleMob(s, m, i, nx, ny, collision, stays);
}

template <class Draws>
ENVPOOL_X_HD inline void MoveRangedMobs(FullState& s, Draws& draws, const FullParams& p) {
  for (int i = 0; i < kMaxRangedMobs; ++i) MoveRangedMob(s, i, draws, p);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
