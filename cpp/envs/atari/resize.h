// Image resizing for the Atari observations, one uint8 plane at a time: area
// averaging (what OpenCV calls INTER_AREA when shrinking) and bilinear. The
// weights are computed once per (source size, target size); Resize does not
// allocate.
//
// Shrinking with area averaging (the default 210x160 -> 84x84) runs in exact
// integer arithmetic: in units of 1/n_dst a target pixel d covers
// [d * n_src, (d + 1) * n_src) and a source pixel s covers
// [s * n_dst, (s + 1) * n_dst), so every overlap is a multiple of
// g = gcd(n_src, n_dst) and the weights overlap / g are small integers summing
// to n_src / g. A target pixel is the weighted sum divided by the product of
// the two sums, rounded half up (what OpenCV's integer-scale area path does;
// its float path rounds near-ties either way). Everything else (enlarging,
// bilinear) uses float taps.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <utility>
#include <vector>

namespace envpool_x {

// Float taps of one axis: target index d reads source indices
// src[first[d] .. first[d + 1]) with the matching weights (summing to 1).
struct ResizeAxis {
  std::vector<int32_t> first;
  std::vector<int32_t> src;
  std::vector<float> weight;

  // Area averaging: target pixel d covers the source interval
  // [d * scale, (d + 1) * scale) with scale = n_src / n_dst; each source pixel
  // counts with the length of its overlap. Overlaps shorter than 1e-3 are
  // dropped (they are rounding noise of the interval ends).
  static ResizeAxis Area(int n_src, int n_dst) {
    ResizeAxis a;
    const double scale = static_cast<double>(n_src) / n_dst;
    a.first.push_back(0);
    for (int d = 0; d < n_dst; ++d) {
      const double lo = d * scale;
      const double hi = lo + scale;
      const double cell = std::min(scale, n_src - lo);
      int full_lo = static_cast<int>(std::ceil(lo));
      int full_hi = std::min(static_cast<int>(std::floor(hi)), n_src - 1);
      full_lo = std::min(full_lo, full_hi);
      if (full_lo - lo > 1e-3) a.Add(full_lo - 1, (full_lo - lo) / cell);
      for (int s = full_lo; s < full_hi; ++s) a.Add(s, 1.0 / cell);
      if (hi - full_hi > 1e-3) a.Add(full_hi, std::min(std::min(hi - full_hi, 1.0), cell) / cell);
      a.first.push_back(static_cast<int32_t>(a.src.size()));
    }
    return a;
  }

  // Bilinear with pixel centres aligned ((d + 0.5) * scale - 0.5), clamped at
  // the borders.
  static ResizeAxis Linear(int n_src, int n_dst) {
    ResizeAxis a;
    const double scale = static_cast<double>(n_src) / n_dst;
    a.first.push_back(0);
    for (int d = 0; d < n_dst; ++d) {
      double f = (d + 0.5) * scale - 0.5;
      int s = static_cast<int>(std::floor(f));
      f -= s;
      if (s < 0) {
        s = 0;
        f = 0.0;
      }
      if (s >= n_src - 1) {
        s = n_src - 1;
        f = 0.0;
      }
      a.Add(s, 1.0 - f);
      if (f > 0.0) a.Add(s + 1, f);
      a.first.push_back(static_cast<int32_t>(a.src.size()));
    }
    return a;
  }

 private:
  void Add(int s, double w) {
    src.push_back(s);
    weight.push_back(static_cast<float>(w));
  }
};

// Integer area taps of one shrinking axis (n_dst <= n_src): every target reads
// exactly `taps` source pixels from first[d] on, with weights
// weight[d * taps .. (d + 1) * taps) (zero padded), summing to `total`.
struct IntAreaAxis {
  int taps = 0;
  int total = 0;
  std::vector<int32_t> first;
  std::vector<uint16_t> weight;

