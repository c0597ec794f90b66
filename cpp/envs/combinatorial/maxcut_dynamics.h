// MaxCut's per-env dynamics as free functions over plain arrays (host and
// device): a random or zero assignment, the cut and every node's gain from an
// assignment, and one flip that updates the gains of the node's neighbours
// only (O(degree)). Cut and gains are exact int64; a float32 mirror of the
// gains (what the observation shows) is kept beside them.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "core/random.h"

namespace envpool_x {

// A read-only view of a graph in CSR form (see graph_registry.h).
struct MaxCutGraphView {
  int32_t n;
  const int64_t* offset;  // n + 1 entries
  const int32_t* nbr;
  const int64_t* weight;
};

// x[i] in {0, 1}, one random bit per node (64 nodes per draw).
ENVPOOL_X_HD inline void MaxCutRandomAssignment(Rng& rng, int32_t n, int8_t* x) {
  uint64_t bits = 0;
  for (int32_t i = 0; i < n; ++i) {
    if (i % 64 == 0) bits = rng.NextU64();
    x[i] = static_cast<int8_t>(bits & 1);
    bits >>= 1;
  }
}

// Fills gain[v] (the cut's change if v flipped) and gain_f32 (may be null)
// from the assignment x, and returns the cut value. O(n + m).
ENVPOOL_X_HD inline int64_t MaxCutInit(const MaxCutGraphView& g, const int8_t* x, int64_t* gain,
                                       float* gain_f32) {
  int64_t cut = 0;
  for (int32_t v = 0; v < g.n; ++v) {
    int64_t gv = 0;
    for (int64_t k = g.offset[v]; k < g.offset[v + 1]; ++k) {
      const int32_t u = g.nbr[k];
      const int64_t w = g.weight[k];
      if (x[u] != x[v]) {
        gv -= w;  // a cut edge stops being cut
        if (u > v) cut += w;
      } else {
        gv += w;
      }
    }
    gain[v] = gv;
    if (gain_f32 != nullptr) gain_f32[v] = static_cast<float>(gv);
  }
  return cut;
}

// Flips node v; returns the cut's change (the old gain[v]) and updates the
// gains of v and its neighbours. O(degree(v)).
ENVPOOL_X_HD inline int64_t MaxCutFlip(const MaxCutGraphView& g, int32_t v, int8_t* x,
                                       int64_t* gain, float* gain_f32) {
  const int64_t delta = gain[v];
  x[v] = static_cast<int8_t>(x[v] ^ 1);
  gain[v] = -delta;
  if (gain_f32 != nullptr) gain_f32[v] = static_cast<float>(-delta);
  for (int64_t k = g.offset[v]; k < g.offset[v + 1]; ++k) {
    const int32_t u = g.nbr[k];
    const int64_t w = g.weight[k];
    // Now on the same side: the edge is uncut and flipping u would cut it
    // (+w instead of -w); now apart, the reverse.
    gain[u] += x[u] == x[v] ? 2 * w : -2 * w;
    if (gain_f32 != nullptr) gain_f32[u] = static_cast<float>(gain[u]);
  }
  return delta;
}

// The fraction of an episode gone after `steps` of at most `max_steps` (0
// without a time limit), as the observation shows it.
ENVPOOL_X_HD inline float EpisodeProgress(int32_t steps, int32_t max_steps) {
  if (max_steps <= 0) return 0.0f;
  const float r = static_cast<float>(steps) / static_cast<float>(max_steps);
  return r < 1.0f ? r : 1.0f;
}

// One env's episode: the assignment x, the exact gains and their float32
// mirror (n each, the env's own arrays), the cut, the best cut of the episode
// and the steps taken. The CPU env and the GPU adapter both step this.
struct MaxCutEpisode {
  int8_t* x;
  int64_t* gain;
  float* gain_f32;
  int64_t cut;
  int64_t best;
  int32_t steps;
};

// A fresh episode: a random assignment from `rng` (all zeros with `zeros`).
ENVPOOL_X_HD inline void MaxCutReset(const MaxCutGraphView& g, Rng& rng, bool zeros,
                                     MaxCutEpisode& ep) {
  if (zeros) {
    for (int32_t i = 0; i < g.n; ++i) ep.x[i] = 0;
  } else {
    MaxCutRandomAssignment(rng, g.n, ep.x);
  }
  ep.cut = MaxCutInit(g, ep.x, ep.gain, ep.gain_f32);
  ep.best = ep.cut;
  ep.steps = 0;
}

// Flips node v (in range: the caller checks); returns the cut's change.
ENVPOOL_X_HD inline int64_t MaxCutStep(const MaxCutGraphView& g, int32_t v, MaxCutEpisode& ep) {
  const int64_t delta = MaxCutFlip(g, v, ep.x, ep.gain, ep.gain_f32);
  ep.cut += delta;
  if (ep.cut > ep.best) ep.best = ep.cut;
  ++ep.steps;
  return delta;
}

// One env's output row (the observation's assignment, gain and progress; the
// info's cut and best cut).
struct MaxCutRow {
  int8_t* assignment;
  float* gain;
  float* progress;
  int64_t* cut;
  int64_t* best_cut;
};

ENVPOOL_X_HD inline void MaxCutWrite(int32_t n, const MaxCutEpisode& ep, int32_t max_steps,
                                     const MaxCutRow& out) {
  for (int32_t i = 0; i < n; ++i) out.assignment[i] = ep.x[i];
  for (int32_t i = 0; i < n; ++i) out.gain[i] = ep.gain_f32[i];
  *out.progress = EpisodeProgress(ep.steps, max_steps);
  *out.cut = ep.cut;
  *out.best_cut = ep.best;
}

}  // namespace envpool_x
