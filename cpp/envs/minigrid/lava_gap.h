// MiniGrid-LavaGapS{5,6,7}-v0 (minigrid 3.2.0's envs/lavagap.py): a column of
// lava (or wall) with one gap between the agent at (1, 1) and the goal.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_x::minigrid {

// obstacle_type "lava" or "wall" (LavaGap and Crossing).
inline Cell ObstacleFromConfig(const Config& config, const char* env) {
  const std::string& kind = config.String("obstacle_type");
  if (kind == "lava") return MakeLava();
  if (kind == "wall") return MakeWall();
  throw ValueError(std::string(env) + " obstacle_type must be 'lava' or 'wall', got '" + kind +
                   "'");
}

struct LavaGapTask : TaskBase {
  static constexpr const char* kName = "MiniGridLavaGap";
  static Config Defaults() {
    return Config{{"size", int64_t{7}}, {"obstacle_type", std::string("lava")}};
  }
  explicit LavaGapTask(const Config& config) : obstacle(ObstacleFromConfig(config, kName)) {
    const int64_t size = config.Int("size");
    if (size < 5 || size > 128) {
      throw ValueError("MiniGridLavaGap size must be in [5, 128], got " + std::to_string(size));
    }
    width = height = static_cast<int>(size);
  }
  // 0: lava, 1: wall.
  static const std::vector<std::string>& MissionList() {
    static const std::vector<std::string> kMissions = {
        "avoid the lava and get to the green goal square",
        "find the opening and get to the green goal square"};
    return kMissions;
  }
  const std::vector<std::string>& Missions() const { return MissionList(); }
  int Generate(World& w, Rng& rng) const {
    w.grid.WallRect(0, 0, width, height);
    w.agent = Pos{1, 1};
    w.dir = 0;
    w.grid.Set(width - 2, height - 2, MakeGoal());
    const Pos gap{World::RandInt(rng, 2, width - 2), World::RandInt(rng, 1, height - 1)};
    w.grid.VertWall(gap.x, 1, height - 2, obstacle);
    w.grid.Remove(gap.x, gap.y);
    return obstacle.type == kLava ? 0 : 1;
  }
  Cell obstacle;
};

using MiniGridLavaGap = MiniGridEnv<LavaGapTask>;

}  // namespace envpool_x::minigrid
