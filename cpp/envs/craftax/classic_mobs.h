// Craftax-Classic's mobs: zombies, cows and skeletons move (one after the
// other, each seeing the moves before it), arrows fly, and new mobs spawn,
// in Craftax 1.6.1's order and with its draws (classic_draws.h).
#pragma once

#include <cmath>
#include <cstdint>

#include "envs/craftax/classic_draws.h"
#include "envs/craftax/classic_player.h"
#include "envs/craftax/classic_state.h"

namespace envpool_x {
namespace craftax {

ENVPOOL_X_HD inline int32_t Abs(int32_t v) { return v < 0 ? -v : v; }
ENVPOOL_X_HD inline int32_t Sign(int32_t v) { return (v > 0) - (v < 0); }

// One of the four moves (Craftax's DIRECTIONS[1:5]) from a draw.
ENVPOOL_X_HD inline void RandomStep(float u, int32_t* dx, int32_t* dy) {
  const int i = UniformIndex(u, 4);
  const int32_t action = i + 1;  // left, right, up, down
  *dx = ActionDx(action);
  *dy = ActionDy(action);
}

// The step towards the player along an axis where the distance is largest
// (a tie drawn 50/50, as Craftax's weighted choice over the two axes).
ENVPOOL_X_HD inline void StepTowardsPlayer(const ClassicState& s, int32_t x, int32_t y, float u,
                                           int32_t* dx, int32_t* dy) {
  const int32_t ax = Abs(s.player_x - x);
  const int32_t ay = Abs(s.player_y - y);
  const int32_t top = ax > ay ? ax : ay;
  const float sum = static_cast<float>(ax + ay);
  const float weights[2] = {static_cast<float>(ax == top) / sum,
                            static_cast<float>(ay == top) / sum};
  const int axis = WeightedIndex(u, weights, 2);
  *dx = axis == 0 ? Sign(s.player_x - x) : 0;
  *dy = axis == 1 ? Sign(s.player_y - y) : 0;
}

// Moves slot i of a kind to (nx, ny) if free, despawns it when it was too far
// from the player, and keeps the mob map in step.
template <int N>
ENVPOOL_X_HD inline void SettleMob(ClassicState& s, MobSlots<N>& mobs, int i, int32_t nx,
                                   int32_t ny, const ClassicParams& p) {
  const int32_t ox = mobs.x[i];
  const int32_t oy = mobs.y[i];
  if (!IsFreeCell(s, nx, ny)) {
    nx = ox;
    ny = oy;
  }
  const bool stays = Abs(ox - s.player_x) + Abs(oy - s.player_y) < p.mob_despawn_distance;
  SetMob(s, ox, oy, MobAt(s, ox, oy) && !mobs.mask[i]);
  const bool alive = mobs.mask[i] && stays;
  SetMob(s, nx, ny, MobAt(s, nx, ny) || alive);
  mobs.x[i] = nx;
  mobs.y[i] = ny;
  mobs.mask[i] = alive;
}

template <class Draws>
ENVPOOL_X_HD inline void MoveZombies(ClassicState& s, Draws& draws, const ClassicParams& p) {
  MobSlots<kMaxZombies>& z = s.zombies;
  for (int i = 0; i < kMaxZombies; ++i) {
    int32_t rx, ry, tx, ty;
    RandomStep(draws.Next(), &rx, &ry);
    StepTowardsPlayer(s, z.x[i], z.y[i], draws.Next(), &tx, &ty);
    const int32_t dist = Abs(z.x[i] - s.player_x) + Abs(z.y[i] - s.player_y);
    const float chase_draw = draws.Next();  // drawn whatever the distance
    const bool chase = dist < 10 && chase_draw < 0.75f;
    int32_t nx = z.x[i] + (chase ? tx : rx);
    int32_t ny = z.y[i] + (chase ? ty : ry);
    const bool attacking = dist == 1 && z.cooldown[i] <= 0 && z.mask[i];
    if (attacking) {
      nx = z.x[i];
      ny = z.y[i];
      s.health -= s.is_sleeping ? 7 : 2;
      Unlock(s, kAchWakeUp, s.is_sleeping);
      s.is_sleeping = false;
    }
    z.cooldown[i] = attacking ? 5 : z.cooldown[i] - 1;
    SettleMob(s, z, i, nx, ny, p);
  }
}

template <class Draws>
ENVPOOL_X_HD inline void MoveCows(ClassicState& s, Draws& draws, const ClassicParams& p) {
  MobSlots<kMaxCows>& c = s.cows;
  for (int i = 0; i < kMaxCows; ++i) {
    // Eight choices, four of them no move (Craftax's DIRECTIONS[1:9]).
    const int choice = UniformIndex(draws.Next(), 8);
    const int32_t dx = choice < 4 ? ActionDx(choice + 1) : 0;
    const int32_t dy = choice < 4 ? ActionDy(choice + 1) : 0;
    SettleMob(s, c, i, c.x[i] + dx, c.y[i] + dy, p);
  }
}

template <class Draws>
ENVPOOL_X_HD inline void MoveSkeletons(ClassicState& s, Draws& draws, const ClassicParams& p) {
  MobSlots<kMaxSkeletons>& k = s.skeletons;
  for (int i = 0; i < kMaxSkeletons; ++i) {
    int32_t rx, ry, tx, ty;
    RandomStep(draws.Next(), &rx, &ry);
    StepTowardsPlayer(s, k.x[i], k.y[i], draws.Next(), &tx, &ty);
    const int32_t dist = Abs(k.x[i] - s.player_x) + Abs(k.y[i] - s.player_y);
    const bool too_close = dist <= 3;
    int32_t mx = dist >= 10 ? tx : rx;
    int32_t my = dist >= 10 ? ty : ry;
    if (too_close) {
      mx = -tx;
      my = -ty;
    }
    if (!(draws.Next() > 0.85f)) {
      mx = rx;
      my = ry;
    }
    int32_t nx = k.x[i] + mx;
    int32_t ny = k.y[i] + my;
    // Shoots at range 4-5, or when cornered while too close.
    bool attacking = (dist >= 4 && dist <= 5) || (too_close && !IsFreeCell(s, nx, ny));
    attacking = attacking && k.cooldown[i] <= 0 && k.mask[i];
    int live_arrows = 0;
    int slot = -1;
    for (int a = 0; a < kMaxArrows; ++a) {
      live_arrows += s.arrows.mask[a];
      if (!s.arrows.mask[a] && slot < 0) slot = a;
    }
    if (attacking && live_arrows < kMaxArrows) {
      s.arrows.x[slot] = k.x[i];
      s.arrows.y[slot] = k.y[i];
      s.arrows.mask[slot] = true;
      s.arrow_dx[slot] = tx;
      s.arrow_dy[slot] = ty;
    }
    if (attacking) {
      nx = k.x[i];
      ny = k.y[i];
    }
    k.cooldown[i] = attacking ? 4 : k.cooldown[i] - 1;
    SettleMob(s, k, i, nx, ny, p);
  }
}

// Arrows fly one cell a step (dead ones too: Craftax moves every slot), hurt
// the player, and break tables and furnaces they fly into.
ENVPOOL_X_HD inline void MoveArrows(ClassicState& s) {
  MobSlots<kMaxArrows>& a = s.arrows;
  for (int i = 0; i < kMaxArrows; ++i) {
    const int32_t x = a.x[i] + s.arrow_dx[i];
    const int32_t y = a.y[i] + s.arrow_dy[i];
    const int8_t block = BlockAt(s, x, y);
    const bool in_wall = IsSolid(block) && block != kWater;
    const bool flies_on = InBounds(x, y) && !in_wall && !InMob(s, x, y);
    const bool hit_player = x == s.player_x && y == s.player_y && a.mask[i];
    const bool breaks = (block == kFurnace || block == kCraftingTable) && a.mask[i];
    a.x[i] = x;
    a.y[i] = y;
    a.mask[i] = flies_on && a.mask[i];
    s.health -= 2 * hit_player;
    s.is_sleeping = s.is_sleeping && !hit_player;
    if (breaks) SetBlock(s, x, y, kPath);
  }
}

// Where a kind may spawn: a free cell of the allowed blocks at a Manhattan
// distance in (min_distance, despawn distance) from the player.
ENVPOOL_X_HD inline bool SpawnCell(const ClassicState& s, int x, int y, int kind,
                                   const ClassicParams& p) {
  const int8_t b = s.map[x][y];
  const int32_t d = Abs(x - s.player_x) + Abs(y - s.player_y);
  const bool block_ok =
      kind == 0 ? b == kGrass : (kind == 1 ? (b == kGrass || b == kPath) : b == kPath);
  const int32_t min_distance = kind == 0 ? 3 : 9;
  return block_ok && d > min_distance && d < p.mob_despawn_distance && !MobAt(s, x, y);
}

// Draws a spawn cell (uniform over the allowed ones, by Craftax's weighted
// choice over the flattened map, in its row-major order); -1 when there is
// none. Only cells within the despawn distance (Manhattan) may spawn a mob,
// so each row is scanned only where it meets that diamond.
ENVPOOL_X_HD inline int DrawSpawnCell(const ClassicState& s, int kind, float u,
                                      const ClassicParams& p) {
  const int32_t reach = p.mob_despawn_distance;
  const int x0 = Max(s.player_x - reach + 1, 0);
  const int x1 = Min(s.player_x + reach, kMapSize);
  // The columns of row x within the diamond: |y - player_y| < reach - |x - player_x|.
  auto columns = [&](int x, int* y0, int* y1) {
    const int32_t rest = reach - Abs(x - s.player_x);
    *y0 = Max(s.player_y - rest + 1, 0);
    *y1 = Min(s.player_y + rest, kMapSize);
  };
  int count = 0;
  for (int x = x0; x < x1; ++x) {
    int y0, y1;
    columns(x, &y0, &y1);
    for (int y = y0; y < y1; ++y) count += SpawnCell(s, x, y, kind, p);
  }
  if (count == 0) return -1;
  const float w = 1.0f / static_cast<float>(count);
  double total = 0.0;
  for (int c = 0; c < count; ++c) total += w;
  const double target = static_cast<double>(u) * total;
  double running = 0.0;
  for (int x = x0; x < x1; ++x) {
    int y0, y1;
    columns(x, &y0, &y1);
    for (int y = y0; y < y1; ++y) {
      if (!SpawnCell(s, x, y, kind, p)) continue;
      running += w;
      if (running > target) return x * kMapSize + y;
    }
  }
  return kMapSize * kMapSize - 1;  // rounding left the target unreached
}

// Spawns into the first free slot when `spawn`. Craftax then marks the mob
// map at that slot's position with its mask whether it spawned or not (so a
// full set of slots marks slot 0's cell): copied as it is.
template <int N>
ENVPOOL_X_HD inline void SpawnInto(ClassicState& s, MobSlots<N>& mobs, bool spawn, int cell,
                                   int32_t health) {
  int slot = 0;
  for (int i = N - 1; i >= 0; --i) {
    if (!mobs.mask[i]) slot = i;
  }
  if (spawn) {
    mobs.x[slot] = cell / kMapSize;
    mobs.y[slot] = cell % kMapSize;
    mobs.health[slot] = health;
    mobs.mask[slot] = true;
  }
  SetMob(s, mobs.x[slot], mobs.y[slot], MobAt(s, mobs.x[slot], mobs.y[slot]) || mobs.mask[slot]);
}

template <int N>
ENVPOOL_X_HD inline int LiveCount(const MobSlots<N>& mobs) {
  int n = 0;
  for (int i = 0; i < N; ++i) n += mobs.mask[i];
  return n;
}

// One kind's spawn: its two draws (the chance, then the cell) are taken
// always; the cell is only looked for when the mob spawns if there is one,
// which spares most steps the scan.
template <int N, class Draws>
ENVPOOL_X_HD inline void SpawnKind(ClassicState& s, MobSlots<N>& mobs, int kind, float chance,
                                   int32_t health, Draws& draws, const ClassicParams& p) {
  const bool roll = draws.Next() < chance;
  const float cell_draw = draws.Next();
  const int cell = roll && LiveCount(mobs) < N ? DrawSpawnCell(s, kind, cell_draw, p) : -1;
  SpawnInto(s, mobs, cell >= 0, cell, health);
}

template <class Draws>
ENVPOOL_X_HD inline void SpawnMobs(ClassicState& s, Draws& draws, const ClassicParams& p) {
  SpawnKind(s, s.cows, 0, p.spawn_cow_chance, p.cow_health, draws, p);
  const float dark = 1.0f - s.light_level;
  // base + night * dark^2 as one fused multiply-add (XLA's CPU compiler).
  const float zombie_chance =
      std::fma(p.spawn_zombie_night_chance, dark * dark, p.spawn_zombie_base_chance);
  SpawnKind(s, s.zombies, 1, zombie_chance, p.zombie_health, draws, p);
  SpawnKind(s, s.skeletons, 2, p.spawn_skeleton_chance, p.skeleton_health, draws, p);
}

}  // namespace craftax
}  // namespace envpool_x
