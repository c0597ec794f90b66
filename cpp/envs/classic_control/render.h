// A tiny host-side rasterizer for the classic-control frames (frames.h): an
// RGB canvas with filled polygons (convex or concave, even-odd rule), filled
// circles and thick lines / polylines. No anti-aliasing: a pixel takes the
// colour when its centre (x + 0.5, y + 0.5) falls inside the shape.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace envpool_x {
namespace raster {

struct Rgb {
  uint8_t r, g, b;
};

struct Point {
  double x, y;
};

// Rotates p by `angle` radians counter-clockwise in a y-up frame (the way
// pygame's Vector2.rotate_rad turns a vector in its own coordinates).
inline Point Rotate(Point p, double angle) {
  const double c = std::cos(angle);
  const double s = std::sin(angle);
  return Point{p.x * c - p.y * s, p.x * s + p.y * c};
}

// A width x height picture, rows top to bottom, 3 bytes (R, G, B) a pixel.
class Canvas {
 public:
  Canvas(int width, int height, Rgb background)
      : width_(width), height_(height), pixels_(static_cast<size_t>(width) * height * 3) {
    for (size_t i = 0; i < pixels_.size(); i += 3) {
      pixels_[i] = background.r;
      pixels_[i + 1] = background.g;
      pixels_[i + 2] = background.b;
    }
  }

  int width() const { return width_; }
  int height() const { return height_; }
  const uint8_t* data() const { return pixels_.data(); }

  // Paints pixels x0..x1 (inclusive, clipped) of row y.
  void Span(int y, int x0, int x1, Rgb c) {
    if (y < 0 || y >= height_) return;
    x0 = std::max(x0, 0);
    x1 = std::min(x1, width_ - 1);
    uint8_t* p = &pixels_[(static_cast<size_t>(y) * width_ + std::max(x0, 0)) * 3];
    for (int x = x0; x <= x1; ++x, p += 3) {
      p[0] = c.r;
      p[1] = c.g;
      p[2] = c.b;
    }
  }

  // Turns the picture upside down (row y becomes row height - 1 - y): the
  // frames are drawn with y growing upwards and flipped at the end, as
  // gymnasium draws them with pygame.
  void FlipVertical() {
    const size_t row = static_cast<size_t>(width_) * 3;
    std::vector<uint8_t> tmp(row);
    for (int y = 0; y < height_ / 2; ++y) {
      uint8_t* a = &pixels_[y * row];
      uint8_t* b = &pixels_[(height_ - 1 - y) * row];
      std::memcpy(tmp.data(), a, row);
      std::memcpy(a, b, row);
      std::memcpy(b, tmp.data(), row);
    }
  }

 private:
  int width_, height_;
  std::vector<uint8_t> pixels_;
};

// Scanline fill with the even-odd rule: each row's pixel centres between the
// 1st and 2nd, 3rd and 4th... crossings of the polygon's edges.
inline void FillPolygon(Canvas& canvas, const std::vector<Point>& pts, Rgb c) {
  const size_t n = pts.size();
  if (n < 3) return;
  double ymin = pts[0].y, ymax = pts[0].y;
  for (const Point& p : pts) {
    ymin = std::min(ymin, p.y);
    ymax = std::max(ymax, p.y);
  }
  const int row0 = std::max(0, static_cast<int>(std::ceil(ymin - 0.5)));
  const int row1 = std::min(canvas.height() - 1, static_cast<int>(std::floor(ymax - 0.5)));
  std::vector<double> xs;
  for (int y = row0; y <= row1; ++y) {
    const double cy = y + 0.5;
    xs.clear();
    for (size_t i = 0; i < n; ++i) {
      const Point& a = pts[i];
      const Point& b = pts[(i + 1) % n];
      // Half-open in y, so a vertex shared by two edges counts once.
      if ((a.y <= cy && cy < b.y) || (b.y <= cy && cy < a.y)) {
        xs.push_back(a.x + (cy - a.y) * (b.x - a.x) / (b.y - a.y));
      }
    }
    std::sort(xs.begin(), xs.end());
    for (size_t i = 0; i + 1 < xs.size(); i += 2) {
      const int x0 = static_cast<int>(std::ceil(xs[i] - 0.5));
      const int x1 = static_cast<int>(std::floor(xs[i + 1] - 0.5));
      canvas.Span(y, x0, x1, c);
    }
  }
}

// The pixels whose centres lie within `radius` of (cx, cy); at least the
// pixel holding the centre.
inline void FillCircle(Canvas& canvas, double cx, double cy, double radius, Rgb c) {
  const int row0 = static_cast<int>(std::floor(cy - radius));
  const int row1 = static_cast<int>(std::ceil(cy + radius));
  for (int y = row0; y <= row1; ++y) {
    const double dy = y + 0.5 - cy;
    const double half2 = radius * radius - dy * dy;
    if (half2 < 0) continue;
    const double half = std::sqrt(half2);
    const int x0 = static_cast<int>(std::ceil(cx - half - 0.5));
    const int x1 = static_cast<int>(std::floor(cx + half - 0.5));
    canvas.Span(y, x0, x1, c);
  }
  canvas.Span(static_cast<int>(std::floor(cy)), static_cast<int>(std::floor(cx)),
              static_cast<int>(std::floor(cx)), c);
}

// A straight segment `width` pixels thick (at least 1) with flat ends: the
// rectangle around it. A rectangle at least 1 pixel across covers a pixel
// centre in every row and column it crosses, so thin lines have no gaps.
inline void ThickLine(Canvas& canvas, Point a, Point b, double width, Rgb c) {
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const double len = std::hypot(dx, dy);
  const double half = std::max(width, 1.0) / 2;
  if (len == 0) {
    FillCircle(canvas, a.x, a.y, half, c);
    return;
  }
  const double nx = -dy / len * half;
  const double ny = dx / len * half;
  FillPolygon(
      canvas,
      {{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}}, c);
}

// Consecutive points joined by thick lines, with round joints (so that a
// bent thick line has no notches at its corners).
inline void Polyline(Canvas& canvas, const std::vector<Point>& pts, double width, Rgb c) {
  for (size_t i = 0; i + 1 < pts.size(); ++i) {
    ThickLine(canvas, pts[i], pts[i + 1], width, c);
    if (width > 2 && i > 0) FillCircle(canvas, pts[i].x, pts[i].y, width / 2, c);
  }
}

}  // namespace raster
}  // namespace envpool_x
