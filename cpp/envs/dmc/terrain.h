// quadruped escape's terrain, as dm_control 1.0.50's Escape.initialize_episode
// draws it: a sinusoidal bowl times smooth random bumps, the bumps a coarse
// grid of uniform draws upsampled by scipy.ndimage.zoom(order=3,
// mode='constant', prefilter=True, grid_mode=False).
//
// The zoom follows scipy's documented semantics (scipy >= 1.6; checked
// against the installed scipy by tests/families/test_dmc_quadruped_escape.py):
// - prefilter: the input becomes cubic B-spline coefficients, one axis after
//   the other, with a mirror ("whole-sample symmetric") boundary, which scipy
//   uses for mode 'constant';
// - interpolation: output index k samples input coordinate
//   k * (n_in - 1) / (n_out - 1) (corners aligned, grid_mode=False); taps
//   beyond the edge read mirrored coefficients; a coordinate outside
//   [0, n_in - 1] gives cval (0).
// The arithmetic is done in scipy's order, so the values agree to rounding.
#pragma once

#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/random.h"

namespace envpool_x {
namespace dmc {

// The pole of the cubic B-spline's inverse filter: sqrt(3) - 2.
inline constexpr double kCubicSplinePole = -0.267949192431122706472553658494127633;

// In-place cubic B-spline coefficients of one line of n samples, `stride`
// apart, for a signal mirrored about its first and last samples.
inline void CubicSplineFilterLine(double* c, int n, int stride) {
  if (n < 2) return;
  const double z = kCubicSplinePole;
  const double gain = (1.0 - z) * (1.0 - 1.0 / z);
  auto at = [&](int i) -> double& { return c[static_cast<std::ptrdiff_t>(i) * stride]; };
  for (int i = 0; i < n; ++i) at(i) *= gain;
  // Causal pass, started from the sum over the mirrored signal's past.
  const double z_last = std::pow(z, n - 1);
  double first = at(0) + z_last * at(n - 1);
  double z_i = z;
  for (int i = 1; i < n - 1; ++i) {
    first += z_i * (at(i) + z_last * at(n - 1 - i));
    z_i *= z;
  }
  at(0) = first / (1.0 - z_last * z_last);
  for (int i = 1; i < n; ++i) at(i) += z * at(i - 1);
  // Anticausal pass, started from the mirror symmetry at the last sample.
  at(n - 1) = (z * at(n - 2) + at(n - 1)) * z / (z * z - 1.0);
  for (int i = n - 2; i >= 0; --i) at(i) = z * (at(i + 1) - at(i));
}

// The index a tap at `i` reads from a line of n samples mirrored about its
// ends (period 2n - 2).
inline int MirrorIndex(int i, int n) {
  if (n <= 1) return 0;
  const int period = 2 * n - 2;
  if (i < 0) {
    i += period * (-i / period);
    return i <= 1 - n ? i + period : -i;
  }
  if (i >= n) {
    i -= period * (i / period);
    return i >= n ? period - i : i;
  }
  return i;
}

// Where one output sample of an axis reads: its four taps and their cubic
// B-spline weights; `outside`: the sample is beyond the input (gets cval).
struct SplineTaps {
  bool outside = false;
  int index[4] = {0, 0, 0, 0};
  double weight[4] = {0, 0, 0, 0};
};

inline std::vector<SplineTaps> ZoomTaps(int n_in, int n_out) {
  // scipy's zoom factor: (n_in - 1) / (n_out - 1), 1 when n_out is 1.
  const double step = n_out > 1 ? static_cast<double>(n_in - 1) / (n_out - 1) : 1.0;
  std::vector<SplineTaps> taps(n_out);
  for (int k = 0; k < n_out; ++k) {
    SplineTaps& t = taps[k];
    const double x = static_cast<double>(k) * step;
    if (x < 0 || x > n_in - 1) {
      t.outside = true;
      continue;
    }
    const double floor_x = std::floor(x);
    const int start = static_cast<int>(floor_x) - 1;
    const double f = x - floor_x;  // in [0, 1)
    const double g = 1.0 - f;
    t.weight[1] = (f * f * (f - 2.0) * 3.0 + 4.0) / 6.0;
    t.weight[2] = (g * g * (g - 2.0) * 3.0 + 4.0) / 6.0;
    t.weight[0] = g * g * g / 6.0;
    // The weights sum to 1: the last is what the others leave.
    t.weight[3] = 1.0 - t.weight[0] - t.weight[1] - t.weight[2];
    for (int h = 0; h < 4; ++h) t.index[h] = MirrorIndex(start + h, n_in);
  }
  return taps;
}

// scipy.ndimage.zoom(input, ..., order=3, mode='constant', cval=0,
// prefilter=True, grid_mode=False) of a row-major rows x cols array to
// out_rows x out_cols (row-major).
inline std::vector<double> ZoomCubic(const double* input, int rows, int cols, int out_rows,
                                     int out_cols) {
  if (rows < 1 || cols < 1 || out_rows < 1 || out_cols < 1) {
    throw std::invalid_argument("ZoomCubic: empty array");
  }
  std::vector<double> coef(input, input + static_cast<size_t>(rows) * cols);
  for (int c = 0; c < cols; ++c) CubicSplineFilterLine(coef.data() + c, rows, cols);
  for (int r = 0; r < rows; ++r) {
    CubicSplineFilterLine(coef.data() + static_cast<size_t>(r) * cols, cols, 1);
  }
  const std::vector<SplineTaps> row_taps = ZoomTaps(rows, out_rows);
  const std::vector<SplineTaps> col_taps = ZoomTaps(cols, out_cols);
  std::vector<double> out(static_cast<size_t>(out_rows) * out_cols, 0.0);
  for (int i = 0; i < out_rows; ++i) {
    const SplineTaps& rt = row_taps[i];
    for (int j = 0; j < out_cols; ++j) {
      const SplineTaps& ct = col_taps[j];
      if (rt.outside || ct.outside) continue;  // cval
      double sum = 0.0;
      for (int a = 0; a < 4; ++a) {
        const double* line = coef.data() + static_cast<size_t>(rt.index[a]) * cols;
        for (int b = 0; b < 4; ++b) sum += line[ct.index[b]] * rt.weight[a] * ct.weight[b];
      }
      out[static_cast<size_t>(i) * out_cols + j] = sum;
    }
  }
  return out;
}

// dm_control's escape terrain constants: bumps in [0.15, 1) (0: maximally
// bumpy, 1: flat), one per 2 m.
inline constexpr double kTerrainSmoothness = 0.15;
inline constexpr double kTerrainBumpScale = 2.0;

// The bump grid's side for a heightfield of half-size `half_size` (m).
inline int TerrainBumpRes(double half_size) {
  return static_cast<int>(2.0 * half_size / kTerrainBumpScale);
}

// The terrain (res x res, row-major) from a bump_res x bump_res grid of
// bumps: a bowl 0.5 - cos(2 pi r) / 2 of the radius r in [-1, 1]^2
// (clipped to [0.04, 1]) times the bumps zoomed to res.
inline std::vector<double> EscapeTerrain(const double* bumps, int bump_res, int res) {
  // dm_control zooms by res / bump_res; scipy rounds the output shape.
  const double factor = static_cast<double>(res) / bump_res;
  const int zoomed = static_cast<int>(std::round(bump_res * factor));
  if (zoomed != res) {
    throw std::logic_error("escape terrain: zoomed bumps do not fit the heightfield");
  }
  const std::vector<double> smooth = ZoomCubic(bumps, bump_res, bump_res, res, res);
  // numpy's ogrid[-1:1:res*1j]: k * (2 / (res - 1)) - 1.
  const double spacing = res > 1 ? 2.0 / (res - 1) : 1.0;
  std::vector<double> terrain(static_cast<size_t>(res) * res);
  for (int r = 0; r < res; ++r) {
    const double y = r * spacing + -1.0;
    for (int c = 0; c < res; ++c) {
      const double x = c * spacing + -1.0;
      double radius = std::sqrt(x * x + y * y);
      radius = radius < 0.04 ? 0.04 : (radius > 1.0 ? 1.0 : radius);
      const double bowl = 0.5 - std::cos(2.0 * M_PI * radius) / 2.0;
      const size_t k = static_cast<size_t>(r) * res + c;
      terrain[k] = bowl * smooth[k];
    }
  }
  return terrain;
}

// A new terrain drawn from `rng`: dm_control's bumps, uniform in
// [kTerrainSmoothness, 1), drawn row by row.
inline std::vector<double> DrawEscapeTerrain(Rng& rng, double half_size, int res) {
  const int bump_res = TerrainBumpRes(half_size);
  std::vector<double> bumps(static_cast<size_t>(bump_res) * bump_res);
  for (double& b : bumps) b = rng.Uniform(kTerrainSmoothness, 1.0);
  return EscapeTerrain(bumps.data(), bump_res, res);
}

}  // namespace dmc
}  // namespace envpool_x
