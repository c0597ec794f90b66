// What the full Craftax game's mobs share when they move (craftax 1.6.1's
// update_mobs): the table reads as JAX's gather does them, the two move
// proposals (a random step, a step towards the player) and how a mob settles
// on its new cell, keeping the mob map in step.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/draws.h"
#include "envs/craftax/full/state.h"
#include "envs/craftax/full/tables.h"
#include "envs/craftax/full/utils.h"

namespace envpool_x {
namespace craftax {
namespace full {

ENVPOOL_X_HD inline int32_t MobAbs(int32_t v) { return v < 0 ? -v : v; }
ENVPOOL_X_HD inline int32_t MobSign(int32_t v) { return (v > 0) - (v < 0); }

// A read of row i of a table of n rows, as JAX's gather does it (a negative
// index counts from the end, then clamps).
ENVPOOL_X_HD inline int TableRow(int32_t i, int n) {
  if (i < 0) i += n;
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

// Manhattan distance from (x, y) to the player.
ENVPOOL_X_HD inline int32_t PlayerDistance(const FullState& s, int32_t x, int32_t y) {
  return MobAbs(x - s.player_position[0]) + MobAbs(y - s.player_position[1]);
}

// One of the four moves (Craftax's DIRECTIONS[1:5]: left, right, up, down)
// from a draw.
ENVPOOL_X_HD inline void RandomMove(float u, int32_t* dx, int32_t* dy) {
  const int32_t action = UniformIndex(u, 4) + 1;
  *dx = DirectionDx(action);
  *dy = DirectionDy(action);
}

// The step towards the player along an axis where the distance is largest: a
// weighted choice over the two axes with weights (distance == largest) / sum
// in float32 (a tie is 50/50; on the player's own cell the weights are NaN and
// the choice falls on the last axis, where the step is 0).
ENVPOOL_X_HD inline void MoveTowardsPlayer(const FullState& s, int32_t x, int32_t y, float u,
                                           int32_t* dx, int32_t* dy) {
  const int32_t ax = MobAbs(s.player_position[0] - x);
  const int32_t ay = MobAbs(s.player_position[1] - y);
  const int32_t top = ax > ay ? ax : ay;
  const float sum = static_cast<float>(ax + ay);
  const float weights[2] = {static_cast<float>(ax == top) / sum,
                            static_cast<float>(ay == top) / sum};
  const int axis = WeightedIndex(u, weights, 2);
  *dx = axis == 0 ? MobSign(s.player_position[0] - x) : 0;
  *dy = axis == 1 ? MobSign(s.player_position[1] - y) : 0;
}

// Moves slot i of a mob class on the player's floor to (nx, ny) when a mob of
// its collision may stand there, else leaves it; it despawns unless `stays`.
// Its old cell of the mob map is cleared when it was alive, its new one set
// when it still is (read after the clear: a mob that stays keeps its mark).
template <int N>
ENVPOOL_X_HD inline void SettleMob(FullState& s, Mobs<N>& mobs, int i, int32_t nx, int32_t ny,
                                   Collision collision, bool stays) {
  const int level = s.player_level;
  const int32_t ox = mobs.position[level][i][0];
  const int32_t oy = mobs.position[level][i][1];
  if (!IsFreeFor(s, nx, ny, collision)) {
    nx = ox;
    ny = oy;
  }
  const bool was_alive = mobs.mask[level][i];
  SetMobMap(s, ox, oy, MobMapAt(s, ox, oy) && !was_alive);
  const bool alive = was_alive && stays;
  SetMobMap(s, nx, ny, MobMapAt(s, nx, ny) || alive);
  mobs.position[level][i][0] = nx;
  mobs.position[level][i][1] = ny;
  mobs.mask[level][i] = alive;
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
