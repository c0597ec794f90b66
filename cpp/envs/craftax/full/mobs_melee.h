// The full Craftax game's melee mobs (zombies, gnome warriors, orc soldiers,
// lizards, knights, trolls, pigmen, frost trolls) on the player's floor, one
// slot after the other, each seeing the moves before it (craftax 1.6.1's
// _move_melee_mob). Three draws a slot, alive or not.
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

constexpr int kDrawsPerMeleeMob = 3;
constexpr int32_t kMeleeChaseDistance = 10;
constexpr float kMeleeChaseChance = 0.75f;
constexpr int32_t kMeleeCooldown = 5;
constexpr float kSleepingDamageScale = 3.5f;  // 1 + 2.5 while asleep

template <class Draws>
ENVPOOL_X_HD inline void MoveMeleeMob(FullState& s, int i, Draws& draws, const FullParams& p) {
  Mobs<kMaxMeleeMobs>& m = s.melee_mobs;
  const int level = s.player_level;
  const int32_t x = m.position[level][i][0];
  const int32_t y = m.position[level][i][1];
  int32_t rx, ry, tx, ty;
  RandomMove(draws.Next(), &rx, &ry);
  MoveTowardsPlayer(s, x, y, draws.Next(), &tx, &ty);
  const int32_t distance = PlayerDistance(s, x, y);
  const bool near = distance < kMeleeChaseDistance || IsFightingBoss(s);
  const float chase_draw = draws.Next();  // drawn whatever `near`
  const bool chase = near && chase_draw < kMeleeChaseChance;
  int32_t nx = x + (chase ? tx : rx);
  int32_t ny = y + (chase ? ty : ry);
  const bool attacking = distance == 1 && m.attack_cooldown[level][i] <= 0 && m.mask[level][i];
  if (attacking) {
    nx = x;
    ny = y;
  }
  const int type_row = TableRow(m.type_id[level][i], 8);
  const float sleep_scale = s.is_sleeping ? kSleepingDamageScale : 1.0f;
  float base[3];
  for (int k = 0; k < 3; ++k) base[k] = kMobDamage[type_row][kMelee][k] * sleep_scale;
  const float damage = DamageDoneToPlayer(s, base);
  if (attacking) {
    s.player_health -= damage;
    s.achievements[kAchWakeUp] = s.achievements[kAchWakeUp] || s.is_sleeping;
    s.is_sleeping = false;
    s.is_resting = false;
  }
  m.attack_cooldown[level][i] = attacking ? kMeleeCooldown : m.attack_cooldown[level][i] - 1;
  const Collision collision = kMobCollision[TableRow(m.type_id[level][i], 9)][kMelee];
  const bool stays = distance < p.mob_despawn_distance || IsFightingBoss(s);
  SettleMob(s, m, i, nx, ny, collision, stays);
}

template <class Draws>
ENVPOOL_X_HD inline void MoveMeleeMobs(FullState& s, Draws& draws, const FullParams& p) {
  for (int i = 0; i < kMaxMeleeMobs; ++i) MoveMeleeMob(s, i, draws, p);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
