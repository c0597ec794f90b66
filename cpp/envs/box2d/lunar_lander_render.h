// LunarLander's rgb_array frame (400x600), as gymnasium 1.4.0's render()
// draws it with pygame 2.6 (pygame_raster.h, pygame_draw.h): a white surface,
// the sky above the terrain in black, the exhaust particles (discs fading
// from white through red to grey), the lander and its legs (filled, an
// SDL_gfx outline in the fill colour, pygame's anti-aliased outline in the
// border colour), the two flags (drawn again after every body's fixture, as
// gymnasium's loop does, so their outlines' blend depends on how many
// particles there are), then the vertical flip.
//
// The frame is drawn as if gymnasium's render() had run after the reset and
// after every step: its particles' fade (render() lowers their ttl) is
// applied by the sim at each step instead (lunar_lander_sim.h).
#pragma once

#include <Box2D/Box2D.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "envs/box2d/lunar_lander_sim.h"
#include "envs/box2d/pygame_draw.h"
#include "envs/box2d/pygame_raster.h"

namespace envpool_x::box2d {

class LunarLanderRenderer {
 public:
  static constexpr int kW = 600, kH = 400;

  // One renderer (a 0.7 MB surface) per thread.
  static void Draw(const LunarLanderSim& sim, uint8_t* rgb) {
    static thread_local std::unique_ptr<LunarLanderRenderer> renderer;
    if (!renderer) renderer = std::make_unique<LunarLanderRenderer>();
    renderer->Render(sim, rgb);
  }

  LunarLanderRenderer() : canvas_(kW, kH, kH, kW) {}

  void Render(const LunarLanderSim& sim, uint8_t* rgb) {
    constexpr double kScale = LunarLanderSim::kScale;
    const Rgb white{255, 255, 255}, black{0, 0, 0};
    for (int y = 0; y < kH; ++y) canvas_.Span(y, 0, kW - 1, white);
    const double h = LunarLanderSim::kViewportH / kScale;
    for (int i = 0; i + 1 < LunarLanderSim::kChunks; ++i) {
      const double x1 = sim.chunk_x()[i], x2 = sim.chunk_x()[i + 1];
      const double poly[4][2] = {
          {x1, sim.smooth_y()[i]}, {x2, sim.smooth_y()[i + 1]}, {x2, h}, {x1, h}};
      int px[4], py[4];
      for (int k = 0; k < 4; ++k) {
        px[k] = static_cast<int>(poly[k][0] * kScale);
        py[k] = static_cast<int>(poly[k][1] * kScale);
      }
      FillAndGfxOutline(px, py, 4, black);
    }

    // The particles render() keeps (its clean drops an expired head).
    const auto& particles = sim.particles();
    size_t first = 0;
    while (first < particles.size() && sim.Fade(particles[first].ttl) < 0) ++first;
    for (size_t i = first; i < particles.size(); ++i) {
      const b2Body* body = particles[i].body;
      const Rgb c = ParticleColor(sim.Fade(particles[i].ttl));
      const b2Vec2 centre = b2Mul(body->GetTransform(), b2Vec2(0.0f, 0.0f));
      const auto* disc = static_cast<const b2CircleShape*>(body->GetFixtureList()->GetShape());
      const int radius = static_cast<int>(static_cast<double>(disc->m_radius) * kScale);
      pygame::CircleFilled(canvas_, static_cast<int>(centre.x * static_cast<float>(kScale)),
                           static_cast<int>(centre.y * static_cast<float>(kScale)), radius, c);
      DrawFlags(sim);
    }
    const Rgb fill{128, 102, 230}, border{77, 77, 128};
    for (const b2Body* body : {sim.lander(), sim.leg(0), sim.leg(1)}) {
      for (const b2Fixture* f = body->GetFixtureList(); f != nullptr; f = f->GetNext()) {
        DrawPolygonFixture(f, fill, border);
        DrawFlags(sim);
      }
    }
    // gymnasium flips the surface: output row r is surface row kH - 1 - r.
    for (int r = 0; r < kH; ++r) {
      const int y = kH - 1 - r;
      uint8_t* out = rgb + static_cast<size_t>(r) * kW * 3;
      for (int c = 0; c < 3; ++c) {
        const uint8_t* src = canvas_.Row(c, y);
        for (int x = 0; x < kW; ++x) out[3 * x + c] = src[x];
      }
    }
  }

 private:
  // int(max(0.2, v) * 255) per channel: white, through red, to grey.
  static Rgb ParticleColor(double ttl) {
    auto level = [](double v) {
      return static_cast<uint8_t>(static_cast<int>(std::max(0.2, v) * 255));
    };
    const uint8_t gb = level(0.5 * ttl);
    return {level(0.15 + ttl), gb, gb};
  }

  // draw.polygon then gfxdraw.aapolygon, of integer points.
  void FillAndGfxOutline(const int* px, const int* py, int n, const Rgb& c) {
    canvas_.DrawPolygon(px, py, n, c);
    int16_t vx[b2_maxPolygonVertices], vy[b2_maxPolygonVertices];
    for (int k = 0; k < n; ++k) {
      vx[k] = static_cast<int16_t>(px[k]);
      vy[k] = static_cast<int16_t>(py[k]);
    }
    canvas_.GfxAaPolygon(vx, vy, n, c);
  }

  // A body's polygon at trans * v * SCALE (float32, as pybox2d computes it):
  // filled, the SDL_gfx outline in the fill colour, pygame's in the border's.
  void DrawPolygonFixture(const b2Fixture* f, const Rgb& fill, const Rgb& border) {
    const auto* shape = static_cast<const b2PolygonShape*>(f->GetShape());
    const b2Transform& xf = f->GetBody()->GetTransform();
    const int n = shape->GetVertexCount();
    int px[b2_maxPolygonVertices], py[b2_maxPolygonVertices];
    float fx[b2_maxPolygonVertices], fy[b2_maxPolygonVertices];
    for (int k = 0; k < n; ++k) {
      const b2Vec2 p = static_cast<float>(LunarLanderSim::kScale) * b2Mul(xf, shape->GetVertex(k));
      fx[k] = p.x;
      fy[k] = p.y;
      px[k] = static_cast<int>(p.x);
      py[k] = static_cast<int>(p.y);
    }
    FillAndGfxOutline(px, py, n, fill);
    pygame::AaLines(canvas_, fx, fy, n, true, border);
  }

  // The helipad's flags: a white pole, a yellow pennant.
  void DrawFlags(const LunarLanderSim& sim) {
    constexpr double kScale = LunarLanderSim::kScale;
    constexpr int chunk = LunarLanderSim::kChunks / 2;
    for (const double hx : {sim.chunk_x()[chunk - 1], sim.chunk_x()[chunk + 1]}) {
      const double x = hx * kScale;
      const double y1 = sim.helipad_y() * kScale, y2 = y1 + 50;
      pygame::Line(canvas_, static_cast<int>(x), static_cast<int>(y1), static_cast<int>(x),
                   static_cast<int>(y2), Rgb{255, 255, 255});
      const int px[3] = {static_cast<int>(x), static_cast<int>(x), static_cast<int>(x + 25)};
      const int py[3] = {static_cast<int>(y2), static_cast<int>(y2 - 10), static_cast<int>(y2 - 5)};
      FillAndGfxOutline(px, py, 3, Rgb{204, 204, 0});
    }
  }

  PygameCanvas canvas_;
};

}  // namespace envpool_x::box2d
