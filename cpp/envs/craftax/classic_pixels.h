// Craftax-Classic's pixel view, as craftax 1.6.1's render_craftax_pixels draws
// it: the 7 x 9 cells around the player from the block textures, the player,
// the mobs and arrows alpha-blended over them, the night (static noise drawn
// with JAX's threefry uniform from the state's state_rng, desaturation, a blue
// tint, blended by the light level), the sleeping tint, then two inventory
// rows of icons with digits. Values are Craftax's, on its 0..255 scale, in
// float32 and in Craftax's order of operations.
#pragma once

#include <cstdint>
#include <cstring>

#include "envs/craftax/classic_state.h"
#include "envs/craftax/classic_textures.h"

namespace envpool_x {
namespace craftax {

// An index into a table of n as JAX reads it: negative counts from the end,
// then clamped into the table.
inline int ReadIndexOf(int32_t i, int n) {
  if (i < 0) i += n;
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

// Inlined always: a loop over Threefry's counters vectorizes only so.
#define ENVPOOL_X_CRAFTAX_INLINE inline __attribute__((always_inline))

ENVPOOL_X_CRAFTAX_INLINE uint32_t RotateLeft(uint32_t v, int r) {
  return (v << r) | (v >> (32 - r));
}

// Four of Threefry's rounds, with rotations a, b, c, d.
ENVPOOL_X_CRAFTAX_INLINE void ThreefryRounds(uint32_t& x0, uint32_t& x1, int a, int b, int c,
                                             int d) {
  x0 += x1;
  x1 = RotateLeft(x1, a) ^ x0;
  x0 += x1;
  x1 = RotateLeft(x1, b) ^ x0;
  x0 += x1;
  x1 = RotateLeft(x1, c) ^ x0;
  x0 += x1;
  x1 = RotateLeft(x1, d) ^ x0;
}

// Threefry-2x32 with 20 rounds (JAX's default PRNG) of counter (c0, c1),
// written out straight so that a loop over counters vectorizes.
ENVPOOL_X_CRAFTAX_INLINE void Threefry2x32(const uint32_t key[2], uint32_t c0, uint32_t c1,
                                           uint32_t out[2]) {
  const uint32_t k0 = key[0], k1 = key[1], k2 = key[0] ^ key[1] ^ 0x1BD11BDAu;
  uint32_t x0 = c0 + k0, x1 = c1 + k1;
  ThreefryRounds(x0, x1, 13, 15, 26, 6);
  x0 += k1;
  x1 += k2 + 1u;
  ThreefryRounds(x0, x1, 17, 29, 16, 24);
  x0 += k2;
  x1 += k0 + 2u;
  ThreefryRounds(x0, x1, 13, 15, 26, 6);
  x0 += k0;
  x1 += k1 + 3u;
  ThreefryRounds(x0, x1, 17, 29, 16, 24);
  x0 += k1;
  x1 += k2 + 4u;
  ThreefryRounds(x0, x1, 13, 15, 26, 6);
  x0 += k2;
  x1 += k0 + 5u;
  out[0] = x0;
  out[1] = x1;
}

// A float in [0, 1) from 32 random bits as JAX makes it: the top 23 bits as
// the mantissa of a float in [1, 2), minus 1.
ENVPOOL_X_CRAFTAX_INLINE float JaxBitsToUniform(uint32_t bits) {
  const uint32_t word = (bits >> 9) | 0x3F800000u;
  float f;
  std::memcpy(&f, &word, sizeof f);
  return f - 1.0f;
}

// Element `index` of jax.random.uniform(key, shape) (float32, [0, 1)), with
// JAX's partitionable threefry bits (the default since JAX 0.5): the two
// words of threefry(key, (index >> 32, index)) xor-ed.
inline float JaxUniform(const uint32_t key[2], uint64_t index) {
  uint32_t words[2];
  Threefry2x32(key, static_cast<uint32_t>(index >> 32), static_cast<uint32_t>(index), words);
  return JaxBitsToUniform(words[0] ^ words[1]);
}

// Elements first .. first + n - 1 of the same (first + n < 2^32), at once.
inline void JaxUniforms(const uint32_t key[2], uint32_t first, int n, float* out) {
  for (int i = 0; i < n; ++i) {
    uint32_t words[2];
    Threefry2x32(key, 0u, first + static_cast<uint32_t>(i), words);
    out[i] = JaxBitsToUniform(words[0] ^ words[1]);
  }
}

// Craftax's a * (1 - alpha) + b * alpha over one cell of `px` (row stride
// `cols`), with the texture `tex` and its alpha (both cell x cell x 3).
inline void BlendCell(float* px, int cols, int row, int col, int cell, const float* tex,
                      const float* alpha, bool flip_rows, bool transpose) {
  for (int r = 0; r < cell; ++r) {
    for (int c = 0; c < cell; ++c) {
      int tr = transpose ? c : r, tc = transpose ? r : c;
      if (flip_rows) tr = cell - 1 - tr;
      const float* t = tex + (tr * cell + tc) * 3;
      const float* a = alpha + (tr * cell + tc) * 3;
      float* p = px + ((row + r) * cols + col + c) * 3;
      for (int k = 0; k < 3; ++k) p[k] = (1.0f - a[k]) * p[k] + t[k] * a[k];
    }
  }
}

template <int N>
void DrawMobs(const ClassicState& s, const MobSlots<N>& mobs, const float* tex, const float* alpha,
              const PixelTextures& t, float* px, const int32_t* dx = nullptr,
              const int32_t* dy = nullptr) {
  const int b = t.block;
  for (int i = 0; i < N; ++i) {
    const int lx = mobs.x[i] - s.player_x + kViewRows / 2;
    const int ly = mobs.y[i] - s.player_y + kViewCols / 2;
    if (!mobs.mask[i] || lx < 0 || lx >= kViewRows || ly < 0 || ly >= kViewCols) continue;
    // Arrows point up; Craftax flips them for a move down or right and
    // transposes them for a sideways move.
    const bool flip = dx != nullptr && (dx[i] > 0 || dy[i] > 0);
    const bool transpose = dy != nullptr && dy[i] != 0;
    BlendCell(px, t.Cols(), lx * b, ly * b, b, tex, alpha, flip, transpose);
  }
}

// Craftax's night and sleep over the map rows of `px`, a row at a time in
// planes of red, green and blue (loops that vectorize), each value computed
// as Craftax's expressions order it.
inline void DrawNightAndSleep(const ClassicState& s, const PixelTextures& t, float* px) {
  constexpr int kMaxCols = kViewCols * kMaxBlockPixels;
  const int rows = kViewRows * t.block, cols = t.Cols();
  const float light = s.light_level;
  const bool dark = light < 0.5f;
  const float intensity =
      dark ? (2.0f * (0.5f - light) > 0.0f ? 2.0f * (0.5f - light) : 0.0f) : 0.0f;
  static constexpr float kTint[3] = {0.0f, 16.0f, 64.0f};
  float day[3][kMaxCols], night[3][kMaxCols], noise[kMaxCols];
  for (int r = 0; r < rows; ++r) {
    float* row = px + size_t(r) * cols * 3;
    for (int c = 0; c < cols; ++c) {
      for (int k = 0; k < 3; ++k) day[k][c] = night[k][c] = row[c * 3 + k];
    }
    if (dark) {
      // The static: noise blended in by the night noise texture's strength.
      JaxUniforms(s.state_rng, static_cast<uint32_t>(r * cols), cols, noise);
      const float* strength = t.night_noise.data() + size_t(r) * cols;
      for (int c = 0; c < cols; ++c) {
        const float mask = intensity * strength[c];
        const float value = noise[c] * 95.0f + 32.0f;
        for (int k = 0; k < 3; ++k) night[k][c] = (1.0f - mask) * night[k][c] + mask * value;
      }
    }
    for (int c = 0; c < cols; ++c) {
      const float lum = 0.299f * night[0][c] + 0.587f * night[1][c] + 0.114f * night[2][c];
      for (int k = 0; k < 3; ++k) {
        const float enhanced = night[k][c] * 0.4f + 0.6f * lum;
        const float tinted = 0.5f * enhanced + 0.5f * kTint[k];
        day[k][c] = light * day[k][c] + (1.0f - light) * tinted;
      }
    }
    if (s.is_sleeping) {
      for (int c = 0; c < cols; ++c) {
        const float grey = 0.299f * day[0][c] + 0.587f * day[1][c] + 0.114f * day[2][c];
        day[0][c] = 0.5f * grey;
        day[1][c] = 0.5f * grey;
        day[2][c] = 0.5f * grey + 8.0f;
      }
    }
    for (int c = 0; c < cols; ++c) {
      for (int k = 0; k < 3; ++k) row[c * 3 + k] = day[k][c];
    }
  }
}

// One inventory slot (column x, row y of the two rows): the icon when the
// count is positive, then the count's digit (JAX's clamped index: 0..9).
inline void DrawSlot(const PixelTextures& t, float* inv, int x, int y, int32_t count,
                     const float* icon) {
  const int b = t.block, cols = t.Cols(), small = t.small, n = t.number;
  const int left = (b - small) / 2 - 1;
  if (count > 0) {
    for (int r = 0; r < small; ++r) {
      float* p = inv + ((y * b + left + r) * cols + x * b + left) * 3;
      std::memcpy(p, icon + r * small * 3, sizeof(float) * small * 3);
    }
  }
  const int digit = ReadIndexOf(count, 10);
  const float* tex = t.digits.data() + size_t(digit) * n * n * 3;
  const float* alpha = t.digits_alpha.data() + size_t(digit) * n * n * 3;
  const int top = y * b + (b - n) - 1, first = x * b + (b - n) - 1;
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n * 3; ++c) {
      float& v = inv[((top + r) * cols + first) * 3 + c];
      v = v * (1.0f - alpha[r * n * 3 + c]) + tex[r * n * 3 + c];
    }
  }
}

inline void DrawInventory(const ClassicState& s, const PixelTextures& t, float* inv) {
  const size_t small2 = size_t(t.small) * t.small * 3;
  auto icon = [&](int i) { return t.icons.data() + i * small2; };
  auto block = [&](int b) { return t.small_blocks.data() + b * small2; };
  const int32_t* items = s.inventory;
  DrawSlot(t, inv, 0, 0, s.health, icon(0));
  DrawSlot(t, inv, 1, 0, s.food, icon(1));
  DrawSlot(t, inv, 2, 0, s.drink, icon(2));
  DrawSlot(t, inv, 3, 0, s.energy, icon(3));
  DrawSlot(t, inv, 4, 0, items[kSaplingItem], icon(4));
  DrawSlot(t, inv, 5, 0, items[kWoodItem], block(kWood));
  DrawSlot(t, inv, 6, 0, items[kStoneItem], block(kStone));
  DrawSlot(t, inv, 7, 0, items[kCoalItem], block(kCoal));
  DrawSlot(t, inv, 8, 0, items[kIronItem], block(kIron));
  DrawSlot(t, inv, 0, 1, items[kDiamondItem], block(kDiamond));
  for (int tool = 0; tool < 6; ++tool) {
    DrawSlot(t, inv, 1 + tool, 1, items[kWoodPickaxe + tool], icon(5 + tool));
  }
}

// The whole picture, Rows() x Cols() x 3 floats on Craftax's 0..255 scale.
inline void DrawPixels(const ClassicState& s, const PixelTextures& t, float* px) {
  const int b = t.block, cols = t.Cols(), b2 = b * b * 3;
  for (int r = 0; r < kViewRows; ++r) {
    for (int c = 0; c < kViewCols; ++c) {
      const int32_t x = s.player_x - kViewRows / 2 + r;
      const int32_t y = s.player_y - kViewCols / 2 + c;
      const int kind = InBounds(x, y) ? static_cast<int>(s.map[x][y]) : int{kOutOfBounds};
      const float* tex = t.blocks.data() + kind * b2;
      for (int i = 0; i < b; ++i) {
        std::memcpy(px + ((r * b + i) * cols + c * b) * 3, tex + i * b * 3, sizeof(float) * b * 3);
      }
    }
  }
  const int look = s.is_sleeping ? 4 : ReadIndexOf(s.player_direction - 1, 5);
  BlendCell(px, cols, (kViewRows / 2) * b, (kViewCols / 2) * b, b, t.player.data() + look * b2,
            t.player_alpha.data() + look * b2, false, false);
  DrawMobs(s, s.zombies, t.mobs.data(), t.mobs_alpha.data(), t, px);
  DrawMobs(s, s.cows, t.mobs.data() + b2, t.mobs_alpha.data() + b2, t, px);
  DrawMobs(s, s.skeletons, t.mobs.data() + 2 * b2, t.mobs_alpha.data() + 2 * b2, t, px);
  DrawMobs(s, s.arrows, t.arrow.data(), t.arrow_alpha.data(), t, px, s.arrow_dx, s.arrow_dy);
  DrawNightAndSleep(s, t, px);
  float* inv = px + size_t(kViewRows) * b * cols * 3;
  std::memset(inv, 0, sizeof(float) * kInventoryRows * b * cols * 3);
  DrawInventory(s, t, inv);
}

}  // namespace craftax
}  // namespace envpool_x
