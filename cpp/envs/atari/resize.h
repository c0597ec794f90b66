// Image resizing for the Atari observations: area averaging (what OpenCV calls
// INTER_AREA when shrinking) and bilinear, from an interleaved H x W x C uint8
// image into a channel-first C x h x w uint8 image. The weights are computed
// once per (source size, target size); Resize does not allocate.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace envpool_x {

// The taps of one axis: target index d reads source indices
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

class ImageResizer {
 public:
  ImageResizer() = default;
  ImageResizer(int src_h, int src_w, int channels, int dst_h, int dst_w, bool area)
      : src_h_(src_h),
        src_w_(src_w),
        c_(channels),
        dst_h_(dst_h),
        dst_w_(dst_w),
        identity_(src_h == dst_h && src_w == dst_w),
        x_(area ? ResizeAxis::Area(src_w, dst_w) : ResizeAxis::Linear(src_w, dst_w)),
        y_(area ? ResizeAxis::Area(src_h, dst_h) : ResizeAxis::Linear(src_h, dst_h)),
        rows_(static_cast<size_t>(src_h) * dst_w * channels) {}

  // src: src_h x src_w x C (interleaved); dst: C x dst_h x dst_w.
  void Resize(const uint8_t* src, uint8_t* dst) {
    const size_t plane = static_cast<size_t>(dst_h_) * dst_w_;
    if (identity_) {
      for (int y = 0; y < src_h_; ++y) {
        for (int x = 0; x < src_w_; ++x) {
          for (int c = 0; c < c_; ++c) {
            dst[c * plane + y * dst_w_ + x] = src[(y * src_w_ + x) * c_ + c];
          }
        }
      }
      return;
    }
    // Horizontal pass over the source rows the vertical taps use (all of
    // them when shrinking), then the vertical pass, as sum_y w_y * (sum_x
    // w_x * p) in float.
    for (int y = 0; y < src_h_; ++y) {
      const uint8_t* in = src + static_cast<size_t>(y) * src_w_ * c_;
      float* out = rows_.data() + static_cast<size_t>(y) * dst_w_ * c_;
      for (int dx = 0; dx < dst_w_; ++dx) {
        for (int c = 0; c < c_; ++c) {
          float sum = 0.0f;
          for (int k = x_.first[dx]; k < x_.first[dx + 1]; ++k) {
            sum += x_.weight[k] * static_cast<float>(in[x_.src[k] * c_ + c]);
          }
          out[dx * c_ + c] = sum;
        }
      }
    }
    for (int dy = 0; dy < dst_h_; ++dy) {
      for (int dx = 0; dx < dst_w_; ++dx) {
        for (int c = 0; c < c_; ++c) {
          float sum = 0.0f;
          for (int k = y_.first[dy]; k < y_.first[dy + 1]; ++k) {
            sum += y_.weight[k] * rows_[(static_cast<size_t>(y_.src[k]) * dst_w_ + dx) * c_ + c];
          }
          // Round half to even, as lrint does in the default rounding mode.
          long v = std::lrint(sum);
          dst[c * plane + dy * dst_w_ + dx] = static_cast<uint8_t>(std::clamp(v, 0L, 255L));
        }
      }
    }
  }

 private:
  int src_h_ = 0, src_w_ = 0, c_ = 1, dst_h_ = 0, dst_w_ = 0;
  bool identity_ = false;
  ResizeAxis x_, y_;
  std::vector<float> rows_;
};

}  // namespace envpool_x
