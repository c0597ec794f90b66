// BabyAI's instruction language (minigrid 3.2.0's envs/babyai/core/verifier.py):
// object descriptions, the four action instructions (go to, pick up, open,
// put next to), their combinations (and, then, after you), the mission text
// they read as, and the verifier that says after each step whether the
// instruction succeeded, failed or goes on.
//
// minigrid tracks objects by identity; here every object in the grid has an
// id (ObjectTable), kept while it is carried and dropped, so "the ball you
// must pick up" stays that ball wherever it goes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "envs/minigrid/engine.h"

namespace envpool_x::minigrid::babyai {

// LOC_NAMES, relative to the agent's start.
enum Loc : int8_t { kNoLoc = -1, kLocLeft = 0, kLocRight = 1, kLocFront = 2, kLocBehind = 3 };
constexpr int kNumLocs = 4;

// Object ids over the grid (0: no object) and where each object is
// (WorldObj.cur_pos: (-1, -1) while carried).
struct ObjectTable {
  std::vector<uint16_t> ids;  // per cell, row by row
  std::vector<Pos> cur_pos;   // per id
  uint16_t carried = 0;
  int width = 0;

  uint16_t& At(Pos p) { return ids[static_cast<size_t>(p.y) * width + p.x]; }
  uint16_t At(Pos p) const { return ids[static_cast<size_t>(p.y) * width + p.x]; }
  uint16_t NewId(Pos p) {
    cur_pos.push_back(p);
    return static_cast<uint16_t>(cur_pos.size() - 1);
  }
  // Numbers every object of the grid (walls too: harmless) and the carried one.
  void Assign(const World& w) {
    width = w.grid.width();
    ids.assign(static_cast<size_t>(width) * w.grid.height(), 0);
    cur_pos.assign(1, Pos{-1, -1});
    for (int y = 0; y < w.grid.height(); ++y) {
      for (int x = 0; x < width; ++x) {
        if (!w.grid.Get(x, y).IsNone()) At({x, y}) = NewId({x, y});
      }
    }
    carried = w.carrying.IsNone() ? 0 : NewId({-1, -1});
  }
  // Follows one base step: pickup, drop and a box opened into what it held.
  void AfterStep(const World& w, int action, const StepEvent& ev) {
    if (!w.grid.Inside(ev.fwd.x, ev.fwd.y)) return;
    if (action == kPickup && carried == 0 && !w.carrying.IsNone()) {
      carried = At(ev.fwd);
      At(ev.fwd) = 0;
      cur_pos[carried] = Pos{-1, -1};
    } else if (action == kDrop && carried != 0 && w.carrying.IsNone()) {
      At(ev.fwd) = carried;
      cur_pos[carried] = ev.fwd;
      carried = 0;
    } else if (action == kToggle && ev.fwd_cell.type == kBox) {
      At(ev.fwd) = w.grid.Get(ev.fwd.x, ev.fwd.y).IsNone() ? 0 : NewId(ev.fwd);
    }
  }
};

// ObjDesc: a type (kEmpty: any object), a colour (-1: any), a location.
struct ObjDesc {
  int type = kEmpty;
  int color = -1;
  int loc = kNoLoc;
  std::vector<uint16_t> obj_set;  // matching objects at the start
  std::vector<Pos> obj_poss;      // their positions (updated after drops)

  // find_matching_objs. `room_top` / `room_size`: the agent's room.
  void FindMatching(const World& w, const ObjectTable& t, Pos room_top, int room_size,
                    bool use_location = true) {
    if (use_location) obj_set.clear();
    obj_poss.clear();
    for (int x = 0; x < w.grid.width(); ++x) {
      for (int y = 0; y < w.grid.height(); ++y) {
        const Cell& c = w.grid.Get(x, y);
        if (c.IsNone()) continue;
        const uint16_t id = t.At({x, y});
        if (!use_location && !Tracked(id)) continue;
        if (type != kEmpty && c.type != type) continue;
        if (color >= 0 && c.color != color) continue;
        if (use_location && loc != kNoLoc) {
          if (x < room_top.x || y < room_top.y || x >= room_top.x + room_size ||
              y >= room_top.y + room_size) {
            continue;
          }
          const int vx = x - w.agent.x, vy = y - w.agent.y;
          const int d1x = kDirX[w.dir], d1y = kDirY[w.dir];
          const int d2x = -d1y, d2y = d1x;
          const int side = vx * d2x + vy * d2y, ahead = vx * d1x + vy * d1y;
          const bool match = loc == kLocLeft    ? side < 0
                             : loc == kLocRight ? side > 0
                             : loc == kLocFront ? ahead > 0
                                                : ahead < 0;
          if (!match) continue;
        }
        if (use_location) obj_set.push_back(id);
        obj_poss.push_back(Pos{x, y});
      }
    }
  }
  bool Tracked(uint16_t id) const {
    for (uint16_t o : obj_set) {
      if (o == id) return true;
    }
    return false;
  }

