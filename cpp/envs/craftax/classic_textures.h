// Craftax-Classic's textures at one block size (pixels a cell), as craftax
// 1.6.1's constants.py makes them from its PNGs. Python builds them from the
// installed craftax package (python/envpool_x/families/craftax_textures.py)
// and hands them over once per block size; every env of the process shares
// them (read-only) through a TextureRegistry.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/craftax/classic_state.h"
#include "envs/craftax/texture_registry.h"

namespace envpool_x {
namespace craftax {

constexpr int kInventoryRows = 2;   // Craftax's INVENTORY_OBS_HEIGHT
constexpr int kNumIcons = 11;       // health, food, drink, energy, sapling, 6 tools
constexpr int kMinBlockPixels = 6;  // below, Craftax's inventory layout breaks
constexpr int kMaxBlockPixels = 64;

struct PixelTextures {
  int block = 0;   // a map cell's side
  int small = 0;   // an inventory icon's side: int(0.8 * block)
  int number = 0;  // a digit's side: int(0.6 * block)
  // Each: RGB (or alpha repeated over RGB) rows x cols x 3, float32.
  std::vector<float> blocks;        // 17 x block^2 x 3, BlockType order
  std::vector<float> small_blocks;  // 17 x small^2 x 3
  std::vector<float> player;        // 5 x block^2 x 3: left, right, up, down, sleeping
  std::vector<float> player_alpha;  // alpha / 255
  std::vector<float> digits;        // 10 x number^2 x 3 (0: blank), times alpha
  std::vector<float> digits_alpha;  // 0 / 1
  std::vector<float> icons;         // 11 x small^2 x 3
  std::vector<float> mobs;          // 3 x block^2 x 3: zombie, cow, skeleton
  std::vector<float> mobs_alpha;    // alpha / 255
  std::vector<float> arrow;         // block^2 x 3 (pointing up), times alpha
  std::vector<float> arrow_alpha;   // 0 / 1
  std::vector<float> night_noise;   // (7 block) x (9 block): the static's strength

  int Rows() const { return (kViewRows + kInventoryRows) * block; }
  int Cols() const { return kViewCols * block; }
};

inline int SmallSide(int block) { return static_cast<int>(block * 0.8); }
inline int NumberSide(int block) { return static_cast<int>(block * 0.6); }

inline void CheckBlockPixels(int block, const char* what) {
  CheckBlockSize(block, kMinBlockPixels, kMaxBlockPixels, what);
}

// Takes the arrays in craftax_textures.classic_textures' order, checking sizes.
inline void SetPixelTextures(int block, std::vector<std::vector<float>> parts) {
  CheckBlockPixels(block, "texture block size");
  auto t = std::make_shared<PixelTextures>();
  t->block = block;
  t->small = SmallSide(block);
  t->number = NumberSide(block);
  const size_t b2 = size_t(block) * block * 3, s2 = size_t(t->small) * t->small * 3;
  const size_t n2 = size_t(t->number) * t->number * 3;
  const size_t sizes[] = {kNumBlockTypes * b2,
                          kNumBlockTypes * s2,
                          5 * b2,
                          5 * b2,
                          10 * n2,
                          10 * n2,
                          kNumIcons * s2,
                          3 * b2,
                          3 * b2,
                          b2,
                          b2,
                          size_t(kViewRows) * kViewCols * block * block};
  std::vector<float>* const fields[] = {&t->blocks,       &t->small_blocks, &t->player,
                                        &t->player_alpha, &t->digits,       &t->digits_alpha,
                                        &t->icons,        &t->mobs,         &t->mobs_alpha,
                                        &t->arrow,        &t->arrow_alpha,  &t->night_noise};
  MoveTextureParts(parts, sizes, fields, block);
  TextureRegistry<PixelTextures>::Set(block, std::move(t));
}

// The textures of `block`; throws a RuntimeError naming the fix when Python
// has not loaded them (make the env through envpool_x, with craftax installed).
inline std::shared_ptr<const PixelTextures> FindPixelTextures(int block) {
  auto t = TextureRegistry<PixelTextures>::Loaded(block);
  if (t == nullptr) {
    throw std::runtime_error(
        "Craftax textures of block size " + std::to_string(block) +
        " are not loaded: Craftax's pixels are drawn with the installed craftax "
        "package's textures (pip install craftax==1.6.1), loaded when the env "
        "is made with a pixel observation or a render_mode");
  }
  return t;
}

}  // namespace craftax
}  // namespace envpool_x
