// The full Craftax game's textures at one block size (pixels a cell), as
// craftax 1.6.1's craftax/constants.py makes them from its PNGs. Python builds
// them from the installed craftax package
// (python/envpool_x/families/craftax_full_textures.py) and hands them over
// once per block size; every env of the process shares them (read-only)
// through a TextureRegistry. Every alpha is 0 or 1 (Craftax clamps it).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/craftax/full/state.h"
#include "envs/craftax/texture_registry.h"

namespace envpool_x {
namespace craftax {
namespace full {

constexpr int kViewRows = 9;  // Craftax's OBS_DIM
constexpr int kViewCols = 11;
constexpr int kInventoryRows = 4;    // Craftax's INVENTORY_OBS_HEIGHT
constexpr int kObsBlockPixels = 10;  // Craftax's BLOCK_PIXEL_SIZE_AGENT
// int(0.4 * block) must be at least 1 for a digit; the night's row buffers
// bound the top.
constexpr int kMinBlockPixels = 3;
constexpr int kMaxBlockPixels = 64;

constexpr int kMeleeTypes = 8;
constexpr int kPassiveTypes = 3;
constexpr int kRangedTypes = 8;
constexpr int kProjectileTypes = 8;
// The mob textures, one table: melee, passive, ranged, then projectiles.
constexpr int kFirstPassiveTexture = kMeleeTypes;
constexpr int kFirstRangedTexture = kFirstPassiveTexture + kPassiveTypes;
constexpr int kFirstProjectileTexture = kFirstRangedTexture + kRangedTypes;
constexpr int kNumMobTextures = kFirstProjectileTexture + kProjectileTypes;

// The inventory's icons (small x small RGB), in the order
// craftax_full_textures.ICONS lists them.
enum Icon : int {
  kIconHealth = 0,
  kIconFood,
  kIconDrink,
  kIconEnergy,
  kIconMana,
  kIconSapling,
  kIconTorch,
  kIconBook,
  kIconFireball,
  kIconIceball,
  kIconXp,
  kIconDexterity,
  kIconStrength,
  kIconIntelligence,
  kIconBow,
  kIconArrow,
  kIconPotion,                       // 6: red, green, blue, pink, cyan, yellow
  kIconPickaxe = kIconPotion + 6,    // 4: wood, stone, iron, diamond
  kIconSword = kIconPickaxe + 4,     // 4: the same
  kIconIronArmour = kIconSword + 4,  // 4: helmet, chestplate, pants, boots
  kIconDiamondArmour = kIconIronArmour + 4,
  kNumIcons = kIconDiamondArmour + 4,
};

// The enchantments drawn over an icon (RGB and alpha): fire, then ice.
enum Overlay : int {
  kOverlaySword = 0,       // 2
  kOverlayArrow = 2,       // 2
  kOverlayArmourFire = 4,  // 4, by armour slot
  kOverlayArmourIce = 8,   // 4
  kNumOverlays = 12,
};

struct FullTextures {
  int block = 0;   // a map cell's side
  int small = 0;   // an inventory icon's side: int(0.8 * block)
  int number = 0;  // a digit's side: int(0.4 * block)
  // Each: RGB (or alpha repeated over RGB) rows x cols x 3, float32.
  std::vector<float> blocks;        // 37 x block^2 x 3, BlockType order
  std::vector<float> small_blocks;  // 37 x small^2 x 3
  std::vector<float> items;         // 5 x block^2 x 3, ItemType order
  std::vector<float> items_alpha;
  std::vector<float> player;  // 5 x block^2 x 3: left, right, up, down, sleeping
  std::vector<float> player_alpha;
  std::vector<float> mobs;  // kNumMobTextures x block^2 x 3, times alpha
  std::vector<float> mobs_alpha;
  std::vector<float> digits;  // 10 x number^2 x 3 (0: blank), times alpha
  std::vector<float> digits_alpha;
  std::vector<float> digits_zero;  // 10 x number^2 x 3 (0: a zero), times alpha
  std::vector<float> digits_zero_alpha;
  std::vector<float> icons;     // kNumIcons x small^2 x 3
  std::vector<float> overlays;  // kNumOverlays x small^2 x 3 (not times alpha)
  std::vector<float> overlays_alpha;
  std::vector<float> night_noise;  // (9 block) x (11 block): the static's strength

  int MapRows() const { return kViewRows * block; }
  int Rows() const { return (kViewRows + kInventoryRows) * block; }
  int Cols() const { return kViewCols * block; }
};

inline int FullSmallSide(int block) { return static_cast<int>(block * 0.8); }
inline int FullNumberSide(int block) { return static_cast<int>(block * 0.4); }

inline void CheckFullBlockPixels(int block, const char* what) {
  CheckBlockSize(block, kMinBlockPixels, kMaxBlockPixels, what);
}

// Takes the arrays in craftax_full_textures.full_textures' order, checking sizes.
inline void SetFullTextures(int block, std::vector<std::vector<float>> parts) {
  CheckFullBlockPixels(block, "texture block size");
  auto t = std::make_shared<FullTextures>();
  t->block = block;
  t->small = FullSmallSide(block);
  t->number = FullNumberSide(block);
  const size_t b2 = size_t(block) * block * 3, s2 = size_t(t->small) * t->small * 3;
  const size_t n2 = size_t(t->number) * t->number * 3;
  const size_t sizes[] = {kNumBlockTypes * b2,
                          kNumBlockTypes * s2,
                          kNumItemTypes * b2,
                          kNumItemTypes * b2,
                          5 * b2,
                          5 * b2,
                          kNumMobTextures * b2,
                          kNumMobTextures * b2,
                          10 * n2,
                          10 * n2,
                          10 * n2,
                          10 * n2,
                          kNumIcons * s2,
                          kNumOverlays * s2,
                          kNumOverlays * s2,
                          size_t(kViewRows) * kViewCols * block * block};
  std::vector<float>* const fields[] = {
      &t->blocks, &t->small_blocks, &t->items,          &t->items_alpha,
      &t->player, &t->player_alpha, &t->mobs,           &t->mobs_alpha,
      &t->digits, &t->digits_alpha, &t->digits_zero,    &t->digits_zero_alpha,
      &t->icons,  &t->overlays,     &t->overlays_alpha, &t->night_noise};
  MoveTextureParts(parts, sizes, fields, block);
  TextureRegistry<FullTextures>::Set(block, std::move(t));
}

// The textures of `block`, or null when Python has not loaded them.
inline std::shared_ptr<const FullTextures> LoadedFullTextures(int block) {
  return TextureRegistry<FullTextures>::Loaded(block);
}

// The same, or a RuntimeError naming the fix.
inline std::shared_ptr<const FullTextures> FindFullTextures(int block) {
  auto t = LoadedFullTextures(block);
  if (t == nullptr) {
    throw std::runtime_error(
        "Craftax textures of block size " + std::to_string(block) +
        " are not loaded: the full game's pixels are drawn with the installed craftax "
        "package's textures (pip install craftax==1.6.1), loaded by "
        "envpool_x.families.craftax_full_textures.load_textures(block)");
  }
  return t;
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
