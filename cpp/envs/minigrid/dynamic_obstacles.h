// MiniGrid-Dynamic-Obstacles-{5x5,6x6,8x8,16x16}-v0 and -Random-{5x5,6x6}
// (minigrid 3.2.0's envs/dynamicobstacles.py): an empty room with balls that
// each move to a random free cell next to them before every step; moving
// forward into anything but the goal ends the episode with reward -1. Three
// actions (left, right, forward).
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/empty.h"

namespace envpool_x::minigrid {

struct DynamicObstaclesTask : TaskBase {
  static constexpr const char* kName = "MiniGridDynamicObstacles";
  static constexpr int kNumActions = 3;
  static constexpr double kRewardLow = -1.0;
  static constexpr int kMaxTries = 100;  // minigrid's max_tries for the balls
  static Config Defaults() {
    return Config{{"size", int64_t{8}},
                  {"n_obstacles", int64_t{4}},
                  {"agent_start_pos", std::vector<double>{1, 1}},
                  {"agent_start_dir", int64_t{0}}};
  }
  explicit DynamicObstaclesTask(const Config& config) {
    const int64_t size = config.Int("size"), n = config.Int("n_obstacles");
    if (size < 4 || size > 128 || n < 0) {
      throw ValueError("MiniGridDynamicObstacles size must be in [4, 128] and n_obstacles >= 0");
    }
    width = height = static_cast<int>(size);
    see_through_walls = true;
    // minigrid keeps n_obstacles <= size / 2 + 1, else uses size / 2.
    num = 2 * n <= size + 2 ? static_cast<int>(n) : static_cast<int>(size / 2);
    if (num > (width - 2) * (height - 2) - 2) throw ValueError("too many obstacles for the room");
    start = StartPose::Read(config, kName, width, height);
    balls.resize(num);
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = {"get to the green goal square"};
    return kMissions;
  }
  int Generate(World& w, Rng& rng) {
    w.grid.WallRect(0, 0, width, height);
    w.grid.Set(width - 2, height - 2, MakeGoal());
    start.Apply(w, rng);
    for (Pos& b : balls) b = w.PlaceObj(rng, MakeObj(kBall, kBlue));
    return 0;
  }
  StepEvent Step(World& w, int action, Rng& rng) {
    const Cell front = w.CellAt(w.Front());
    const bool blocked = !front.IsNone() && front.type != kGoal;
    for (Pos& b : balls) {  // each ball to a free cell of the 3 x 3 block around it, if found
      const Pos top{std::max(b.x - 1, 0), std::max(b.y - 1, 0)};
      const int x_end = std::min(top.x + 3, width), y_end = std::min(top.y + 3, height);
      for (int tries = 0; tries <= kMaxTries; ++tries) {
        const Pos p{World::RandInt(rng, top.x, x_end), World::RandInt(rng, top.y, y_end)};
        if (!w.grid.Get(p.x, p.y).IsNone() || p == w.agent) continue;
        w.grid.Set(p.x, p.y, w.grid.Get(b.x, b.y));
        w.grid.Remove(b.x, b.y);
        b = p;
        break;
      }
    }
    StepEvent ev = w.Step(action);
    if (action == kForward && blocked) {
      ev.reward = -1.0f;
      ev.terminated = true;
    }
    return ev;
  }
  int NumExtra() const { return 2 * num; }
  void GetExtra(double* e) const {
    for (int k = 0; k < num; ++k) {
      e[2 * k] = balls[k].x;
      e[2 * k + 1] = balls[k].y;
    }
  }
  void SetExtra(const double* e) {
    for (int k = 0; k < num; ++k) balls[k] = ExtraPos(e + 2 * k);
  }
  int num = 4;
  StartPose start;
  std::vector<Pos> balls;
};

using MiniGridDynamicObstacles = MiniGridEnv<DynamicObstaclesTask>;

}  // namespace envpool_x::minigrid
