// MiniGrid-Unlock-v0 (minigrid 3.2.0's envs/unlock.py): two 6 x 6 rooms, a
// locked door between them and its key beside the agent; opening the door
// earns the reward.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/room_grid.h"

namespace envpool_x::minigrid {

struct UnlockTask : TaskBase {
  static constexpr const char* kName = "MiniGridUnlock";
  static constexpr int kNumExtra = 2;  // the door's x, y
  static Config Defaults() { return Config{}; }
  explicit UnlockTask(const Config&) : rooms(6, 1, 2) {
    width = rooms.width();
    height = rooms.height();
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = {"open the door"};
    return kMissions;
  }
  int Generate(World& w, Rng& rng) {
    rooms.Generate(w, rng);
    door = rooms.AddDoor(w, rng, 0, 0, 0, -1, 1);
    rooms.AddObject(w, rng, 0, 0, kKey, w.grid.Get(door.x, door.y).color);
    rooms.PlaceAgent(w, rng, 0, 0);
    return 0;
  }
  StepEvent Step(World& w, int action, Rng&) {
    StepEvent ev = w.Step(action);
    const Cell& d = w.grid.Get(door.x, door.y);
    if (action == kToggle && d.type == kDoor && d.state == kOpen) {
      ev.reward = w.SuccessReward();
      ev.terminated = true;
    }
    return ev;
  }
  void GetExtra(double* e) const {
    e[0] = door.x;
    e[1] = door.y;
  }
  void SetExtra(const double* e) { door = ExtraPos(e); }
  RoomGrid rooms;
  Pos door;
};

using MiniGridUnlock = MiniGridEnv<UnlockTask>;

}  // namespace envpool_x::minigrid
