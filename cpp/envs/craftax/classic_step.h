// One Craftax-Classic step in Craftax 1.6.1's order: crafting, DO, placing,
// moving, mobs, spawns, plants, intrinsics, inventory cap, health; the reward
// is the achievements unlocked plus a tenth of the health change.
#pragma once

#include <cmath>
#include <cstdint>

#include "envs/craftax/classic_draws.h"
#include "envs/craftax/classic_mobs.h"
#include "envs/craftax/classic_player.h"
#include "envs/craftax/classic_state.h"

namespace envpool_x {
namespace craftax {

// Daylight in [0, 1] at `timestep`, in float32 as XLA's CPU compiler
// evaluates Craftax's formula: the division by the day's length as a multiply
// by its reciprocal, and 1 - c * c^2 as one fused multiply-add. XLA's cos can
// still differ from libm's by one unit in the last place (2 of 300 phases of
// the default day).
ENVPOOL_X_HD inline float LightLevel(int32_t timestep, int32_t day_length) {
  const float day = static_cast<float>(timestep) * (1.0f / static_cast<float>(day_length));
  const float progress = std::fmod(day, 1.0f) + 0.3f;
  const float c = std::fabs(std::cos(3.14159265358979f * progress));
  return std::fma(-c, c * c, 1.0f);
}

ENVPOOL_X_HD inline void UpdateIntrinsics(ClassicState& s, int32_t action) {
  s.is_sleeping = s.is_sleeping || (action == kSleep && s.energy < 9);
  const bool waking = s.energy >= 9 && s.is_sleeping;
  s.is_sleeping = s.is_sleeping && !waking;
  Unlock(s, kAchWakeUp, waking);
  const float rate = s.is_sleeping ? 0.5f : 1.0f;
  s.hunger += rate;
  if (s.hunger > 25.0f) {
    s.food = Max(s.food - 1, 0);
    s.hunger = 0.0f;
  }
  s.thirst += rate;
  if (s.thirst > 20.0f) {
    s.drink = Max(s.drink - 1, 0);
    s.thirst = 0.0f;
  }
  s.fatigue =
      s.is_sleeping ? (s.fatigue - 1.0f < 0.0f ? s.fatigue - 1.0f : 0.0f) : s.fatigue + 1.0f;
  if (s.fatigue > 30.0f) {
    s.energy = Max(s.energy - 1, 0);
    s.fatigue = 0.0f;
  }
  if (s.fatigue < -10.0f) {
    s.energy = Min(s.energy + 1, 9);
    s.fatigue = 0.0f;
  }
  const bool fed = s.food > 0 && s.drink > 0 && (s.energy > 0 || s.is_sleeping);
  s.recover += fed ? (s.is_sleeping ? 2.0f : 1.0f) : (s.is_sleeping ? -0.5f : -1.0f);
  if (s.recover > 25.0f) {
    s.health = Min(s.health + 1, 9);
    s.recover = 0.0f;
  }
  if (s.recover < -15.0f) {
    s.health -= 1;
    s.recover = 0.0f;
  }
}

ENVPOOL_X_HD inline void GrowPlants(ClassicState& s) {
  for (int i = 0; i < kMaxPlants; ++i) {
    s.plant_age[i] = s.plant_mask[i] ? s.plant_age[i] + 1 : 0;
    if (s.plant_age[i] >= 600) SetBlock(s, s.plant_x[i], s.plant_y[i], kRipePlant);
  }
}

ENVPOOL_X_HD inline bool IsGameOver(const ClassicState& s, const ClassicParams& p) {
  return s.timestep >= p.max_timesteps || BlockAt(s, s.player_x, s.player_y) == kLava ||
         s.health <= 0;
}

// The parts of an env's step, for the profiler (classic_profile.h): ClassicStep
// calls laps(part) as each of its parts ends (the env laps the step's random
// draws and the observation). NoLaps, the default, compiles away.
enum StepPart : int {
  kPartDraws,
  kPartPlayer,
  kPartMobs,
  kPartSpawns,
  kPartUpkeep,
  kPartObs,
  kNumStepParts
};
struct NoLaps {
  ENVPOOL_X_HD void operator()(StepPart) const {}
};

// Steps `s` with `action` (0..16), taking kDrawsPerStep draws; returns the reward.
template <class Draws, class Laps = NoLaps>
ENVPOOL_X_HD inline float ClassicStep(ClassicState& s, int32_t action, Draws& draws,
                                      const ClassicParams& p, Laps laps = Laps{}) {
  int unlocked_before = 0;
  for (bool a : s.achievements) unlocked_before += a;
  const int32_t health_before = s.health;
  if (s.is_sleeping) action = kNoop;
  DoCrafting(s, action);
  const float sapling_draw = draws.Next();
  if (action == kDo) DoInteract(s, sapling_draw);
  PlaceBlock(s, action);
  MovePlayer(s, action);
  laps(kPartPlayer);
  MoveZombies(s, draws, p);
  MoveCows(s, draws, p);
  MoveSkeletons(s, draws, p);
  MoveArrows(s);
  laps(kPartMobs);
  SpawnMobs(s, draws, p);
  laps(kPartSpawns);
  GrowPlants(s);
  UpdateIntrinsics(s, action);
  for (int32_t& item : s.inventory) item = Min(item, 9);
  if (BlockAt(s, s.player_x, s.player_y) == kLava) s.health = 0;
  s.health = Max(s.health, 0);
  int unlocked = 0;
  for (bool a : s.achievements) unlocked += a;
  s.timestep += 1;
  s.light_level = LightLevel(s.timestep, p.day_length);
  laps(kPartUpkeep);
  // One fused multiply-add, as XLA's CPU compiler evaluates Craftax's sum.
  return std::fma(static_cast<float>(s.health - health_before), 0.1f,
                  static_cast<float>(unlocked - unlocked_before));
}

}  // namespace craftax
}  // namespace envpool_x
