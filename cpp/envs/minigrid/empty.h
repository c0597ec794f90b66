// MiniGrid-Empty-{5x5,6x6,8x8,16x16}-v0 and -Empty-Random-{5x5,6x6}-v0
// (minigrid 3.2.0's envs/empty.py): a walled room, the goal in the corner
// opposite the agent's start. agent_start_pos (-1, -1) places the agent at
// random with a random direction (EnvPool's convention for the Random ids).
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_x::minigrid {

// agent_start_pos (x, y) and agent_start_dir, or (-1, -1): random; checked
// against a width x height room.
struct StartPose {
  bool random = false;
  Pos pos;
  int dir = 0;
  static StartPose Read(const Config& config, const char* env, int width, int height) {
    const std::vector<double>& p = config.Doubles("agent_start_pos");
    StartPose s;
    if (p.size() != 2) {
      throw ValueError(std::string(env) + " agent_start_pos must be (x, y), got " +
                       std::to_string(p.size()) + " values");
    }
    s.random = p[0] < 0 && p[1] < 0;
    s.pos = Pos{static_cast<int>(p[0]), static_cast<int>(p[1])};
    s.dir = static_cast<int>(config.Int("agent_start_dir"));
    if (!s.random && (s.pos.x < 1 || s.pos.y < 1 || s.pos.x > width - 2 || s.pos.y > height - 2 ||
                      s.dir < 0 || s.dir > 3)) {
      throw ValueError(std::string(env) +
                       " agent_start_pos must lie inside the walls and agent_start_dir in "
                       "0..3 (or agent_start_pos (-1, -1) for a random start)");
    }
    return s;
  }
  void Apply(World& w, Rng& rng) const {
    if (random) {
      w.PlaceAgent(rng);
    } else {
      w.agent = pos;
      w.dir = dir;
    }
  }
};

struct EmptyTask : TaskBase {
  static constexpr const char* kName = "MiniGridEmpty";
  static Config Defaults() {
    return Config{{"size", int64_t{8}},
                  {"agent_start_pos", std::vector<double>{1, 1}},
                  {"agent_start_dir", int64_t{0}}};
  }
  explicit EmptyTask(const Config& config) {
    const int64_t size = config.Int("size");
    if (size < 4 || size > 128) {
      throw ValueError("MiniGridEmpty size must be in [4, 128], got " + std::to_string(size));
    }
    width = height = static_cast<int>(size);
    see_through_walls = true;
    start = StartPose::Read(config, kName, width, height);
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = {"get to the green goal square"};
    return kMissions;
  }
  int Generate(World& w, Rng& rng) const {
    w.grid.WallRect(0, 0, width, height);
    w.grid.Set(width - 2, height - 2, MakeGoal());
    start.Apply(w, rng);
    return 0;
  }
  StartPose start;
};

using MiniGridEmpty = MiniGridEnv<EmptyTask>;

}  // namespace envpool_x::minigrid
