// CarRacing's track (gymnasium 1.4.0's _create_track) and colours
// (_init_colors): the checkpoints, the walk from one checkpoint to the next,
// the closed lap, the red-white borders on hard turns and the road polygons.
//
// Plain doubles in gymnasium's evaluation order: the physics takes the tiles'
// corners from here (rounded to float32 as pybox2d does) and the renderer the
// same doubles gymnasium's pygame code sees. The draws come from Draws: the
// env's stream, or gymnasium's recorded values in the parity tests.
#pragma once

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/box2d/draws.h"

namespace envpool_x::box2d {

namespace car_racing {
inline constexpr double kScale = 6.0;
inline constexpr double kTrackRad = 900 / kScale;
inline constexpr double kPlayfield = 2000 / kScale;
inline constexpr double kTrackDetailStep = 21 / kScale;
inline constexpr double kTrackTurnRate = 0.31;
inline constexpr double kTrackWidth = 40 / kScale;
inline constexpr double kBorder = 8 / kScale;
inline constexpr int kBorderMinCount = 4;
inline constexpr int kCheckpoints = 12;
}  // namespace car_racing

struct RoadPoint {
  double alpha, beta, x, y;
};

// One polygon gymnasium draws for the road: a tile (its colour follows the
// tile's) or a kerb (fixed colour).
struct RoadPoly {
  std::array<std::array<double, 2>, 4> v;
  int tile;  // the tile's index, or -1 for a kerb
  std::array<double, 3> color;
};

struct CarColors {
  std::array<double, 3> road{102, 102, 102};
  std::array<double, 3> bg{102, 204, 102};
  std::array<double, 3> grass{102, 230, 102};

  // domain_randomize: road = uniform(0, 210, 3), bg = uniform(0, 210, 3),
  // grass = bg with 20 added to channel integers(3).
  void Randomize(Draws& d) {
    for (double& c : road) c = d.Uniform(0.0, 210.0);
    for (double& c : bg) c = d.Uniform(0.0, 210.0);
    grass = bg;
    grass[d.Integers(0, 3)] += 20;
  }
};

class CarTrack {
 public:
  std::vector<RoadPoint> track;
  std::vector<RoadPoly> polys;  // gymnasium's road_poly, in its order
  int attempts = 0;             // _create_track calls until one succeeded

  // reset()'s `while True: if _create_track(): break`, bounded: most first
  // attempts succeed, so this many failures in a row mean broken draws (a
  // replay that does not come from gymnasium), not bad luck.
  static constexpr int kMaxAttempts = 1000;
  void Generate(Draws& d, const std::array<double, 3>& road_color) {
    attempts = 0;
    do {
      if (++attempts > kMaxAttempts) {
        throw std::runtime_error("CarRacing: no closed track in " + std::to_string(kMaxAttempts) +
                                 " attempts");
      }
    } while (!TryCreate(d, road_color));
  }

 private:
  static double Sign(double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }

