// MiniGrid-FourRooms-v0 (minigrid 3.2.0's envs/fourrooms.py): a 19 x 19 grid
// of four rooms joined by one gap in each inner wall; agent and goal at
// random cells.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_x::minigrid {

struct FourRoomsTask : TaskBase {
  static constexpr const char* kName = "MiniGridFourRooms";
  static Config Defaults() { return Config{}; }
  explicit FourRoomsTask(const Config&) { width = height = 19; }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = {"reach the goal"};
    return kMissions;
  }
  int Generate(World& w, Rng& rng) const {
    Grid& g = w.grid;
    g.HorzWall(0, 0);
    g.HorzWall(0, height - 1);
    g.VertWall(0, 0);
    g.VertWall(width - 1, 0);
    const int room_w = width / 2, room_h = height / 2;
    for (int j = 0; j < 2; ++j) {
      for (int i = 0; i < 2; ++i) {
        const int left = i * room_w, top = j * room_h;
        const int right = left + room_w, bottom = top + room_h;
        if (i + 1 < 2) {  // the wall to the right, with a gap
          g.VertWall(right, top, room_h);
          g.Remove(right, World::RandInt(rng, top + 1, bottom));
        }
        if (j + 1 < 2) {  // the wall below, with a gap
          g.HorzWall(left, bottom, room_w);
          g.Remove(World::RandInt(rng, left + 1, right), bottom);
        }
      }
    }
    w.PlaceAgent(rng);
    w.PlaceObj(rng, MakeGoal());
    return 0;
  }
};

using MiniGridFourRooms = MiniGridEnv<FourRoomsTask>;

}  // namespace envpool_x::minigrid
