// pygame 2.6's drawing primitives that gymnasium's Box2D envs use, on a
// surface of any size, written from the algorithms' descriptions so that the
// same integer pixels result (no pygame code or data is used):
// - gfxdraw.filled_polygon (SDL_gfx): 16.16 fixed-point edge crossings per row,
//   rounded inward by one unit, pixel spans inclusive;
// - gfxdraw.aapolygon (SDL_gfx): Wu-style lines with an 8-bit error
//   accumulator, the first pixel opaque, the last left out, pairs of pixels
//   blended with weights w and 255 - w;
// - draw.polygon (pygame): float edge crossings truncated to int per row,
//   horizontal edges inside the polygon drawn separately;
// - SDL_gfx's alpha blend for 32-bit surfaces, per channel
//   d + floor((c - d) * a / 256).
// Channels are kept as three planes (R, G, B), a band of rows at a time (a
// pixel depends only on the primitives that touch it, in order, so drawing
// every primitive clipped to one band, then the next, gives the same frame),
// and of columns only a window (BipedalWalker's surface grows with its scroll;
// gymnasium keeps its last 600 columns). Clipping follows the whole surface,
// as pygame's does; pixels outside the band or window are left out. The
// line, anti-aliased line and circle of pygame's own draw module are in
// pygame_draw.h; CarRacing's shrink to 96x96 is in car_racing_scale.h.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace envpool_x::box2d {

using Rgb = std::array<uint8_t, 3>;

class PygameCanvas {
 public:
  // A surface_w x surface_h surface, band_rows rows and window_w columns of it
  // held at once.
  PygameCanvas(int surface_w, int surface_h, int band_rows, int window_w)
      : sw_(surface_w),
        sh_(surface_h),
        ww_(window_w),
        band_(band_rows),
        // 16 spare bytes: CarRacing's shrink reads 16 bytes at a time from any cell.
        planes_(3 * static_cast<size_t>(window_w) * band_rows + 16),
        cover_(band_rows),
        y1_(std::min(band_rows, surface_h)) {}

  // The surface's size and the first column of the window (which keeps its
  // width); the band is rows [0, band).
  void SetSurface(int w, int h, int window_x0) {
    sw_ = w;
    sh_ = h;
    wx0_ = window_x0;
    SetBand(0);
  }

  // Rows [y0, y0 + band) from now on; drawing elsewhere is clipped away.
  void SetBand(int y0) {
    y0_ = y0;
    y1_ = std::min(y0 + band_, sh_);
  }
  int band_begin() const { return y0_; }
  int band_end() const { return y1_; }
  int surface_w() const { return sw_; }
  int surface_h() const { return sh_; }
  int window_x0() const { return wx0_; }
  int window_w() const { return ww_; }

  // Row y of channel c from the window's first column on.
  uint8_t* Row(int c, int y) { return planes_.data() + (c * band_ + (y - y0_)) * ww_; }
  const uint8_t* Row(int c, int y) const { return planes_.data() + (c * band_ + (y - y0_)) * ww_; }
  bool Held(int x, int y) const {
    return x >= wx0_ && x < wx0_ + ww_ && x < sw_ && x >= 0 && y >= y0_ && y < y1_;
  }
  // The pixel at surface (x, y), which must be held.
  Rgb At(int x, int y) const {
    return {Row(0, y)[x - wx0_], Row(1, y)[x - wx0_], Row(2, y)[x - wx0_]};
  }

  void Clear() { std::memset(planes_.data(), 0, planes_.size()); }

  // Opaque span x1..x2 (inclusive, either order) on row y, clipped.
  void Span(int y, int x1, int x2, const Rgb& c) {
    if (y < y0_ || y >= y1_) return;
    if (x1 > x2) std::swap(x1, x2);
    x1 = std::max({x1, 0, wx0_});
    x2 = std::min({x2, sw_ - 1, wx0_ + ww_ - 1});
    if (x1 > x2) return;
    for (int k = 0; k < 3; ++k) Fill(Row(k, y) + (x1 - wx0_), x2 - x1 + 1, c[k]);
  }

  // memset for the short runs polygons make (GCC's inline `rep stos` starts
  // slowly); 16 bytes at a time where SSE2 is there.
  static void Fill(uint8_t* p, int n, uint8_t v) {
#if defined(__SSE2__)
    if (n >= 16) {
      const __m128i w = _mm_set1_epi8(static_cast<char>(v));
      int i = 0;
      for (; i + 16 <= n; i += 16) _mm_storeu_si128(reinterpret_cast<__m128i*>(p + i), w);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p + n - 16), w);
      return;
    }
