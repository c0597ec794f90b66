// BabyAI's door levels (minigrid 3.2.0's envs/babyai/open.py and unlock.py):
// open a door (named by colour or place, in order), unlock one with its key.
#pragma once

#include <vector>

#include "envs/minigrid/babyai/goto_levels.h"

namespace envpool_x::minigrid::babyai {

inline int ColorByName(const std::string& name) {
  for (int c = 0; c < kNumColors; ++c) {
    if (name == ColorName(c)) return c;
  }
  return -1;
}

inline void GenOpen(Level& l) {
  l.PlaceAgent();
  l.ConnectAll();
  l.AddDistractors(-1, -1, 18, false);
  l.CheckObjsReachable();
  const std::vector<Placed> doors = l.RoomDoors();
  const Placed& d = doors[l.RandInt(0, static_cast<int>(doors.size()))];
  l.instr.Action(kOpenInstr, Level::Desc(kDoor, d.color));
}

inline void GenOpenRedDoor(Level& l) {
  l.AddDoor(0, 0, 0, kRed, 0);
  l.PlaceAgent(0, 0);
  l.instr.Action(kOpenInstr, Level::Desc(kDoor, kRed));
}

// OpenDoor: four doors of distinct colours; the first named by colour or by
// where it is (select_by "" draws which).
inline void GenOpenDoor(Level& l) {
  const std::vector<int> colors = l.RandColors(4);
  std::vector<Placed> doors;
  for (int k = 0; k < 4; ++k) doors.push_back(l.AddDoor(1, 1, k, colors[k], 0));
  std::string by = l.p.select_by;
  if (by.empty()) by = l.RandBool() ? "color" : "loc";
  ObjDesc d = by == "color" ? Level::Desc(kDoor, doors[0].color)
                            : Level::Desc(kDoor, -1, l.RandInt(0, kNumLocs));
  l.PlaceAgent(1, 1);
  l.instr.Action(kOpenInstr, d, l.p.debug);
}

// OpenTwoDoors / OpenRedBlueDoors: the left door, then the right one.
inline void GenOpenTwoDoors(Level& l) {
  const std::vector<int> colors = l.RandColors(2);
  const int first = l.p.first_color.empty() ? colors[0] : ColorByName(l.p.first_color);
  const int second = l.p.second_color.empty() ? colors[1] : ColorByName(l.p.second_color);
  const Placed d1 = l.AddDoor(1, 1, 2, first, 0);
  const Placed d2 = l.AddDoor(1, 1, 0, second, 0);
  l.PlaceAgent(1, 1);
  const int a = l.instr.Action(kOpenInstr, Level::Desc(kDoor, d1.color), l.p.strict);
  const int b = l.instr.Action(kOpenInstr, Level::Desc(kDoor, d2.color));
  l.instr.Combine(kBeforeInstr, a, b);
  l.instr.MakeLastRoot();
}

inline void GenOpenDoorsOrder(Level& l) {
  const std::vector<int> colors = l.RandColors(l.p.num_doors);
  std::vector<Placed> doors;
  for (int k = 0; k < l.p.num_doors; ++k) doors.push_back(l.AddDoor(1, 1, -1, colors[k], 0));
  l.PlaceAgent(1, 1);
  const std::vector<int> two = l.RandSubset(l.p.num_doors, 2);
  const ObjDesc d1 = Level::Desc(kDoor, doors[two[0]].color);
  const ObjDesc d2 = Level::Desc(kDoor, doors[two[1]].color);
  const int mode = l.RandInt(0, 3);
  if (mode == 0) {
    l.instr.Action(kOpenInstr, d1, l.p.debug);
    return;
  }
  const int a = l.instr.Action(kOpenInstr, d1, l.p.debug);
  const int b = l.instr.Action(kOpenInstr, d2, l.p.debug);
  l.instr.Combine(mode == 1 ? kBeforeInstr : kAfterInstr, a, b);
  l.instr.MakeLastRoot();
}

inline void GenUnlock(Level& l) {
  int id = 0, jd = 0;
  const Placed door = AddLockedRoom(l, &id, &jd);
  if (l.RandBool()) {
    std::vector<int> colors;
    for (int c : kColorsByName) {
      if (c != door.color) colors.push_back(c);
    }
    l.ConnectAll(colors);
  } else {
    l.ConnectAll();
  }
  AddDistractorsEverywhere(l, 3);
  PlaceAgentOutside(l, jd * l.p.num_cols + id);
  l.CheckObjsReachable();
  l.instr.Action(kOpenInstr, Level::Desc(kDoor, door.color));
}

inline void GenUnlockLocal(Level& l) {
  const Placed door = l.AddDoor(1, 1, -1, -1, 1);
  l.AddObject(1, 1, kKey, door.color);
  if (l.p.distractors) l.AddDistractors(1, 1, 3, true);
  l.PlaceAgent(1, 1);
  l.instr.Action(kOpenInstr, Level::Desc(kDoor));
}

inline void GenKeyInBox(Level& l) {
  const Placed door = l.AddDoor(1, 1, -1, -1, 1);
  Cell box = MakeObj(kBox, l.RandColor());
  box.inner_type = kKey;
  box.inner_color = door.color;
  l.PlaceInRoom(1, 1, box);
  l.PlaceAgent(1, 1);
  l.instr.Action(kOpenInstr, Level::Desc(kDoor));
}

inline void GenUnlockPickup(Level& l) {
  const Placed box = l.AddObject(1, 0, kBox);
  const Placed door = l.AddDoor(0, 0, 0, -1, 1);
  l.AddObject(0, 0, kKey, door.color);
  if (l.p.distractors) l.AddDistractors(-1, -1, 4, true);
  l.PlaceAgent(0, 0);
  l.instr.Action(kPickupInstr, Level::Desc(box.type, box.color));
}

inline void GenBlockedUnlockPickup(Level& l) {
  const Placed box = l.AddObject(1, 0, kBox);
  const Placed door = l.AddDoor(0, 0, 0, -1, 1);
  l.w.grid.Set(door.pos.x - 1, door.pos.y, MakeObj(kBall, l.RandColor()));
  l.AddObject(0, 0, kKey, door.color);
  l.PlaceAgent(0, 0);
  l.instr.Action(kPickupInstr, Level::Desc(box.type));
}

inline void GenUnlockToUnlock(Level& l) {
  const std::vector<int> colors = l.RandColors(2);
  l.AddDoor(0, 0, 0, colors[0], 1);
  l.AddObject(2, 0, kKey, colors[0]);
  l.AddDoor(1, 0, 0, colors[1], 1);
  l.AddObject(1, 0, kKey, colors[1]);
  const Placed ball = l.AddObject(0, 0, kBall);
  l.PlaceAgent(1, 0);
  l.instr.Action(kPickupInstr, Level::Desc(ball.type));
}

// BabyAI's KeyCorridor: the ball (obj_type) behind a locked door, its key elsewhere.
inline void GenKeyCorridor(Level& l) {
  for (int j = 1; j < l.p.num_rows; ++j) l.rooms.RemoveWall(l.w, 1, j, 3);
  const int room = l.RandInt(0, l.p.num_rows);
  const Placed door = l.AddDoor(2, room, 2, -1, 1);
  const Placed obj = l.AddObject(2, room, kBall);
  l.AddObject(0, l.RandInt(0, l.p.num_rows), kKey, door.color);
  l.PlaceAgent(1, l.p.num_rows / 2);
  l.ConnectAll();
  l.instr.Action(kPickupInstr, Level::Desc(obj.type));
}

}  // namespace envpool_x::minigrid::babyai
