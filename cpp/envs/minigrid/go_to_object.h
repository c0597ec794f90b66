// MiniGrid-GoToObject-{6x6,8x8}-N2-v0 (minigrid 3.2.0's envs/gotoobject.py):
// num_objs distinct keys, balls and boxes; "done" next to the named one earns
// the reward, "done" or "toggle" ends the episode. Mission (colour c, type t
// in key, ball, box): index c * 3 + t.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/fetch.h"

namespace envpool_x::minigrid {

constexpr uint8_t kKeyBallBox[3] = {kKey, kBall, kBox};

// Draws num_objs distinct (type, colour) pairs as minigrid does (rejecting
// repeats) and places them with `reject`; returns their positions.
template <typename Reject>
inline void PlaceDistinctObjects(World& w, Rng& rng, int n, int* types, int* colors, Pos* pos,
                                 Reject reject) {
  for (int k = 0; k < n;) {
    const int t = World::RandInt(rng, 0, 3);
    const int c = World::RandColor(rng);
    bool used = false;
    for (int i = 0; i < k; ++i) used = used || (types[i] == t && colors[i] == c);
    if (used) continue;
    types[k] = t;
    colors[k] = c;
    pos[k] = w.PlaceObj(rng, MakeObj(kKeyBallBox[t], c), {0, 0}, {1 << 20, 1 << 20},
                        [&](Pos p) { return reject(p, pos, k); });
    ++k;
  }
}

inline const std::vector<std::string>& ColorTypeNames() {  // "red key", "red ball", ...
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> m;
    for (int c = 0; c < kNumColors; ++c) {
      for (uint8_t t : kKeyBallBox) m.push_back(std::string(ColorName(c)) + " " + ObjName(t));
    }
    return m;
  }();
  return kNames;
}

struct GoToObjectTask : TaskBase {
  static constexpr const char* kName = "MiniGridGoToObject";
  static constexpr int kNumExtra = 2;  // the target's x, y
  static Config Defaults() { return Config{{"size", int64_t{6}}, {"num_objs", int64_t{2}}}; }
  explicit GoToObjectTask(const Config& config) {
    width = height = RoomSizeFromConfig(config, kName, 4);
    num_objs = NumObjsFromConfig(config, kName, std::min(18, (width - 2) * (height - 2) - 1));
    see_through_walls = true;
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = [] {
      std::vector<std::string> m;
      for (const std::string& name : ColorTypeNames()) m.push_back("go to the " + name);
      return m;
    }();
    return kMissions;
  }
  int Generate(World& w, Rng& rng) {
    w.grid.WallRect(0, 0, width, height);
    int types[18], colors[18];
    Pos pos[18];
    PlaceDistinctObjects(w, rng, num_objs, types, colors, pos,
                         [](Pos, const Pos*, int) { return false; });
    w.PlaceAgent(rng);
    const int t = World::RandInt(rng, 0, num_objs);
    target = pos[t];
    return colors[t] * 3 + types[t];
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
  int num_objs = 2;
  Pos target;
};

using MiniGridGoToObject = MiniGridEnv<GoToObjectTask>;

}  // namespace envpool_x::minigrid
