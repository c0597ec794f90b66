// The full Craftax game's ranged and magic actions (craftax 1.6.1's
// shoot_projectile, cast_spell, read_book and enchant): arrows from the bow,
// fireballs and iceballs, learning a spell from a book, and enchanting the
// sword, the bow or a piece of armour at an enchantment table.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "envs/craftax/full/action_chest.h"
#include "envs/craftax/full/action_do.h"
#include "envs/craftax/full/draws.h"
#include "envs/craftax/full/state.h"
#include "envs/craftax/full/tables.h"
#include "envs/craftax/full/utils.h"

namespace envpool_x {
namespace craftax {
namespace full {

// Draws taken by read_book (which spell) and enchant (which armour piece),
// whatever the action.
constexpr int kReadBookDraws = 1;
constexpr int kEnchantDraws = 1;

constexpr int32_t kSpellManaCost = 2;
constexpr int32_t kEnchantManaCost = 9;

// Whether the player's floor has a free player-projectile slot.
ENVPOOL_X_HD inline bool HasFreeProjectileSlot(const FullState& s) {
  const int level = LevelRead(s.player_level);
  int live = 0;
  for (bool m : s.player_projectiles.mask[level]) live += m;
  return live < kMaxPlayerProjectiles;
}

// The player's facing direction as DIRECTIONS gives it.
ENVPOOL_X_HD inline void FacingDirection(const FullState& s, int32_t* dx, int32_t* dy) {
  int32_t x, y;
  FacingCell(s, &x, &y);
  *dx = x - s.player_position[0];
  *dy = y - s.player_position[1];
}

// Craftax's shoot_projectile: an arrow from the player's cell, in its facing
// direction, for one arrow from the inventory.
ENVPOOL_X_HD inline void ShootProjectile(FullState& s, int32_t action) {
  const bool shooting = action == kShootArrow && s.inventory.bow >= 1 && s.inventory.arrows >= 1 &&
                        HasFreeProjectileSlot(s);
  int32_t dx, dy;
  FacingDirection(s, &dx, &dy);
  SpawnProjectile(s, s.player_projectiles, s.player_projectile_directions, s.player_position[0],
                  s.player_position[1], shooting, dx, dy, kArrow2);
  s.achievements[kAchFireBow] = s.achievements[kAchFireBow] || shooting;
  s.inventory.arrows -= shooting ? 1 : 0;
}

// Craftax's cast_spell: a fireball or an iceball, once learned, for mana.
ENVPOOL_X_HD inline void CastSpell(FullState& s, int32_t action) {
  const bool can_cast = s.player_mana >= kSpellManaCost && HasFreeProjectileSlot(s);
  const bool fireball = action == kCastFireball && can_cast && s.learned_spells[0];
  const bool iceball = action == kCastIceball && can_cast && s.learned_spells[1];
  const bool casting = fireball || iceball;
  const int32_t type = fireball * kFireball + iceball * kIceball;
  int32_t dx, dy;
  FacingDirection(s, &dx, &dy);
  SpawnProjectile(s, s.player_projectiles, s.player_projectile_directions, s.player_position[0],
                  s.player_position[1], casting, dx, dy, type);
  if (fireball) s.achievements[kAchCastFireball] = true;
  if (iceball) s.achievements[kAchCastIceball] = true;
  s.player_mana -= casting ? kSpellManaCost : 0;
}

// Craftax's read_book: a book teaches a spell not yet learned, picked at
// random (its one draw is taken whatever the action; with both spells known
// Craftax's weights are 0/0, and the pick is the iceball).
template <class Draws>
ENVPOOL_X_HD inline void ReadBook(FullState& s, int32_t action, Draws& draws) {
  const bool reading = action == kReadBook && s.inventory.books > 0;
  float weights[kNumSpells];
  float total = 0.0f;
  for (int i = 0; i < kNumSpells; ++i) {
    weights[i] = s.learned_spells[i] ? 0.0f : 1.0f;
    total += weights[i];
  }
  for (float& w : weights) w /= total;
  const int spell = WeightedIndex(draws.Next(), weights, kNumSpells);
  const int achievement = spell ? kAchLearnIceball : kAchLearnFireball;
  s.achievements[achievement] = s.achievements[achievement] || reading;
  s.inventory.books -= reading ? 1 : 0;
  s.learned_spells[spell] = s.learned_spells[spell] || reading;
}

// Craftax's enchant: at a fire (ruby) or ice (sapphire) enchantment table,
// for a gem and 9 mana, the sword, the bow or one piece of armour takes the
// table's element. The armour piece is drawn among those not enchanted, else
// among those of the other element (one draw, whatever the action).
template <class Draws>
ENVPOOL_X_HD inline void Enchant(FullState& s, int32_t action, Draws& draws) {
  int32_t x, y;
  FacingCell(s, &x, &y);
  const int8_t block = BlockAt(s, x, y);
  const bool fire_table = block == kEnchantmentTableFire;
  const bool table = fire_table || block == kEnchantmentTableIce;
  const int32_t element = fire_table ? 1 : 2;
  const int32_t gems = fire_table ? s.inventory.ruby : s.inventory.sapphire;
  const bool could = s.player_mana >= kEnchantManaCost && table && gems >= 1;
  int32_t armour = 0;
  for (int32_t a : s.inventory.armour) armour += a;
  const bool bow = could && action == kEnchantBow && s.inventory.bow > 0;
  const bool sword = could && action == kEnchantSword && s.inventory.sword > 0;
  const bool armour_piece = could && action == kEnchantArmour && armour > 0;

  int unenchanted = 0;
  for (int32_t e : s.armour_enchantments) unenchanted += e == 0;
  float targets[kNumArmour];
  for (int i = 0; i < kNumArmour; ++i) {
    const int32_t e = s.armour_enchantments[i];
    const bool other = e != 0 && e != element;
    targets[i] = static_cast<float>((e == 0) + (unenchanted == 0) * other);
  }
  const int target = WeightedIndex(draws.Next(), targets, kNumArmour);

  const bool enchanting = sword || bow || armour_piece;
  if (sword) s.sword_enchantment = element;
  if (bow) s.bow_enchantment = element;
  if (armour_piece) s.armour_enchantments[target] = element;
  s.inventory.sapphire -= (enchanting && element == 2) ? 1 : 0;
  s.inventory.ruby -= (enchanting && element == 1) ? 1 : 0;
  s.player_mana -= enchanting ? kEnchantManaCost : 0;
  if (sword) s.achievements[kAchEnchantSword] = true;
  if (armour_piece) s.achievements[kAchEnchantArmour] = true;
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
