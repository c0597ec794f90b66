// MiniGrid-DistShift{1,2}-v0 (minigrid 3.2.0's envs/distshift.py): two strips
// of lava (rows 1 and strip2_row) between the agent at (1, 1) and the goal in
// the top right corner. Deterministic.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/empty.h"

namespace envpool_x::minigrid {

struct DistShiftTask : TaskBase {
  static constexpr const char* kName = "MiniGridDistShift";
  static Config Defaults() {
    return Config{{"width", int64_t{9}},
                  {"height", int64_t{7}},
                  {"agent_start_pos", std::vector<double>{1, 1}},
                  {"agent_start_dir", int64_t{0}},
                  {"strip2_row", int64_t{2}}};
  }
  explicit DistShiftTask(const Config& config) {
    const int64_t w = config.Int("width"), h = config.Int("height");
    strip2_row = static_cast<int>(config.Int("strip2_row"));
    if (w < 7 || h < 4 || w > 128 || h > 128 || strip2_row < 1 || strip2_row > h - 2) {
      throw ValueError(
          "MiniGridDistShift needs width in [7, 128], height in [4, 128] and strip2_row "
          "inside the walls, got width " +
          std::to_string(w) + ", height " + std::to_string(h) + ", strip2_row " +
          std::to_string(strip2_row));
    }
    width = static_cast<int>(w);
    height = static_cast<int>(h);
    see_through_walls = true;
    start = StartPose::Read(config, kName, width, height);
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = {"get to the green goal square"};
    return kMissions;
  }
  int Generate(World& w, Rng& rng) const {
    w.grid.WallRect(0, 0, width, height);
    w.grid.Set(width - 2, 1, MakeGoal());
    for (int i = 0; i < width - 6; ++i) {
      w.grid.Set(3 + i, 1, MakeLava());
      w.grid.Set(3 + i, strip2_row, MakeLava());
    }
    start.Apply(w, rng);
    return 0;
  }
  int strip2_row = 2;
  StartPose start;
};

using MiniGridDistShift = MiniGridEnv<DistShiftTask>;

}  // namespace envpool_x::minigrid
