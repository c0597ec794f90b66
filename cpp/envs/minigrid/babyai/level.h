// RoomGridLevel (minigrid 3.2.0's envs/babyai/core/roomgrid_level.py): what a
// BabyAI level generator builds with. A level draws a room grid, objects,
// doors, the agent and an instruction; a draw that cannot work out (an object
// that does not fit, an unreachable object, an instruction that is already
// done) throws Reject and the whole layout is drawn again, as minigrid's
// rejection sampling does.
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/minigrid/babyai/instructions.h"
#include "envs/minigrid/room_grid.h"

namespace envpool_x::minigrid::babyai {

struct Reject : LayoutDeadEnd {
  using LayoutDeadEnd::LayoutDeadEnd;
};

// The parameters a level reads (EnvPool's config keys, with minigrid's names).
struct LevelParams {
  int room_size = 8, num_rows = 3, num_cols = 3;
  int num_dists = 18, num_objs = 8, objs_per_room = 4, num_doors = 2;
  bool doors_open = false, debug = false, strict = false;
  bool start_carrying = false, distractors = false;
  std::string select_by, first_color, second_color;
  int max_steps = 0;  // a level's own time limit (0: num_navs x the maze's area)
};

// An object a generator placed (minigrid returns the object itself).
struct Placed {
  Pos pos;
  int type = kEmpty;
  int color = 0;
};

class Level {
 public:
  Level(World& world, const LevelParams& params)
      : w(world), p(params), rooms(params.room_size, params.num_rows, params.num_cols) {}

  World& w;
  Rng* rng = nullptr;  // the env's stream, set before each reset
  const LevelParams& p;
  RoomGrid rooms;
  Instruction instr;
  ObjectTable table;
  std::vector<Placed> objs;  // every room's objs, for all_unique distractors
  int locked_room = -1;      // LevelGen's locked room (j * cols + i)
  bool unblocking = false;   // LevelGen: keys of locked doors stay out of the mission
  Pos carry_from{-1, -1};    // PutNext's start_carrying: the object to hold

  // One fresh room grid (RoomGrid._gen_grid).
  void Begin() {
    w.BeginReset();
    rooms.Generate(w, *rng);
    instr.Clear();
    objs.clear();
    locked_room = -1;
    carry_from = Pos{-1, -1};
  }

  // --- random helpers (MiniGridEnv's) ---
  int RandInt(int lo, int hi) { return World::RandInt(*rng, lo, hi); }
  bool RandBool() { return World::RandBool(*rng); }
  int RandColor() { return World::RandColor(*rng); }
  double RandFloat() { return rng->Uniform(); }
  // _rand_subset of n items: k distinct indices in drawing order.
  std::vector<int> RandSubset(int n, int k) {
    std::vector<int> left(n), out;
    for (int i = 0; i < n; ++i) left[i] = i;
    while (static_cast<int>(out.size()) < k) {
      const int i = RandInt(0, static_cast<int>(left.size()));
      out.push_back(left[i]);
      left.erase(left.begin() + i);
    }
    return out;
  }
  // _rand_subset(COLOR_NAMES, k): colours drawn from the sorted names.
  std::vector<int> RandColors(int k) {
    std::vector<int> out;
    for (int i : RandSubset(kNumColors, k)) out.push_back(kColorsByName[i]);
    return out;
  }

  int RoomIndex(Pos q) const {
    const int s = p.room_size - 1;
    return (q.y / s) * p.num_cols + q.x / s;
  }
  Pos RoomTop(int i, int j) const { return Pos{i * (p.room_size - 1), j * (p.room_size - 1)}; }