  // surface(): "the red ball", "a key on your left", ...
  std::string Surface() const {
    std::string s = type == kEmpty ? "object" : ObjName(type);
    if (color >= 0) s = std::string(ColorName(color)) + " " + s;
    static const char* const kLocText[kNumLocs] = {" on your left", " on your right",
                                                   " in front of you", " behind you"};
    if (loc != kNoLoc) s += kLocText[loc];
    return (obj_set.size() > 1 ? "a " : "the ") + s;
  }
};

enum InstrKind : int8_t {
  kNoInstr = 0,
  kGoToInstr = 1,
  kPickupInstr = 2,
  kOpenInstr = 3,
  kPutNextInstr = 4,
  kAndInstr = 5,
  kBeforeInstr = 6,
  kAfterInstr = 7,
};
enum Status : int8_t { kNotYet = 0, kContinue = 1, kSuccess = 2, kFailure = 3 };

// One node of an instruction tree: an action (desc, desc_fixed for put
// next) or a combination of nodes a and b.
struct Instr {
  int kind = kNoInstr;
  bool strict = false;
  int a = -1, b = -1;
  ObjDesc desc, fixed;
  // Verifier state: pre_carrying for pickup / put next, a_done / b_done.
  uint16_t pre_carrying = 0;
  int a_done = kNotYet, b_done = kNotYet;
  bool IsAction() const { return kind >= kGoToInstr && kind <= kPutNextInstr; }
};

// A whole instruction: up to 7 nodes (a sequence of two conjunctions), node 0
// the root.
constexpr int kMaxNodes = 7;
// Values per node in the state hook: kind, strict, a, b, then type, colour
// and location of desc and of fixed.
constexpr int kNodeValues = 10;

class Instruction {
 public:
  std::vector<Instr> nodes;

  void Clear() { nodes.clear(); }
  int Add(const Instr& n) {
    nodes.push_back(n);
    return static_cast<int>(nodes.size()) - 1;
  }
  // Builders (return the new node's index).
  int Action(int kind, ObjDesc d, bool strict = false, ObjDesc fixed = {}) {
    Instr n;
    n.kind = kind;
    n.strict = strict;
    n.desc = std::move(d);
    n.fixed = std::move(fixed);
    return Add(n);
  }
  int Combine(int kind, int a, int b, bool strict = false) {
    Instr n;
    n.kind = kind;
    n.a = a;
    n.b = b;
    n.strict = strict;
    return Add(n);
  }
  // The root is the last node built: move it to index 0.
  void MakeLastRoot() {
    const int last = static_cast<int>(nodes.size()) - 1;
    if (last <= 0) return;
    std::swap(nodes[0], nodes[last]);
    for (Instr& n : nodes) {
      for (int* c : {&n.a, &n.b}) {
        if (*c == 0) {
          *c = last;
        } else if (*c == last) {
          *c = 0;
        }
      }
    }
  }

  std::string Surface(int i = 0) const {
    const Instr& n = nodes[i];
    switch (n.kind) {
      case kGoToInstr:
        return "go to " + n.desc.Surface();
      case kPickupInstr:
        return "pick up " + n.desc.Surface();
      case kOpenInstr:
        return "open " + n.desc.Surface();
      case kPutNextInstr:
        return "put " + n.desc.Surface() + " next to " + n.fixed.Surface();
      case kAndInstr:
        return Surface(n.a) + " and " + Surface(n.b);
      case kBeforeInstr:
        return Surface(n.a) + ", then " + Surface(n.b);
      default:
        return Surface(n.a) + " after you " + Surface(n.b);
    }
  }

