// The full Craftax game's inventory rows in pixels (4 block x 11 block x 3),
// as craftax 1.6.1's render_craftax_pixels lays them out: vitals, materials,
// tools, armour, potions, books, spells, enchantments, the floor and the
// attributes, each an icon (column x, row y) with a one- or two-digit count
// in its bottom-right corner. All alphas are 0 / 1, so every value is exact.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "envs/craftax/classic_pixels.h"  // ReadIndexOf
#include "envs/craftax/full/pixels_textures.h"
#include "envs/craftax/full/state.h"

namespace envpool_x {
namespace craftax {
namespace full {

// Python's (and JAX's) floor division and modulo of an int32 by 10.
inline int32_t FloorDiv10(int32_t v) { return v >= 0 ? v / 10 : -((-(v + 1)) / 10) - 1; }
inline int32_t FloorMod10(int32_t v) { return v - FloorDiv10(v) * 10; }

class HudPainter {
 public:
  HudPainter(const FullTextures& t, float* inv)
      : t_(t), inv_(inv), b_(t.block), cols_(t.Cols()), small_(t.small), n_(t.number) {
    left_ = (b_ - small_) / 2;
    small2_ = size_t(small_) * small_ * 3;
  }

  const float* Icon(int i) const { return t_.icons.data() + i * small2_; }
  const float* SmallBlock(int block) const { return t_.small_blocks.data() + block * small2_; }

  // Craftax's _render_icon: the icon's square set to `icon` (null: zeros).
  void SetIcon(int x, int y, const float* icon) const {
    for (int r = 0; r < small_; ++r) {
      float* p = At(y * b_ + left_ + r, x * b_ + left_);
      if (icon == nullptr) {
        std::memset(p, 0, sizeof(float) * small_ * 3);
      } else {
        std::memcpy(p, icon + r * small_ * 3, sizeof(float) * small_ * 3);
      }
    }
  }
  // The icon when `shown`, else Craftax's empty texture.
  void SetIconIf(int x, int y, bool shown, const float* icon) const {
    SetIcon(x, y, shown ? icon : nullptr);
  }

  // Craftax's _render_icon_with_alpha with enchantment overlay `i` (< 0: none,
  // Craftax's all-zero texture, which leaves the pixels as they are).
  void BlendOverlay(int x, int y, int i) const {
    if (i < 0) return;
    const float* tex = t_.overlays.data() + i * small2_;
    const float* alpha = t_.overlays_alpha.data() + i * small2_;
    for (int r = 0; r < small_; ++r) {
      float* p = At(y * b_ + left_ + r, x * b_ + left_);
      for (int c = 0; c < small_ * 3; ++c) {
        const int k = r * small_ * 3 + c;
        p[c] = p[c] * (1.0f - alpha[k]) + tex[k] * alpha[k];
      }
    }
  }

  // A digit (JAX's clamped index into a table of 10) whose square starts
  // `offset` pixels into the cell, at the cell's bottom.
  void Digit(int x, int y, int32_t value, int offset, bool with_zero) const {
    const size_t n2 = size_t(n_) * n_ * 3;
    const int d = ReadIndexOf(value, 10);
    const float* tex = (with_zero ? t_.digits_zero : t_.digits).data() + d * n2;
    const float* alpha = (with_zero ? t_.digits_zero_alpha : t_.digits_alpha).data() + d * n2;
    for (int r = 0; r < n_; ++r) {
      float* p = At(y * b_ + b_ - n_ + r, x * b_ + offset);
      for (int c = 0; c < n_ * 3; ++c) {
        const int k = r * n_ * 3 + c;
        p[c] = p[c] * (1.0f - alpha[k]) + tex[k];
      }
    }
  }
  // Craftax's _render_digit.
  void OneDigit(int x, int y, int32_t value) const { Digit(x, y, value, b_ - n_, false); }
  // Craftax's _render_two_digit_number: the ones (a zero drawn unless the
  // number is 0), then the tens (blank for 0) to their left.
  void TwoDigits(int x, int y, int32_t value) const {
    Digit(x, y, FloorMod10(value), b_ - n_, value != 0);
    Digit(x, y, FloorDiv10(value), b_ - 2 * n_, false);
  }
  // An icon shown while `count` > 0, and the count.
  void Counted(int x, int y, int32_t count, const float* icon) const {
    SetIconIf(x, y, count > 0, icon);
    TwoDigits(x, y, count);
  }

 private:
  float* At(int row, int col) const { return inv_ + (size_t(row) * cols_ + col) * 3; }

