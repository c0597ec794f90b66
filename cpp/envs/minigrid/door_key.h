// MiniGrid-DoorKey-{5x5,6x6,8x8,16x16}-v0 (minigrid 3.2.0's envs/doorkey.py):
// a wall splits the room; the agent and a yellow key are left of it, the goal
// right of it behind a locked yellow door.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_x::minigrid {

struct DoorKeyTask : TaskBase {
  static constexpr const char* kName = "MiniGridDoorKey";
  static Config Defaults() { return Config{{"size", int64_t{8}}}; }
  explicit DoorKeyTask(const Config& config) {
    const int64_t size = config.Int("size");
    if (size < 5 || size > 128) {
      throw ValueError("MiniGridDoorKey size must be in [5, 128], got " + std::to_string(size));
    }
    width = height = static_cast<int>(size);
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = {
        "use the key to open the door and then get to the goal"};
    return kMissions;
  }
  int Generate(World& w, Rng& rng) const {
    w.grid.WallRect(0, 0, width, height);
    w.grid.Set(width - 2, height - 2, MakeGoal());
    const int split = World::RandInt(rng, 2, width - 2);
    w.grid.VertWall(split, 0);
    w.PlaceAgent(rng, {0, 0}, {split, height});
    const int door = World::RandInt(rng, 1, height - 2);
    w.grid.Set(split, door, MakeDoor(kYellow, true));
    w.PlaceObj(rng, MakeObj(kKey, kYellow), {0, 0}, {split, height});
    return 0;
  }
};

using MiniGridDoorKey = MiniGridEnv<DoorKeyTask>;

}  // namespace envpool_x::minigrid
