// The full Craftax game's pixel view (craftax 1.6.1's render_craftax_pixels):
// the map rows (full/pixels_map.h) over the inventory rows
// (full/pixels_hud.h), (9 + 4) block x 11 block x 3 floats on Craftax's
// 0..255 scale. Craftax-Pixels-v1 observes it at 10 pixels a cell, / 255.
#pragma once

#include <cstddef>

#include "envs/craftax/full/pixels_hud.h"
#include "envs/craftax/full/pixels_map.h"
#include "envs/craftax/full/pixels_textures.h"

namespace envpool_x {
namespace craftax {
namespace full {

// `px` holds t.Rows() x t.Cols() x 3 floats; `portable`: see DrawLight.
inline void DrawFullPixels(const FullState& s, const FullTextures& t, float* px,
                           bool portable = false) {
  DrawMapView(s, t, px, portable);
  DrawHud(s, t, px + size_t(t.MapRows()) * t.Cols() * 3);
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
