// CarRacing's 96x96 observation: gymnasium 1.4.0's _render("state_pixels")
// scene (background, grass patches, road and kerbs, the car's wheels and hull,
// the vertical flip, the indicator bars, the score) on a 1000x800 canvas with
// pygame's rules (pygame_raster.h), shrunk as smoothscale does
// (car_racing_scale.h). Coordinates follow gymnasium's float64 order, with
// pygame.math.Vector2.rotate_rad's special cases for right angles.
//
// The score is drawn with our own 7-segment digits, not pygame's font, so
// the few output pixels under it differ from gymnasium's (docs/box2d.md).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

#include "envs/box2d/car_racing_scale.h"
#include "envs/box2d/car_racing_sim.h"

namespace envpool_x::box2d {

class CarRacingRenderer {
 public:
  static constexpr int kObs = Shrinker::kOut;

  // One renderer per thread (a 0.3 MB band, 0.45 MB of shrunk rows).
  static void Draw(const CarRacingSim& sim, uint8_t* obs) {
    // Looked up once: in a shared library every use of a thread_local may
    // cost a __tls_get_addr call, and Render inlined here would use it often.
    static thread_local std::unique_ptr<CarRacingRenderer> renderer;
    CarRacingRenderer* r = renderer.get();
    if (r == nullptr) {
      renderer = std::make_unique<CarRacingRenderer>();
      r = renderer.get();
    }
    r->Render(sim, obs);
  }

  void Render(const CarRacingSim& sim, uint8_t* obs) {
    using namespace car_racing;
    const b2Body* hull = sim.car().hull;
    SetAngle(-static_cast<double>(hull->GetAngle()));
    const double t = sim.time();
    zoom_ = 0.1 * kScale * std::max(1 - t, 0.0) + 2.7 * kScale * std::min(t, 1.0);
    const b2Vec2 pos = hull->GetPosition();
    const auto scroll =
        Rotate(-static_cast<double>(pos.x) * zoom_, -static_cast<double>(pos.y) * zoom_);
    tx_ = Canvas::kW / 2.0 + scroll[0];
    ty_ = Canvas::kH / 4.0 + scroll[1];

    const double b = kPlayfield;
    const CarColors& colors = sim.colors();
    const Quad field = {{{b, b}, {b, -b}, {-b, -b}, {-b, b}}};
    // pygame starts from a black surface; once the background covers the
    // whole window (from the second frame on, in practice), nothing of it shows.
    const bool clear = !CoversCanvas(field);
    prims_.clear();
    Polygon(field, ToRgb(colors.bg), false);
    const double g = kPlayfield / 20.0;
    const Rgb grass = ToRgb(colors.grass);
    for (int x = -20; x < 20; x += 2) {
      for (int y = -20; y < 20; y += 2) {
        Polygon({{{g * x + g, g * y + 0},
                  {g * x + 0, g * y + 0},
                  {g * x + 0, g * y + g},
                  {g * x + g, g * y + g}}},
                grass, true);
      }
    }
    for (const RoadPoly& p : sim.track().polys) Polygon(p.v, ToRgb(p.color), true);
    DrawCar(sim.car());
    // Everything from here is drawn after gymnasium's flip: rows mirrored.
    DrawIndicators(sim.car());
    DrawScore(sim.total_reward());

    // Every primitive, in order, band by band.
    for (int y0 = 0; y0 < Canvas::kH; y0 += Canvas::kBand) {
      canvas_.SetBand(y0);
      if (clear) canvas_.Clear();
      for (const Prim& p : prims_) {
        if (p.ymax < y0 || p.ymin >= canvas_.band_end()) continue;
        if (p.kind == Prim::kGfx) {
          int16_t vx[4], vy[4];
          for (int i = 0; i < 4; ++i) {
            vx[i] = static_cast<int16_t>(p.x[i]);
            vy[i] = static_cast<int16_t>(p.y[i]);
          }
          canvas_.GfxPolygon(vx, vy, 4, p.color);
        } else if (p.kind == Prim::kDraw) {
          canvas_.DrawPolygon(p.x, p.y, p.n, p.color);
        } else {
          const int top = std::max(p.ymin, y0), bottom = std::min(p.ymax, canvas_.band_end() - 1);
          for (int y = top; y <= bottom; ++y) canvas_.Span(y, p.x[0], p.x[1], p.color);
        }
      }
      shrinker_.ShrinkBand(canvas_);
    }
    shrinker_.Finish(obs);
  }