  // place_obj with reject_next_to and max_tries = 1000 (then the layout is redrawn).
  Pos PlaceInRoom(int i, int j, const Cell& obj, bool record = true) {
    const Pos top = RoomTop(i, j);
    const Pos start = w.agent;
    const int x_end = std::min(top.x + p.room_size, w.grid.width());
    const int y_end = std::min(top.y + p.room_size, w.grid.height());
    for (int tries = 0;; ++tries) {
      if (tries > 1000) throw Reject("place_obj: no room for an object");
      const Pos q{RandInt(top.x, x_end), RandInt(top.y, y_end)};
      if (!w.grid.Get(q.x, q.y).IsNone() || q == w.agent) continue;
      if (std::abs(q.x - start.x) + std::abs(q.y - start.y) < 2) continue;
      w.grid.Set(q.x, q.y, obj);
      if (record) objs.push_back(Placed{q, obj.type, obj.color});
      return q;
    }
  }
  // add_object: kind < 0 draws key / ball / box, color < 0 a colour.
  Placed AddObject(int i, int j, int kind = -1, int color = -1) {
    static constexpr uint8_t kKinds[3] = {kKey, kBall, kBox};
    if (kind < 0) kind = kKinds[RandInt(0, 3)];
    if (color < 0) color = RandColor();
    const Pos q = PlaceInRoom(i, j, MakeObj(static_cast<uint8_t>(kind), color));
    return Placed{q, kind, color};
  }
  // add_distractors: i or j < 0 draw a room for each object.
  std::vector<Placed> AddDistractors(int i, int j, int n, bool all_unique) {
    static constexpr uint8_t kKinds[3] = {kKey, kBall, kBox};
    std::vector<Placed> dists;
    while (static_cast<int>(dists.size()) < n) {
      // minigrid would draw forever once every (type, colour) is taken.
      if (all_unique && static_cast<int>(objs.size()) >= 3 * kNumColors && AllKindsTaken()) {
        throw Reject("add_distractors: every type and colour is taken");
      }
      const int color = kColorsByName[RandInt(0, kNumColors)];
      const int type = kKinds[RandInt(0, 3)];
      if (all_unique) {
        bool seen = false;
        for (const Placed& o : objs) seen = seen || (o.type == type && o.color == color);
        if (seen) continue;
      }
      const int ri = i < 0 ? RandInt(0, p.num_cols) : i;
      const int rj = j < 0 ? RandInt(0, p.num_rows) : j;
      dists.push_back(AddObject(ri, rj, type, color));
    }
    return dists;
  }
  bool AllKindsTaken() const {
    static constexpr uint8_t kKinds[3] = {kKey, kBall, kBox};
    for (uint8_t type : kKinds) {
      for (int color = 0; color < kNumColors; ++color) {
        bool seen = false;
        for (const Placed& o : objs) seen = seen || (o.type == type && o.color == color);
        if (!seen) return false;
      }
    }
    return true;
  }
  // add_door; side, color or locked < 0 are drawn. Returns the door.
  Placed AddDoor(int i, int j, int side = -1, int color = -1, int locked = -1) {
    const Pos q = rooms.AddDoor(w, *rng, i, j, side, color, locked);
    return Placed{q, kDoor, w.grid.Get(q.x, q.y).color};
  }
  // place_agent in room (i, j) (< 0: drawn), not facing an object.
  void PlaceAgent(int i = -1, int j = -1) {
    if (i < 0) i = RandInt(0, p.num_cols);
    if (j < 0) j = RandInt(0, p.num_rows);
    const Pos top = RoomTop(i, j);
    const int x_end = std::min(top.x + p.room_size, w.grid.width());
    const int y_end = std::min(top.y + p.room_size, w.grid.height());
    for (int64_t misses = 0;; ++misses) {
      if (misses == kMissesBeforeCheck && !RoomGrid::CanStandFacingNothing(w, top, p.room_size)) {
        throw Reject("place_agent: every free cell faces an object");
      }
      w.agent = Pos{-1, -1};
      for (int tries = 0;; ++tries) {
        if (tries > 1000) throw Reject("place_agent: no room for the agent");
        const Pos q{RandInt(top.x, x_end), RandInt(top.y, y_end)};
        if (!w.grid.Get(q.x, q.y).IsNone()) continue;
        w.agent = q;
        break;
      }
      w.dir = RandInt(0, 4);
      if (RoomGrid::FacesNothing(w.CellAt(w.Front()))) return;
    }
  }
  // Its failure (LayoutDeadEnd) redraws the layout, as minigrid's RecursionError does.
  void ConnectAll(const std::vector<int>& colors = {}) { rooms.ConnectAll(w, *rng, colors); }

