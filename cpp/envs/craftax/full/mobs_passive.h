// The full Craftax game's passive mobs (cows, bats, snails) on the player's
// floor: a random step or none, half the time each (craftax 1.6.1's
// _move_passive_mob). One draw a slot, alive or not.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/mobs_common.h"
#include "envs/craftax/full/state.h"
#include "envs/craftax/full/tables.h"

namespace envpool_x {
namespace craftax {
namespace full {

constexpr int kDrawsPerPassiveMob = 1;

template <class Draws>
ENVPOOL_X_HD inline void MovePassiveMob(FullState& s, int i, Draws& draws, const FullParams& p) {
  Mobs<kMaxPassiveMobs>& m = s.passive_mobs;
  const int level = s.player_level;
  const int32_t x = m.position[level][i][0];
  const int32_t y = m.position[level][i][1];
  // Eight choices (Craftax's DIRECTIONS[1:9]), the last four no move.
  const int32_t choice = UniformIndex(draws.Next(), 8) + 1;
  const int32_t nx = x + DirectionDx(choice);
  const int32_t ny = y + DirectionDy(choice);
  const Collision collision = kMobCollision[TableRow(m.type_id[level][i], 9)][kPassive];
  // Passive mobs despawn when far even in the boss fight.
  SettleMob(s, m, i, nx, ny, collision, PlayerDistance(s, x, y) < p.mob_despawn_distance);
}

template <class Draws>
ENVPOOL_X_HD inline void MovePassiveMobs(FullState& s, Draws& draws, const FullParams& p) {
  for (int i = 0; i < kMaxPassiveMobs; ++i) MovePassiveMob(s, i, draws, p);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
