// BabyAI's pick-up and put-next levels (minigrid 3.2.0's envs/babyai/pickup.py,
// putnext.py, and MoveTwoAcross of other.py).
#pragma once

#include <vector>

#include "envs/minigrid/babyai/level.h"

namespace envpool_x::minigrid::babyai {

// Pickup (20 distractors and some not reachable: UnblockPickup).
inline void GenPickup(Level& l, int num, bool blocked) {
  l.PlaceAgent();
  l.ConnectAll();
  const std::vector<Placed> objs = l.AddDistractors(-1, -1, num, false);
  if (blocked) {
    if (l.ObjsReachable()) throw Reject("all objects reachable");
  } else {
    l.CheckObjsReachable();
  }
  const Placed& o = objs[l.RandInt(0, static_cast<int>(objs.size()))];
  l.instr.Action(kPickupInstr, Level::Desc(o.type, o.color));
}

// PickupDist: named by type, colour or both (strict in the debug variant).
inline void GenPickupDist(Level& l) {
  const std::vector<Placed> objs = l.AddDistractors(-1, -1, 5, true);
  l.PlaceAgent(0, 0);
  const Placed& o = objs[l.RandInt(0, static_cast<int>(objs.size()))];
  const int by = l.RandInt(0, 3);  // type, color, both
  l.instr.Action(kPickupInstr, Level::Desc(by == 1 ? kEmpty : o.type, by == 0 ? -1 : o.color),
                 l.p.debug);
}

inline void GenPickupAbove(Level& l) {
  const Placed o = l.AddObject(1, 0);
  l.AddDoor(1, 1, 3, -1, 0);
  l.PlaceAgent(1, 1);
  l.ConnectAll();
  l.instr.Action(kPickupInstr, Level::Desc(o.type, o.color));
}

inline void PutNextInstr(Level& l, const Placed& a, const Placed& b) {
  l.instr.Action(kPutNextInstr, Level::Desc(a.type, a.color), false, Level::Desc(b.type, b.color));
}

inline void GenPutNextLocal(Level& l) {
  l.PlaceAgent();
  const std::vector<Placed> objs = l.AddDistractors(-1, -1, l.p.num_objs, true);
  l.CheckObjsReachable();
  const std::vector<int> two = l.RandSubset(static_cast<int>(objs.size()), 2);
  PutNextInstr(l, objs[two[0]], objs[two[1]]);
}

// PutNext: two rooms joined; an object of one next to an object of the other.
inline void GenPutNext(Level& l) {
  l.PlaceAgent(0, 0);
  const std::vector<Placed> left = l.AddDistractors(0, 0, l.p.objs_per_room, true);
  const std::vector<Placed> right = l.AddDistractors(1, 0, l.p.objs_per_room, true);
  l.rooms.RemoveWall(l.w, 0, 0, 0);
  Placed a = left[l.RandInt(0, static_cast<int>(left.size()))];
  Placed b = right[l.RandInt(0, static_cast<int>(right.size()))];
  if (l.RandBool()) std::swap(a, b);
  if (l.p.start_carrying) l.carry_from = a.pos;
  PutNextInstr(l, a, b);
}

inline void GenMoveTwoAcross(Level& l) {
  l.PlaceAgent(0, 0);
  const std::vector<Placed> left = l.AddDistractors(0, 0, l.p.objs_per_room, true);
  const std::vector<Placed> right = l.AddDistractors(1, 0, l.p.objs_per_room, true);
  l.rooms.RemoveWall(l.w, 0, 0, 0);
  const std::vector<int> ls = l.RandSubset(static_cast<int>(left.size()), 2);
  const std::vector<int> rs = l.RandSubset(static_cast<int>(right.size()), 2);
  const Placed &a = left[ls[0]], &b = right[rs[0]], &c = right[rs[1]], &d = left[ls[1]];
  const int x = l.instr.Action(kPutNextInstr, Level::Desc(a.type, a.color), false,
                               Level::Desc(b.type, b.color));
  const int y = l.instr.Action(kPutNextInstr, Level::Desc(c.type, c.color), false,
                               Level::Desc(d.type, d.color));
  l.instr.Combine(kBeforeInstr, x, y);
  l.instr.MakeLastRoot();
}

}  // namespace envpool_x::minigrid::babyai
