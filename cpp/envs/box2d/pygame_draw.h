// pygame 2.6's own draw module where gymnasium's LunarLander and
// BipedalWalker use it beyond polygons (pygame_raster.h): draw.line and
// draw.lines of width 1 (Liang-Barsky clipping with rounded ends, then
// Bresenham), draw.aaline / draw.aalines (a Wu line in float arithmetic over
// float end points, each pixel blended as (uint8)(b * colour + (1 - b) *
// background)) and a filled draw.circle (midpoint circle, horizontal spans).
// Written from the algorithms' descriptions; integer points are what
// pygame makes of Python floats ((int) truncation).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "envs/box2d/pygame_raster.h"

namespace envpool_x::box2d::pygame {

inline void SetAt(PygameCanvas& s, int x, int y, const Rgb& c) {
  if (s.Held(x, y)) s.Span(y, x, x, c);
}

// pygame's clip_line: the segment cut to the surface, ends rounded half away
// from zero. False: nothing of it is on the surface.
inline bool ClipLine(const PygameCanvas& s, int* x1, int* y1, int* x2, int* y2) {
  const int p1 = *x1 - *x2, p2 = -p1, p3 = *y1 - *y2, p4 = -p3;
  const int q1 = *x1, q2 = s.surface_w() - *x1, q3 = *y1, q4 = s.surface_h() - *y1;
  const int ox = *x1, oy = *y1;
  double nmax = 0, pmin = 1;
  if ((p1 == 0 && q1 < 0) || (p2 == 0 && q2 < 0) || (p3 == 0 && q3 < 0) || (p4 == 0 && q4 < 0)) {
    return false;
  }
  auto bound = [&](int p, int qa, int qb, int pb) {
    const double r1 = static_cast<double>(qa) / p, r2 = static_cast<double>(qb) / pb;
    if (p < 0) {
      if (r1 > nmax) nmax = r1;
      if (r2 < pmin) pmin = r2;
    } else {
      if (r2 > nmax) nmax = r2;
      if (r1 < pmin) pmin = r1;
    }
  };
  if (p1) bound(p1, q1, q2, p2);
  if (p3) bound(p3, q3, q4, p4);
  if (nmax > pmin) return false;
  auto round = [](double v) { return static_cast<int>(v < 0 ? v - 0.5 : v + 0.5); };
  *x1 = ox + round(p2 * nmax);
  *y1 = oy + round(p4 * nmax);
  *x2 = ox + round(p2 * pmin);
  *y2 = oy + round(p4 * pmin);
  return true;
}

// draw.line(width=1).
inline void Line(PygameCanvas& s, int x1, int y1, int x2, int y2, const Rgb& c) {
  if (!ClipLine(s, &x1, &y1, &x2, &y2)) return;
  if (x1 == x2 && y1 == y2) return SetAt(s, x1, y1, c);
  if (y1 == y2) return s.Span(y1, x1, x2, c);
  if (x1 == x2) {
    for (int y = std::min(y1, y2); y <= std::max(y1, y2); ++y) SetAt(s, x1, y, c);
    return;
  }
  const int dx = std::abs(x2 - x1), sx = x1 < x2 ? 1 : -1;
  const int dy = std::abs(y2 - y1), sy = y1 < y2 ? 1 : -1;
  int err = (dx > dy ? dx : -dy) / 2;
  while (x1 != x2 || y1 != y2) {
    SetAt(s, x1, y1, c);
    const int e2 = err;
    if (e2 > -dx) {
      err -= dy;
      x1 += sx;
    }
    if (e2 < dy) {
      err += dx;
      y1 += sy;
    }
  }
  SetAt(s, x2, y2, c);
}

// draw.lines(width=1): n points, and the closing segment when closed.
inline void Lines(PygameCanvas& s, const int* x, const int* y, int n, bool closed, const Rgb& c) {
  for (int i = 1; i < n; ++i) Line(s, x[i - 1], y[i - 1], x[i], y[i], c);
  if (closed && n > 2) Line(s, x[n - 1], y[n - 1], x[0], y[0], c);
}

// One pixel of draw.aaline: brightness b of colour c over the pixel.
inline void AaPixel(PygameCanvas& s, int x, int y, const Rgb& c, float b) {
  if (!s.Held(x, y)) return;
  const Rgb d = s.At(x, y);
  Rgb out;
  for (int k = 0; k < 3; ++k) out[k] = static_cast<uint8_t>(b * c[k] + (1 - b) * d[k]);
  s.Span(y, x, x, out);
}

// draw.aaline (blend=1), in pygame's float arithmetic.
inline void AaLine(PygameCanvas& s, float fx, float fy, float tx, float ty, const Rgb& c) {
  float dx = tx - fx, dy = ty - fy;
  if (std::fabs(dx) < 0.0001 && std::fabs(dy) < 0.0001) {
    AaPixel(s, static_cast<int>(std::floor(fx + 0.5)), static_cast<int>(std::floor(fy + 0.5)), c,
            1.0f);
    return;
  }
  float cl = -1.0f, cr = cl + s.surface_w() + 1.0f, ct = -1.0f, cb = ct + s.surface_h() + 1.0f;
  const bool steep = std::fabs(dx) < std::fabs(dy);
  if (steep) {
    std::swap(fx, fy);
    std::swap(tx, ty);
    std::swap(dx, dy);
    std::swap(cl, ct);
    std::swap(cr, cb);
  }
  if (dx < 0) {
    std::swap(fx, tx);
    std::swap(fy, ty);
    dx = -dx;
    dy = -dy;
  }
  if (tx <= cl || fx >= cr) return;
  const float g = dy / dx;
  if (fx < cl) {
    fy += g * (cl - fx);
    fx = cl;
  }
  if (tx > cr) {
    ty += g * (cr - tx);
    tx = cr;
  }
  if (g > 0.0f) {
    if (ty <= ct || fy >= cb) return;
    if (fy < ct) {
      fx += (ct - fy) / g;
      fy = ct;
    }
    if (ty > cb) {
      tx += (cb - ty) / g;
      ty = cb;
    }
  } else {
    if (fy <= ct || ty >= cb) return;
    if (ty < ct) {
      tx += (ct - ty) / g;
      ty = ct;
    }
    if (fy > cb) {
      fx += (cb - fy) / g;
      fy = cb;
    }
  }
  fy += 1.0f;
  ty += 1.0f;
  // (u, v): u along the major axis, v across it (one row lower, see pygame).
  auto plot = [&](int u, int v, float b) {
    if (steep) {
      AaPixel(s, v, u, c, b);
    } else {
      AaPixel(s, u, v, c, b);
    }
  };
  auto endpoint = [&](int u, float v_end, float gap) {
    float b = v_end - static_cast<int>(v_end);
    const int v = static_cast<int>(v_end);
    if (static_cast<float>(v) < v_end) plot(u, v, b * gap);
    b = 1 - b;
    plot(u, v - 1, b * gap);
  };
  int u_start = static_cast<int>(fx);
  float inter = fy + g * (u_start - fx);
  if (tx > cl + 1.0f) {
    endpoint(u_start, inter, 1 + u_start - fx);
    inter += g;
    ++u_start;
  }
  const int u_end = static_cast<int>(std::ceil(tx));
  if (fx < cr - 1.0f) endpoint(u_end, ty + g * (u_end - tx), 1 - u_end + tx);
  for (int u = u_start; u < u_end; ++u) {
    const int v = static_cast<int>(inter);
    float b = 1 - inter + v;
    plot(u, v - 1, b);
    if (static_cast<float>(v) < inter) plot(u, v, 1 - b);
    inter += g;
  }
}

// draw.aalines: n float points, and the closing segment when closed.
inline void AaLines(PygameCanvas& s, const float* x, const float* y, int n, bool closed,
                    const Rgb& c) {
  for (int i = 1; i < n; ++i) AaLine(s, x[i - 1], y[i - 1], x[i], y[i], c);
  if (closed && n > 2) AaLine(s, x[n - 1], y[n - 1], x[0], y[0], c);
}

// draw.circle filled: radius >= 1, centre (x0, y0).
inline void CircleFilled(PygameCanvas& s, int x0, int y0, int radius, const Rgb& c) {
  if (radius < 1) return;
  if (x0 > s.surface_w() + radius || x0 < -radius || y0 > s.surface_h() + radius || y0 < -radius) {
    return;
  }
  int f = 1 - radius, ddf_x = 0, ddf_y = -2 * radius, x = 0, y = radius;
  while (x < y) {
    if (f >= 0) {
      --y;
      ddf_y += 2;
      f += ddf_y;
    }
    ++x;
    ddf_x += 2;
    f += ddf_x + 1;
    if (f >= 0) {
      s.Span(y0 + y - 1, x0 - x, x0 + x - 1, c);
      s.Span(y0 - y, x0 - x, x0 + x - 1, c);
    }
    s.Span(y0 + x - 1, x0 - y, x0 + y - 1, c);
    s.Span(y0 - x, x0 - y, x0 + y - 1, c);
  }
}

}  // namespace envpool_x::box2d::pygame
