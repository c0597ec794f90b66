// MiniGrid-RedBlueDoors-{6x6,8x8}-v0 (minigrid 3.2.0's envs/redbluedoors.py):
// a size x size room in a 2size x size grid, a red door in its left wall and
// a blue one in its right; opening the blue door ends the episode, with the
// reward if the red one was open before.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/go_to_door.h"

namespace envpool_x::minigrid {

struct RedBlueDoorsTask : TaskBase {
  static constexpr const char* kName = "MiniGridRedBlueDoors";
  static constexpr int kNumExtra = 4;  // red door x, y, blue door x, y
  static Config Defaults() { return Config{{"size", int64_t{8}}}; }
  explicit RedBlueDoorsTask(const Config& config) {
    size = RoomSizeFromConfig(config, kName, 3);
    width = 2 * size;
    height = size;
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = {"open the red door then the blue door"};
    return kMissions;
  }
  int Generate(World& w, Rng& rng) {
    w.grid.WallRect(0, 0, 2 * size, size);
    w.grid.WallRect(size / 2, 0, size, size);
    w.PlaceAgent(rng, {size / 2, 0}, {size, size});
    red = Pos{size / 2, World::RandInt(rng, 1, size - 1)};
    w.grid.Set(red.x, red.y, MakeDoor(kRed, false));
    blue = Pos{size / 2 + size - 1, World::RandInt(rng, 1, size - 1)};
    w.grid.Set(blue.x, blue.y, MakeDoor(kBlue, false));
    return 0;
  }
  StepEvent Step(World& w, int action, Rng&) {
    const bool red_before = IsOpen(w, red), blue_before = IsOpen(w, blue);
    StepEvent ev = w.Step(action);
    if (IsOpen(w, blue)) {
      ev.reward = red_before ? w.SuccessReward() : 0.0f;
      ev.terminated = true;
    } else if (IsOpen(w, red) && blue_before) {
      ev.reward = 0.0f;
      ev.terminated = true;
    }
    return ev;
  }
  static bool IsOpen(const World& w, Pos p) {
    const Cell& c = w.grid.Get(p.x, p.y);
    return c.type == kDoor && c.state == kOpen;
  }
  void GetExtra(double* e) const {
    e[0] = red.x;
    e[1] = red.y;
    e[2] = blue.x;
    e[3] = blue.y;
  }
  void SetExtra(const double* e) {
    red = ExtraPos(e);
    blue = ExtraPos(e + 2);
  }
  int size = 8;
  Pos red, blue;
};

using MiniGridRedBlueDoors = MiniGridEnv<RedBlueDoorsTask>;

}  // namespace envpool_x::minigrid
