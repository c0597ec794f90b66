// MiniGrid-Playground-v0 (minigrid 3.2.0's envs/playground.py): a 19 x 19
// grid of 3 x 3 rooms joined by closed doors of random colours, twelve random
// keys, balls and boxes, and no goal (the mission is empty).
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/go_to_object.h"

namespace envpool_x::minigrid {

struct PlaygroundTask : TaskBase {
  static constexpr const char* kName = "MiniGridPlayground";
  static Config Defaults() { return Config{}; }
  explicit PlaygroundTask(const Config&) { width = height = 19; }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = {""};
    return kMissions;
  }
  int Generate(World& w, Rng& rng) const {
    Grid& g = w.grid;
    g.WallRect(0, 0, width, height);
    const int room_w = width / 3, room_h = height / 3;
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 3; ++i) {
        const int left = i * room_w, top = j * room_h;
        const int right = left + room_w, bottom = top + room_h;
        if (i + 1 < 3) {
          g.VertWall(right, top, room_h);
          const int y = World::RandInt(rng, top + 1, bottom - 1);
          g.Set(right, y, MakeDoor(World::RandColor(rng), false));
        }
        if (j + 1 < 3) {
          g.HorzWall(left, bottom, room_w);
          const int x = World::RandInt(rng, left + 1, right - 1);
          g.Set(x, bottom, MakeDoor(World::RandColor(rng), false));
        }
      }
    }
    w.PlaceAgent(rng);
    for (int k = 0; k < 12; ++k) {
      const int t = World::RandInt(rng, 0, 3);
      const int c = World::RandColor(rng);
      w.PlaceObj(rng, MakeObj(kKeyBallBox[t], c));
    }
    return 0;
  }
};

using MiniGridPlayground = MiniGridEnv<PlaygroundTask>;

}  // namespace envpool_x::minigrid
