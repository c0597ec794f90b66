// Placing in the full Craftax game (craftax 1.6.1's place_block and
// add_new_growing_plant): a crafting table, a furnace, stone, a torch (which
// lights the cells around it) or a sapling, on the cell the player faces.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/player_tables.h"
#include "envs/craftax/full/state.h"
#include "envs/craftax/full/tables.h"
#include "envs/craftax/full/utils.h"

namespace envpool_x {
namespace craftax {
namespace full {

// Starts a growing plant at (x, y) in the first free plant slot; nothing when
// every slot is taken.
ENVPOOL_X_HD inline void AddNewGrowingPlant(FullState& s, int32_t x, int32_t y) {
  for (int i = 0; i < kMaxPlants; ++i) {
    if (!s.growing_plants_mask[i]) {
      s.growing_plants_positions[i][0] = x;
      s.growing_plants_positions[i][1] = y;
      s.growing_plants_age[i] = 0;
      s.growing_plants_mask[i] = true;
      return;
    }
  }
}

// Adds a torch's light around (x, y) on the player's floor, each cell capped
// at 1; cells off the map get none.
ENVPOOL_X_HD inline void LightTorch(FullState& s, int32_t x, int32_t y) {
  float (&light)[kMapSize][kMapSize] = s.light_map[s.player_level];
  for (int32_t dx = -kTorchReach; dx <= kTorchReach; ++dx) {
    for (int32_t dy = -kTorchReach; dy <= kTorchReach; ++dy) {
      const int32_t cx = x + dx, cy = y + dy;
      if (!InBounds(cx, cy)) continue;
      const float lit = TorchLight(dx, dy) + light[cx][cy];
      light[cx][cy] = lit < 0.0f ? 0.0f : (lit > 1.0f ? 1.0f : lit);
    }
  }
}

ENVPOOL_X_HD inline void PlaceBlock(FullState& s, int32_t action) {
  const int32_t row = DirectionRow(s.player_direction);
  const int32_t x = s.player_position[0] + DirectionDx(row);
  const int32_t y = s.player_position[1] + DirectionDy(row);
  // Craftax keeps every change only when the target is on the map and no mob
  // (nor the player) stands there.
  if (!InBounds(x, y) || IsInMob(s, x, y)) return;
  const int level = s.player_level;
  int8_t& block = s.map[level][x][y];
  int8_t& item = s.item_map[level][x][y];
  const bool blocked = IsSolidBlock(block) || item != kItemNone;
  Inventory& v = s.inventory;
  switch (action) {
    case kPlaceTable:
      if (!blocked && v.wood >= 2) {
        block = kCraftingTable;
        v.wood -= 2;
        s.achievements[kAchPlaceTable] = true;
      }
      break;
    case kPlaceFurnace:
      if (!blocked && v.stone > 0) {
        block = kFurnace;
        v.stone -= 1;
        s.achievements[kAchPlaceFurnace] = true;
      }
      break;
    case kPlaceStone:
      // Stone may also fill water (even under an item).
      if ((block == kWater || !blocked) && v.stone > 0) {
        block = kStone;
        v.stone -= 1;
        s.achievements[kAchPlaceStone] = true;
      }
      break;
    case kPlaceTorch:
      if (CanPlaceItemOn(block) && item == kItemNone && v.torches > 0) {
        item = kItemTorch;
        v.torches -= 1;
        LightTorch(s, x, y);
        s.achievements[kAchPlaceTorch] = true;
      }
      break;
    case kPlacePlant:
      if (block == kGrass && v.sapling > 0 && item == kItemNone) {
        block = kPlant;
        v.sapling -= 1;
        s.achievements[kAchPlacePlant] = true;
        AddNewGrowingPlant(s, x, y);
      }
      break;
    default:
      break;
  }
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
