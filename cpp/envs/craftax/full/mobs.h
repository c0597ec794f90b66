// The full Craftax game's mobs in one step (craftax 1.6.1's update_mobs and
// spawn_mobs): melee, passive and ranged mobs move (and attack, shoot,
// despawn), then the mobs' and the player's projectiles fly; spawning comes
// later in the step. Each takes a fixed number of draws, in Craftax's order.
#pragma once

#include "core/host_device.h"
#include "envs/craftax/full/mobs_melee.h"
#include "envs/craftax/full/mobs_passive.h"
#include "envs/craftax/full/mobs_projectiles.h"
#include "envs/craftax/full/mobs_ranged.h"
#include "envs/craftax/full/mobs_spawn.h"
#include "envs/craftax/full/state.h"

namespace envpool_x {
namespace craftax {
namespace full {

// 3 per melee slot, 1 per passive slot, 3 per ranged slot: 18.
constexpr int kUpdateMobsDraws = kDrawsPerMeleeMob * kMaxMeleeMobs +
                                 kDrawsPerPassiveMob * kMaxPassiveMobs +
                                 kDrawsPerRangedMob * kMaxRangedMobs;
// 2 for each of passive, melee and ranged: 6.
constexpr int kSpawnMobsDraws = 3 * kDrawsPerSpawn;

template <class Draws>
ENVPOOL_X_HD inline void UpdateMobs(FullState& s, Draws& draws, const FullParams& p) {
  MoveMeleeMobs(s, draws, p);
  MovePassiveMobs(s, draws, p);
  MoveRangedMobs(s, draws, p);
  MoveProjectiles(s);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
