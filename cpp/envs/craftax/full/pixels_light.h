// The full Craftax game's light over the map view, as craftax 1.6.1's
// render_craftax_pixels applies it: each cell times the floor's light map
// (0 outside the map), then on the surface the night (static noise from the
// state's state_rng, blended by its strength texture, a blue tint, blended by
// the daylight), then the sleeping dimming.
#pragma once

#include <cmath>
#include <cstdint>

#include "envs/craftax/classic_pixels.h"  // JaxUniforms, ENVPOOL_X_CRAFTAX_INLINE
#include "envs/craftax/full/pixels_textures.h"
#include "envs/craftax/full/state.h"

namespace envpool_x {
namespace craftax {
namespace full {

// Craftax pads each floor by 13 (max(OBS_DIM) + 2) and slices the view at a
// clamped corner; returns the map coordinate of the view's top-left cell.
inline void ViewCorner(const FullState& s, int32_t* x0, int32_t* y0) {
  constexpr int32_t kPad = kViewCols + 2, kPadded = kMapSize + 2 * kPad;
  const int32_t x = s.player_position[0] - kViewRows / 2 + kPad;
  const int32_t y = s.player_position[1] - kViewCols / 2 + kPad;
  *x0 = Min(Max(x, 0), kPadded - kViewRows) - kPad;
  *y0 = Min(Max(y, 0), kPadded - kViewCols) - kPad;
}

// The light map, the night (on the surface only) and sleep over the map rows,
// a row at a time. XLA's CPU compiler contracts three of the night's
// multiply-adds into fmas (the static's u * 95 + 32, the static's blend, and
// the blend with daylight), so we do the same, in its order. Inlined into
// each caller below.
ENVPOOL_X_CRAFTAX_INLINE void LightRows(const FullState& s, int level, const FullTextures& t,
                                        float* px) {
  constexpr int kMaxRow = kViewCols * kMaxBlockPixels * 3;
  const int b = t.block, rows = t.MapRows(), cols = t.Cols(), n = cols * 3;
  int32_t x0, y0;
  ViewCorner(s, &x0, &y0);
  const bool surface = s.player_level == 0;
  const float daylight = surface ? s.light_level : 1.0f;
  const float twice = 2.0f * (0.5f - daylight);
  const float intensity = twice > 0.0f ? twice : 0.0f;
  const bool noisy = surface && intensity != 0.0f;  // else the static's weight is 0
  const float sleep = 1.0f - (s.is_sleeping ? 1.0f : 0.0f) * 0.5f;
  // Per value of a row (pixel-major, RGB): the cell's light, the static's
  // weight and value, the tint; flat so that the loops vectorize.
  float lit[kMaxRow], mask[kMaxRow], value[kMaxRow], tint[kMaxRow], noise[kMaxRow / 3];
  for (int i = 0; i < n; i += 3) {
    tint[i] = 0.0f * 0.5f;
    tint[i + 1] = 16.0f * 0.5f;
    tint[i + 2] = 64.0f * 0.5f;
    mask[i] = mask[i + 1] = mask[i + 2] = 0.0f;
    value[i] = value[i + 1] = value[i + 2] = 0.0f;
  }
  for (int r = 0; r < rows; ++r) {
    const int32_t x = x0 + r / b;
    for (int c = 0; c < kViewCols; ++c) {
      const int32_t y = y0 + c;
      const float cell = InBounds(x, y) ? s.light_map[level][x][y] : 0.0f;
      for (int i = c * b * 3; i < (c + 1) * b * 3; ++i) lit[i] = cell;
    }
    if (noisy) {
      JaxUniforms(s.state_rng, static_cast<uint32_t>(r * cols), cols, noise);
      const float* strength = t.night_noise.data() + size_t(r) * cols;
      for (int c = 0; c < cols; ++c) {
        const float m = strength[c] * intensity, v = std::fma(noise[c], 95.0f, 32.0f);
        mask[c * 3] = mask[c * 3 + 1] = mask[c * 3 + 2] = m;
        value[c * 3] = value[c * 3 + 1] = value[c * 3 + 2] = v;
      }
    }
    float* row = px + size_t(r) * n;
    if (surface) {
      for (int i = 0; i < n; ++i) {
        const float v = lit[i] * row[i];
        float night = std::fma(mask[i], value[i], (1.0f - mask[i]) * v);
        night = tint[i] + 0.5f * night;
        const float lit_v = std::fma(daylight, v, (1.0f - daylight) * night);
        row[i] = sleep * lit_v + (1.0f - sleep) * 0.0f;
      }
    } else {
      for (int i = 0; i < n; ++i) row[i] = sleep * (lit[i] * row[i]) + (1.0f - sleep) * 0.0f;
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__CUDACC__)
#define ENVPOOL_X_CRAFTAX_FMA_DISPATCH 1
// The same with the CPU's fma instruction (std::fma is a library call
// otherwise, and the night's fmas cost most of a frame): the same results.
__attribute__((target("avx2,fma"))) inline void LightRowsFma(const FullState& s, int level,
                                                             const FullTextures& t, float* px) {
  LightRows(s, level, t, px);
}
inline bool CpuHasFma() {
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes;
}
#endif

// `portable`: without the fma instruction even where the CPU has it (the
// tests check both paths).
inline void DrawLight(const FullState& s, int level, const FullTextures& t, float* px,
                      bool portable = false) {
#ifdef ENVPOOL_X_CRAFTAX_FMA_DISPATCH
  if (!portable && CpuHasFma()) {
    LightRowsFma(s, level, t, px);
    return;
  }
#endif
  (void)portable;
  LightRows(s, level, t, px);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
