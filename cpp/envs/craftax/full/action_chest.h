// Opening a chest in the full Craftax game (craftax 1.6.1's
// add_items_from_chest): torches, one kind of ore, a potion, arrows and
// maybe a better tool, the bow in the dungeon's first chest and a book in the
// first chests of the sewers and the vault. Craftax draws every loot outcome
// whether or not a chest is opened, so this always takes kChestDraws draws.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/draws.h"
#include "envs/craftax/full/state.h"

namespace envpool_x {
namespace craftax {
namespace full {

// Torch (chance, amount), ore (chance, kind, five amounts: Craftax draws one
// amount per ore kind), potion (chance, kind, amount), arrows (chance,
// amount), tool (chance, kind, pickaxe level, sword level).
constexpr int kChestDraws = 2 + 7 + 3 + 2 + 4;

// The chances of each ore kind (coal, iron, diamond, sapphire, ruby) and of
// each tool level 1..4, as float32 weights.
constexpr float kChestOreWeights[5] = {0.3f, 0.3f, 0.15f, 0.125f, 0.125f};
constexpr float kChestToolWeights[4] = {0.4f, 0.3f, 0.2f, 0.1f};

// The inventory `inv` after the chest's loot, from the kChestDraws uniforms
// `u` in Craftax's order. `s` (before the chest is marked opened) decides the
// special loot; nothing changes unless `opening`.
ENVPOOL_X_HD inline void AddItemsFromChestWith(const FullState& s, Inventory& inv, bool opening,
                                               const float* u) {
  const int32_t open = opening ? 1 : 0;
  const bool torch = u[0] < 0.6f;
  const int32_t torch_amount = RandInt(u[1], 4, 8) * torch;

  const bool ore = u[2] < 0.6f;
  const int ore_kind = WeightedIndex(u[3], kChestOreWeights, 5);
  const int32_t coal = RandInt(u[4], 1, 4) * (ore_kind == 0) * ore;
  const int32_t iron = RandInt(u[5], 1, 3) * (ore_kind == 1) * ore;
  const int32_t diamond = RandInt(u[6], 1, 2) * (ore_kind == 2) * ore;
  const int32_t sapphire = RandInt(u[7], 1, 2) * (ore_kind == 3) * ore;
  const int32_t ruby = RandInt(u[8], 1, 2) * (ore_kind == 4) * ore;

  const bool potion = u[9] < 0.5f;
  const int32_t potion_kind = RandInt(u[10], 0, kNumPotions);
  const int32_t potion_amount = RandInt(u[11], 1, 3);

  const bool arrows = u[12] < 0.25f;
  const int32_t arrows_amount = RandInt(u[13], 1, 5) * arrows;

  const bool tool = u[14] < 0.2f;
  const int32_t tool_kind = RandInt(u[15], 0, 2);
  const bool pickaxe = tool && tool_kind == 0 && opening;
  const int32_t pickaxe_level = (WeightedIndex(u[16], kChestToolWeights, 4) + 1) * pickaxe;
  const bool sword = tool && tool_kind == 1 && opening;
  const int32_t sword_level = (WeightedIndex(u[17], kChestToolWeights, 4) + 1) * sword;

  const bool first_chest = !s.chests_opened[LevelRead(s.player_level)];
  const bool bow = opening && s.player_level == 1 && first_chest;
  const bool book = first_chest && (s.player_level == 3 || s.player_level == 4);

  inv.torches += torch_amount * open;
  inv.coal += coal * open;
  inv.iron += iron * open;
  inv.diamond += diamond * open;
  inv.sapphire += sapphire * open;
  inv.ruby += ruby * open;
  inv.arrows += arrows_amount * open;
  if (pickaxe) inv.pickaxe = Max(pickaxe_level, inv.pickaxe);
  if (sword) inv.sword = Max(sword_level, inv.sword);
  inv.potions[potion_kind] += potion_amount * (potion && opening);
  if (bow) inv.bow = 1;
  inv.books += (book && opening) ? 1 : 0;
}

// The same, taking its kChestDraws draws from `draws`.
template <class Draws>
ENVPOOL_X_HD inline void AddItemsFromChest(const FullState& s, Inventory& inv, bool opening,
                                           Draws& draws) {
  float u[kChestDraws];
  for (float& v : u) v = draws.Next();
  AddItemsFromChestWith(s, inv, opening, u);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
