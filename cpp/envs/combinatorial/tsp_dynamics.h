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

// One env's episode, in either mode: construct (the tour state and the
// visited flags) or 2opt (a whole tour, its length and the steps taken). The
// arrays (n each) are the env's own; the CPU env and the GPU adapter both
// step this.
struct TspEpisode {
  int8_t* visited;  // construct
  TspTourState walk;
  int32_t* tour;  // 2opt
  double length;
  int32_t steps;
};

// A fresh episode. `own_xy` (2n values): the env's cities, drawn here when
// they are random per reset (nullptr for a fixed instance); `c` is the view
// of the cities the episode uses (own_xy, or the instance's).
ENVPOOL_X_HD inline void TspReset(Rng& rng, double* own_xy, const TspCities& c, bool two_opt,
                                  TspEpisode& ep) {
  if (own_xy != nullptr) TspRandomCities(rng, c.n, own_xy);
  if (two_opt) {
    TspRandomTour(rng, c.n, ep.tour);
    ep.length = TspTourLength(c, ep.tour);
    ep.steps = 0;
  } else {
    TspStartTour(ep.walk, c.n, ep.visited);
  }
}

// Whether the env takes action `a` (in range: the caller checks): in
// construct mode, a city not yet visited.
ENVPOOL_X_HD inline bool TspAllowed(const TspEpisode& ep, bool two_opt, int32_t a) {
  return two_opt || ep.visited[a] == 0;
}

// One step of an allowed action; returns the reward.
ENVPOOL_X_HD inline float TspStep(const TspCities& c, bool two_opt, int32_t a, TspEpisode& ep,
                                  bool* terminated) {
  if (two_opt) {
    const double decrease = Tsp2OptMove(c, ep.tour, a / c.n, a % c.n);
    ep.length -= decrease;
    ++ep.steps;
    *terminated = false;
    return static_cast<float>(decrease);
  }
  // 0.0 - d: the first step, which travels nowhere, rewards +0.0.
  const float reward = static_cast<float>(0.0 - TspVisit(c, ep.walk, ep.visited, a));
  *terminated = ep.walk.count == c.n;
  return reward;
}

// One env's output row; the fields of the other mode are nullptr.
struct TspRow {
  float* coords;
  int8_t* visited;  // construct
  int32_t* current;
  int32_t* first;
  int8_t* action_mask;
  int32_t* tour;  // 2opt
  float* progress;
  double* tour_length;
};

ENVPOOL_X_HD inline void TspWrite(const TspCities& c, bool two_opt, const TspEpisode& ep,
                                  int32_t max_steps, const TspRow& out) {
  for (int32_t i = 0; i < 2 * c.n; ++i) out.coords[i] = static_cast<float>(c.xy[i]);
  if (two_opt) {
    for (int32_t i = 0; i < c.n; ++i) out.tour[i] = ep.tour[i];
    *out.progress = 0.0f;
    if (max_steps > 0) {
      const float r = static_cast<float>(ep.steps) / static_cast<float>(max_steps);
      *out.progress = r < 1.0f ? r : 1.0f;
    }
    *out.tour_length = ep.length;
  } else {
    for (int32_t i = 0; i < c.n; ++i) {
      out.visited[i] = ep.visited[i];
      out.action_mask[i] = static_cast<int8_t>(1 - ep.visited[i]);
    }
    *out.current = ep.walk.current;
    *out.first = ep.walk.first;
    *out.tour_length = ep.walk.length;
  }
}

}  // namespace envpool_x