 private:
  using Quad = std::array<std::array<double, 2>, 4>;

  static Rgb ToRgb(const std::array<double, 3>& c) {  // int(c), as pygame converts
    return {static_cast<uint8_t>(static_cast<int>(c[0])),
            static_cast<uint8_t>(static_cast<int>(c[1])),
            static_cast<uint8_t>(static_cast<int>(c[2]))};
  }

  // pygame's rotate_rad: the angle taken into [0, 2 pi), exact swaps near
  // multiples of pi / 2 (within 1e-6), sin / cos otherwise.
  void SetAngle(double angle) {
    constexpr double kEps = 1e-6, kTwoPi = 2. * M_PI;
    angle = std::fmod(angle, kTwoPi);
    if (angle < 0) angle += kTwoPi;
    quarter_ = -1;
    if (std::fmod(angle + kEps, M_PI_2) < 2 * kEps) {
      quarter_ = static_cast<int>((angle + kEps) / M_PI_2) % 4;
    } else {
      sin_ = std::sin(angle);
      cos_ = std::cos(angle);
    }
  }
  std::array<double, 2> Rotate(double x, double y) const {
    switch (quarter_) {
      case 0:
        return {x, y};
      case 1:
        return {-y, x};
      case 2:
        return {-x, -y};
      case 3:
        return {y, -x};
      default:
        return {cos_ * x - sin_ * y, sin_ * x + cos_ * y};
    }
  }
  std::array<double, 2> Screen(double x, double y) const {
    const auto r = Rotate(x, y);
    return {r[0] * zoom_ + tx_, r[1] * zoom_ + ty_};
  }

  // _draw_colored_polygon: gfxdraw.aapolygon then gfxdraw.filled_polygon,
  // skipped when clip and no corner is near the window.
  void Polygon(const Quad& poly, const Rgb& color, bool clip) {
    constexpr double kMaxShapeDim =
        car_racing::kPlayfield / 20.0 * 1.4142135623730951 * 2.7 * car_racing::kScale;
    int16_t vx[4], vy[4];
    bool near = !clip;
    for (int i = 0; i < 4; ++i) {
      const auto p = Screen(poly[i][0], poly[i][1]);
      near |= -kMaxShapeDim <= p[0] && p[0] <= Canvas::kW + kMaxShapeDim && -kMaxShapeDim <= p[1] &&
              p[1] <= Canvas::kH + kMaxShapeDim;
      vx[i] = static_cast<int16_t>(static_cast<long>(p[0]));
      vy[i] = static_cast<int16_t>(static_cast<long>(p[1]));
    }
    if (!near) return;
    Prim& p = prims_.emplace_back();
    p.kind = Prim::kGfx;
    p.n = 4;
    p.color = color;
    p.ymin = p.ymax = vy[0];
    for (int i = 0; i < 4; ++i) {
      p.x[i] = vx[i];
      p.y[i] = vy[i];
      p.ymin = std::min<int>(p.ymin, vy[i]);
      p.ymax = std::max<int>(p.ymax, vy[i]);
    }
    --p.ymin;  // the outline's pixel pairs reach one row beyond
    ++p.ymax;
  }

  // Whether the convex quad, as drawn, holds the window with 8 pixels to
  // spare on every side: its fill then covers every pixel and its outline
  // none.
  bool CoversCanvas(const Quad& poly) const {
    double x[4], y[4];
    for (int i = 0; i < 4; ++i) {
      const auto p = Screen(poly[i][0], poly[i][1]);
      x[i] = static_cast<int16_t>(static_cast<long>(p[0]));
      y[i] = static_cast<int16_t>(static_cast<long>(p[1]));
    }
    constexpr double m = 8, corners[4][2] = {{-m, -m},
                                             {Canvas::kW + m, -m},
                                             {-m, Canvas::kH + m},
                                             {Canvas::kW + m, Canvas::kH + m}};
    int sign = 0;
    for (int i = 0; i < 4; ++i) {
      const int j = (i + 1) % 4;
      for (const auto& c : corners) {
        const double cross = (x[j] - x[i]) * (c[1] - y[i]) - (y[j] - y[i]) * (c[0] - x[i]);
        const int s = cross > 0 ? 1 : (cross < 0 ? -1 : 0);
        if (s == 0 || (sign != 0 && s != sign)) return false;
        sign = s;
      }
    }
    return true;
  }