#endif
    for (int i = 0; i < n; ++i) p[i] = v;
  }

  // SDL_gfx's blend of colour c at alpha into the pixel.
  void Blend(int x, int y, const Rgb& c, int alpha) {
    if (!Held(x, y)) return;
    if (alpha == 255) {
      for (int k = 0; k < 3; ++k) Row(k, y)[x - wx0_] = c[k];
      return;
    }
    for (int k = 0; k < 3; ++k) {
      uint8_t& d = Row(k, y)[x - wx0_];
      d = static_cast<uint8_t>(d + (((c[k] - d) * alpha) >> 8));  // arithmetic shift: floor
    }
  }

  // gfxdraw.aapolygon then gfxdraw.filled_polygon, as _draw_colored_polygon
  // draws them (vertices already converted to Sint16). The outline's pixels
  // that the fill covers right after are not drawn: the fill's opaque colour
  // replaces whatever they were.
  void GfxPolygon(const int16_t* vx, const int16_t* vy, int n, const Rgb& c) {
    if (n < 3) return;
    GfxSpans(vx, vy, n);
    std::fill(cover_.begin(), cover_.end(), std::pair<int, int>{1, 0});  // empty
    int last = -1;
    for (const RowSpan& r : spans_) {
      auto& cv = cover_[r.y - y0_];
      // A row with several spans (not a convex polygon's) skips nothing.
      cv = r.y == last ? std::pair<int, int>{1, 0}
                       : std::pair<int, int>{std::min<int>(r.a, r.b), std::max<int>(r.a, r.b)};
      last = r.y;
    }
    skip_covered_ = true;
    GfxAaPolygon(vx, vy, n, c);
    skip_covered_ = false;
    for (const RowSpan& r : spans_) Span(r.y, r.a, r.b, c);
  }

  // filled_polygon's spans in the band: SDL_gfx's crossings per row (16.16
  // fixed point), sorted, paired, each rounded inward by one unit.
  void GfxSpans(const int16_t* vx, const int16_t* vy, int n) {
    spans_.clear();
    if (n < 3) return;
    int miny = vy[0], maxy = vy[0];
    for (int i = 1; i < n; ++i) {
      if (vy[i] < miny) {
        miny = vy[i];
      } else if (vy[i] > maxy) {
        maxy = vy[i];
      }
    }
    ints_.resize(n);
    for (int y = std::max(miny, y0_); y <= std::min(maxy, y1_ - 1); ++y) {
      int count = 0;
      for (int i = 0; i < n; ++i) {
        const int i1 = i == 0 ? n - 1 : i - 1, i2 = i;
        int y1 = vy[i1], y2 = vy[i2], x1, x2;
        if (y1 < y2) {
          x1 = vx[i1];
          x2 = vx[i2];
        } else if (y1 > y2) {
          y2 = vy[i1];
          y1 = vy[i2];
          x2 = vx[i1];
          x1 = vx[i2];
        } else {
          continue;
        }
        if ((y >= y1 && y < y2) || (y == maxy && y > y1 && y <= y2)) {
          // 32-bit int arithmetic as in C (wrapping where it would overflow).
          const int64_t q = (65536LL * (y - y1)) / (y2 - y1);
          ints_[count++] =
              static_cast<int32_t>(static_cast<uint32_t>(q * (x2 - x1) + 65536LL * x1));
        }
      }
      std::sort(ints_.begin(), ints_.begin() + count);
      for (int i = 0; i + 1 < count; i += 2) {
        int xa = ints_[i] + 1;
        xa = (xa >> 16) + ((xa & 32768) >> 15);
        int xb = ints_[i + 1] - 1;
        xb = (xb >> 16) + ((xb & 32768) >> 15);
        // hlineColor takes Sint16 ends and swaps them when out of order.
        spans_.push_back(RowSpan{y, static_cast<int16_t>(xa), static_cast<int16_t>(xb)});
      }
    }
  }

  // gfxdraw.aapolygon: an anti-aliased line per edge, the closing one last.
  void GfxAaPolygon(const int16_t* vx, const int16_t* vy, int n, const Rgb& c) {
    if (n < 3) return;
    for (int i = 1; i < n; ++i) AaLine(vx[i - 1], vy[i - 1], vx[i], vy[i], c);
    AaLine(vx[n - 1], vy[n - 1], vx[0], vy[0], c);
  }

  // draw.polygon (filled): vertices already truncated to int.
  void DrawPolygon(const int* px, const int* py, int n, const Rgb& c) {
    double miny = py[0], maxy = py[0];
    for (int i = 1; i < n; ++i) {
      miny = std::min(miny, static_cast<double>(py[i]));
      maxy = std::max(maxy, static_cast<double>(py[i]));
    }
    if (miny == maxy) {
      int minx = px[0], maxx = px[0];
      for (int i = 1; i < n; ++i) {
        minx = std::min(minx, px[i]);
        maxx = std::max(maxx, px[i]);
      }
      Span(static_cast<int>(miny), minx, maxx, c);
      return;
    }
    ints_.resize(n);
    for (double y = std::max(miny, 0.0 + y0_); y <= std::min(maxy, y1_ - 1.0); ++y) {
      int count = 0;
      for (int i = 0; i < n; ++i) {
        const int ip = i ? i - 1 : n - 1;
        double y1 = py[ip], y2 = py[i], x1, x2;
        if (y1 < y2) {
          x1 = px[ip];
          x2 = px[i];
        } else if (y1 > y2) {
          y2 = py[ip];
          y1 = py[i];
          x2 = px[ip];
          x1 = px[i];
        } else {
          continue;
        }
        if ((y >= y1 && y < y2) || (y == maxy && y2 == maxy)) {
          ints_[count++] = static_cast<int>((y - y1) * (x2 - x1) / (y2 - y1) + x1);
        }
      }
      std::sort(ints_.begin(), ints_.begin() + count);
      for (int i = 0; i + 1 < count; i += 2) {
        Span(static_cast<int>(y), ints_[i], ints_[i + 1], c);
      }
    }
    for (int i = 0; i < n; ++i) {
      const int ip = i ? i - 1 : n - 1;
      const double y = py[i];
      if (miny < y && py[ip] == py[i] && y < maxy) Span(py[i], px[i], px[ip], c);
    }
  }

 private:
  // SDL_gfx's Cohen-Sutherland clip (float slope, Sint16 results); it may
  // swap the endpoints, which decides where the opaque first pixel goes.
  int Encode(int x, int y) const {
    int code = 0;
    if (x < 0) {
      code |= 1;
    } else if (x > sw_ - 1) {
      code |= 2;
    }
    if (y < 0) {
      code |= 8;
    } else if (y > sh_ - 1) {
      code |= 4;
    }
    return code;
  }

  bool ClipLine(int16_t* x1, int16_t* y1, int16_t* x2, int16_t* y2) const {
    const int left = 0, right = sw_ - 1, top = 0, bottom = sh_ - 1;
    while (true) {
      int code1 = Encode(*x1, *y1), code2 = Encode(*x2, *y2);
      if (!(code1 | code2)) return true;
      if (code1 & code2) return false;
      if (!code1) {
        std::swap(*x1, *x2);
        std::swap(*y1, *y2);
        std::swap(code1, code2);
      }
      const float m =
          *x2 != *x1 ? static_cast<float>(*y2 - *y1) / static_cast<float>(*x2 - *x1) : 1.0f;
      if (code1 & 1) {
        *y1 = static_cast<int16_t>(*y1 + static_cast<int16_t>((left - *x1) * m));
        *x1 = left;
      } else if (code1 & 2) {
        *y1 = static_cast<int16_t>(*y1 + static_cast<int16_t>((right - *x1) * m));
        *x1 = right;
      } else if (code1 & 4) {
        if (*x2 != *x1) *x1 = static_cast<int16_t>(*x1 + static_cast<int16_t>((bottom - *y1) / m));
        *y1 = bottom;
      } else if (code1 & 8) {
        if (*x2 != *x1) *x1 = static_cast<int16_t>(*x1 + static_cast<int16_t>((top - *y1) / m));
        *y1 = top;
      }
    }
  }

  // A weighted pixel: alpha = (255 * weight) >> 8, always blended.
  void Weighted(int x, int y, const Rgb& c, uint32_t weight) {
    AaPixel(x, y, c, static_cast<int>((255u * weight) >> 8));
  }
  void AaPixel(int x, int y, const Rgb& c, int alpha) {
    if (skip_covered_ && y >= y0_ && y < y1_) {
      const auto& cv = cover_[y - y0_];
      if (cv.first <= x && x <= cv.second) return;
    }
    Blend(x, y, c, alpha);
  }

  // SDL_gfx's anti-aliased line without its end point, the part of it in
  // the band. SDL_gfx steps along the major axis adding `adj` to a 32-bit
  // accumulator; the minor coordinate advances on each wrap. After k steps the
  // accumulator is k * adj mod 2^32 and the wraps floor(k * adj / 2^32) (or k
  // when adj is 0: a 45-degree line, whose adj 2^32 wraps to 0 and whose
  // every step then counts as a wrap), so the band's steps are computed
  // directly.
  void AaLine(int16_t x1, int16_t y1, int16_t x2, int16_t y2, const Rgb& c) {
    if (!ClipLine(&x1, &y1, &x2, &y2)) return;
    int xx0 = x1, yy0 = y1, xx1 = x2, yy1 = y2;
    if (yy0 > yy1) {
      std::swap(yy0, yy1);
      std::swap(xx0, xx1);
    }
    int dx = xx1 - xx0;
    const int dy = yy1 - yy0;
    if (dx == 0) {
      if (dy > 0) {
        const int top = std::max(yy0, y0_), bottom = std::min(yy0 + dy, y1_ - 1);
        for (int y = top; y <= bottom; ++y) Span(y, x1, x1, c);
      } else {
        Blend(x1, y1, c, 255);
      }
      return;
    }
    if (dy == 0) {
      Span(y1, xx0, xx0 + dx, c);
      return;
    }
    int xdir = 1;
    if (dx < 0) {
      xdir = -1;
      dx = -dx;
    }
    AaPixel(x1, y1, c, 255);
    if (dy > dx) {
      const uint64_t adj = static_cast<uint32_t>(static_cast<uint32_t>((dx << 16) / dy) << 16);
      // Step k draws on row yy0 + k, k = 1 .. dy - 1.
      const int k_lo = std::max(1, y0_ - yy0), k_hi = std::min(dy - 1, y1_ - 1 - yy0);
      for (int k = k_lo; k <= k_hi; ++k) {
        const uint64_t acc = static_cast<uint64_t>(k) * adj;
        const int x = xx0 + xdir * static_cast<int>(acc >> 32);
        const uint32_t wgt = (static_cast<uint32_t>(acc) >> 24) & 255;
        Weighted(x, yy0 + k, c, 255 - wgt);
        Weighted(x + xdir, yy0 + k, c, wgt);
      }
    } else {
      const uint64_t adj = static_cast<uint32_t>(static_cast<uint32_t>((dy << 16) / dx) << 16);
      // Step k draws on rows yy0 + wraps(k) and the one below, k = 1 .. dx - 1.
      auto wraps = [adj](int64_t k) { return adj ? static_cast<int64_t>((k * adj) >> 32) : k; };
      // The first step reaching row y0_ - 1 and the last not beyond y1_ - 1.
      const int64_t m_lo = y0_ - 1 - yy0, m_hi = y1_ - 1 - yy0;
      if (m_hi < 0) return;
      int64_t k_lo = 1, k_hi = dx - 1;
      if (m_lo > 0) k_lo = std::max<int64_t>(k_lo, adj ? ((m_lo << 32) + adj - 1) / adj : m_lo);
      k_hi = std::min<int64_t>(k_hi, adj ? (((m_hi + 1) << 32) - 1) / adj : m_hi);
      for (int64_t k = k_lo; k <= k_hi; ++k) {
        const int y = yy0 + static_cast<int>(wraps(k));
        const uint32_t wgt = adj ? (static_cast<uint32_t>(k * adj) >> 24) & 255 : 0;
        const int x = xx0 + xdir * static_cast<int>(k);
        Weighted(x, y, c, 255 - wgt);
        Weighted(x, y + 1, c, wgt);
      }
    }
  }

  struct RowSpan {
    int y;
    int16_t a, b;
  };
  int sw_, sh_, ww_, band_, wx0_ = 0;
  std::vector<uint8_t> planes_;
  std::vector<int32_t> ints_;
  std::vector<RowSpan> spans_;
  std::vector<std::pair<int, int>> cover_;  // per band row: the fill's columns
  bool skip_covered_ = false;
  int y0_ = 0, y1_;
};

}  // namespace envpool_x::box2d
