// MaxCut's and TSP's adapters for the CUDA stepper: envs whose state is
// per-env arrays (kept in EnvArrays' slab) over an instance shared read-only
// by every env (a graph, fixed cities: device memory the Params point at).
// They step the same episode functions as the CPU envs
// (envs/combinatorial/*_dynamics.h), in the same order, so the same seed
// gives the same trajectories. Host-side setup (uploading the instance) is in
// kernel_params.h.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "core/random.h"
#include "cuda/kernel_types.h"
#include "envs/combinatorial/maxcut.h"
#include "envs/combinatorial/maxcut_dynamics.h"
#include "envs/combinatorial/tsp.h"
#include "envs/combinatorial/tsp_dynamics.h"

namespace envpool_x {
namespace cuda_pool {

// Bytes rounded up to whole 8-byte words, so every env's slab stays aligned.
ENVPOOL_X_HD inline int64_t RoundTo8(int64_t bytes) { return (bytes + 7) / 8 * 8; }

struct MaxCutKernelParams {
  int32_t n = 0;
  int32_t max_episode_steps = 0;
  bool zeros = false;          // reset to all zeros instead of a random assignment
  bool graph_per_env = false;  // env e uses graph e, else every env graph 0
  // The graphs in CSR form, concatenated: graph g's n + 1 offsets start at
  // offset[g * n] (offsets index nbr / weight directly; nbr is graph-local).
  const int64_t* offset = nullptr;
  const int32_t* nbr = nullptr;
  const int64_t* weight = nullptr;
};

struct MaxCutKernel {
  using CpuEnv = MaxCut;
  using Params = MaxCutKernelParams;
  static constexpr int kWords = 0;
  static constexpr bool kDiscrete = true;
  // Fields in the CPU Spec's order: observation, then info.
  enum Field { kAssignment = 0, kGain, kProgress, kCut, kBestCut };

  // Slab: cut, best (int64), steps (int32, padded), then gain (int64 x n),
  // its float32 mirror (n), the assignment (int8 x n).
  static constexpr int64_t kHead = 24;
  ENVPOOL_X_HD static int64_t SlabBytes(const Params& p) { return RoundTo8(kHead + 13 * p.n); }

  struct State {
    MaxCutGraphView g;
    MaxCutEpisode ep;
  };

  ENVPOOL_X_HD static void Load(const EnvArrays& env, int64_t e, const Params& p, State& s) {
    uint8_t* slab = env.slab + e * env.slab_bytes;
    const int64_t graph = p.graph_per_env ? e : 0;
    s.g = MaxCutGraphView{p.n, p.offset + graph * p.n, p.nbr, p.weight};
    s.ep.gain = reinterpret_cast<int64_t*>(slab + kHead);
    s.ep.gain_f32 = reinterpret_cast<float*>(slab + kHead + 8 * p.n);
    s.ep.x = reinterpret_cast<int8_t*>(slab + kHead + 12 * p.n);
    s.ep.cut = reinterpret_cast<const int64_t*>(slab)[0];
    s.ep.best = reinterpret_cast<const int64_t*>(slab)[1];
    s.ep.steps = reinterpret_cast<const int32_t*>(slab + 16)[0];
  }
  ENVPOOL_X_HD static void Store(const State& s, const EnvArrays& env, int64_t e, const Params&) {
    uint8_t* slab = env.slab + e * env.slab_bytes;
    reinterpret_cast<int64_t*>(slab)[0] = s.ep.cut;
    reinterpret_cast<int64_t*>(slab)[1] = s.ep.best;
    reinterpret_cast<int32_t*>(slab + 16)[0] = s.ep.steps;
  }
  ENVPOOL_X_HD static void Observe(const State& s, const Params& p, const RowOut& row) {
    MaxCutWrite(p.n, s.ep, p.max_episode_steps,
                MaxCutRow{row.Field<int8_t>(kAssignment), row.Field<float>(kGain),
                          row.Field<float>(kProgress), row.Field<int64_t>(kCut),
                          row.Field<int64_t>(kBestCut)});
  }
  ENVPOOL_X_HD static void Reset(Rng& rng, State& s, const Params& p, const RowOut& row) {
    MaxCutReset(s.g, rng, p.zeros, s.ep);
    Observe(s, p, row);
  }
  ENVPOOL_X_HD static bool Allowed(const State&, const Params&, int) { return true; }
  ENVPOOL_X_HD static void Step(State& s, int action, float, const Params& p, const RowOut& row,
                                float* reward, bool* terminated) {
    *reward = static_cast<float>(MaxCutStep(s.g, action, s.ep));
    *terminated = false;
    Observe(s, p, row);
  }
};

struct TspKernelParams {
  int32_t n = 0;
  int32_t max_episode_steps = 0;
  bool two_opt = false;
  bool rounded = false;        // TSPLIB's EUC_2D distances
  const double* xy = nullptr;  // a fixed instance; nullptr: random cities per env (slab)
};

struct TspKernel {
  using CpuEnv = Tsp;
  using Params = TspKernelParams;
  static constexpr int kWords = 0;
  static constexpr bool kDiscrete = true;
  // Fields in the CPU Spec's order, per mode.
  enum ConstructField { kCoords = 0, kVisited, kCurrent, kFirst, kActionMask, kWalkLength };
  enum TwoOptField { kTour = 1, kProgress, kTourLength };