  static IntAreaAxis Make(int n_src, int n_dst) {
    IntAreaAxis a;
    const int64_t g = std::gcd(n_src, n_dst);
    a.total = static_cast<int>(n_src / g);
    auto span = [&](int d) {  // [s0, s1): the source pixels target d overlaps
      const int64_t lo = int64_t{d} * n_src;
      const int64_t hi = lo + n_src;
      return std::pair<int64_t, int64_t>(lo / n_dst, (hi + n_dst - 1) / n_dst);
    };
    for (int d = 0; d < n_dst; ++d) {
      auto [s0, s1] = span(d);
      a.taps = std::max(a.taps, static_cast<int>(s1 - s0));
    }
    a.first.resize(n_dst);
    a.weight.assign(static_cast<size_t>(n_dst) * a.taps, 0);
    for (int d = 0; d < n_dst; ++d) {
      const int64_t lo = int64_t{d} * n_src;
      const int64_t hi = lo + n_src;
      auto [s0, s1] = span(d);
      // Keep first + taps inside the source; the extra taps weigh 0.
      const int64_t start = std::min<int64_t>(s0, n_src - a.taps);
      a.first[d] = static_cast<int32_t>(start);
      for (int64_t s = s0; s < s1; ++s) {
        const int64_t overlap = std::min(hi, (s + 1) * n_dst) - std::max(lo, s * int64_t{n_dst});
        a.weight[static_cast<size_t>(d) * a.taps + (s - start)] =
            static_cast<uint16_t>(overlap / g);
      }
    }
    return a;
  }
};

// Resizes single-channel uint8 planes (src_h x src_w -> dst_h x dst_w).
class PlaneResizer {
 public:
  PlaneResizer() = default;
  PlaneResizer(int src_h, int src_w, int dst_h, int dst_w, bool area)
      : src_h_(src_h), src_w_(src_w), dst_h_(dst_h), dst_w_(dst_w) {
    if (src_h == dst_h && src_w == dst_w) {
      kind_ = Kind::kIdentity;
      return;
    }
    if (area && dst_h <= src_h && dst_w <= src_w) {
      iy_ = IntAreaAxis::Make(src_h, dst_h);
      ix_ = IntAreaAxis::Make(src_w, dst_w);
      const int64_t denom = int64_t{iy_.total} * ix_.total;
      // Column sums stay in uint16 and the numerator below 2^24 (always so
      // for Atari's 210 x 160 source); otherwise fall back to float.
      if (int64_t{iy_.total} * 255 <= 65535 && denom * 256 < (int64_t{1} << 24)) {
        kind_ = Kind::kIntArea;
        denom_ = static_cast<uint32_t>(denom);
        // floor(n / denom) == (n * mul_) >> 40 for n < 2^24.
        mul_ = ((uint64_t{1} << 40) / denom_) + 1;
        cols_.resize(src_w);
        return;
      }
    }
    kind_ = Kind::kFloat;
    x_ = area ? ResizeAxis::Area(src_w, dst_w) : ResizeAxis::Linear(src_w, dst_w);
    y_ = area ? ResizeAxis::Area(src_h, dst_h) : ResizeAxis::Linear(src_h, dst_h);
    rows_.resize(static_cast<size_t>(src_h) * dst_w);
  }

  // Whether target rows can be made one at a time (ResizeRow, SourceRows):
  // identity and the integer area path.
  bool RowWise() const { return kind_ != Kind::kFloat; }

  // The source rows [first, last) target row dy reads (RowWise only).
  std::pair<int, int> SourceRows(int dy) const {
    if (kind_ == Kind::kIdentity) return {dy, dy + 1};
    return {iy_.first[dy], iy_.first[dy] + iy_.taps};
  }

  // Target row dy of dst (the whole target plane) from src (RowWise only).
  void ResizeRow(const uint8_t* src, uint8_t* dst, int dy) {
    if (kind_ == Kind::kIdentity) {
      std::memcpy(dst + static_cast<size_t>(dy) * dst_w_, src + static_cast<size_t>(dy) * src_w_,
                  src_w_);
    } else {
      IntAreaRow(src, dst, dy);
    }
  }

  void Resize(const uint8_t* src, uint8_t* dst) {
    switch (kind_) {
      case Kind::kIdentity:
        std::memcpy(dst, src, static_cast<size_t>(src_h_) * src_w_);
        return;
      case Kind::kIntArea:
        ResizeIntArea(src, dst);
        return;
      case Kind::kFloat:
        ResizeFloat(src, dst);
        return;
    }
  }

 private:
  enum class Kind { kIdentity, kIntArea, kFloat };

