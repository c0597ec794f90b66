// The BabyAI levels by name (the `level` config key): each fixes the shape
// minigrid 3.2.0's class gives it (rooms, fixed counts, its own time limit)
// and names its generator.
#pragma once

#include <cstdint>
#include <string>

#include "envs/minigrid/babyai/door_levels.h"
#include "envs/minigrid/babyai/goto_levels.h"
#include "envs/minigrid/babyai/level_gen.h"
#include "envs/minigrid/babyai/object_levels.h"

namespace envpool_x::minigrid::babyai {

// What a level's generator needs of its options (minigrid fails with an
// IndexError, or samples forever, where they do not hold): checked at make.
enum LevelNeeds : uint16_t {
  kTwoRooms = 1,            // a locked room and a room outside it
  kMiddleRoom = 2,          // room (1, 1): 2 x 2 rooms at least
  kMiddleEastWest = 4,      // doors east and west of room (1, 1): 3 columns
  kMiddleAllSides = 8,      // a door on each side of room (1, 1): 3 x 3 rooms
  kSquare = 16,             // draws a column index below num_rows (FindObj)
  kDoorsAroundMiddle = 32,  // num_doors doors on the sides of room (1, 1)
  kSomeDists = 64,          // names one of num_dists distractors
  kTwoPerRoom = 128,        // takes two of objs_per_room objects of each room
  // Objects that all go into the one room where the agent stands.
  kRoomHoldsDists = 256,         // num_dists
  kRoomHoldsDistsAndOne = 512,   // num_dists and one more
  kRoomHoldsObjs = 1024,         // num_objs
  kRoomHoldsObjsPerRoom = 2048,  // objs_per_room
};

struct LevelEntry {
  const char* name;
  void (*shape)(LevelParams&);
  void (*gen)(Level&);
  uint16_t needs = 0;
};

// Why `p` cannot give `e` a layout (empty when it can): a room of side s
// holds (s - 2)^2 free cells, and the agent takes one with the two (at
// least) beside it that objects keep away from.
inline std::string LevelOptionsProblem(const LevelEntry& e, const LevelParams& p) {
  const uint16_t n = e.needs;
  const bool middle = n & (kMiddleRoom | kMiddleEastWest | kMiddleAllSides | kDoorsAroundMiddle);
  if ((n & kTwoRooms) && p.num_rows * p.num_cols < 2) {
    return "needs two rooms at least (num_rows * num_cols >= 2)";
  }
  if (middle && (p.num_rows < 2 || p.num_cols < 2)) {
    return "needs num_rows >= 2 and num_cols >= 2 (it uses room (1, 1))";
  }
  if ((n & kMiddleEastWest) && p.num_cols < 3) return "needs num_cols >= 3";
  if ((n & kMiddleAllSides) && (p.num_rows < 3 || p.num_cols < 3)) {
    return "needs num_rows >= 3 and num_cols >= 3 (a door on each side of room (1, 1))";
  }
  if ((n & kSquare) && p.num_rows != p.num_cols) return "needs num_rows == num_cols";
  if (n & kDoorsAroundMiddle) {
    const int sides = 2 + (p.num_rows >= 3) + (p.num_cols >= 3);
    if (p.num_doors > sides) {
      return "num_doors " + std::to_string(p.num_doors) + " exceeds the " + std::to_string(sides) +
             " sides of room (1, 1) with a neighbour";
    }
  }
  if ((n & kSomeDists) && p.num_dists < 1) return "needs num_dists >= 1";
  if ((n & kTwoPerRoom) && p.objs_per_room < 2) return "needs objs_per_room >= 2";
  const int side = p.room_size - 2;
  const int room_holds = side >= 2 ? side * side - 3 : 0;
  int objects = 0;
  if (n & kRoomHoldsDists) objects = p.num_dists;
  if (n & kRoomHoldsDistsAndOne) objects = p.num_dists + 1;
  if (n & kRoomHoldsObjs) objects = p.num_objs;
  if (n & kRoomHoldsObjsPerRoom) objects = p.objs_per_room;
  if (objects > room_holds) {
    return std::to_string(objects) + " objects do not fit in a room of room_size " +
           std::to_string(p.room_size) + " (at most " + std::to_string(room_holds) + ")";
  }
  return "";
}

inline void Shape(LevelParams& p, int rows, int cols, int room, int max_factor = 0) {
  if (rows > 0) p.num_rows = rows;
  if (cols > 0) p.num_cols = cols;
  if (room > 0) p.room_size = room;
  p.max_steps = max_factor * p.room_size * p.room_size;
}
inline void Keep(LevelParams& p) { Shape(p, 0, 0, 0); }

inline void GenLevelGen(Level& l, const LevelGenParams& g) { LevelGen(l, g).Generate(); }

inline const LevelEntry* FindLevel(const std::string& name) {
  static const LevelEntry kLevels[] = {
      {"GoToRedBallGrey", [](LevelParams& p) { Shape(p, 1, 1, 0); },
       [](Level& l) { GenGoToRedBall(l, true); }, kRoomHoldsDistsAndOne},
      {"GoToRedBall", [](LevelParams& p) { Shape(p, 1, 1, 0); },
       [](Level& l) { GenGoToRedBall(l, false); }, kRoomHoldsDistsAndOne},
      {"GoToRedBlueBall", [](LevelParams& p) { Shape(p, 1, 1, 0); }, GenGoToRedBlueBall,
       kRoomHoldsDistsAndOne},
      {"GoToObj", [](LevelParams& p) { Shape(p, 1, 1, 0); }, GenGoToObj},
      {"GoToLocal", [](LevelParams& p) { Shape(p, 1, 1, 0); }, GenGoToLocal,
       kSomeDists | kRoomHoldsDists},
      {"GoTo", Keep, GenGoTo, kSomeDists},
      {"GoToImpUnlock", Keep, GenGoToImpUnlock, kTwoRooms},
      {"GoToDoor", [](LevelParams& p) { Shape(p, 0, 0, 7); }, GenGoToDoor, kMiddleAllSides},
      {"GoToObjDoor", [](LevelParams& p) { Shape(p, 0, 0, 8); }, GenGoToObjDoor, kMiddleAllSides},
      {"GoToSeq", Keep, [](Level& l) { GenLevelGen(l, {0, false, false, true, kActGoTo, 7}); }},
      {"Open", Keep, GenOpen},
      {"OpenRedDoor", [](LevelParams& p) { Shape(p, 1, 2, 5); }, GenOpenRedDoor},
      {"OpenDoor", Keep, GenOpenDoor, kMiddleAllSides},
      {"OpenTwoDoors", [](LevelParams& p) { Shape(p, 0, 0, 6, 20); }, GenOpenTwoDoors,
       kMiddleEastWest},
      {"OpenDoorsOrder", [](LevelParams& p) { Shape(p, 0, 0, 6, 20); }, GenOpenDoorsOrder,
       kDoorsAroundMiddle},
      {"Pickup", Keep, [](Level& l) { GenPickup(l, 18, false); }},
      {"UnblockPickup", Keep, [](Level& l) { GenPickup(l, 20, true); }},
      {"PickupLoc",
       [](LevelParams& p) {
         Shape(p, 1, 1, 0);
         p.num_dists = 8;
       },
       [](Level& l) { GenLevelGen(l, {0, true, false, true, kActPickup, kSentAction}); },
       kRoomHoldsDists},
      {"PickupDist", [](LevelParams& p) { Shape(p, 1, 1, 7); }, GenPickupDist},
      {"PickupAbove", [](LevelParams& p) { Shape(p, 0, 0, 6, 8); }, GenPickupAbove, kMiddleRoom},
      {"PutNextLocal", [](LevelParams& p) { Shape(p, 1, 1, 0); }, GenPutNextLocal, kRoomHoldsObjs},
      {"PutNext", [](LevelParams& p) { Shape(p, 1, 2, 0, 8); }, GenPutNext, kRoomHoldsObjsPerRoom},
      {"MoveTwoAcross", [](LevelParams& p) { Shape(p, 1, 2, 0, 16); }, GenMoveTwoAcross,
       kTwoPerRoom | kRoomHoldsObjsPerRoom},
      {"Unlock", Keep, GenUnlock, kTwoRooms},
      {"UnlockLocal", Keep, GenUnlockLocal, kMiddleRoom},
      {"KeyInBox", Keep, GenKeyInBox, kMiddleRoom},
      // minigrid's UnlockPickup never fixes its limit (a typo): num_navs x area.
      {"UnlockPickup", [](LevelParams& p) { Shape(p, 1, 2, 6); }, GenUnlockPickup},
      {"BlockedUnlockPickup", [](LevelParams& p) { Shape(p, 1, 2, 6, 16); },
       GenBlockedUnlockPickup},
      {"UnlockToUnlock", [](LevelParams& p) { Shape(p, 1, 3, 6, 30); }, GenUnlockToUnlock},
      {"ActionObjDoor", [](LevelParams& p) { Shape(p, 0, 0, 7); }, GenActionObjDoor,
       kMiddleAllSides},
      {"FindObj", [](LevelParams& p) { Shape(p, 0, 0, 0, 20); }, GenFindObj, kSquare | kMiddleRoom},
      {"KeyCorridor", [](LevelParams& p) { Shape(p, 0, 3, 0, 30); }, GenKeyCorridor},
      {"OneRoom", [](LevelParams& p) { Shape(p, 1, 1, 0); }, GenOneRoom},
      {"Synth", Keep,
       [](Level& l) {
         GenLevelGen(l, {0.5, false, true, false, kActGoTo | kActPickup | kActOpen | kActPutNext,
                         kSentAction});
       },
       kTwoRooms},
      {"SynthLoc", Keep,
       [](Level& l) {
         GenLevelGen(l, {0.5, true, true, false, kActGoTo | kActPickup | kActOpen | kActPutNext,
                         kSentAction});
       },
       kTwoRooms},
      {"SynthSeq", Keep,
       [](Level& l) {
         GenLevelGen(l,
                     {0.5, true, true, false, kActGoTo | kActPickup | kActOpen | kActPutNext, 7});
       },
       kTwoRooms},
      {"MiniBossLevel",
       [](LevelParams& p) {
         Shape(p, 2, 2, 5);
         p.num_dists = 7;
       },
       [](Level& l) { GenLevelGen(l, {0.25, true, true, true, 15, 7}); }},
      {"BossLevel", Keep, [](Level& l) { GenLevelGen(l, {0.5, true, true, true, 15, 7}); },
       kTwoRooms},
      {"BossLevelNoUnlock", Keep, [](Level& l) { GenLevelGen(l, {0, true, true, false, 15, 7}); }},
  };
  for (const LevelEntry& e : kLevels) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

}  // namespace envpool_x::minigrid::babyai
