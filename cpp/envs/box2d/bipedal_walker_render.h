// BipedalWalker's rgb_array frame (400x600), as gymnasium 1.4.0's render()
// draws it with pygame 2.6 (pygame_raster.h, pygame_draw.h): a surface 600 +
// 30 * max(0, scroll) pixels wide (black), the sky from the scroll on, the
// clouds (at half the scroll's speed), the ground's polygons, one lidar ray
// in red (a sweep over the ten rays, one ray a frame, then 80 frames
// without), the terrain's bodies (edges as anti-aliased lines, obstacles
// filled and outlined), the legs and the hull, the start flag, the vertical
// flip, and of it the last 600 columns.
//
// The sweep's position is gymnasium's count of render() calls since the
// reset; here it is the count of steps since the reset (the frame is drawn
// as if render() had run after the reset and after every step).
#pragma once

#include <Box2D/Box2D.h>

#include <algorithm>
#include <cstdint>
#include <memory>

#include "envs/box2d/bipedal_walker_sim.h"
#include "envs/box2d/pygame_draw.h"
#include "envs/box2d/pygame_raster.h"

namespace envpool_x::box2d {

class BipedalWalkerRenderer {
 public:
  static constexpr int kW = 600, kH = 400;

  // One renderer (a 0.7 MB window of the surface) per thread.
  static void Draw(const BipedalWalkerSim& sim, uint8_t* rgb) {
    static thread_local std::unique_ptr<BipedalWalkerRenderer> renderer;
    if (!renderer) renderer = std::make_unique<BipedalWalkerRenderer>();
    renderer->Render(sim, rgb);
  }

  BipedalWalkerRenderer() : canvas_(kW, kH, kH, kW) {}

  void Render(const BipedalWalkerSim& sim, uint8_t* rgb) {
    using S = BipedalWalkerSim;
    constexpr double kScale = S::kScale;
    const double scroll = sim.scroll();
    const int surface_w = static_cast<int>(kW + std::max(0.0, scroll) * kScale);
    canvas_.SetSurface(surface_w, kH, surface_w - kW);
    canvas_.Clear();

    const double sx = scroll * kScale;
    const int sky_x[4] = {static_cast<int>(sx), static_cast<int>(sx + kW),
                          static_cast<int>(sx + kW), static_cast<int>(sx)};
    const int sky_y[4] = {0, 0, kH, kH};
    canvas_.DrawPolygon(sky_x, sky_y, 4, Rgb{215, 215, 255});

    for (const S::Cloud& cloud : sim.clouds()) {
      if (cloud.x2 < scroll / 2 || cloud.x1 > scroll / 2 + kW / kScale) continue;
      int px[5], py[5];
      for (int a = 0; a < 5; ++a) {
        px[a] = static_cast<int>(cloud.p[a][0] * kScale + scroll * kScale / 2);
        py[a] = static_cast<int>(cloud.p[a][1] * kScale);
      }
      FillAndGfxOutline(px, py, 5, Rgb{255, 255, 255});
    }
    const auto& tx = sim.terrain_x();
    const auto& ty = sim.terrain_y();
    for (int i = 0; i + 1 < S::kTerrainLength; ++i) {
      if (tx[i + 1] < scroll || tx[i] > scroll + kW / kScale) continue;
      const int px[4] = {static_cast<int>(tx[i] * kScale), static_cast<int>(tx[i + 1] * kScale),
                         static_cast<int>(tx[i + 1] * kScale), static_cast<int>(tx[i] * kScale)};
      const int py[4] = {static_cast<int>(ty[i] * kScale), static_cast<int>(ty[i + 1] * kScale), 0,
                         0};
      FillAndGfxOutline(px, py, 4, Rgb{102, 153, 76});
    }

    const int64_t sweep = sim.steps() % 100;
    if (sweep < 20) {
      const S::Ray& ray = sim.rays()[sweep < 10 ? sweep : 19 - sweep];
      pygame::Line(canvas_, static_cast<int>(ray.p1.x * kScale),
                   static_cast<int>(ray.p1.y * kScale), static_cast<int>(ray.p2[0] * kScale),
                   static_cast<int>(ray.p2[1] * kScale), Rgb{255, 0, 0});
    }

    // gymnasium's drawlist: the terrain's bodies in reverse creation order
    // (the 199 edges were made last), the legs, the hull.
    const auto& terrain = sim.terrain();
    const int first_edge = static_cast<int>(terrain.size()) - (S::kTerrainLength - 1);
    for (int k = static_cast<int>(terrain.size()) - 1; k >= 0; --k) {
      const b2Fixture* f = terrain[k]->GetFixtureList();
      if (f->GetType() == b2Shape::e_edge) {
        const auto* e = static_cast<const b2EdgeShape*>(f->GetShape());
        const b2Transform& xf = terrain[k]->GetTransform();
        const b2Vec2 a = static_cast<float>(kScale) * b2Mul(xf, e->m_vertex1);
        const b2Vec2 b = static_cast<float>(kScale) * b2Mul(xf, e->m_vertex2);
        const uint8_t g = (k - first_edge) % 2 == 0 ? 255 : 204;
        pygame::AaLine(canvas_, a.x, a.y, b.x, b.y, Rgb{76, g, 76});
      } else {
        DrawPolygonFixture(f, Rgb{255, 255, 255}, Rgb{153, 153, 153});
      }
    }
    for (int k = 0; k < 4; ++k) {
      const int i = k < 2 ? -1 : 1;
      const Rgb fill{static_cast<uint8_t>(153 - i * 25), static_cast<uint8_t>(76 - i * 25),
                     static_cast<uint8_t>(127 - i * 25)};
      const Rgb border{static_cast<uint8_t>(102 - i * 25), static_cast<uint8_t>(51 - i * 25),
                       static_cast<uint8_t>(76 - i * 25)};
      DrawPolygonFixture(sim.leg(k)->GetFixtureList(), fill, border);
    }
    DrawPolygonFixture(sim.hull()->GetFixtureList(), Rgb{127, 51, 229}, Rgb{76, 76, 127});

    const double y1 = S::kTerrainHeight * kScale, y2 = y1 + 50;
    const double x = S::kTerrainStep * 3 * kScale;
    pygame::AaLine(canvas_, static_cast<float>(x), static_cast<float>(y1), static_cast<float>(x),
                   static_cast<float>(y2), Rgb{0, 0, 0});
    const int fx[4] = {static_cast<int>(x), static_cast<int>(x), static_cast<int>(x + 25),
                       static_cast<int>(x)};
    const int fy[4] = {static_cast<int>(y2), static_cast<int>(y2 - 10), static_cast<int>(y2 - 5),
                       static_cast<int>(y2)};
    canvas_.DrawPolygon(fx, fy, 3, Rgb{230, 51, 0});
    pygame::Lines(canvas_, fx, fy, 4, false, Rgb{0, 0, 0});

    // The flip: output row r is surface row kH - 1 - r (the window's columns).
    for (int r = 0; r < kH; ++r) {
      uint8_t* out = rgb + static_cast<size_t>(r) * kW * 3;
      for (int c = 0; c < 3; ++c) {
        const uint8_t* src = canvas_.Row(c, kH - 1 - r);
        for (int xx = 0; xx < kW; ++xx) out[3 * xx + c] = src[xx];
      }
    }
  }

