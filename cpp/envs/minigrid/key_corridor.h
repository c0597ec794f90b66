// MiniGrid-KeyCorridorS{3R1,3R2,3R3,4R3,5R3,6R3}-v0 (minigrid 3.2.0's
// envs/keycorridor.py): 3 x num_rows rooms around a middle corridor; the
// ball behind a locked door on the right, its key in a room on the left;
// picking up the ball earns the reward. Mission i: "pick up the <colour i>
// ball".
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/unlock_pickup.h"

namespace envpool_x::minigrid {

struct KeyCorridorTask : TaskBase {
  static constexpr const char* kName = "MiniGridKeyCorridor";
  static constexpr int kNumExtra = 1;  // the ball's colour
  static Config Defaults() { return Config{{"room_size", int64_t{6}}, {"num_rows", int64_t{3}}}; }
  explicit KeyCorridorTask(const Config& config) {
    const int64_t size = config.Int("room_size"), n = config.Int("num_rows");
    if (size < 3 || size > 32 || n < 1 || n > 16) {
      throw ValueError(
          "MiniGridKeyCorridor room_size must be in [3, 32] and num_rows in "
          "[1, 16], got " +
          std::to_string(size) + " and " + std::to_string(n));
    }
    rooms = RoomGrid(static_cast<int>(size), static_cast<int>(n), 3);
    width = rooms.width();
    height = rooms.height();
    target.type = kBall;
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = [] {
      std::vector<std::string> m;
      for (int c = 0; c < kNumColors; ++c)
        m.push_back(std::string("pick up the ") + ColorName(c) + " ball");
      return m;
    }();
    return kMissions;
  }
  int Generate(World& w, Rng& rng) {
    rooms.Generate(w, rng);
    for (int j = 1; j < rooms.rows(); ++j) rooms.RemoveWall(w, 1, j, 3);
    const int room = World::RandInt(rng, 0, rooms.rows());
    const Pos door = rooms.AddDoor(w, rng, 2, room, 2, -1, 1);
    const Pos ball = rooms.AddObject(w, rng, 2, room, kBall, -1);
    target.color = w.grid.Get(ball.x, ball.y).color;
    rooms.AddObject(w, rng, 0, World::RandInt(rng, 0, rooms.rows()), kKey,
                    w.grid.Get(door.x, door.y).color);
    rooms.PlaceAgent(w, rng, 1, rooms.rows() / 2);
    rooms.ConnectAll(w, rng);
    return target.color;
  }
  StepEvent Step(World& w, int action, Rng&) { return target.Step(w, action); }
  void GetExtra(double* e) const { e[0] = target.color; }
  void SetExtra(const double* e) { target.color = CellFromCodes(kBall, e[0], 0, kEmpty, 0).color; }
  RoomGrid rooms;
  PickupTarget target;
};

using MiniGridKeyCorridor = MiniGridEnv<KeyCorridorTask>;

}  // namespace envpool_x::minigrid
