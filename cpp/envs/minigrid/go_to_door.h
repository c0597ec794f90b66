// MiniGrid-GoToDoor-{5x5,6x6,8x8}-v0 (minigrid 3.2.0's envs/gotodoor.py): a
// room of random size (5 .. size) with a door of a distinct colour in each
// wall; "done" next to the named door earns the reward, "done" or "toggle"
// ends the episode. Mission i: "go to the <colour i> door".
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_x::minigrid {

// A room of size x size at most (GoToDoor, GoToObject, Fetch, PutNear).
inline int RoomSizeFromConfig(const Config& config, const char* env, int min_size) {
  const int64_t size = config.Int("size");
  if (size < min_size || size > 128) {
    throw ValueError(std::string(env) + " size must be in [" + std::to_string(min_size) +
                     ", 128], got " + std::to_string(size));
  }
  return static_cast<int>(size);
}

// "done" next to (not diagonal to) the target.
inline bool NextTo(Pos a, Pos t) {
  return (a.x == t.x && (a.y - t.y == 1 || t.y - a.y == 1)) ||
         (a.y == t.y && (a.x - t.x == 1 || t.x - a.x == 1));
}

struct GoToDoorTask : TaskBase {
  static constexpr const char* kName = "MiniGridGoToDoor";
  static constexpr int kNumExtra = 2;  // the target door's x, y
  static Config Defaults() { return Config{{"size", int64_t{5}}}; }
  explicit GoToDoorTask(const Config& config) {
    width = height = RoomSizeFromConfig(config, kName, 5);
    see_through_walls = true;
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = [] {
      std::vector<std::string> m;
      for (int c = 0; c < kNumColors; ++c)
        m.push_back(std::string("go to the ") + ColorName(c) + " door");
      return m;
    }();
    return kMissions;
  }
  int Generate(World& w, Rng& rng) {
    const int rw = World::RandInt(rng, 5, width + 1);
    const int rh = World::RandInt(rng, 5, height + 1);
    w.grid.WallRect(0, 0, rw, rh);
    const Pos doors[4] = {{World::RandInt(rng, 2, rw - 2), 0},
                          {World::RandInt(rng, 2, rw - 2), rh - 1},
                          {0, World::RandInt(rng, 2, rh - 2)},
                          {rw - 1, World::RandInt(rng, 2, rh - 2)}};
    int colors[4];
    for (int n = 0; n < 4;) {
      const int c = World::RandColor(rng);
      bool used = false;
      for (int k = 0; k < n; ++k) used = used || colors[k] == c;
      if (!used) colors[n++] = c;
    }
    for (int k = 0; k < 4; ++k) w.grid.Set(doors[k].x, doors[k].y, MakeDoor(colors[k], false));
    w.PlaceAgent(rng, {0, 0}, {rw, rh});
    const int target_index = World::RandInt(rng, 0, 4);
    target = doors[target_index];
    return colors[target_index];
  }
  StepEvent Step(World& w, int action, Rng&) {
    StepEvent ev = w.Step(action);
    if (action == kToggle) ev.terminated = true;
    if (action == kDone) {
      if (NextTo(w.agent, target)) ev.reward = w.SuccessReward();
      ev.terminated = true;
    }
    return ev;
  }
  void GetExtra(double* e) const {
    e[0] = target.x;
    e[1] = target.y;
  }
  void SetExtra(const double* e) { target = ExtraPos(e); }
  Pos target;
};

using MiniGridGoToDoor = MiniGridEnv<GoToDoorTask>;

}  // namespace envpool_x::minigrid