 private:
  static constexpr int kMaxPoints = b2_maxPolygonVertices + 1;

  // draw.polygon then gfxdraw.aapolygon, of integer points.
  void FillAndGfxOutline(const int* px, const int* py, int n, const Rgb& c) {
    canvas_.DrawPolygon(px, py, n, c);
    GfxOutline(px, py, n, c);
  }
  void GfxOutline(const int* px, const int* py, int n, const Rgb& c) {
    int16_t vx[kMaxPoints], vy[kMaxPoints];
    for (int k = 0; k < n; ++k) {
      vx[k] = static_cast<int16_t>(px[k]);
      vy[k] = static_cast<int16_t>(py[k]);
    }
    canvas_.GfxAaPolygon(vx, vy, n, c);
  }

  // A polygon fixture at trans * v * SCALE (float32, as pybox2d computes
  // it): filled and SDL_gfx-outlined in the fill colour, then, with the
  // first point repeated at the end, draw.polygon(width=1) and the SDL_gfx
  // outline in the border colour.
  void DrawPolygonFixture(const b2Fixture* f, const Rgb& fill, const Rgb& border) {
    const auto* shape = static_cast<const b2PolygonShape*>(f->GetShape());
    const b2Transform& xf = f->GetBody()->GetTransform();
    const int n = shape->GetVertexCount();
    int px[kMaxPoints], py[kMaxPoints];
    for (int k = 0; k < n; ++k) {
      const b2Vec2 p =
          static_cast<float>(BipedalWalkerSim::kScale) * b2Mul(xf, shape->GetVertex(k));
      px[k] = static_cast<int>(p.x);
      py[k] = static_cast<int>(p.y);
    }
    FillAndGfxOutline(px, py, n, fill);
    px[n] = px[0];
    py[n] = py[0];
    pygame::Lines(canvas_, px, py, n + 1, true, border);
    GfxOutline(px, py, n + 1, border);
  }

  PygameCanvas canvas_;
};

}  // namespace envpool_x::box2d
