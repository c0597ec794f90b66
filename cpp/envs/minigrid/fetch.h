// MiniGrid-Fetch-{5x5-N2,6x6-N2,8x8-N3}-v0 (minigrid 3.2.0's envs/fetch.py):
// num_objs keys and balls of random colours; picking up anything ends the
// episode, with the reward for the named one. Mission (syntax s, colour c,
// type t in key, ball): index (s * 6 + c) * 2 + t.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "envs/minigrid/go_to_door.h"

namespace envpool_x::minigrid {

inline int NumObjsFromConfig(const Config& config, const char* env, int max_objs) {
  const int64_t n = config.Int("num_objs");
  if (n < 1 || n > max_objs) {
    throw ValueError(std::string(env) + " num_objs must be in [1, " + std::to_string(max_objs) +
                     "] for its size, got " + std::to_string(n));
  }
  return static_cast<int>(n);
}

struct FetchTask : TaskBase {
  static constexpr const char* kName = "MiniGridFetch";
  static constexpr int kNumExtra = 2;  // the target's type and colour codes
  static constexpr uint8_t kTypes[2] = {kKey, kBall};
  static Config Defaults() { return Config{{"size", int64_t{8}}, {"num_objs", int64_t{3}}}; }
  explicit FetchTask(const Config& config) {
    width = height = RoomSizeFromConfig(config, kName, 4);
    num_objs = NumObjsFromConfig(config, kName, (width - 2) * (height - 2) - 1);
    see_through_walls = true;
    type_index.resize(num_objs);
    colors.resize(num_objs);
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = [] {
      const char* syntax[5] = {"get a", "go get a", "fetch a", "go fetch a", "you must fetch a"};
      std::vector<std::string> m;
      for (const char* s : syntax) {
        for (int c = 0; c < kNumColors; ++c) {
          for (uint8_t t : kTypes)
            m.push_back(std::string(s) + " " + ColorName(c) + " " + ObjName(t));
        }
      }
      return m;
    }();
    return kMissions;
  }
  int Generate(World& w, Rng& rng) {
    w.grid.WallRect(0, 0, width, height);
    for (int k = 0; k < num_objs; ++k) {
      type_index[k] = World::RandInt(rng, 0, 2);
      colors[k] = World::RandColor(rng);
      w.PlaceObj(rng, MakeObj(kTypes[type_index[k]], colors[k]));
    }
    w.PlaceAgent(rng);
    const int t = World::RandInt(rng, 0, num_objs);
    target_type = kTypes[type_index[t]];
    target_color = colors[t];
    const int syntax = World::RandInt(rng, 0, 5);
    return (syntax * kNumColors + target_color) * 2 + type_index[t];
  }
  StepEvent Step(World& w, int action, Rng&) {
    StepEvent ev = w.Step(action);
    if (!w.carrying.IsNone()) {
      const bool right = w.carrying.type == target_type && w.carrying.color == target_color;
      ev.reward = right ? w.SuccessReward() : 0.0f;
      ev.terminated = true;
    }
    return ev;
  }
  void GetExtra(double* e) const {
    e[0] = target_type;
    e[1] = target_color;
  }
  void SetExtra(const double* e) {
    const Cell c = CellFromCodes(e[0], e[1], 0, kEmpty, 0);
    target_type = c.type;
    target_color = c.color;
  }
  int num_objs = 3;
  std::vector<int> type_index, colors;  // of the objects being placed
  int target_type = kKey, target_color = 0;
};

using MiniGridFetch = MiniGridEnv<FetchTask>;

}  // namespace envpool_x::minigrid
