// MiniGrid-UnlockPickup-v0 and -BlockedUnlockPickup-v0 (minigrid 3.2.0's
// envs/unlockpickup.py, blockedunlockpickup.py): a box in the second of two
// 6 x 6 rooms behind a locked door, its key in the agent's room (and, when
// blocked, a ball in front of the door); picking up the box earns the
// reward. Mission i: "pick up the <colour i> box".
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/room_grid.h"

namespace envpool_x::minigrid {

// Picking up the target object (type and colour) earns the reward (also KeyCorridor).
struct PickupTarget {
  int type = kBox, color = 0;
  StepEvent Step(World& w, int action) const {
    StepEvent ev = w.Step(action);
    if (action == kPickup && w.carrying.type == type && w.carrying.color == color) {
      ev.reward = w.SuccessReward();
      ev.terminated = true;
    }
    return ev;
  }
};

struct UnlockPickupTask : TaskBase {
  static constexpr const char* kName = "MiniGridUnlockPickup";
  static constexpr int kNumExtra = 1;  // the box's colour
  static Config Defaults() { return Config{{"blocked", false}}; }
  explicit UnlockPickupTask(const Config& config) : rooms(6, 1, 2) {
    width = rooms.width();
    height = rooms.height();
    blocked = config.Bool("blocked");
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = [] {
      std::vector<std::string> m;
      for (int c = 0; c < kNumColors; ++c)
        m.push_back(std::string("pick up the ") + ColorName(c) + " box");
      return m;
    }();
    return kMissions;
  }
  int Generate(World& w, Rng& rng) {
    rooms.Generate(w, rng);
    const Pos box = rooms.AddObject(w, rng, 1, 0, kBox, -1);
    target.color = w.grid.Get(box.x, box.y).color;
    const Pos door = rooms.AddDoor(w, rng, 0, 0, 0, -1, 1);
    if (blocked) w.grid.Set(door.x - 1, door.y, MakeObj(kBall, World::RandColor(rng)));
    rooms.AddObject(w, rng, 0, 0, kKey, w.grid.Get(door.x, door.y).color);
    rooms.PlaceAgent(w, rng, 0, 0);
    return target.color;
  }
  StepEvent Step(World& w, int action, Rng&) { return target.Step(w, action); }
  void GetExtra(double* e) const { e[0] = target.color; }
  void SetExtra(const double* e) { target.color = CellFromCodes(kBox, e[0], 0, kEmpty, 0).color; }
  RoomGrid rooms;
  bool blocked = false;
  PickupTarget target;
};

using MiniGridUnlockPickup = MiniGridEnv<UnlockPickupTask>;

}  // namespace envpool_x::minigrid