  bool TryCreate(Draws& d, const std::array<double, 3>& road_color) {
    using namespace car_racing;
    struct Checkpoint {
      double alpha, x, y;
    };
    std::array<Checkpoint, kCheckpoints> checkpoints{};
    double start_alpha = 0.0;
    for (int c = 0; c < kCheckpoints; ++c) {
      const double noise = d.Uniform(0.0, 2 * M_PI * 1 / kCheckpoints);
      double alpha = 2 * M_PI * c / kCheckpoints + noise;
      double rad = d.Uniform(kTrackRad / 3, kTrackRad);
      if (c == 0) {
        alpha = 0;
        rad = 1.5 * kTrackRad;
      }
      if (c == kCheckpoints - 1) {
        alpha = 2 * M_PI * c / kCheckpoints;
        start_alpha = 2 * M_PI * (-0.5) / kCheckpoints;
        rad = 1.5 * kTrackRad;
      }
      checkpoints[c] = {alpha, rad * std::cos(alpha), rad * std::sin(alpha)};
    }

    // Walk from checkpoint to checkpoint.
    double x = 1.5 * kTrackRad, y = 0, beta = 0;
    int dest_i = 0, laps = 0, no_freeze = 2500;
    bool visited_other_side = false;
    std::vector<RoadPoint> walk;
    walk.reserve(1200);
    while (true) {
      double alpha = std::atan2(y, x);
      if (visited_other_side && alpha > 0) {
        ++laps;
        visited_other_side = false;
      }
      if (alpha < 0) {
        visited_other_side = true;
        alpha += 2 * M_PI;
      }
      double dest_x = 0, dest_y = 0;
      while (true) {
        bool failed = true;
        while (true) {
          const Checkpoint& cp = checkpoints[dest_i % kCheckpoints];
          dest_x = cp.x;
          dest_y = cp.y;
          if (alpha <= cp.alpha) {
            failed = false;
            break;
          }
          ++dest_i;
          if (dest_i % kCheckpoints == 0) break;
        }
        if (!failed) break;
        alpha -= 2 * M_PI;
      }
      const double r1x = std::cos(beta), r1y = std::sin(beta);
      const double p1x = -r1y, p1y = r1x;
      const double dest_dx = dest_x - x, dest_dy = dest_y - y;
      double proj = r1x * dest_dx + r1y * dest_dy;
      while (beta - alpha > 1.5 * M_PI) beta -= 2 * M_PI;
      while (beta - alpha < -1.5 * M_PI) beta += 2 * M_PI;
      const double prev_beta = beta;
      proj *= kScale;
      if (proj > 0.3) beta -= std::fmin(kTrackTurnRate, std::fabs(0.001 * proj));
      if (proj < -0.3) beta += std::fmin(kTrackTurnRate, std::fabs(0.001 * proj));
      x += p1x * kTrackDetailStep;
      y += p1y * kTrackDetailStep;
      walk.push_back({alpha, prev_beta * 0.5 + beta * 0.5, x, y});
      if (laps > 4) break;
      if (--no_freeze == 0) break;
    }

    // The closed loop i1..i2: the last but one pass through the start.
    int i1 = -1, i2 = -1;
    for (int i = static_cast<int>(walk.size()) - 1;; --i) {
      if (i == 0) return false;
      const bool through_start = walk[i].alpha > start_alpha && walk[i - 1].alpha <= start_alpha;
      if (through_start && i2 == -1) {
        i2 = i;
      } else if (through_start && i1 == -1) {
        i1 = i;
        break;
      }
    }
    if (i2 - 1 <= i1) return false;  // Python's empty slice would fail below
    std::vector<RoadPoint> t(walk.begin() + i1, walk.begin() + (i2 - 1));
    const int n = static_cast<int>(t.size());
    const double first_perp_x = std::cos(t[0].beta), first_perp_y = std::sin(t[0].beta);
    const double gx = first_perp_x * (t[0].x - t[n - 1].x);
    const double gy = first_perp_y * (t[0].y - t[n - 1].y);
    if (std::sqrt(gx * gx + gy * gy) > kTrackDetailStep) return false;

    // Kerbs on hard turns; Python's negative indices wrap.
    auto at = [n](int i) { return ((i % n) + n) % n; };
    std::vector<char> border(n, 0);
    for (int i = 0; i < n; ++i) {
      bool good = true;
      double oneside = 0;
      for (int neg = 0; neg < kBorderMinCount; ++neg) {
        const double b1 = t[at(i - neg)].beta, b2 = t[at(i - neg - 1)].beta;
        good &= std::fabs(b1 - b2) > kTrackTurnRate * 0.2;
        oneside += Sign(b1 - b2);
      }
      good &= std::fabs(oneside) == kBorderMinCount;
      border[i] = good;
    }
    for (int i = 0; i < n; ++i) {
      for (int neg = 0; neg < kBorderMinCount; ++neg) border[at(i - neg)] |= border[i];
    }

    polys.clear();
    for (int i = 0; i < n; ++i) {
      const RoadPoint& p1 = t[i];
      const RoadPoint& p2 = t[at(i - 1)];
      const double c1 = std::cos(p1.beta), s1 = std::sin(p1.beta);
      const double c2 = std::cos(p2.beta), s2 = std::sin(p2.beta);
      RoadPoly tile;
      tile.v = {{{p1.x - kTrackWidth * c1, p1.y - kTrackWidth * s1},
                 {p1.x + kTrackWidth * c1, p1.y + kTrackWidth * s1},
                 {p2.x + kTrackWidth * c2, p2.y + kTrackWidth * s2},
                 {p2.x - kTrackWidth * c2, p2.y - kTrackWidth * s2}}};
      tile.tile = i;
      const double c = 0.01 * (i % 3) * 255;
      tile.color = {road_color[0] + c, road_color[1] + c, road_color[2] + c};
      polys.push_back(tile);
      if (border[i]) {
        const double side = Sign(p2.beta - p1.beta);
        const double w1 = side * kTrackWidth, w2 = side * (kTrackWidth + kBorder);
        RoadPoly kerb;
        kerb.v = {{{p1.x + w1 * c1, p1.y + w1 * s1},
                   {p1.x + w2 * c1, p1.y + w2 * s1},
                   {p2.x + w2 * c2, p2.y + w2 * s2},
                   {p2.x + w1 * c2, p2.y + w1 * s2}}};
        kerb.tile = -1;
        kerb.color =
            i % 2 == 0 ? std::array<double, 3>{255, 255, 255} : std::array<double, 3>{255, 0, 0};
        polys.push_back(kerb);
      }
    }
    track = std::move(t);
    return true;
  }
};

}  // namespace envpool_x::box2d
