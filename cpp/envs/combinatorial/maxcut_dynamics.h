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

}  // namespace envpool_x