  // draw.polygon of world points (float32, as b2Transform * vertex gives).
  void BodyPolygon(const b2Vec2* pts, int n, const Rgb& color) {
    Prim& p = prims_.emplace_back();
    p.kind = Prim::kDraw;
    p.n = n;
    p.color = color;
    for (int i = 0; i < n; ++i) {
      const auto q = Screen(pts[i].x, pts[i].y);
      p.x[i] = static_cast<int>(q[0]);
      p.y[i] = static_cast<int>(q[1]);
    }
    p.ymin = *std::min_element(p.y, p.y + n);
    p.ymax = *std::max_element(p.y, p.y + n);
  }

  // Canvas rows row0..row1, columns x0..x1 (inclusive), opaque.
  void Rows(int row0, int row1, int x0, int x1, const Rgb& color) {
    Prim& p = prims_.emplace_back();
    p.kind = Prim::kRows;
    p.color = color;
    p.x[0] = x0;
    p.x[1] = x1;
    p.ymin = std::min(row0, row1);
    p.ymax = std::max(row0, row1);
  }

  // Car.draw without particles: wheels (black, with the grey tread band),
  // then the hull's fixtures.
  void DrawCar(const Car& car) {
    using namespace car;
    for (const Wheel& w : car.wheels) {
      const b2Transform& xf = w.body->GetTransform();
      for (const b2Fixture* f = w.body->GetFixtureList(); f; f = f->GetNext()) {
        DrawFixture(f, xf, Rgb{0, 0, 0});
      }
      const double a1 = w.phase, a2 = w.phase + 1.2;
      const double s1 = std::sin(a1), s2 = std::sin(a2);
      double c1 = std::cos(a1), c2 = std::cos(a2);
      if (s1 > 0 && s2 > 0) continue;
      if (s1 > 0) c1 = Car::Sign(c1);
      if (s2 > 0) c2 = Car::Sign(c2);
      const double band[4][2] = {{-kWheelW * kSize, +kWheelR * c1 * kSize},
                                 {+kWheelW * kSize, +kWheelR * c1 * kSize},
                                 {+kWheelW * kSize, +kWheelR * c2 * kSize},
                                 {-kWheelW * kSize, +kWheelR * c2 * kSize}};
      b2Vec2 pts[4];
      for (int i = 0; i < 4; ++i) {
        pts[i] = b2Mul(xf, b2Vec2(static_cast<float>(band[i][0]), static_cast<float>(band[i][1])));
      }
      BodyPolygon(pts, 4, Rgb{77, 77, 77});
    }
    const b2Transform& xf = car.hull->GetTransform();
    for (const b2Fixture* f = car.hull->GetFixtureList(); f; f = f->GetNext()) {
      DrawFixture(f, xf, Rgb{204, 0, 0});  // int(0.8 * 255)
    }
  }

  void DrawFixture(const b2Fixture* f, const b2Transform& xf, const Rgb& color) {
    const auto* shape = static_cast<const b2PolygonShape*>(f->GetShape());
    b2Vec2 pts[b2_maxPolygonVertices];
    const int n = shape->GetVertexCount();
    for (int i = 0; i < n; ++i) pts[i] = b2Mul(xf, shape->GetVertex(i));
    BodyPolygon(pts, n, color);
  }

