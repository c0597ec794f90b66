// MiniGrid-ObstructedMaze-{1Dl,1Dlh,1Dlhb,2Dl,2Dlh,2Dlhb,1Q,2Q,Full}-v0 and
// -{2Dlhb,1Q,2Q,Full}-v1 (minigrid 3.2.0's envs/obstructedmaze.py and
// obstructedmaze_v1.py): rooms of 6 x 6 behind locked doors whose keys may
// hide in (grey) boxes and whose doors may be blocked by (green) balls;
// picking up the blue ball earns the reward (minigrid takes the first three
// of its sorted colour names). layout "1Dlhb": two rooms; "Full": 3 x 3
// rooms with num_quarters quarters (each key placed right after its door, so
// a later blocking ball may cover it, as in v0); "FullV1": the same with the
// keys placed after both doors of a room.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/unlock_pickup.h"

namespace envpool_x::minigrid {

struct ObstructedMazeTask : TaskBase {
  static constexpr const char* kName = "MiniGridObstructedMaze";
  static Config Defaults() {
    return Config{{"layout", std::string("Full")},
                  {"agent_room", std::vector<double>{1, 1}},
                  {"key_in_box", true},
                  {"blocked", true},
                  {"num_quarters", int64_t{4}}};
  }
  explicit ObstructedMazeTask(const Config& config) {
    const std::string& kind = config.String("layout");
    if (kind != "1Dlhb" && kind != "Full" && kind != "FullV1") {
      throw ValueError("MiniGridObstructedMaze layout must be '1Dlhb', 'Full' or 'FullV1', got '" +
                       kind + "'");
    }
    two_rooms = kind == "1Dlhb";
    v1 = kind == "FullV1";
    rooms = two_rooms ? RoomGrid(6, 1, 2) : RoomGrid(6, 3, 3);
    width = rooms.width();
    height = rooms.height();
    key_in_box = config.Bool("key_in_box");
    blocked = config.Bool("blocked");
    quarters = static_cast<int>(config.Int("num_quarters"));
    const std::vector<double>& room = config.Doubles("agent_room");
    if (room.size() != 2 || room[0] < 0 || room[0] > 2 || room[1] < 0 || room[1] > 2 ||
        quarters < 1 || quarters > 4) {
      throw ValueError(
          "MiniGridObstructedMaze agent_room must be (i, j) in 0..2 and num_quarters in 1..4");
    }
    agent_room = Pos{static_cast<int>(room[0]), static_cast<int>(room[1])};
    target.type = kBall;
    target.color = kBlue;  // COLOR_NAMES[0]
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = {"pick up the blue ball"};
    return kMissions;
  }

  // A locked door of room (i, j) on `side`, a green ball in front of it when
  // blocked; its key (in a grey box with key_in_box) placed now if `key_now`.
  void LockedDoor(World& w, Rng& rng, int i, int j, int side, int color, bool key_now) {
    const Pos door = rooms.AddDoor(w, rng, i, j, side, color, 1);
    if (blocked) w.grid.Set(door.x - kDirX[side], door.y - kDirY[side], MakeObj(kBall, kGreen));
    if (key_now) Key(w, rng, i, j, color);
  }
  void Key(World& w, Rng& rng, int i, int j, int color) {
    Cell key = MakeObj(kKey, static_cast<uint8_t>(color));
    if (key_in_box) key = Cell{kBox, kGrey, 0, kKey, static_cast<uint8_t>(color)};
    rooms.PlaceInRoom(w, rng, i, j, key);
  }

  int Generate(World& w, Rng& rng) {
    rooms.Generate(w, rng);
    // _rand_subset(COLOR_NAMES, 6): a permutation, one draw per colour, of
    // the colours in name order.
    int left[kNumColors];
    for (int k = 0; k < kNumColors; ++k) left[k] = kColorsByName[k];
    int colors[kNumColors];
    for (int k = 0; k < kNumColors; ++k) {
      const int pick = World::RandInt(rng, 0, kNumColors - k);
      colors[k] = left[pick];
      for (int m = pick; m + 1 < kNumColors - k; ++m) left[m] = left[m + 1];
    }
    if (two_rooms) {
      LockedDoor(w, rng, 0, 0, 0, colors[0], true);
      rooms.AddObject(w, rng, 1, 0, kBall, kBlue);
      rooms.PlaceAgent(w, rng, 0, 0);
      return 0;
    }
    const Pos sides[4] = {{2, 1}, {1, 2}, {0, 1}, {1, 0}};
    for (int i = 0; i < quarters; ++i) {
      rooms.AddDoor(w, rng, 1, 1, i, colors[i], 0);
      // Python's (i + k) % n: side (i - 1) % 4 = 3 takes colour (i - 1) % 6 = 5.
      for (int k : {-1, 1}) {
        const int side = (i + k + 4) % 4, color = colors[(i + k + 6) % 6];
        LockedDoor(w, rng, sides[i].x, sides[i].y, side, color, !v1);
      }
      if (v1) {
        for (int k : {-1, 1}) Key(w, rng, sides[i].x, sides[i].y, colors[(i + k + 6) % 6]);
      }
    }
    const Pos corners[4] = {{2, 0}, {2, 2}, {0, 2}, {0, 0}};
    const Pos ball = corners[World::RandInt(rng, 0, quarters)];
    rooms.AddObject(w, rng, ball.x, ball.y, kBall, kBlue);
    rooms.PlaceAgent(w, rng, agent_room.x, agent_room.y);
    return 0;
  }
  StepEvent Step(World& w, int action, Rng&) { return target.Step(w, action); }

  RoomGrid rooms;
  bool two_rooms = false, v1 = false, key_in_box = true, blocked = true;
  int quarters = 4;
  Pos agent_room{1, 1};
  PickupTarget target;
};

using MiniGridObstructedMaze = MiniGridEnv<ObstructedMazeTask>;

}  // namespace envpool_x::minigrid
