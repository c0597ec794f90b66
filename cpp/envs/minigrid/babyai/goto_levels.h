// BabyAI's go-to levels (minigrid 3.2.0's envs/babyai/goto.py, and FindObj,
// OneRoom, ActionObjDoor of other.py that share their shape).
#pragma once

#include <vector>

#include "envs/minigrid/babyai/level.h"

namespace envpool_x::minigrid::babyai {

inline void OneRoomShape(LevelParams& p) { p.num_rows = p.num_cols = 1; }

inline void GoToLevel(Level& l, int kind, const Placed& o) {
  l.instr.Action(kind, Level::Desc(o.type, o.color));
}

// GoToRedBall / GoToRedBallGrey / GoToRedBallNoDists (num_dists 0).
inline void GenGoToRedBall(Level& l, bool grey) {
  l.PlaceAgent();
  const Placed ball = l.AddObject(0, 0, kBall, kRed);
  for (const Placed& d : l.AddDistractors(-1, -1, l.p.num_dists, false)) {
    if (grey) l.w.grid.At(d.pos.x, d.pos.y).color = kGrey;
  }
  l.CheckObjsReachable();
  GoToLevel(l, kGoToInstr, ball);
}

inline void GenGoToRedBlueBall(Level& l) {
  l.PlaceAgent();
  for (const Placed& d : l.AddDistractors(-1, -1, l.p.num_dists, false)) {
    if (d.type == kBall && (d.color == kBlue || d.color == kRed)) throw Reject("red/blue ball");
  }
  const int color = l.RandBool() ? kRed : kBlue;  // _rand_elem(["red", "blue"])
  const Placed ball = l.AddObject(0, 0, kBall, color);
  l.CheckObjsReachable();
  GoToLevel(l, kGoToInstr, ball);
}

inline void GenGoToObj(Level& l) {
  l.PlaceAgent();
  GoToLevel(l, kGoToInstr, l.AddDistractors(-1, -1, 1, true)[0]);
}

inline void GenGoToLocal(Level& l) {
  l.PlaceAgent();
  const std::vector<Placed> objs = l.AddDistractors(-1, -1, l.p.num_dists, false);
  l.CheckObjsReachable();
  GoToLevel(l, kGoToInstr, objs[l.RandInt(0, static_cast<int>(objs.size()))]);
}

// GoTo, GoToOpen, GoToObjMaze*: a maze of rooms.
inline void GenGoTo(Level& l) {
  l.PlaceAgent();
  l.ConnectAll();
  const std::vector<Placed> objs = l.AddDistractors(-1, -1, l.p.num_dists, false);
  l.CheckObjsReachable();
  GoToLevel(l, kGoToInstr, objs[l.RandInt(0, static_cast<int>(objs.size()))]);
  if (l.p.doors_open) l.OpenAllDoors();
}

// A locked room and its key: GoToImpUnlock and Unlock. minigrid means to keep
// the key and the distractors out of the locked room (`ik is id and jk is
// jd`), but compares numpy integers by identity, which never holds: the key
// may lie in the locked room and every room gets distractors. We do the same.
inline Placed AddLockedRoom(Level& l, int* room_i, int* room_j) {
  const int id = l.RandInt(0, l.p.num_cols), jd = l.RandInt(0, l.p.num_rows);
  const Placed door = l.AddDoor(id, jd, -1, -1, 1);
  const int ik = l.RandInt(0, l.p.num_cols), jk = l.RandInt(0, l.p.num_rows);
  l.AddObject(ik, jk, kKey, door.color);
  *room_i = id;
  *room_j = jd;
  return door;
}
inline void AddDistractorsEverywhere(Level& l, int n) {
  for (int i = 0; i < l.p.num_cols; ++i) {
    for (int j = 0; j < l.p.num_rows; ++j) l.AddDistractors(i, j, n, false);
  }
}
inline void PlaceAgentOutside(Level& l, int room) {
  for (;;) {
    l.PlaceAgent();
    if (l.RoomIndex(l.w.agent) != room) return;
  }
}

inline void GenGoToImpUnlock(Level& l) {
  int id = 0, jd = 0;
  AddLockedRoom(l, &id, &jd);
  l.ConnectAll();
  AddDistractorsEverywhere(l, 2);
  PlaceAgentOutside(l, jd * l.p.num_cols + id);
  l.CheckObjsReachable();
  GoToLevel(l, kGoToInstr, l.AddDistractors(id, jd, 1, false)[0]);
}

inline void GenGoToDoor(Level& l) {
  std::vector<Placed> doors;
  for (int k = 0; k < 4; ++k) doors.push_back(l.AddDoor(1, 1));
  l.PlaceAgent(1, 1);
  const Placed& d = doors[l.RandInt(0, 4)];
  GoToLevel(l, kGoToInstr, d);
}

inline void GenGoToObjDoor(Level& l) {
  l.PlaceAgent(1, 1);
  std::vector<Placed> objs = l.AddDistractors(1, 1, 8, false);
  for (int k = 0; k < 4; ++k) objs.push_back(l.AddDoor(1, 1));
  l.CheckObjsReachable();
  GoToLevel(l, kGoToInstr, objs[l.RandInt(0, static_cast<int>(objs.size()))]);
}

// ActionObjDoor: go to, open or pick up an object or door of the middle room.
inline void GenActionObjDoor(Level& l) {
  std::vector<Placed> objs = l.AddDistractors(1, 1, 5, true);
  for (int k = 0; k < 4; ++k) objs.push_back(l.AddDoor(1, 1, -1, -1, 0));
  l.PlaceAgent(1, 1);
  const Placed o = objs[l.RandInt(0, static_cast<int>(objs.size()))];
  if (o.type == kDoor) {
    GoToLevel(l, l.RandBool() ? kGoToInstr : kOpenInstr, o);
  } else {
    GoToLevel(l, l.RandBool() ? kGoToInstr : kPickupInstr, o);
  }
}

// FindObjS*: pick up an object of a random room, any colour.
inline void GenFindObj(Level& l) {
  const int i = l.RandInt(0, l.p.num_rows), j = l.RandInt(0, l.p.num_cols);
  const Placed o = l.AddObject(i, j);
  l.PlaceAgent(1, 1);
  l.ConnectAll();
  l.instr.Action(kPickupInstr, Level::Desc(o.type));
}

inline void GenOneRoom(Level& l) {
  const Placed o = l.AddObject(0, 0, kBall);
  l.PlaceAgent();
  l.instr.Action(kPickupInstr, Level::Desc(o.type));
}

}  // namespace envpool_x::minigrid::babyai
