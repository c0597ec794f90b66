// The per-env body of the CUDA stepper: what one kernel thread does
// for one row of a batch. Everything here is ENVPOOL_X_HD and free of CUDA
// API calls, so the same code runs in a CUDA kernel (cpp/cuda/cuda_ops.cu)
// and in a plain host loop over the same row indices (HostOps in
// cpp/cuda/device_ops.h), which is what the tests exercise on machines
// without a GPU.
//
// The row logic mirrors EnvRunner::RunOne (cpp/core/env_runner.h) step for step:
// elapsed steps, truncation, the three autoreset modes, reseeding, and the
// same_step final rows. The env dynamics are the very functions the CPU envs
// call (cpp/envs/*/ ENVPOOL_X_HD functions, through the adapters of
// env_kinds.h), and random numbers come from the same
// Philox stream, resumed from a (key, counter) pair kept per env.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/host_device.h"
#include "core/random.h"
#include "cuda/env_kinds.h"
#include "cuda/kernel_types.h"

namespace envpool_x {
namespace cuda_pool {

// ---- the row body ---------------------------------------------------------

// The host loop inlines the row body into its loop whatever else the unit
// holds (GCC's growth limits otherwise may not, and the loop is the cost).
#if defined(__CUDACC__)
#define ENVPOOL_X_ROW_INLINE
#else
#define ENVPOOL_X_ROW_INLINE __attribute__((always_inline))
#endif

template <typename K>
ENVPOOL_X_HD inline bool LoadAction(const LaunchArgs& a, int64_t k, int* discrete, float* box) {
  if (K::kDiscrete) {
    int64_t v = a.action_type == ActionType::kInt64 ? static_cast<const int64_t*>(a.action)[k]
                                                    : static_cast<const int32_t*>(a.action)[k];
    *discrete = static_cast<int>(v);
    return v >= 0 && v < a.num_actions;
  }
  // Every continuous env here has a one-element action.
  float v = a.action_type == ActionType::kFloat64
                ? static_cast<float>(static_cast<const double*>(a.action)[k])
                : static_cast<const float*>(a.action)[k];
  *box = v;
  return IsFinite(v);
}

// Row k of every env field (from f on) set to zero bytes.
ENVPOOL_X_HD inline void ZeroFields(uint8_t* const* fields, const Outputs& o, int from, int64_t k) {
  for (int f = from; f < o.num_fields; ++f) {
    uint8_t* row = fields[f] + k * o.row_bytes[f];
    for (int64_t b = 0; b < o.row_bytes[f]; ++b) row[b] = 0;
  }
}

// Row k of every env field copied to the final_* fields (same_step).
ENVPOOL_X_HD inline void CopyFinalRow(const Outputs& o, int64_t k) {
  for (int f = 0; f < o.num_fields; ++f) {
    const uint8_t* from = o.field[f] + k * o.row_bytes[f];
    uint8_t* to = o.final_field[f] + k * o.row_bytes[f];
    for (int64_t b = 0; b < o.row_bytes[f]; ++b) to[b] = from[b];
  }
}

// One row of a launch: env e = ids[k] (or k), output row k. kOwnParams:
// the env runs with its own values (a.params, kernel_param_tables.h), on a
// copy of the shared Params; otherwise on the shared Params themselves.
template <typename K, bool kOwnParams = false>
ENVPOOL_X_HD ENVPOOL_X_ROW_INLINE inline void RunRow(const LaunchArgs& a,
                                                     const typename K::Params& shared, int64_t k) {
  const int64_t e = a.ids != nullptr ? a.ids[k] : k;
  using ParamsRef = std::conditional_t<kOwnParams, typename K::Params, const typename K::Params&>;
  ParamsRef p = shared;
  if constexpr (kOwnParams) LoadEnvParams<K>(a.params, a.env.num_envs, e, p);
  typename K::State s;
  K::Load(a.env, e, p, s);
  // The random stream is only read (and written back) on rows that reset:
  // a plain step leaves those 16 bytes untouched (memory traffic is the cost).
  bool rng_used = false;
  Rng rng;
  auto load_rng = [&]() {
    if (!rng_used) {
      rng = Rng(a.env.rng_key[e], a.env.rng_counter[e]);
      rng_used = true;
    }
  };
  uint8_t flags = a.env.flags[e];
  int32_t elapsed = a.env.elapsed[e];

  const RowOut row{&a.out, k};
  float reward = 0.0f;
  bool terminated = false;
  bool truncated = false;
  const bool same_step = a.out.final_mask != nullptr;
  if (same_step) {  // rows of envs that do not end this step are zero
    ZeroFields(a.out.final_field, a.out, 0, k);
    a.out.final_env_id[k] = 0;
    a.out.final_elapsed_step[k] = 0;
    a.out.final_mask[k] = false;
  }
  a.out.env_id[k] = static_cast<int32_t>(e);

  bool reset;
  if (a.op == Op::kResetMasked) {
    reset = a.mask[e] != 0;
  } else {
    reset = a.op == Op::kReset || ResetsInsteadOfStep((flags & kFlagDone) != 0,
                                                      (flags & kFlagForceReset) != 0, a.autoreset);
  }
  if (reset) {
    if (a.seeds != nullptr) {
      rng = Rng(a.seeds[k]);
      rng_used = true;
      if constexpr (kOwnParams) ReseedEnvParams(a.params, e, a.seeds[k]);
    }
    load_rng();
    if constexpr (kOwnParams) DrawEnvParams<K>(a.params, a.env.num_envs, e, p);
    K::Reset(rng, s, p, row);
    elapsed = 0;
    flags = 0;
  } else if (a.op == Op::kResetMasked) {
    // Not reset: the env's current observation (a function of its state);
    // its info row is zero, as the CPU front end's reset_mask result.
    K::Observe(s, p, row);
    ZeroFields(a.out.field, a.out, a.out.num_obs_fields, k);
    a.out.elapsed_step[k] = 0;
    a.out.reward[k] = 0.0f;
    a.out.terminated[k] = false;
    a.out.truncated[k] = false;
    return;
  } else {
    int discrete = 0;
    float box = 0.0f;
    bool valid = LoadAction<K>(a, k, &discrete, &box);
    if (valid && K::kDiscrete) valid = K::Allowed(s, p, discrete);
    if (StepOfFinishedEnvRefused((flags & kFlagDone) != 0, a.autoreset)) {
      // The CPU pool refuses this call; here it is recorded and the env is
      // left as it is (still finished, waiting for a reset).
      RecordError(a.errors, kErrStepFinished, static_cast<uint32_t>(e));
      K::Observe(s, p, row);
      truncated = true;
    } else if (!valid) {
      // As the CPU pool does with an env that threw: the episode ends
      // (truncated, reward 0) and the env resets on its next step.
      RecordError(a.errors, kErrBadAction, static_cast<uint32_t>(e));
      K::Observe(s, p, row);
      truncated = true;
      flags = kFlagDone | kFlagForceReset;
    } else {
      K::Step(s, discrete, box, p, row, &reward, &terminated);
      ++elapsed;
      truncated = TimeLimitReached(elapsed, a.max_episode_steps);
      const bool done = terminated || truncated;
      flags = done ? kFlagDone : 0;
      if (done && same_step) {
        CopyFinalRow(a.out, k);
        a.out.final_env_id[k] = static_cast<int32_t>(e);
        a.out.final_elapsed_step[k] = elapsed;
        a.out.final_mask[k] = true;
        load_rng();
        if constexpr (kOwnParams) DrawEnvParams<K>(a.params, a.env.num_envs, e, p);
        K::Reset(rng, s, p, row);
        elapsed = 0;
        flags = 0;
      }
    }
  }
  if (reset) {
    reward = 0.0f;
    terminated = false;
    truncated = false;
  }
  a.out.reward[k] = reward;
  a.out.terminated[k] = terminated;
  a.out.truncated[k] = truncated;
  a.out.elapsed_step[k] = elapsed;

  K::Store(s, a.env, e, p);
  if (rng_used) {
    a.env.rng_key[e] = rng.key();
    a.env.rng_counter[e] = rng.counter();
  }
  a.env.flags[e] = flags;
  a.env.elapsed[e] = elapsed;
}

// Calls f(std::true_type{}) when the launch's rows run on their envs' own
// values (a.params has tables and K has parameters), else f(std::false_type{}):
// decided once per launch (host side), so that a pool without tables runs the
// very row body and kernel it ran before (no test per row, no extra registers).
template <typename K, typename F>
inline void WithParamsMode(const LaunchArgs& a, F&& f) {
  if constexpr (ParamCountOf<K>::value > 0) {
    if (a.params.count != 0) {
      f(std::true_type{});
      return;
    }
  }
  f(std::false_type{});
}

}  // namespace cuda_pool
}  // namespace envpool_x
