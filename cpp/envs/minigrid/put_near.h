// MiniGrid-PutNear-{6x6-N2,8x8-N3}-v0 (minigrid 3.2.0's envs/putnear.py):
// num_objs distinct keys, balls and boxes, none next to another; dropping
// the named object next to the named target earns the reward, any drop (or
// picking up another object) ends the episode. Mission (moved colour/type
// index m, target index t, each colour * 3 + type): m * 18 + t.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include "envs/minigrid/go_to_object.h"

namespace envpool_x::minigrid {

struct PutNearTask : TaskBase {
  static constexpr const char* kName = "MiniGridPutNear";
  static constexpr int kNumExtra = 4;  // moved type and colour codes, target x, y
  static Config Defaults() { return Config{{"size", int64_t{6}}, {"num_objs", int64_t{2}}}; }
  explicit PutNearTask(const Config& config) {
    width = height = RoomSizeFromConfig(config, kName, 5);
    // Objects keep a cell around them free: at most one per 3 x 3 block.
    const int fits = ((width - 2 + 1) / 2) * ((height - 2 + 1) / 2);
    num_objs = NumObjsFromConfig(config, kName, std::min(18, std::max(2, fits)));
    if (num_objs < 2) throw ValueError("MiniGridPutNear num_objs must be at least 2");
    see_through_walls = true;
  }
  const std::vector<std::string>& Missions() const {
    static const std::vector<std::string> kMissions = [] {
      std::vector<std::string> m;
      for (const std::string& moved : ColorTypeNames()) {
        for (const std::string& target : ColorTypeNames()) {
          m.push_back("put the " + moved + " near the " + target);
        }
      }
      return m;
    }();
    return kMissions;
  }
  int Generate(World& w, Rng& rng) {
    w.grid.WallRect(0, 0, width, height);
    int types[18], colors[18];
    Pos pos[18];
    PlaceDistinctObjects(w, rng, num_objs, types, colors, pos, [](Pos p, const Pos* placed, int n) {
      for (int i = 0; i < n; ++i) {
        if (std::abs(p.x - placed[i].x) <= 1 && std::abs(p.y - placed[i].y) <= 1) return true;
      }
      return false;
    });
    w.PlaceAgent(rng);
    const int m = World::RandInt(rng, 0, num_objs);
    int t = m;
    while (t == m) t = World::RandInt(rng, 0, num_objs);
    move_type = kKeyBallBox[types[m]];
    move_color = colors[m];
    target = pos[t];
    return (colors[m] * 3 + types[m]) * 18 + colors[t] * 3 + types[t];
  }
  StepEvent Step(World& w, int action, Rng&) {
    const bool carried = !w.carrying.IsNone();
    StepEvent ev = w.Step(action);
    if (action == kPickup && !w.carrying.IsNone() &&
        (w.carrying.type != move_type || w.carrying.color != move_color)) {
      ev.terminated = true;
    }
    if (action == kDrop && carried) {
      // The drop happened if the cell in front was free.
      if (ev.fwd_cell.IsNone() && std::abs(ev.fwd.x - target.x) <= 1 &&
          std::abs(ev.fwd.y - target.y) <= 1) {
        ev.reward = w.SuccessReward();
      }
      ev.terminated = true;
    }
    return ev;
  }
  void GetExtra(double* e) const {
    e[0] = move_type;
    e[1] = move_color;
    e[2] = target.x;
    e[3] = target.y;
  }
  void SetExtra(const double* e) {
    const Cell c = CellFromCodes(e[0], e[1], 0, kEmpty, 0);
    move_type = c.type;
    move_color = c.color;
    target = ExtraPos(e + 2);
  }
  int num_objs = 2;
  int move_type = kKey, move_color = 0;
  Pos target;
};

using MiniGridPutNear = MiniGridEnv<PutNearTask>;

}  // namespace envpool_x::minigrid