  // Slab: the walk's length and the tour's (float64), first, current, count,
  // steps (int32), then the env's own cities (2n float64, random cities
  // only), then the tour (int32 x n, 2opt) or the visited flags (int8 x n).
  static constexpr int64_t kHead = 32;
  ENVPOOL_X_HD static int64_t CitiesBytes(const Params& p) {
    return p.xy == nullptr ? 16 * int64_t{p.n} : 0;
  }
  ENVPOOL_X_HD static int64_t SlabBytes(const Params& p) {
    return RoundTo8(kHead + CitiesBytes(p) + (p.two_opt ? 4 : 1) * int64_t{p.n});
  }

  struct State {
    TspCities c;
    double* own_xy;  // nullptr for a fixed instance
    TspEpisode ep;
  };

  ENVPOOL_X_HD static void Load(const EnvArrays& env, int64_t e, const Params& p, State& s) {
    uint8_t* slab = env.slab + e * env.slab_bytes;
    s.own_xy = p.xy == nullptr ? reinterpret_cast<double*>(slab + kHead) : nullptr;
    s.c = TspCities{p.n, p.xy != nullptr ? p.xy : s.own_xy, p.rounded};
    uint8_t* arrays = slab + kHead + CitiesBytes(p);
    s.ep.tour = p.two_opt ? reinterpret_cast<int32_t*>(arrays) : nullptr;
    s.ep.visited = p.two_opt ? nullptr : reinterpret_cast<int8_t*>(arrays);
    const double* d = reinterpret_cast<const double*>(slab);
    const int32_t* i = reinterpret_cast<const int32_t*>(slab + 16);
    s.ep.walk = TspTourState{i[0], i[1], i[2], d[0]};
    s.ep.length = d[1];
    s.ep.steps = i[3];
  }
  ENVPOOL_X_HD static void Store(const State& s, const EnvArrays& env, int64_t e, const Params&) {
    uint8_t* slab = env.slab + e * env.slab_bytes;
    double* d = reinterpret_cast<double*>(slab);
    int32_t* i = reinterpret_cast<int32_t*>(slab + 16);
    d[0] = s.ep.walk.length;
    d[1] = s.ep.length;
    i[0] = s.ep.walk.first;
    i[1] = s.ep.walk.current;
    i[2] = s.ep.walk.count;
    i[3] = s.ep.steps;
  }
  ENVPOOL_X_HD static void Observe(const State& s, const Params& p, const RowOut& row) {
    TspRow out{
        row.Field<float>(kCoords), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
    if (p.two_opt) {
      out.tour = row.Field<int32_t>(kTour);
      out.progress = row.Field<float>(kProgress);
      out.tour_length = row.Field<double>(kTourLength);
    } else {
      out.visited = row.Field<int8_t>(kVisited);
      out.current = row.Field<int32_t>(kCurrent);
      out.first = row.Field<int32_t>(kFirst);
      out.action_mask = row.Field<int8_t>(kActionMask);
      out.tour_length = row.Field<double>(kWalkLength);
    }
    TspWrite(s.c, p.two_opt, s.ep, p.max_episode_steps, out);
  }
  ENVPOOL_X_HD static void Reset(Rng& rng, State& s, const Params& p, const RowOut& row) {
    TspReset(rng, s.own_xy, s.c, p.two_opt, s.ep);
    Observe(s, p, row);
  }
  // A visited city is refused as the CPU env refuses it (there a ValueError).
  ENVPOOL_X_HD static bool Allowed(const State& s, const Params& p, int action) {
    return TspAllowed(s.ep, p.two_opt, action);
  }
  ENVPOOL_X_HD static void Step(State& s, int action, float, const Params& p, const RowOut& row,
                                float* reward, bool* terminated) {
    *reward = TspStep(s.c, p.two_opt, action, s.ep, terminated);
    Observe(s, p, row);
  }
};

}  // namespace cuda_pool
}  // namespace envpool_x
