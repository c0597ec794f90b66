// TSP's per-env dynamics as free functions over plain arrays (host and
// device): random cities and tours from an env's stream, distances (Euclidean,
// or TSPLIB's EUC_2D rounded to the nearest integer), one constructive step
// and one 2-opt move (a segment of the tour reversed).
#pragma once

#include <cmath>
#include <cstdint>

#include "core/host_device.h"
#include "core/random.h"

namespace envpool_x {

// Cities: xy[2 * c], xy[2 * c + 1]; `rounded`: TSPLIB's EUC_2D, nint(d).
struct TspCities {
  int32_t n;
  const double* xy;
  bool rounded;
};

ENVPOOL_X_HD inline double TspDistance(const TspCities& c, int32_t a, int32_t b) {
  const double dx = c.xy[2 * a] - c.xy[2 * b];
  const double dy = c.xy[2 * a + 1] - c.xy[2 * b + 1];
  const double d = std::sqrt(dx * dx + dy * dy);
  return c.rounded ? std::floor(d + 0.5) : d;
}

// n cities uniform in the unit square.
ENVPOOL_X_HD inline void TspRandomCities(Rng& rng, int32_t n, double* xy) {
  for (int32_t i = 0; i < 2 * n; ++i) xy[i] = rng.Uniform();
}

// A uniformly random permutation of 0..n-1 (Fisher-Yates).
ENVPOOL_X_HD inline void TspRandomTour(Rng& rng, int32_t n, int32_t* tour) {
  for (int32_t i = 0; i < n; ++i) tour[i] = i;
  for (int32_t i = n - 1; i > 0; --i) {
    const int32_t j = static_cast<int32_t>(rng.UniformInt(static_cast<uint64_t>(i) + 1));
    const int32_t t = tour[i];
    tour[i] = tour[j];
    tour[j] = t;
  }
}

// The length of the closed tour.
ENVPOOL_X_HD inline double TspTourLength(const TspCities& c, const int32_t* tour) {
  double length = 0.0;
  for (int32_t i = 0; i < c.n; ++i) length += TspDistance(c, tour[i], tour[(i + 1) % c.n]);
  return length;
}

// The constructive state: cities visited so far, where the tour started and
// where it is (-1 before the first city is chosen).
struct TspTourState {
  int32_t first;
  int32_t current;
  int32_t count;
  double length;  // travelled so far (closed once every city is visited)
};

ENVPOOL_X_HD inline void TspStartTour(TspTourState& s, int32_t n, int8_t* visited) {
  for (int32_t i = 0; i < n; ++i) visited[i] = 0;
  s = TspTourState{-1, -1, 0, 0.0};
}

// Goes to `city` (not yet visited: the caller checks); returns the distance
// travelled, including the way back to the first city after the last one.
ENVPOOL_X_HD inline double TspVisit(const TspCities& c, TspTourState& s, int8_t* visited,
                                    int32_t city) {
  double d = 0.0;
  if (s.count == 0) {
    s.first = city;
  } else {
    d = TspDistance(c, s.current, city);
  }
  visited[city] = 1;
  s.current = city;
  ++s.count;
  if (s.count == c.n) d += TspDistance(c, city, s.first);
  s.length += d;
  return d;
}

// The 2-opt move (i, j), positions in the tour: tour[min..max] reversed.
// Returns the decrease of the tour's length (0 when i == j or the whole tour
// is reversed).
ENVPOOL_X_HD inline double Tsp2OptMove(const TspCities& c, int32_t* tour, int32_t i, int32_t j) {
  if (i > j) {
    const int32_t t = i;
    i = j;
    j = t;
  }
  if (i == j || j - i >= c.n - 1) {
    for (int32_t a = i, b = j; a < b; ++a, --b) {
      const int32_t t = tour[a];
      tour[a] = tour[b];
      tour[b] = t;
    }
    return 0.0;
  }
  const int32_t before = tour[(i + c.n - 1) % c.n];
  const int32_t after = tour[(j + 1) % c.n];
  const double decrease = TspDistance(c, before, tour[i]) + TspDistance(c, tour[j], after) -
                          TspDistance(c, before, tour[j]) - TspDistance(c, tour[i], after);
  for (int32_t a = i, b = j; a < b; ++a, --b) {
    const int32_t t = tour[a];
    tour[a] = tour[b];
    tour[b] = t;
  }
  return decrease;
}

}  // namespace envpool_x
