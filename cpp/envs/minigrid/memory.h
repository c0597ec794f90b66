// MiniGrid-MemoryS{7,9,11,13}-v0 and -MemoryS{13,17}Random-v0 (minigrid
// 3.2.0's envs/memory.py): a green key or ball in the start room, a hallway,
// and at its end a key and a ball; stepping next to the matching one earns
// the reward, next to the other ends the episode. Pickup acts as toggle.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace envpool_x::minigrid {

struct MemoryTask : TaskBase {
  static constexpr const char* kName = "MiniGridMemory";
  static constexpr int kNumExtra = 4;  // success cell x, y, failure cell x, y
  static Config Defaults() { return Config{{"size", int64_t{8}}, {"random_length", false}}; }
  explicit MemoryTask(const Config& config) {
    const int64_t size = config.Int("size");
    if (size < 7 || size > 127 || size % 2 == 0) {
      throw ValueError("MiniGridMemory size must be odd and in [7, 127], got " +
                       std::to_string(size));
    }
    width = height = static_cast<int>(size);
    random_length = config.Bool("random_length");
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = {
        "go to the matching object at the end of the hallway"};
    return kMissions;
  }
  int Generate(World& w, Rng& rng) {
    Grid& g = w.grid;
    g.WallRect(0, 0, width, height);
    const int mid = height / 2, upper = mid - 2, lower = mid + 2;
    const int end = random_length ? World::RandInt(rng, 4, width - 2) : width - 3;
    for (int i = 1; i < 5; ++i) {
      g.Set(i, upper, MakeWall());
      g.Set(i, lower, MakeWall());
    }
    g.Set(4, upper + 1, MakeWall());
    g.Set(4, lower - 1, MakeWall());
    for (int i = 5; i < end; ++i) {
      g.Set(i, upper + 1, MakeWall());
      g.Set(i, lower - 1, MakeWall());
    }
    for (int j = 0; j < height; ++j) {
      if (j != mid) g.Set(end, j, MakeWall());
      g.Set(end + 2, j, MakeWall());
    }
    w.agent = Pos{World::RandInt(rng, 1, end + 1), mid};
    w.dir = 0;
    const uint8_t start_obj = World::RandInt(rng, 0, 2) == 0 ? kKey : kBall;  // of [Key, Ball]
    g.Set(1, mid - 1, MakeObj(start_obj, kGreen));
    const bool key_first = World::RandInt(rng, 0, 2) == 1;  // [[Ball, Key], [Key, Ball]]
    const Pos pos0{end + 1, mid - 2}, pos1{end + 1, mid + 2};
    const uint8_t obj0 = key_first ? kKey : kBall;
    g.Set(pos0.x, pos0.y, MakeObj(obj0, kGreen));
    g.Set(pos1.x, pos1.y, MakeObj(key_first ? kBall : kKey, kGreen));
    const Pos below0{pos0.x, pos0.y + 1}, above1{pos1.x, pos1.y - 1};
    success = start_obj == obj0 ? below0 : above1;
    failure = start_obj == obj0 ? above1 : below0;
    return 0;
  }
  StepEvent Step(World& w, int action, Rng&) {
    StepEvent ev = w.Step(action == kPickup ? kToggle : action);
    if (w.agent == success) {
      ev.reward = w.SuccessReward();
      ev.terminated = true;
    }
    if (w.agent == failure) {
      ev.reward = 0.0f;
      ev.terminated = true;
    }
    return ev;
  }
  void GetExtra(double* e) const {
    e[0] = success.x;
    e[1] = success.y;
    e[2] = failure.x;
    e[3] = failure.y;
  }
  void SetExtra(const double* e) {
    success = ExtraPos(e);
    failure = ExtraPos(e + 2);
  }
  bool random_length = false;
  Pos success, failure;
};

using MiniGridMemory = MiniGridEnv<MemoryTask>;

}  // namespace envpool_x::minigrid
