// MiniGrid-MultiRoom-{N2-S4,N4-S5,N6}-v0 (minigrid 3.2.0's envs/multiroom.py):
// a chain of num_rooms rooms (sides 4 .. max_room_size) laid out at random in
// a 25 x 25 grid, each entered through a closed door of a colour other than
// the previous door's; the goal is in the last room.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_x::minigrid {

struct MultiRoomTask : TaskBase {
  static constexpr const char* kName = "MiniGridMultiRoom";
  // The most rooms whose chain minigrid's draws find in 1 of 100000 tries or
  // more, by max_room_size (4..24); measured over 3 million chains each.
  // Larger counts are refused at make: minigrid searches for ever (or ages).
  static constexpr int kMaxRooms[21] = {29, 26, 22, 19, 17, 15, 14, 13, 12, 11, 11,
                                        10, 10, 9,  9,  8,  8,  8,  7,  7,  7};
  // Chains drawn before a reset gives up: 20 times the expected count at
  // the rarest accepted size, so an accepted config fails about never.
  static constexpr int kMaxChains = 2000000;
  struct Room {
    Pos top, size, entry;
  };
  static Config Defaults() {
    return Config{{"min_num_rooms", int64_t{6}},
                  {"max_num_rooms", int64_t{6}},
                  {"max_room_size", int64_t{10}}};
  }
  explicit MultiRoomTask(const Config& config) {
    min_rooms = static_cast<int>(config.Int("min_num_rooms"));
    max_rooms = static_cast<int>(config.Int("max_num_rooms"));
    max_size = static_cast<int>(config.Int("max_room_size"));
    if (min_rooms < 1 || max_rooms < min_rooms || max_size < 4 || max_size > 24) {
      throw ValueError("MiniGridMultiRoom needs 1 <= min_num_rooms <= max_num_rooms and " +
                       std::string("max_room_size in [4, 24], got ") + OptionsText());
    }
    if (max_rooms > kMaxRooms[max_size - 4]) {
      throw ValueError("MiniGridMultiRoom: max_num_rooms=" + std::to_string(max_rooms) +
                       " rooms of sides 4.." + std::to_string(max_size) +
                       " do not fit the 25 x 25 grid in practice; with max_room_size=" +
                       std::to_string(max_size) + " at most " +
                       std::to_string(kMaxRooms[max_size - 4]) +
                       " (smaller rooms fit more: 29 with max_room_size=4)");
    }
    width = height = 25;
    best.reserve(max_rooms);
    current.reserve(max_rooms);
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = {"traverse the rooms to get to the goal"};
    return kMissions;
  }

  // _placeRoom: a room entered through `wall` at `door`, then (up to 8
  // tries) the rooms after it; false if this room does not fit.
  bool PlaceRoom(Rng& rng, int left, int wall, Pos door) {
    const int sx = World::RandInt(rng, 4, max_size + 1);
    const int sy = World::RandInt(rng, 4, max_size + 1);
    Pos top = door;
    if (current.empty()) {
      top = door;
    } else if (wall == 0) {
      top = Pos{door.x - sx + 1, World::RandInt(rng, door.y - sy + 2, door.y)};
    } else if (wall == 1) {
      top = Pos{World::RandInt(rng, door.x - sx + 2, door.x), door.y - sy + 1};
    } else if (wall == 2) {
      top = Pos{door.x, World::RandInt(rng, door.y - sy + 2, door.y)};
    } else {
      top = Pos{World::RandInt(rng, door.x - sx + 2, door.x), door.y};
    }
    if (top.x < 0 || top.y < 0 || top.x + sx > width || top.y + sy >= height) return false;
    for (size_t r = 0; r + 1 < current.size(); ++r) {  // all but the room we come from
      const Room& o = current[r];
      const bool apart = top.x + sx < o.top.x || o.top.x + o.size.x <= top.x ||
                         top.y + sy < o.top.y || o.top.y + o.size.y <= top.y;
      if (!apart) return false;
    }
    current.push_back(Room{top, {sx, sy}, door});
    if (left == 1) return true;
    for (int attempt = 0; attempt < 8; ++attempt) {
      int exit_wall = World::RandInt(rng, 0, 3);  // of the three other walls, in order
      if (exit_wall >= wall) ++exit_wall;
      Pos exit;
      if (exit_wall == 0) exit = Pos{top.x + sx - 1, top.y + World::RandInt(rng, 1, sy - 1)};
      if (exit_wall == 1) exit = Pos{top.x + World::RandInt(rng, 1, sx - 1), top.y + sy - 1};
      if (exit_wall == 2) exit = Pos{top.x, top.y + World::RandInt(rng, 1, sy - 1)};
      if (exit_wall == 3) exit = Pos{top.x + World::RandInt(rng, 1, sx - 1), top.y};
      if (PlaceRoom(rng, left - 1, (exit_wall + 2) % 4, exit)) break;
    }
    return true;
  }

  int Generate(World& w, Rng& rng) {
    const int num_rooms = World::RandInt(rng, min_rooms, max_rooms + 1);
    best.clear();
    // minigrid draws chains until one is long enough, forever if none can be.
    for (int chain = 0; static_cast<int>(best.size()) < num_rooms; ++chain) {
      if (chain == kMaxChains) {
        throw ValueError("MiniGridMultiRoom: no chain of " + std::to_string(num_rooms) +
                         " rooms in " + std::to_string(kMaxChains) + " attempts (longest " +
                         std::to_string(best.size()) + ") with " + OptionsText() +
                         "; fewer rooms or a smaller max_room_size fit more easily");
      }
      current.clear();
      const Pos entry{World::RandInt(rng, 0, width - 2), World::RandInt(rng, 0, width - 2)};
      PlaceRoom(rng, num_rooms, 2, entry);
      if (current.size() > best.size()) best.swap(current);
    }
    int prev_color = -1;
    for (size_t r = 0; r < best.size(); ++r) {
      const Room& room = best[r];
      w.grid.WallRect(room.top.x, room.top.y, room.size.x, room.size.y);
      if (r > 0) {
        // Uniform over the colours other than the previous door's, in name order.
        int pick = World::RandInt(rng, 0, prev_color < 0 ? kNumColors : kNumColors - 1);
        int color = 0;
        for (uint8_t by_name : kColorsByName) {
          if (by_name != prev_color && pick-- == 0) {
            color = by_name;
            break;
          }
        }
        w.grid.Set(room.entry.x, room.entry.y, MakeDoor(color, false));
        prev_color = color;
      }
    }
    w.PlaceAgent(rng, best.front().top, best.front().size);
    w.PlaceObj(rng, MakeGoal(), best.back().top, best.back().size);
    return 0;
  }
  std::string OptionsText() const {
    return "min_num_rooms=" + std::to_string(min_rooms) +
           ", max_num_rooms=" + std::to_string(max_rooms) +
           ", max_room_size=" + std::to_string(max_size);
  }
  int min_rooms = 6, max_rooms = 6, max_size = 10;
  std::vector<Room> best, current;
};

using MiniGridMultiRoom = MiniGridEnv<MultiRoomTask>;

}  // namespace envpool_x::minigrid
