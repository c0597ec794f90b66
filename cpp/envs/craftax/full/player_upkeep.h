// The player's upkeep in the full Craftax game (craftax 1.6.1's
// update_player_intrinsics, update_plants, drink_potion, boss_logic,
// level_up_attributes, calculate_inventory_achievements and is_game_over):
// sleep and rest, hunger, thirst, fatigue, health and mana; saplings ripening;
// potions; the boss fight's clock; spending xp; achievements read off the
// inventory; the end of an episode. None of them draws random numbers.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/state.h"
#include "envs/craftax/full/tables.h"
#include "envs/craftax/full/utils.h"

namespace envpool_x {
namespace craftax {
namespace full {

// Sleeping, resting and the intrinsics' counters, in float32 as Craftax
// computes them (its products here are exact, so a fused multiply-add or
// not gives the same values).
ENVPOOL_X_HD inline void UpdatePlayerIntrinsics(FullState& s, int32_t action) {
  const int32_t max_energy = MaxEnergy(s);
  s.is_sleeping = s.is_sleeping || (action == kSleep && s.player_energy < max_energy);
  const bool wakes = s.player_energy >= max_energy && s.is_sleeping;
  s.is_sleeping = s.is_sleeping && !wakes;
  s.achievements[kAchWakeUp] = s.achievements[kAchWakeUp] || wakes;

  const float max_health = static_cast<float>(MaxHealth(s));
  s.is_resting = s.is_resting || (action == kRest && s.player_health < max_health);
  const bool rested =
      s.is_resting && (s.player_health >= max_health || s.player_food <= 0 || s.player_drink <= 0);
  s.is_resting = s.is_resting && !rested;

  // Outside the boss fight the counters take food, drink, energy and health.
  const int32_t not_boss = IsFightingBoss(s) ? 0 : 1;
  const float decay = 1.0f - 0.125f * static_cast<float>(s.player_dexterity - 1);
  const float rate = (s.is_sleeping ? 0.5f : 1.0f) * decay;

  float hunger = s.player_hunger + rate;
  if (hunger > 25.0f) {
    s.player_food = Max(s.player_food - not_boss, 0);
    hunger = 0.0f;
  }
  s.player_hunger = hunger;

  float thirst = s.player_thirst + rate;
  if (thirst > 20.0f) {
    s.player_drink = Max(s.player_drink - not_boss, 0);
    thirst = 0.0f;
  }
  s.player_thirst = thirst;

  const int32_t energy = s.player_energy;
  float fatigue;
  if (s.is_sleeping) {
    const float rested_fatigue = s.player_fatigue - 1.0f;
    fatigue = rested_fatigue < 0.0f ? rested_fatigue : 0.0f;
  } else {
    fatigue = s.player_fatigue + decay;
  }
  if (fatigue > 30.0f) {
    s.player_energy = Max(energy - not_boss, 0);
    fatigue = 0.0f;
  }
  if (fatigue < -10.0f) {
    s.player_energy = Min(energy + 1, max_energy);
    fatigue = 0.0f;
  }
  s.player_fatigue = fatigue;

  const bool fed =
      s.player_food > 0 && s.player_drink > 0 && (s.player_energy > 0 || s.is_sleeping);
  const float gain = fed ? (s.is_sleeping ? 2.0f : 1.0f)
                         : (s.is_sleeping ? -0.5f : -1.0f) * static_cast<float>(not_boss);
  float recover = s.player_recover + gain;
  const float health = s.player_health;
  if (recover > 25.0f) {
    const float healed = health + 1.0f;
    s.player_health = healed < max_health ? healed : max_health;
    recover = 0.0f;
  }
  if (recover < -15.0f) {
    s.player_health = health - 1.0f;
    recover = 0.0f;
  }
  s.player_recover = recover;

  const float mana_rate = 1.0f + 0.25f * static_cast<float>(s.player_intelligence - 1);
  float recover_mana = (s.player_recover_mana + (s.is_sleeping ? 2.0f : 1.0f)) * mana_rate;
  if (recover_mana > 30.0f) {
    s.player_mana += 1;
    recover_mana = 0.0f;
  }
  s.player_recover_mana = recover_mana;
}

// Saplings age by a step (a free slot's age resets to 0); at 600 steps the
// plant is ripe. Craftax grows them on the overworld's map whatever the
// player's floor.
ENVPOOL_X_HD inline void UpdatePlants(FullState& s) {
  for (int i = 0; i < kMaxPlants; ++i) {
    s.growing_plants_age[i] = (s.growing_plants_age[i] + 1) * (s.growing_plants_mask[i] ? 1 : 0);
    if (s.growing_plants_age[i] < 600) continue;
    const int x = WriteIndex(s.growing_plants_positions[i][0]);
    const int y = WriteIndex(s.growing_plants_positions[i][1]);
    if (x >= 0 && y >= 0) s.map[0][x][y] = kRipePlant;
  }
}

// Drinks a potion the player has; its colour's effect (potion_mapping, drawn
// for each game) is +8 or -3 health, mana or energy.
ENVPOOL_X_HD inline void DrinkPotion(FullState& s, int32_t action) {
  int potion = -1;
  for (int k = 0; k < kNumPotions; ++k) {
    if (action == kDrinkPotionRed + k && s.inventory.potions[k] > 0) potion = k;
  }
  const bool drinking = potion >= 0;
  // Craftax reads slot -1 (the last) when none is drunk, to no effect.
  const int slot = drinking ? potion : kNumPotions - 1;
  const int32_t effect = s.potion_mapping[slot];
  auto delta = [&](int32_t gain_effect) {
    return drinking ? (effect == gain_effect ? 8 : (effect == gain_effect + 1 ? -3 : 0)) : 0;
  };
  s.inventory.potions[slot] -= drinking ? 1 : 0;
  s.player_health = s.player_health + static_cast<float>(delta(0));
  s.player_mana += delta(2);
  s.player_energy += delta(4);
  s.achievements[kAchDrinkPotion] = s.achievements[kAchDrinkPotion] || drinking;
}

// The necromancer's floor counts down to its next wave; beating it is an
// achievement.
ENVPOOL_X_HD inline void BossLogic(FullState& s) {
  s.achievements[kAchDefeatNecromancer] = s.achievements[kAchDefeatNecromancer] || HasBeatenBoss(s);
  s.boss_timesteps_to_spawn_this_round -= IsFightingBoss(s) ? 1 : 0;
}

// Spends a point of xp on dexterity, strength or intelligence, up to the cap.
ENVPOOL_X_HD inline void LevelUpAttributes(FullState& s, int32_t action, const FullParams& p) {
  const bool can = s.player_xp >= 1;
  const bool dex = can && action == kLevelUpDexterity && s.player_dexterity < p.max_attribute;
  const bool str = can && action == kLevelUpStrength && s.player_strength < p.max_attribute;
  const bool intel =
      can && action == kLevelUpIntelligence && s.player_intelligence < p.max_attribute;
  s.player_dexterity += dex ? 1 : 0;
  s.player_strength += str ? 1 : 0;
  s.player_intelligence += intel ? 1 : 0;
  s.player_xp -= (dex || str || intel) ? 1 : 0;
}

// The achievements the inventory shows, however the things were got (a chest
// may give a diamond pickaxe): collected materials, the bow, arrows, torches,
// and each pickaxe and sword level.
ENVPOOL_X_HD inline void CalculateInventoryAchievements(FullState& s) {
  const Inventory& v = s.inventory;
  bool* a = s.achievements;
  a[kAchCollectWood] = a[kAchCollectWood] || v.wood > 0;
  a[kAchCollectStone] = a[kAchCollectStone] || v.stone > 0;
  a[kAchCollectCoal] = a[kAchCollectCoal] || v.coal > 0;
  a[kAchCollectIron] = a[kAchCollectIron] || v.iron > 0;
  a[kAchCollectDiamond] = a[kAchCollectDiamond] || v.diamond > 0;
  a[kAchCollectRuby] = a[kAchCollectRuby] || v.ruby > 0;
  a[kAchCollectSapphire] = a[kAchCollectSapphire] || v.sapphire > 0;
  a[kAchCollectSapling] = a[kAchCollectSapling] || v.sapling > 0;
  a[kAchFindBow] = a[kAchFindBow] || v.bow > 0;
  a[kAchMakeArrow] = a[kAchMakeArrow] || v.arrows > 0;
  a[kAchMakeTorch] = a[kAchMakeTorch] || v.torches > 0;
  a[kAchMakeWoodPickaxe] = a[kAchMakeWoodPickaxe] || v.pickaxe >= 1;
  a[kAchMakeStonePickaxe] = a[kAchMakeStonePickaxe] || v.pickaxe >= 2;
  a[kAchMakeIronPickaxe] = a[kAchMakeIronPickaxe] || v.pickaxe >= 3;
  a[kAchMakeDiamondPickaxe] = a[kAchMakeDiamondPickaxe] || v.pickaxe >= 4;
  a[kAchMakeWoodSword] = a[kAchMakeWoodSword] || v.sword >= 1;
  a[kAchMakeStoneSword] = a[kAchMakeStoneSword] || v.sword >= 2;
  a[kAchMakeIronSword] = a[kAchMakeIronSword] || v.sword >= 3;
  a[kAchMakeDiamondSword] = a[kAchMakeDiamondSword] || v.sword >= 4;
}

// The episode ends at the time limit, at death, or when the boss is beaten.
ENVPOOL_X_HD inline bool IsGameOver(const FullState& s, const FullParams& p) {
  return s.timestep >= p.max_timesteps || s.player_health <= 0.0f || HasBeatenBoss(s);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
