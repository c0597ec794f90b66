// One full Craftax step in Craftax 1.6.1's order (game_logic.craftax_step):
// the floor change, crafting, the DO action, placing, shooting, casting,
// potions, books, enchanting, the boss, attributes, moving, the mobs, spawns,
// plants, intrinsics, caps and inventory achievements. The reward is the
// rewards of the achievements unlocked plus a tenth of the health change.
#pragma once

#include <cmath>
#include <cstdint>

#include "envs/craftax/classic_step.h"
#include "envs/craftax/full/action_do.h"
#include "envs/craftax/full/action_magic.h"
#include "envs/craftax/full/mobs.h"
#include "envs/craftax/full/player_craft.h"
#include "envs/craftax/full/player_move.h"
#include "envs/craftax/full/player_place.h"
#include "envs/craftax/full/player_upkeep.h"
#include "envs/craftax/full/state.h"
#include "envs/craftax/full/tables.h"
#include "envs/craftax/full/utils.h"

namespace envpool_x {
namespace craftax {
namespace full {

ENVPOOL_X_HD inline int AchievementRewardTotal(const FullState& s) {
  int total = 0;
  for (int a = 0; a < kNumAchievements; ++a) total += s.achievements[a] ? AchievementReward(a) : 0;
  return total;
}

// Steps `s` with `action` (0..42), its random draws from `draws`; returns the
// reward. The new state_rng is the caller's (the env's stream, or a test's).
// laps(part) is called as each part ends (the profiler's: classic_profile.h;
// NoLaps, the default, compiles away).
template <class Draws, class Laps = NoLaps>
ENVPOOL_X_HD inline float FullStep(FullState& s, int32_t action, Draws& draws, const FullParams& p,
                                   Laps laps = Laps{}) {
  const int reward_before = AchievementRewardTotal(s);
  const float health_before = s.player_health;
  if (s.is_sleeping || s.is_resting) action = kNoop;
  ChangeFloor(s, action, p);
  DoCrafting(s, action);
  DoAction(s, action, draws);
  PlaceBlock(s, action);
  ShootProjectile(s, action);
  CastSpell(s, action);
  DrinkPotion(s, action);
  ReadBook(s, action, draws);
  Enchant(s, action, draws);
  BossLogic(s);
  LevelUpAttributes(s, action, p);
  MovePlayer(s, action, p);
  laps(kPartPlayer);
  UpdateMobs(s, draws, p);
  laps(kPartMobs);
  SpawnMobs(s, draws, p);
  laps(kPartSpawns);
  UpdatePlants(s);
  UpdatePlayerIntrinsics(s, action);
  ClipInventoryAndIntrinsics(s, p);
  CalculateInventoryAchievements(s);
  const int unlocked = AchievementRewardTotal(s) - reward_before;
  s.timestep += 1;
  s.light_level = craftax::LightLevel(s.timestep, p.day_length);
  laps(kPartUpkeep);
  // One fused multiply-add, as XLA's CPU compiler evaluates Craftax's sum.
  return std::fma(s.player_health - health_before, 0.1f, static_cast<float>(unlocked));
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
