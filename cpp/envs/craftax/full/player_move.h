// The player's moves in the full Craftax game (craftax 1.6.1's change_floor
// and move_player): taking a ladder to the next or the previous floor, and a
// step on the floor.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/player_tables.h"
#include "envs/craftax/full/state.h"
#include "envs/craftax/full/tables.h"
#include "envs/craftax/full/utils.h"

namespace envpool_x {
namespace craftax {
namespace full {

// Down a ladder once the floor's monsters are cleared, or up one (any time
// in god mode). Each floor's achievement comes with a point of xp the first
// time: Craftax checks this on every step, so a floor below 0 without its
// achievement gets both even without a move.
ENVPOOL_X_HD inline void ChangeFloor(FullState& s, int32_t action, const FullParams& p) {
  const int32_t level = s.player_level;
  const int8_t item = s.item_map[LevelRead(level)][ReadIndex(s.player_position[0])]
                                [ReadIndex(s.player_position[1])];
  const bool cleared = s.monsters_killed[LevelRead(level)] >= kMonstersKilledToClearLevel;
  const bool down = action == kDescend && (p.god_mode || (item == kItemLadderDown && cleared)) &&
                    level < kLevels - 1;
  const bool up = action == kAscend && (p.god_mode || item == kItemLadderUp) && level > 0;
  if (down) {
    const int next = LevelRead(level + 1);
    s.player_position[0] = s.up_ladders[next][0];
    s.player_position[1] = s.up_ladders[next][1];
  } else if (up) {
    const int previous = LevelRead(level - 1);
    s.player_position[0] = s.down_ladders[previous][0];
    s.player_position[1] = s.down_ladders[previous][1];
  }
  const int32_t new_level = level + (down ? 1 : 0) - (up ? 1 : 0);
  const int achievement = kLevelAchievement[LevelRead(new_level)];
  const bool had = s.achievements[achievement];
  s.achievements[achievement] = new_level != 0 || had;
  s.player_level = new_level;
  s.player_xp += (new_level != 0 && !had) ? 1 : 0;
}

// A step left, right, up or down onto free land (anywhere on the map in god
// mode); the four move actions also turn the player, others change nothing.
ENVPOOL_X_HD inline void MovePlayer(FullState& s, int32_t action, const FullParams& p) {
  const int32_t row = DirectionRow(action);
  const int32_t dx = DirectionDx(row), dy = DirectionDy(row);
  const int32_t x = s.player_position[0] + dx, y = s.player_position[1] + dy;
  const bool valid = IsFreeFor(s, x, y, kLandCreature) || p.god_mode;
  if (valid) {
    s.player_position[0] = x;
    s.player_position[1] = y;
  }
  if (dx != 0 || dy != 0) s.player_direction = action;
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
