// Interleaved RGB pixels (r g b r g b ..., as renderers and games draw them)
// split into three planes: the channels-first layout of pixel observations
// (EnvPool's). Wheels target SSE2, where the loop stays scalar (about 1.5 ns
// a pixel); with SSSE3 the compiler turns it into byte shuffles, about 13x
// faster, so the CPU is asked once at run time.
#pragma once

#include <cstddef>
#include <cstdint>

namespace envpool_x {
namespace planar_rgb_detail {

inline void Split(const uint8_t* __restrict rgb, size_t pixels, uint8_t* __restrict r,
                  uint8_t* __restrict g, uint8_t* __restrict b) {
  for (size_t p = 0; p < pixels; ++p) {
    r[p] = rgb[3 * p];
    g[p] = rgb[3 * p + 1];
    b[p] = rgb[3 * p + 2];
  }
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__CUDACC__)
#define ENVPOOL_X_PLANAR_RGB_DISPATCH 1
__attribute__((target("ssse3"))) inline void SplitSsse3(const uint8_t* __restrict rgb,
                                                        size_t pixels, uint8_t* __restrict r,
                                                        uint8_t* __restrict g,
                                                        uint8_t* __restrict b) {
  Split(rgb, pixels, r, g, b);
}
inline bool CpuHasSsse3() {
  static const bool yes = __builtin_cpu_supports("ssse3");
  return yes;
}
#endif

}  // namespace planar_rgb_detail

// `pixels` RGB triples from `rgb` into the planes `r`, `g` and `b` (which must
// not overlap it). `portable`: the SSE2 loop even where SSSE3 exists (the
// tests check both give the same bytes).
inline void SplitRgbPlanes(const uint8_t* rgb, size_t pixels, uint8_t* r, uint8_t* g, uint8_t* b,
                           bool portable = false) {
#ifdef ENVPOOL_X_PLANAR_RGB_DISPATCH
  if (!portable && planar_rgb_detail::CpuHasSsse3()) {
    planar_rgb_detail::SplitSsse3(rgb, pixels, r, g, b);
    return;
  }
#endif
  planar_rgb_detail::Split(rgb, pixels, r, g, b);
}

}  // namespace envpool_x
