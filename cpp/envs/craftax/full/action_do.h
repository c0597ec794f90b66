// The DO action of the full Craftax game (craftax 1.6.1's do_action): attack
// the mob in front, else mine, collect, drink, eat or open what is there, and
// damage the necromancer when it is vulnerable.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/action_chest.h"
#include "envs/craftax/full/state.h"
#include "envs/craftax/full/tables.h"
#include "envs/craftax/full/utils.h"

namespace envpool_x {
namespace craftax {
namespace full {

// The sapling's chance, then the chest's loot: Craftax's traced do_action
// takes these whatever the action and the block.
constexpr int kDoActionDraws = 1 + kChestDraws;

// The cell the player faces: DIRECTIONS read at player_direction as JAX's
// gather reads its 16 rows (a negative index counts from the end, then clamps).
ENVPOOL_X_HD inline void FacingCell(const FullState& s, int32_t* x, int32_t* y) {
  const int32_t d = DirectionRow(s.player_direction);
  *x = s.player_position[0] + DirectionDx(d);
  *y = s.player_position[1] + DirectionDy(d);
}

// Craftax's update_plants_with_eat: the growing plant at (x, y) starts growing
// again (the first slot whose position matches, slot 0 when none does).
ENVPOOL_X_HD inline void UpdatePlantsWithEat(FullState& s, int32_t x, int32_t y) {
  int index = 0;
  for (int i = kMaxPlants - 1; i >= 0; --i) {
    if (s.growing_plants_positions[i][0] == x && s.growing_plants_positions[i][1] == y) index = i;
  }
  s.growing_plants_age[index] = 0;
}

// DO on `block` at (x, y), once no mob was hit there and the cell lies in the
// map; `u` holds the kDoActionDraws uniforms. Runs before the floor's chest
// is marked opened (the special loot reads that flag).
ENVPOOL_X_HD inline void DoOnBlock(FullState& s, int32_t x, int32_t y, int8_t block, bool boss_hit,
                                   const float* u) {
  Inventory& inv = s.inventory;
  const int32_t pickaxe = inv.pickaxe;
  int8_t replaced = block;
  switch (block) {
    case kTree:
      replaced = kGrass, ++inv.wood;
      break;
    case kFireTree:
      replaced = kFireGrass, ++inv.wood;
      break;
    case kIceShrub:
      replaced = kIceGrass, ++inv.wood;
      break;
    case kStone:
    case kStalagmite:
      if (pickaxe >= 1) replaced = kPath, ++inv.stone;
      break;
    case kFurnace:
    case kCraftingTable:
      replaced = kPath;
      break;
    case kCoal:
      if (pickaxe >= 1) replaced = kPath, ++inv.coal;
      break;
    case kIron:
      if (pickaxe >= 2) replaced = kPath, ++inv.iron;
      break;
    case kDiamond:
      if (pickaxe >= 3) replaced = kPath, ++inv.diamond;
      break;
    case kSapphire:
      if (pickaxe >= 4) replaced = kPath, ++inv.sapphire;
      break;
    case kRuby:
      if (pickaxe >= 4) replaced = kPath, ++inv.ruby;
      break;
    case kGrass:
      if (u[0] < 0.1f) ++inv.sapling;
      break;
    case kWater:
    case kFountain:
      s.player_drink = Min(MaxDrink(s), s.player_drink + 1);
      s.player_thirst = 0.0f;
      s.achievements[kAchCollectDrink] = true;
      break;
    case kRipePlant:
      replaced = kPlant;
      s.player_food = Min(MaxFood(s), s.player_food + 4);
      s.player_hunger = 0.0f;
      s.achievements[kAchEatPlant] = true;
      UpdatePlantsWithEat(s, x, y);
      break;
    case kChest:
      replaced = kPath;
      s.achievements[kAchOpenChest] = true;
      break;
    default:
      break;
  }
  // The loot's chances are drawn for every block; only a chest keeps it.
  AddItemsFromChestWith(s, inv, block == kChest, u + 1);
  if (boss_hit) s.achievements[kAchDamageNecromancer] = true;
  SetBlock(s, x, y, replaced);
}

// Craftax's do_action for `action`: nothing changes unless it is DO, but the
// kDoActionDraws draws are taken either way.
template <class Draws>
ENVPOOL_X_HD inline void DoAction(FullState& s, int32_t action, Draws& draws) {
  float u[kDoActionDraws];
  for (float& v : u) v = draws.Next();
  if (action != kDo) return;

  int32_t x, y;
  FacingCell(s, &x, &y);
  float damage[3];
  PlayerDamageVector(s, damage);
  bool killed = false;
  const bool hit_mob = AttackMob(s, x, y, damage, true, &killed);

  const int8_t block = BlockAt(s, x, y);
  const int level = LevelRead(s.player_level);
  const bool opening = block == kChest;
  // The boss and the chest flags change even where the block's own effects
  // are dropped (a mob in front, or a cell outside the map).
  const bool boss_hit = block == kNecromancer && IsBossVulnerable(s) && IsFightingBoss(s);
  if (InBounds(x, y) && !hit_mob) DoOnBlock(s, x, y, block, boss_hit, u);
  s.chests_opened[level] = s.chests_opened[level] || opening;
  s.boss_progress += boss_hit ? 1 : 0;
  if (boss_hit) s.boss_timesteps_to_spawn_this_round = kBossFightSpawnTurns;
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
