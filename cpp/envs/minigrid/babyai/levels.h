// The BabyAI levels by name (the `level` config key): each fixes the shape
// minigrid 3.2.0's class gives it (rooms, fixed counts, its own time limit)
// and names its generator.
#pragma once

#include <string>

#include "envs/minigrid/babyai/door_levels.h"
#include "envs/minigrid/babyai/goto_levels.h"
#include "envs/minigrid/babyai/level_gen.h"
#include "envs/minigrid/babyai/object_levels.h"

namespace envpool_x::minigrid::babyai {

struct LevelEntry {
  const char* name;
  void (*shape)(LevelParams&);
  void (*gen)(Level&);
};

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
       [](Level& l) { GenGoToRedBall(l, true); }},
      {"GoToRedBall", [](LevelParams& p) { Shape(p, 1, 1, 0); },
       [](Level& l) { GenGoToRedBall(l, false); }},
      {"GoToRedBlueBall", [](LevelParams& p) { Shape(p, 1, 1, 0); }, GenGoToRedBlueBall},
      {"GoToObj", [](LevelParams& p) { Shape(p, 1, 1, 0); }, GenGoToObj},
      {"GoToLocal", [](LevelParams& p) { Shape(p, 1, 1, 0); }, GenGoToLocal},
      {"GoTo", Keep, GenGoTo},
      {"GoToImpUnlock", Keep, GenGoToImpUnlock},
      {"GoToDoor", [](LevelParams& p) { Shape(p, 0, 0, 7); }, GenGoToDoor},
      {"GoToObjDoor", [](LevelParams& p) { Shape(p, 0, 0, 8); }, GenGoToObjDoor},
      {"GoToSeq", Keep, [](Level& l) { GenLevelGen(l, {0, false, false, true, kActGoTo, 7}); }},
      {"Open", Keep, GenOpen},
      {"OpenRedDoor", [](LevelParams& p) { Shape(p, 1, 2, 5); }, GenOpenRedDoor},
      {"OpenDoor", Keep, GenOpenDoor},
      {"OpenTwoDoors", [](LevelParams& p) { Shape(p, 0, 0, 6, 20); }, GenOpenTwoDoors},
      {"OpenDoorsOrder", [](LevelParams& p) { Shape(p, 0, 0, 6, 20); }, GenOpenDoorsOrder},
      {"Pickup", Keep, [](Level& l) { GenPickup(l, 18, false); }},
      {"UnblockPickup", Keep, [](Level& l) { GenPickup(l, 20, true); }},
      {"PickupLoc",
       [](LevelParams& p) {
         Shape(p, 1, 1, 0);
         p.num_dists = 8;
       },
       [](Level& l) { GenLevelGen(l, {0, true, false, true, kActPickup, kSentAction}); }},
      {"PickupDist", [](LevelParams& p) { Shape(p, 1, 1, 7); }, GenPickupDist},
      {"PickupAbove", [](LevelParams& p) { Shape(p, 0, 0, 6, 8); }, GenPickupAbove},
      {"PutNextLocal", [](LevelParams& p) { Shape(p, 1, 1, 0); }, GenPutNextLocal},
      {"PutNext", [](LevelParams& p) { Shape(p, 1, 2, 0, 8); }, GenPutNext},
      {"MoveTwoAcross", [](LevelParams& p) { Shape(p, 1, 2, 0, 16); }, GenMoveTwoAcross},
      {"Unlock", Keep, GenUnlock},
      {"UnlockLocal", Keep, GenUnlockLocal},
      {"KeyInBox", Keep, GenKeyInBox},
      // minigrid's UnlockPickup never fixes its limit (a typo): num_navs x area.
      {"UnlockPickup", [](LevelParams& p) { Shape(p, 1, 2, 6); }, GenUnlockPickup},
      {"BlockedUnlockPickup", [](LevelParams& p) { Shape(p, 1, 2, 6, 16); },
       GenBlockedUnlockPickup},
      {"UnlockToUnlock", [](LevelParams& p) { Shape(p, 1, 3, 6, 30); }, GenUnlockToUnlock},
      {"ActionObjDoor", [](LevelParams& p) { Shape(p, 0, 0, 7); }, GenActionObjDoor},
      {"FindObj", [](LevelParams& p) { Shape(p, 0, 0, 0, 20); }, GenFindObj},
      {"KeyCorridor", [](LevelParams& p) { Shape(p, 0, 3, 0, 30); }, GenKeyCorridor},
      {"OneRoom", [](LevelParams& p) { Shape(p, 1, 1, 0); }, GenOneRoom},
      {"Synth", Keep,
       [](Level& l) {
         GenLevelGen(l, {0.5, false, true, false, kActGoTo | kActPickup | kActOpen | kActPutNext,
                         kSentAction});
       }},
      {"SynthLoc", Keep,
       [](Level& l) {
         GenLevelGen(l, {0.5, true, true, false, kActGoTo | kActPickup | kActOpen | kActPutNext,
                         kSentAction});
       }},
      {"SynthSeq", Keep,
       [](Level& l) {
         GenLevelGen(l,
                     {0.5, true, true, false, kActGoTo | kActPickup | kActOpen | kActPutNext, 7});
       }},
      {"MiniBossLevel",
       [](LevelParams& p) {
         Shape(p, 2, 2, 5);
         p.num_dists = 7;
       },
       [](Level& l) { GenLevelGen(l, {0.25, true, true, true, 15, 7}); }},
      {"BossLevel", Keep, [](Level& l) { GenLevelGen(l, {0.5, true, true, true, 15, 7}); }},
      {"BossLevelNoUnlock", Keep, [](Level& l) { GenLevelGen(l, {0, true, true, false, 15, 7}); }},
  };
  for (const LevelEntry& e : kLevels) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

}  // namespace envpool_x::minigrid::babyai