  void ResizeIntArea(const uint8_t* src, uint8_t* dst) {
    for (int dy = 0; dy < dst_h_; ++dy) IntAreaRow(src, dst, dy);
  }

  // Vertical pass first (whole rows, uint16 lanes the compiler vectorises),
  // then the horizontal taps of the reduced row.
  void IntAreaRow(const uint8_t* src, uint8_t* dst, int dy) {
    uint16_t* cols = cols_.data();
    const int w = src_w_;
    const uint16_t* wy = iy_.weight.data() + static_cast<size_t>(dy) * iy_.taps;
    const uint8_t* row = src + static_cast<size_t>(iy_.first[dy]) * w;
    {
      const uint16_t k = wy[0];
      for (int x = 0; x < w; ++x) cols[x] = static_cast<uint16_t>(k * row[x]);
    }
    for (int t = 1; t < iy_.taps; ++t) {
      const uint16_t k = wy[t];
      const uint8_t* r = row + static_cast<size_t>(t) * w;
      for (int x = 0; x < w; ++x) cols[x] = static_cast<uint16_t>(cols[x] + k * r[x]);
    }
    uint8_t* out = dst + static_cast<size_t>(dy) * dst_w_;
    switch (ix_.taps) {
      case 1:
        Horizontal<1>(cols, out);
        break;
      case 2:
        Horizontal<2>(cols, out);
        break;
      case 3:
        Horizontal<3>(cols, out);
        break;
      case 4:
        Horizontal<4>(cols, out);
        break;
      default:
        Horizontal<0>(cols, out);
    }
  }

  // kTaps > 0: the tap count known at compile time; 0: ix_.taps.
  template <int kTaps>
  void Horizontal(const uint16_t* cols, uint8_t* out) const {
    const int taps = kTaps > 0 ? kTaps : ix_.taps;
    const uint16_t* wx = ix_.weight.data();
    const int32_t* first = ix_.first.data();
    const uint32_t half = denom_ / 2;
    for (int dx = 0; dx < dst_w_; ++dx) {
      const uint16_t* c = cols + first[dx];
      const uint16_t* k = wx + static_cast<size_t>(dx) * taps;
      uint32_t n = half;
      for (int t = 0; t < taps; ++t) n += uint32_t{k[t]} * c[t];
      out[dx] = static_cast<uint8_t>((uint64_t{n} * mul_) >> 40);
    }
  }

  // Horizontal pass over every source row, then the vertical pass, as
  // sum_y w_y * (sum_x w_x * p) in float.
  void ResizeFloat(const uint8_t* src, uint8_t* dst) {
    for (int y = 0; y < src_h_; ++y) {
      const uint8_t* in = src + static_cast<size_t>(y) * src_w_;
      float* out = rows_.data() + static_cast<size_t>(y) * dst_w_;
      for (int dx = 0; dx < dst_w_; ++dx) {
        float sum = 0.0f;
        for (int k = x_.first[dx]; k < x_.first[dx + 1]; ++k) {
          sum += x_.weight[k] * static_cast<float>(in[x_.src[k]]);
        }
        out[dx] = sum;
      }
    }
    for (int dy = 0; dy < dst_h_; ++dy) {
      for (int dx = 0; dx < dst_w_; ++dx) {
        float sum = 0.0f;
        for (int k = y_.first[dy]; k < y_.first[dy + 1]; ++k) {
          sum += y_.weight[k] * rows_[static_cast<size_t>(y_.src[k]) * dst_w_ + dx];
        }
        // Round half to even, as lrint does in the default rounding mode.
        long v = std::lrint(sum);
        dst[static_cast<size_t>(dy) * dst_w_ + dx] = static_cast<uint8_t>(std::clamp(v, 0L, 255L));
      }
    }
  }

  int src_h_ = 0, src_w_ = 0, dst_h_ = 0, dst_w_ = 0;
  Kind kind_ = Kind::kIdentity;
  // kIntArea
  IntAreaAxis ix_, iy_;
  uint32_t denom_ = 1;
  uint64_t mul_ = 0;
  std::vector<uint16_t> cols_;
  // kFloat
  ResizeAxis x_, y_;
  std::vector<float> rows_;
};

}  // namespace envpool_x
