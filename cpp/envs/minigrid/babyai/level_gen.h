// BabyAI's LevelGen (minigrid 3.2.0's envs/babyai/core/levelgen.py): a maze
// of rooms, maybe a locked room with its key elsewhere, distractors, and a
// random sentence of the baby language (actions, "and", "then" / "after
// you"). The levels of synth.py and GoToSeq / PickupLoc are its settings.
#pragma once

#include <vector>

#include "envs/minigrid/babyai/level.h"

namespace envpool_x::minigrid::babyai {

enum ActionKind : uint8_t { kActGoTo = 1, kActPickup = 2, kActOpen = 4, kActPutNext = 8 };
enum SentenceKind : uint8_t { kSentAction = 1, kSentAnd = 2, kSentSeq = 4 };

struct LevelGenParams {
  double locked_room_prob = 0.5;
  bool locations = true;
  bool unblocking = true;
  bool implicit_unlock = true;
  uint8_t action_kinds = kActGoTo | kActPickup | kActOpen | kActPutNext;
  uint8_t instr_kinds = kSentAction | kSentAnd | kSentSeq;
};

class LevelGen {
 public:
  LevelGen(Level& l, const LevelGenParams& g) : l_(l), g_(g) {}

  void Generate() {
    l_.unblocking = g_.unblocking;
    if (l_.RandFloat() < g_.locked_room_prob) AddLockedRoom();
    l_.ConnectAll();
    l_.AddDistractors(-1, -1, l_.p.num_dists, false);
    for (;;) {
      l_.PlaceAgent();
      if (l_.RoomIndex(l_.w.agent) != l_.locked_room) break;
    }
    if (!g_.unblocking) l_.CheckObjsReachable();
    l_.table.Assign(l_.w);  // rand_obj matches objects as it draws
    RandInstr(g_.instr_kinds);
    l_.instr.MakeLastRoot();
  }

 private:
  void AddLockedRoom() {
    Placed door;
    for (;;) {
      const int i = l_.RandInt(0, l_.p.num_cols), j = l_.RandInt(0, l_.p.num_rows);
      const int k = l_.RandInt(0, 4);
      l_.locked_room = j * l_.p.num_cols + i;
      if (!l_.rooms.HasNeighbor(i, j, k)) continue;
      door = l_.AddDoor(i, j, k, -1, 1);
      break;
    }
    for (;;) {
      const int i = l_.RandInt(0, l_.p.num_cols), j = l_.RandInt(0, l_.p.num_rows);
      if (j * l_.p.num_cols + i == l_.locked_room) continue;
      l_.AddObject(i, j, kKey, door.color);
      break;
    }
  }

  // rand_obj: types among `types` (an OBJ_TYPES subset, in its order: box,
  // ball, key, door), colour or none, location or none.
  ObjDesc RandObj(const std::vector<int>& types) {
    for (int tries = 0;; ++tries) {
      if (tries > 100) throw Reject("failed to find suitable object");
      const int c = l_.RandInt(0, kNumColors + 1);
      const int color = c == 0 ? -1 : kColorsByName[c - 1];
      const int type = types[l_.RandInt(0, static_cast<int>(types.size()))];
      int loc = kNoLoc;
      if (g_.locations && l_.RandBool()) loc = l_.RandInt(0, kNumLocs);
      ObjDesc d = Level::Desc(type, color, loc);
      l_.Find(&d, true);
      if (d.obj_set.empty()) continue;
      if (!g_.implicit_unlock && l_.locked_room >= 0) {
        const int s = l_.p.room_size - 1;
        const int li = l_.locked_room % l_.p.num_cols, lj = l_.locked_room / l_.p.num_cols;
        bool outside = false;
        for (const Pos& q : d.obj_poss) {
          outside = outside || q.x < li * s || q.y < lj * s || q.x >= li * s + s + 1 ||
                    q.y >= lj * s + s + 1;
        }
        if (!outside) continue;
      }
      return d;
    }
  }

  static int Pick(Level& l, uint8_t mask, int count) {
    std::vector<int> kinds;
    for (int b = 0; b < count; ++b) {
      if (mask & (1 << b)) kinds.push_back(1 << b);
    }
    return kinds[l.RandInt(0, static_cast<int>(kinds.size()))];
  }

  int RandInstr(uint8_t instr_kinds) {
    const int kind = Pick(l_, instr_kinds, 3);
    if (kind == kSentAction) {
      static const std::vector<int> kAll = {kBox, kBall, kKey, kDoor};
      static const std::vector<int> kNotDoor = {kBox, kBall, kKey};
      switch (Pick(l_, g_.action_kinds, 4)) {
        case kActGoTo:
          return l_.instr.Action(kGoToInstr, RandObj(kAll));
        case kActPickup:
          return l_.instr.Action(kPickupInstr, RandObj(kNotDoor));
        case kActOpen:
          return l_.instr.Action(kOpenInstr, RandObj({kDoor}));
        default: {
          ObjDesc move = RandObj(kNotDoor);
          return l_.instr.Action(kPutNextInstr, move, false, RandObj(kAll));
        }
      }
    }
    if (kind == kSentAnd) {
      const int a = RandInstr(kSentAction);
      const int b = RandInstr(kSentAction);
      return l_.instr.Combine(kAndInstr, a, b);
    }
    const int a = RandInstr(kSentAction | kSentAnd);
    const int b = RandInstr(kSentAction | kSentAnd);
    return l_.instr.Combine(l_.RandBool() ? kBeforeInstr : kAfterInstr, a, b);
  }

  Level& l_;
  const LevelGenParams& g_;
};

}  // namespace envpool_x::minigrid::babyai