  // check_objs_reachable: every object can be reached through empty cells and doors.
  bool ObjsReachable() const {
    const int width = w.grid.width(), height = w.grid.height();
    std::vector<uint8_t> seen(static_cast<size_t>(width) * height, 0);
    std::vector<Pos> stack = {w.agent};
    while (!stack.empty()) {
      const Pos q = stack.back();
      stack.pop_back();
      if (!w.grid.Inside(q.x, q.y) || seen[q.y * width + q.x]) continue;
      seen[q.y * width + q.x] = 1;
      const Cell& c = w.grid.Get(q.x, q.y);
      if (!c.IsNone() && c.type != kDoor) continue;
      stack.insert(stack.end(), {{q.x + 1, q.y}, {q.x - 1, q.y}, {q.x, q.y + 1}, {q.x, q.y - 1}});
    }
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        const Cell& c = w.grid.Get(x, y);
        if (!c.IsNone() && c.type != kWall && !seen[y * width + x]) return false;
      }
    }
    return true;
  }
  void CheckObjsReachable() {
    if (!ObjsReachable()) throw Reject("unreachable object");
  }

  // Every door of every room (room by room, columns outer; shared doors twice).
  std::vector<Placed> RoomDoors() {
    std::vector<Placed> doors;
    for (int i = 0; i < p.num_cols; ++i) {
      for (int j = 0; j < p.num_rows; ++j) {
        for (int k = 0; k < 4; ++k) {
          if (rooms.At(i, j).links[k] != RoomGrid::kDoorLink) continue;
          const Pos q = rooms.At(i, j).door_pos[k];
          doors.push_back(Placed{q, kDoor, w.grid.Get(q.x, q.y).color});
        }
      }
    }
    return doors;
  }
  void OpenAllDoors() {
    for (const Placed& d : RoomDoors()) w.grid.At(d.pos.x, d.pos.y).state = kOpen;
  }

  // The matching objects of a description, as the agent stands now.
  void Find(ObjDesc* d, bool use_location) {
    const Pos top = RoomTop(w.agent.x / (p.room_size - 1), w.agent.y / (p.room_size - 1));
    d->FindMatching(w, table, top, p.room_size, use_location);
  }
  static ObjDesc Desc(int type, int color = -1, int loc = kNoLoc) {
    ObjDesc d;
    d.type = type;
    d.color = color;
    d.loc = loc;
    return d;
  }

  // validate_instrs: put-next objects not already next to each other, and
  // (unblocking levels) no key of a locked door's colour named.
  void Validate() {
    std::vector<int> locked_colors;
    if (unblocking) {
      for (const Placed& d : RoomDoors()) {
        if (w.grid.Get(d.pos.x, d.pos.y).state == kLocked) locked_colors.push_back(d.color);
      }
    }
    for (Instr& n : instr.nodes) {
      if (n.kind == kPutNextInstr) {
        Find(&n.desc, true);
        Find(&n.fixed, true);
        for (uint16_t id : n.desc.obj_set) {
          if (n.fixed.Tracked(id)) throw Reject("objects match both sides of put next");
        }
        for (uint16_t id : n.desc.obj_set) {
          const Pos a = table.cur_pos[id];
          for (const Pos& b : n.fixed.obj_poss) {
            if (std::abs(a.x - b.x) + std::abs(a.y - b.y) == 1) throw Reject("already next");
          }
        }
      }
      if (!n.IsAction() || !unblocking) continue;
      for (const ObjDesc* d : {&n.desc, &n.fixed}) {
        if (n.kind != kPutNextInstr && d == &n.fixed) continue;
        if (d->type != kKey || d->color < 0) continue;
        for (int c : locked_colors) {
          if (c == d->color) throw Reject("a key that opens a locked door");
        }
      }
    }
  }
};

}  // namespace envpool_x::minigrid::babyai
