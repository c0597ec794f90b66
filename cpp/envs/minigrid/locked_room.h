// MiniGrid-LockedRoom-v0 (minigrid 3.2.0's envs/lockedroom.py): a corridor
// between six rooms with doors of six colours; the goal is in the locked
// room, its key in another room. Mission (locked room's colour l, key room's
// colour k): index l * 6 + k.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_x::minigrid {

struct LockedRoomTask : TaskBase {
  static constexpr const char* kName = "MiniGridLockedRoom";
  static Config Defaults() { return Config{{"size", int64_t{19}}}; }
  explicit LockedRoomTask(const Config& config) {
    const int64_t size = config.Int("size");
    if (size < 13 || size > 128) {
      throw ValueError("MiniGridLockedRoom size must be in [13, 128], got " + std::to_string(size));
    }
    width = height = static_cast<int>(size);
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = [] {
      std::vector<std::string> m;
      for (int l = 0; l < kNumColors; ++l) {
        for (int k = 0; k < kNumColors; ++k) {
          m.push_back(std::string("get the ") + ColorName(l) + " key from the " + ColorName(k) +
                      " room, unlock the " + ColorName(l) + " door and go to the goal");
        }
      }
      return m;
    }();
    return kMissions;
  }
  // A uniform cell inside room r's walls (rooms: left then right, top down).
  Pos InsideRoom(Rng& rng, int r) const {
    const int left_wall = width / 2 - 2, right_wall = width / 2 + 2;
    const int top = (r / 2) * (height / 3), room_w = left_wall + 1, room_h = height / 3 + 1;
    const int x0 = r % 2 == 0 ? 0 : right_wall;
    return Pos{World::RandInt(rng, x0 + 1, x0 + room_w - 1),
               World::RandInt(rng, top + 1, top + room_h - 1)};
  }
  int Generate(World& w, Rng& rng) const {
    Grid& g = w.grid;
    g.WallRect(0, 0, width, height);
    const int left_wall = width / 2 - 2, right_wall = width / 2 + 2;
    g.VertWall(left_wall, 0);
    g.VertWall(right_wall, 0);
    for (int n = 0; n < 3; ++n) {
      const int j = n * (height / 3);
      g.HorzWall(0, j, left_wall);
      g.HorzWall(right_wall, j, width - right_wall);
    }
    const int locked = World::RandInt(rng, 0, 6);
    const Pos goal = InsideRoom(rng, locked);
    g.Set(goal.x, goal.y, MakeGoal());
    // Distinct colours, each drawn uniformly from those left, in name order.
    int colors[6];
    bool used[kNumColors] = {};
    for (int r = 0; r < 6; ++r) {
      int pick = World::RandInt(rng, 0, kNumColors - r);
      int c = 0;
      for (uint8_t by_name : kColorsByName) {
        if (!used[by_name] && pick-- == 0) {
          c = by_name;
          break;
        }
      }
      used[c] = true;
      colors[r] = c;
      const int x = r % 2 == 0 ? left_wall : right_wall, y = (r / 2) * (height / 3) + 3;
      g.Set(x, y, MakeDoor(c, r == locked));
    }
    int key_room = locked;
    while (key_room == locked) key_room = World::RandInt(rng, 0, 6);
    const Pos key = InsideRoom(rng, key_room);
    g.Set(key.x, key.y, MakeObj(kKey, colors[locked]));
    w.PlaceAgent(rng, {left_wall, 0}, {right_wall - left_wall, height});
    return colors[locked] * kNumColors + colors[key_room];
  }
};

using MiniGridLockedRoom = MiniGridEnv<LockedRoomTask>;

}  // namespace envpool_x::minigrid
