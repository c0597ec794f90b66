// Craftax-Classic's player actions: crafting, the DO action (attacking,
// mining, drinking, eating), placing blocks and moving, each as Craftax 1.6.1
// orders and gates them (including its quirks, which the comments name).
#pragma once

#include <cstdint>

#include "envs/craftax/classic_state.h"

namespace envpool_x {
namespace craftax {

ENVPOOL_X_HD inline void Unlock(ClassicState& s, int achievement, bool done) {
  s.achievements[achievement] = s.achievements[achievement] || done;
}

// Any of the 8 cells around the player (in the map) holds `block`.
ENVPOOL_X_HD inline bool IsNearBlock(const ClassicState& s, int8_t block) {
  for (int dx = -1; dx <= 1; ++dx) {
    for (int dy = -1; dy <= 1; ++dy) {
      const int32_t x = s.player_x + dx;
      const int32_t y = s.player_y + dy;
      if ((dx != 0 || dy != 0) && InBounds(x, y) && BlockAt(s, x, y) == block) return true;
    }
  }
  return false;
}

ENVPOOL_X_HD inline void DoCrafting(ClassicState& s, int32_t action) {
  const bool table = IsNearBlock(s, kCraftingTable);
  const bool furnace = IsNearBlock(s, kFurnace);
  int32_t* inv = s.inventory;
  if (action == kMakeWoodPickaxe && table && inv[kWoodItem] >= 1) {
    inv[kWoodItem] -= 1;
    inv[kWoodPickaxe] += 1;
    Unlock(s, kAchMakeWoodPickaxe, true);
  }
  if (action == kMakeStonePickaxe && table && inv[kWoodItem] >= 1 && inv[kStoneItem] >= 1) {
    inv[kWoodItem] -= 1;
    inv[kStoneItem] -= 1;
    inv[kStonePickaxe] += 1;
    Unlock(s, kAchMakeStonePickaxe, true);
  }
  const bool iron_tools = inv[kWoodItem] >= 1 && inv[kStoneItem] >= 1 && inv[kIronItem] >= 1 &&
                          inv[kCoalItem] >= 1 && table && furnace;
  if (action == kMakeIronPickaxe && iron_tools) {
    inv[kWoodItem] -= 1;
    inv[kStoneItem] -= 1;
    inv[kIronItem] -= 1;
    inv[kCoalItem] -= 1;
    inv[kIronPickaxe] += 1;
    Unlock(s, kAchMakeIronPickaxe, true);
  }
  if (action == kMakeWoodSword && table && inv[kWoodItem] >= 1) {
    inv[kWoodItem] -= 1;
    inv[kWoodSword] += 1;
    Unlock(s, kAchMakeWoodSword, true);
  }
  if (action == kMakeStoneSword && table && inv[kWoodItem] >= 1 && inv[kStoneItem] >= 1) {
    inv[kWoodItem] -= 1;
    inv[kStoneItem] -= 1;
    inv[kStoneSword] += 1;
    Unlock(s, kAchMakeStoneSword, true);
  }
  const bool iron_sword = inv[kWoodItem] >= 1 && inv[kStoneItem] >= 1 && inv[kIronItem] >= 1 &&
                          inv[kCoalItem] >= 1 && table && furnace;
  if (action == kMakeIronSword && iron_sword) {
    inv[kWoodItem] -= 1;
    inv[kStoneItem] -= 1;
    inv[kIronItem] -= 1;
    inv[kCoalItem] -= 1;
    inv[kIronSword] += 1;
    Unlock(s, kAchMakeIronSword, true);
  }
}

ENVPOOL_X_HD inline int32_t AttackDamage(const ClassicState& s) {
  int32_t d = 1;
  const int32_t wood = 2 * s.inventory[kWoodSword];
  const int32_t stone = 3 * s.inventory[kStoneSword];
  const int32_t iron = 5 * s.inventory[kIronSword];
  d = wood > d ? wood : d;
  d = stone > d ? stone : d;
  return iron > d ? iron : d;
}

// Hits the first live mob of a kind at (x, y). Craftax then sets every slot's
// mask to health > 0, which revives despawned mobs (their health is kept):
// copied as it is. Returns {attacked, killed}.
template <int N>
ENVPOOL_X_HD inline void AttackMobs(MobSlots<N>& mobs, int32_t x, int32_t y, int32_t damage,
                                    bool* attacked, bool* killed) {
  int target = -1;
  for (int i = 0; i < N && target < 0; ++i) {
    if (mobs.mask[i] && mobs.x[i] == x && mobs.y[i] == y) target = i;
  }
  const bool old_mask = mobs.mask[target < 0 ? 0 : target];
  if (target >= 0) mobs.health[target] -= damage;
  for (int i = 0; i < N; ++i) mobs.mask[i] = mobs.health[i] > 0;
  *attacked = target >= 0;
  *killed = old_mask && !mobs.mask[target < 0 ? 0 : target];
}

// The DO action on the facing cell; `sapling_draw` is the step's first draw
// (a grass cell gives a sapling when it is below 0.1).
ENVPOOL_X_HD inline void DoInteract(ClassicState& s, float sapling_draw) {
  const int32_t bx = s.player_x + ActionDx(s.player_direction);
  const int32_t by = s.player_y + ActionDy(s.player_direction);
  const int32_t damage = AttackDamage(s);
  bool hit_zombie, killed_zombie, hit_cow, killed_cow, hit_skeleton, killed_skeleton;
  AttackMobs(s.zombies, bx, by, damage, &hit_zombie, &killed_zombie);
  Unlock(s, kAchDefeatZombie, killed_zombie);
  AttackMobs(s.cows, bx, by, damage, &hit_cow, &killed_cow);
  Unlock(s, kAchEatCow, killed_cow);
  if (killed_cow) {
    s.food = s.food + 6 < 9 ? s.food + 6 : 9;
    s.hunger = 0.0f;
  }
  AttackMobs(s.skeletons, bx, by, damage, &hit_skeleton, &killed_skeleton);
  Unlock(s, kAchDefeatSkeleton, killed_skeleton);
  const bool killed = killed_zombie || killed_cow || killed_skeleton;
  SetMob(s, bx, by, MobAt(s, bx, by) && !killed);

  // Blocks: only in the map, and not when a mob was hit.
  if (!InBounds(bx, by) || hit_zombie || hit_cow || hit_skeleton) return;
  const int8_t block = s.map[bx][by];
  int32_t* inv = s.inventory;
  if (block == kTree) {
    s.map[bx][by] = kGrass;  // Craftax-Classic 1.6.1 turns a cut tree into grass
    inv[kWoodItem] += 1;
    Unlock(s, kAchCollectWood, true);
  }
  struct Ore {
    int8_t block;
    int tool;
    int item;
    int achievement;
  };
  const Ore ores[4] = {{kStone, kWoodPickaxe, kStoneItem, kAchCollectStone},
                       {kCoal, kWoodPickaxe, kCoalItem, kAchCollectCoal},
                       {kIron, kStonePickaxe, kIronItem, kAchCollectIron},
                       {kDiamond, kIronPickaxe, kDiamondItem, kAchCollectDiamond}};
  for (const Ore& ore : ores) {
    if (block == ore.block && inv[ore.tool] > 0) {
      s.map[bx][by] = kPath;
      inv[ore.item] += 1;
      Unlock(s, ore.achievement, true);
    }
  }
  if (block == kGrass && sapling_draw < 0.1f) {
    inv[kSaplingItem] += 1;
    Unlock(s, kAchCollectSapling, true);
  }
  if (block == kWater) {
    s.drink = s.drink + 1 < 9 ? s.drink + 1 : 9;
    s.thirst = 0.0f;
    Unlock(s, kAchCollectDrink, true);
  }
  if (block == kRipePlant) {
    s.map[bx][by] = kPlant;
    s.food = s.food + 4 < 9 ? s.food + 4 : 9;
    s.hunger = 0.0f;
    Unlock(s, kAchEatPlant, true);
    // The first plant slot at this cell (dead or alive), else slot 0.
    int slot = 0;
    for (int i = kMaxPlants - 1; i >= 0; --i) {
      if (s.plant_x[i] == bx && s.plant_y[i] == by) slot = i;
    }
    s.plant_age[slot] = 0;
  }
}

ENVPOOL_X_HD inline void PlaceBlock(ClassicState& s, int32_t action) {
  const int32_t bx = s.player_x + ActionDx(s.player_direction);
  const int32_t by = s.player_y + ActionDy(s.player_direction);
  if (!InBounds(bx, by) || InMob(s, bx, by)) return;
  const int8_t block = s.map[bx][by];
  int32_t* inv = s.inventory;
  if (action == kPlaceTable && !IsSolid(block) && inv[kWoodItem] >= 2) {
    s.map[bx][by] = kCraftingTable;
    inv[kWoodItem] -= 2;
    Unlock(s, kAchPlaceTable, true);
  }
  if (action == kPlaceFurnace && !IsSolid(block) && inv[kStoneItem] > 0) {
    s.map[bx][by] = kFurnace;
    inv[kStoneItem] -= 1;
    Unlock(s, kAchPlaceFurnace, true);
  }
  if (action == kPlaceStone && (block == kWater || !IsSolid(block)) && inv[kStoneItem] > 0) {
    s.map[bx][by] = kStone;
    inv[kStoneItem] -= 1;
    Unlock(s, kAchPlaceStone, true);
  }
  if (action == kPlacePlant && s.map[bx][by] == kGrass && inv[kSaplingItem] > 0) {
    s.map[bx][by] = kPlant;  // placed even when every plant slot is taken
    inv[kSaplingItem] -= 1;
    Unlock(s, kAchPlacePlant, true);
    for (int i = 0; i < kMaxPlants; ++i) {
      if (!s.plant_mask[i]) {
        s.plant_x[i] = bx;
        s.plant_y[i] = by;
        s.plant_age[i] = 0;
        s.plant_mask[i] = true;
        break;
      }
    }
  }
}

// Moves of actions 1-4. A move into lava is always taken; Craftax reads the
// target cell with JAX's index wrapping, so lava across the map's edge lets
// the player step outside the map (where the game then ends).
ENVPOOL_X_HD inline void MovePlayer(ClassicState& s, int32_t action) {
  const int32_t dx = ActionDx(action);
  const int32_t dy = ActionDy(action);
  const int32_t x = s.player_x + dx;
  const int32_t y = s.player_y + dy;
  const bool valid = IsFreeCell(s, x, y) || BlockAt(s, x, y) == kLava;
  if (valid) {
    s.player_x = x;
    s.player_y = y;
  }
  if (dx != 0 || dy != 0) s.player_direction = action;
}

}  // namespace craftax
}  // namespace envpool_x
