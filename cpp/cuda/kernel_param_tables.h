// Per-env parameters on the CUDA stepper (docs/params.md), device side: the
// tables a first set_params makes, and what a row of a launch does with them.
// A pool without tables launches with ParamTables::count == 0 and its rows
// read nothing more than before (the adapter's shared Params).
//
// An env with tables draws all its values at each of its resets, in
// declaration order, from its own parameter stream: the CPU pool draws only
// at resets after a change or while some setting is a distribution, but a
// fixed setting draws no random number and gives the value it gave before,
// so the values (and the stream) are the same either way.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/host_device.h"
#include "core/params.h"
#include "core/random.h"

namespace envpool_x {
namespace cuda_pool {

// One env's setting of one parameter (core/params.h's ParamSetting, flat): a
// Choice's values are choices[choice_begin, choice_begin + choice_count).
struct KernelParamSetting {
  double a = 0.0;
  double b = 0.0;
  uint32_t choice_begin = 0;
  uint32_t choice_count = 0;
  ParamDraw draw = ParamDraw::kFixed;
};

struct ParamTables {
  int32_t count = 0;                             // parameters per env; 0: no tables
  double* values = nullptr;                      // parameter p of env e at p * num_envs + e
  const KernelParamSetting* settings = nullptr;  // parameter p of env e at e * count + p
  const double* choices = nullptr;
  const double* bounds = nullptr;  // parameter p's range: [2p], [2p + 1]
  uint64_t* rng_key = nullptr;     // each env's parameter stream (ParamStreamKey)
  uint64_t* rng_counter = nullptr;
};

// K::kNumParams, 0 for adapters without per-env parameters.
template <typename K, typename = void>
struct ParamCountOf : std::integral_constant<int, 0> {};
template <typename K>
struct ParamCountOf<K, std::void_t<decltype(K::kNumParams)>>
    : std::integral_constant<int, K::kNumParams> {};

// Env e's Params: `p` (a copy of the shared ones) with e's values applied.
template <typename K>
ENVPOOL_X_HD inline void LoadEnvParams(const ParamTables& t, int64_t num_envs, int64_t e,
                                       typename K::Params& p) {
  double v[K::kNumParams];
  for (int i = 0; i < K::kNumParams; ++i) v[i] = t.values[i * num_envs + e];
  K::ApplyValues(p, v);
}

// At a reset of env e: its values drawn (ParamStore::Draw's order), kept in
// the tables and applied to `p`.
template <typename K>
ENVPOOL_X_HD inline void DrawEnvParams(const ParamTables& t, int64_t num_envs, int64_t e,
                                       typename K::Params& p) {
  Rng rng(t.rng_key[e], t.rng_counter[e]);
  double v[K::kNumParams];
  for (int i = 0; i < K::kNumParams; ++i) {
    const KernelParamSetting& s = t.settings[e * K::kNumParams + i];
    v[i] = DrawParamValue(s.draw, s.a, s.b, t.choices + s.choice_begin, s.choice_count,
                          t.bounds[2 * i], t.bounds[2 * i + 1], rng);
    t.values[i * num_envs + e] = v[i];
  }
  t.rng_counter[e] = rng.counter();
  K::ApplyValues(p, v);
}

// A reset with a seed restarts env e's parameter stream too (the CPU pool's
// DoReset: ParamStreamKey of the new seed).
ENVPOOL_X_HD inline void ReseedEnvParams(const ParamTables& t, int64_t e, uint64_t seed) {
  t.rng_key[e] = ParamStreamKey(seed);
  t.rng_counter[e] = 0;
}

}  // namespace cuda_pool
}  // namespace envpool_x