  // num_navs_needed: the time limit is this times the maze's area.
  int NumNavs(int i = 0) const {
    const Instr& n = nodes[i];
    if (n.kind == kPutNextInstr) return 2;
    if (n.IsAction()) return 1;
    return NumNavs(n.a) + NumNavs(n.b);
  }

  // reset_verifier (also finds the matching objects of every description).
  template <typename FindFn>
  void ResetVerifier(FindFn find) {
    for (Instr& n : nodes) {
      n.pre_carrying = 0;
      n.a_done = n.b_done = kNotYet;
      if (n.IsAction()) find(&n.desc, true);
      if (n.kind == kPutNextInstr) find(&n.fixed, true);
    }
  }
  // After a drop: update_objs_poss (positions of the tracked objects).
  template <typename FindFn>
  void UpdatePositions(FindFn find) {
    for (Instr& n : nodes) {
      if (n.IsAction()) find(&n.desc, false);
      if (n.kind == kPutNextInstr) find(&n.fixed, false);
    }
  }

  int Verify(const World& w, const ObjectTable& t, int action, int i = 0) {
    Instr& n = nodes[i];
    if (n.IsAction()) return VerifyAction(w, t, action, n);
    if (n.kind == kAndInstr) {
      if (n.a_done != kSuccess) n.a_done = Verify(w, t, action, n.a);
      if (n.b_done != kSuccess) n.b_done = Verify(w, t, action, n.b);
      return n.a_done == kSuccess && n.b_done == kSuccess ? kSuccess : kContinue;
    }
    // Before: a then b. After: b then a (the same with the roles swapped).
    const bool before = n.kind == kBeforeInstr;
    const int first = before ? n.a : n.b, second = before ? n.b : n.a;
    int& first_done = before ? n.a_done : n.b_done;
    int& second_done = before ? n.b_done : n.a_done;
    if (first_done == kSuccess) {
      second_done = Verify(w, t, action, second);
      if (second_done == kFailure) return kFailure;
      if (second_done == kSuccess) return kSuccess;
    } else {
      first_done = Verify(w, t, action, first);
      if (first_done == kFailure) return kFailure;
      if (first_done == kSuccess) return Verify(w, t, action, i);
      if (n.strict && Verify(w, t, action, second) == kSuccess) return kFailure;
    }
    return kContinue;
  }

 private:
  static int VerifyAction(const World& w, const ObjectTable& t, int action, Instr& n) {
    const Pos front = w.Front();
    switch (n.kind) {
      case kGoToInstr:
        for (const Pos& p : n.desc.obj_poss) {
          if (p == front) return kSuccess;
        }
        return kContinue;
      case kOpenInstr: {
        if (action != kToggle) return kContinue;
        const Cell& c = w.CellAt(front);
        const uint16_t id = w.grid.Inside(front.x, front.y) ? t.At(front) : 0;
        if (!c.IsNone() && c.type == kDoor && c.state == kOpen && n.desc.Tracked(id)) {
          return kSuccess;
        }
        if (n.strict && c.type == kDoor) return kFailure;
        return kContinue;
      }
      case kPickupInstr: {
        const uint16_t pre = n.pre_carrying;
        n.pre_carrying = t.carried;
        if (action != kPickup) return kContinue;
        if (pre == 0 && t.carried != 0 && n.desc.Tracked(t.carried)) return kSuccess;
        if (n.strict && t.carried != 0) return kFailure;
        return kContinue;
      }
      default: {  // kPutNextInstr
        const uint16_t pre = n.pre_carrying;
        n.pre_carrying = t.carried;
        if (n.strict && action == kPickup && t.carried != 0) return kFailure;
        if (action != kDrop || pre == 0 || !n.desc.Tracked(pre)) return kContinue;
        const Pos a = t.cur_pos[pre];
        for (const Pos& b : n.fixed.obj_poss) {
          if (std::abs(a.x - b.x) + std::abs(a.y - b.y) == 1) return kSuccess;
        }
        return kContinue;
      }
    }
  }
};

}  // namespace envpool_x::minigrid::babyai