  // _render_indicators(1000, 800): every shape is an axis-aligned rectangle,
  // so its rows are filled straight into the mirrored canvas rows.
  void DrawIndicators(const Car& car) {
    constexpr double W = Canvas::kW, H = Canvas::kH, s = W / 40.0, h = H / 40.0;
    Rect(0, H - 5 * h, W, H, Rgb{0, 0, 0});
    const b2Vec2 v = car.hull->GetLinearVelocity();
    const double vx = v.x, vy = v.y;
    const double speed = std::sqrt(vx * vx + vy * vy);
    auto vertical = [&](double place, double val, const Rgb& c, double value) {
      if (std::fabs(value) > 1e-4) Rect(place * s, H - (h + h * val), (place + 1) * s, H - h, c);
    };
    auto horizontal = [&](double place, double val, const Rgb& c, double value) {
      if (std::fabs(value) > 1e-4)
        Rect((place + 0) * s, H - 4 * h, (place + val) * s, H - 2 * h, c);
    };
    vertical(5, 0.02 * speed, Rgb{255, 255, 255}, speed);
    for (int k = 0; k < 4; ++k) {
      const double omega = car.wheels[k].omega;
      vertical(7 + k, 0.01 * omega, k < 2 ? Rgb{0, 0, 255} : Rgb{51, 0, 255}, omega);
    }
    const double steer = car.wheels[0].joint->GetJointAngle();
    horizontal(20, -10.0 * steer, Rgb{0, 255, 0}, steer);
    const double spin = car.hull->GetAngularVelocity();
    horizontal(30, -0.8 * spin, Rgb{255, 0, 0}, spin);
  }

  // draw.polygon of the rectangle (x0, y0) (x1, y0) (x1, y1) (x0, y1) after
  // the flip: rows y0..y1 (truncated; the bottom row included, a zero-height
  // one drawn as a line), columns between the truncated x's.
  void Rect(double x0, double y0, double x1, double y1, const Rgb& c) {
    const int ix0 = static_cast<int>(x0), ix1 = static_cast<int>(x1);
    int iy0 = static_cast<int>(y0), iy1 = static_cast<int>(y1);
    if (iy0 > iy1) std::swap(iy0, iy1);
    Rows(Canvas::kH - 1 - iy1, Canvas::kH - 1 - iy0, ix0, ix1, c);
  }

  // The score, f"{reward:04.0f}", centred at x = 60 after the flip, in
  // 7-segment digits of our own: 24 px apart, 30 px high from row 732, 5 px
  // strokes (sizes picked so that, shrunk, they come closest to the font's).
  void DrawScore(double reward) {
    char text[32];
    std::snprintf(text, sizeof(text), "%04.0f", reward);
    const int len = static_cast<int>(std::char_traits<char>::length(text));
    constexpr int kAdvance = 24, kWide = 18, kHigh = 30, kStroke = 5;
    int left = 60 - len * kAdvance / 2 + (kAdvance - kWide) / 2;
    const int top = 732;
    // Segments a..g as bits 0..6.
    static constexpr uint8_t kDigits[10] = {0x3F, 0x06, 0x5B, 0x4F, 0x66,
                                            0x6D, 0x7D, 0x07, 0x7F, 0x6F};
    for (int i = 0; i < len; ++i, left += kAdvance) {
      const uint8_t seg = text[i] == '-'                       ? 0x40
                          : (text[i] >= '0' && text[i] <= '9') ? kDigits[text[i] - '0']
                                                               : 0;
      const int mid = top + kHigh / 2 - kStroke / 2, bottom = top + kHigh - kStroke;
      const int right = left + kWide - kStroke;
      auto box = [&](int x0, int y0, int x1, int y1) {
        Rows(Canvas::kH - y1, Canvas::kH - 1 - y0, x0, x1 - 1, Rgb{255, 255, 255});
      };
      if (seg & 0x01) box(left, top, left + kWide, top + kStroke);
      if (seg & 0x02) box(right, top, right + kStroke, mid + kStroke);
      if (seg & 0x04) box(right, mid, right + kStroke, bottom + kStroke);
      if (seg & 0x08) box(left, bottom, left + kWide, bottom + kStroke);
      if (seg & 0x10) box(left, mid, left + kStroke, bottom + kStroke);
      if (seg & 0x20) box(left, top, left + kStroke, mid + kStroke);
      if (seg & 0x40) box(left, mid, left + kWide, mid + kStroke);
    }
  }

  // What a frame draws, in gymnasium's order, before any of it is drawn.
  struct Prim {
    enum Kind { kGfx, kDraw, kRows } kind;  // gfxdraw polygon, draw.polygon, rows
    int n = 0;
    int x[8], y[8];
    Rgb color;
    int ymin, ymax;  // canvas rows it may touch
  };

  Canvas canvas_;
  Shrinker shrinker_;
  std::vector<Prim> prims_;
  double zoom_ = 0, tx_ = 0, ty_ = 0, sin_ = 0, cos_ = 1;
  int quarter_ = -1;
};

}  // namespace envpool_x::box2d