  const FullTextures& t_;
  float* inv_;
  int b_, cols_, small_, n_, left_;
  size_t small2_;
};

// A table entry of Craftax's icon tables whose entry 0 is empty: null for 0.
inline const float* ToolIcon(const HudPainter& hud, int first, int32_t level, int entries) {
  const int i = ReadIndexOf(level, entries);
  return i == 0 ? nullptr : hud.Icon(first + i - 1);
}
// An enchantment overlay (0: none, 1: fire, 2: ice) as an overlay index or -1.
inline int OverlayOf(int32_t enchantment, int fire, int ice) {
  const int i = ReadIndexOf(enchantment, 3);
  return i == 0 ? -1 : (i == 1 ? fire : ice);
}

// The inventory rows (zeroed here), in Craftax's order of drawing.
inline void DrawHud(const FullState& s, const FullTextures& t, float* inv) {
  std::memset(inv, 0, sizeof(float) * kInventoryRows * t.block * t.Cols() * 3);
  const HudPainter hud(t, inv);
  const Inventory& items = s.inventory;
  const float floored = std::floor(s.player_health);
  const int32_t health = static_cast<int32_t>(floored > 1.0f ? floored : 1.0f);
  hud.Counted(0, 0, health, hud.Icon(kIconHealth));
  hud.Counted(1, 0, s.player_food, hud.Icon(kIconFood));
  hud.Counted(2, 0, s.player_drink, hud.Icon(kIconDrink));
  hud.Counted(3, 0, s.player_energy, hud.Icon(kIconEnergy));
  hud.Counted(4, 0, s.player_mana, hud.Icon(kIconMana));

  hud.Counted(0, 2, items.wood, hud.SmallBlock(kWood));
  hud.Counted(1, 2, items.stone, hud.SmallBlock(kStone));
  hud.Counted(0, 1, items.coal, hud.SmallBlock(kCoal));
  hud.Counted(1, 1, items.iron, hud.SmallBlock(kIron));
  hud.Counted(2, 1, items.diamond, hud.SmallBlock(kDiamond));
  hud.Counted(3, 1, items.sapphire, hud.SmallBlock(kSapphire));
  hud.Counted(4, 1, items.ruby, hud.SmallBlock(kRuby));
  hud.Counted(5, 1, items.sapling, hud.Icon(kIconSapling));

  hud.SetIcon(8, 2, ToolIcon(hud, kIconPickaxe, items.pickaxe, 5));
  hud.SetIcon(8, 1, ToolIcon(hud, kIconSword, items.sword, 5));
  hud.SetIcon(6, 1, ToolIcon(hud, kIconBow, items.bow, 2));
  hud.Counted(6, 2, items.arrows, hud.Icon(kIconArrow));
  for (int i = 0; i < kNumArmour; ++i) {
    const int level = ReadIndexOf(items.armour[i], 3);
    const int first = level == 1 ? kIconIronArmour : kIconDiamondArmour;
    hud.SetIcon(7, i, level == 0 ? nullptr : hud.Icon(first + i));
  }
  hud.Counted(2, 2, items.torches, hud.Icon(kIconTorch));
  for (int i = 0; i < kNumPotions; ++i) {
    hud.Counted(i, 3, items.potions[i], hud.Icon(kIconPotion + i));
  }
  hud.Counted(3, 2, items.books, hud.Icon(kIconBook));
  hud.SetIconIf(4, 2, s.learned_spells[0], hud.Icon(kIconFireball));
  hud.SetIconIf(5, 2, s.learned_spells[1], hud.Icon(kIconIceball));

  hud.BlendOverlay(8, 1, OverlayOf(s.sword_enchantment, kOverlaySword, kOverlaySword + 1));
  const int32_t arrow_enchantment = s.bow_enchantment * (items.arrows > 0 ? 1 : 0);
  hud.BlendOverlay(6, 2, OverlayOf(arrow_enchantment, kOverlayArrow, kOverlayArrow + 1));
  for (int i = 0; i < kNumArmour; ++i) {
    hud.BlendOverlay(
        7, i, OverlayOf(s.armour_enchantments[i], kOverlayArmourFire + i, kOverlayArmourIce + i));
  }

  hud.OneDigit(6, 0, s.player_level);
  hud.SetIconIf(9, 0, s.player_xp > 0, hud.Icon(kIconXp));
  hud.OneDigit(9, 0, s.player_xp);
  hud.SetIcon(9, 1, hud.Icon(kIconDexterity));
  hud.OneDigit(9, 1, s.player_dexterity);
  hud.SetIcon(9, 2, hud.Icon(kIconStrength));
  hud.OneDigit(9, 2, s.player_strength);
  hud.SetIcon(9, 3, hud.Icon(kIconIntelligence));
  hud.OneDigit(9, 3, s.player_intelligence);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
