// Crafting in the full Craftax game (craftax 1.6.1's do_crafting): tools,
// weapons, armour, arrows and torches, at a crafting table (iron also needs a
// furnace). Only the armours unlock an achievement here; the others come
// from the inventory at the end of the step (CalculateInventoryAchievements).
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/state.h"
#include "envs/craftax/full/tables.h"
#include "envs/craftax/full/utils.h"

namespace envpool_x {
namespace craftax {
namespace full {

// The first armour slot below `level` (slot 0 when there is none, as
// Craftax's argmax gives); *any says whether there is one.
ENVPOOL_X_HD inline int ArmourSlotBelow(const Inventory& inv, int32_t level, bool* any) {
  *any = false;
  int slot = 0;
  for (int i = kNumArmour - 1; i >= 0; --i) {
    if (inv.armour[i] < level) {
      slot = i;
      *any = true;
    }
  }
  return slot;
}

ENVPOOL_X_HD inline void DoCrafting(FullState& s, int32_t action) {
  const bool table = IsNearBlock(s, kCraftingTable);
  const bool furnace = IsNearBlock(s, kFurnace);
  Inventory& v = s.inventory;
  // One action crafts one thing: Craftax's chain of recipes, each reading the
  // inventory the previous left, changes it at most once.
  switch (action) {
    case kMakeWoodPickaxe:
      if (v.wood >= 1 && table && v.pickaxe < 1) {
        v.wood -= 1;
        v.pickaxe = 1;
      }
      break;
    case kMakeStonePickaxe:
      if (v.wood >= 1 && v.stone >= 1 && table && v.pickaxe < 2) {
        v.stone -= 1;
        v.wood -= 1;
        v.pickaxe = 2;
      }
      break;
    case kMakeIronPickaxe:
      if (v.wood >= 1 && v.stone >= 1 && v.iron >= 1 && v.coal >= 1 && furnace && table &&
          v.pickaxe < 3) {
        v.iron -= 1;
        v.wood -= 1;
        v.stone -= 1;
        v.coal -= 1;
        v.pickaxe = 3;
      }
      break;
    case kMakeDiamondPickaxe:
      if (v.wood >= 1 && v.diamond >= 3 && table && v.pickaxe < 4) {
        v.diamond -= 3;
        v.wood -= 1;
        v.pickaxe = 4;
      }
      break;
    case kMakeWoodSword:
      if (v.wood >= 1 && table && v.sword < 1) {
        v.wood -= 1;
        v.sword = 1;
      }
      break;
    case kMakeStoneSword:
      if (v.stone >= 1 && v.wood >= 1 && table && v.sword < 2) {
        v.wood -= 1;
        v.stone -= 1;
        v.sword = 2;
      }
      break;
    case kMakeIronSword:
      if (v.iron >= 1 && v.wood >= 1 && v.stone >= 1 && v.coal >= 1 && furnace && table &&
          v.sword < 3) {
        v.wood -= 1;
        v.iron -= 1;
        v.stone -= 1;
        v.coal -= 1;
        v.sword = 3;
      }
      break;
    case kMakeDiamondSword:
      if (v.diamond >= 2 && v.wood >= 1 && table && v.sword < 4) {
        v.wood -= 1;
        v.diamond -= 2;
        v.sword = 4;
      }
      break;
    case kMakeIronArmour: {
      bool any = false;
      const int slot = ArmourSlotBelow(v, 1, &any);
      if (any && v.iron >= 3 && v.coal >= 3 && table && furnace) {
        v.iron -= 3;
        v.coal -= 3;
        v.armour[slot] = 1;
        s.achievements[kAchMakeIronArmour] = true;
      }
      break;
    }
    case kMakeDiamondArmour: {
      bool any = false;
      const int slot = ArmourSlotBelow(v, 2, &any);
      if (any && v.diamond >= 3 && table) {
        v.diamond -= 3;
        v.armour[slot] = 2;
        s.achievements[kAchMakeDiamondArmour] = true;
      }
      break;
    }
    case kMakeArrow:
      if (v.stone >= 1 && v.wood >= 1 && table && v.arrows < 99) {
        v.wood -= 1;
        v.stone -= 1;
        v.arrows += 2;
      }
      break;
    case kMakeTorch:
      if (v.coal >= 1 && v.wood >= 1 && table && v.torches < 99) {
        v.wood -= 1;
        v.coal -= 1;
        v.torches += 4;
      }
      break;
    default:
      break;
  }
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
