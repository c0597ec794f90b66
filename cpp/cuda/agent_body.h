// The per-env body of the CUDA stepper for multi-agent envs: what one
// team of threads does for one row of a batch (on a GPU, one block per env;
// cpp/cuda/cuda_ops.cu). It mirrors RunRow (kernel_body.h) and so
// EnvRunner::RunOne: elapsed steps, truncation, the three autoreset modes,
// reseeding and the same_step final rows, with the agent axis in the
// observation, reward and info rows.
//
// A Team is the threads working on one env: `tid` in [0, size), Sync() a
// barrier, Sum(v) the sum of v over the team, Add(at, v) an atomic add.
// Every loop over agents is strided by the team (agent i by thread i % size),
// so an env may have more agents than a block has threads. The adapters
// (multi_agent_kernels.h) split a step into phases between Sync() calls,
// where WarpDrive's kernels synchronise. HostTeam (one thread, no barrier)
// runs the same phases over the agents in order: device="cpu-reference".
// Control flow is the same for every thread of a team (it depends on the
// env's flags only), so every thread reaches every barrier.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "core/random.h"
#include "cuda/kernel_types.h"

namespace envpool_x {
namespace cuda_pool {

struct HostTeam {
  int32_t tid = 0;
  int32_t size = 1;
  ENVPOOL_X_HD void Sync() const {}
  ENVPOOL_X_HD int32_t Sum(int32_t v) const { return v; }
  ENVPOOL_X_HD void Add(int32_t* at, int32_t v) const { *at += v; }
};

// Records a bad action of `agent` of env `env`: the env and agent of the
// first one since the last check (errors[1], errors[2]).
ENVPOOL_X_HD inline void RecordAgentError(uint32_t* errors, uint32_t env, uint32_t agent) {
#if defined(__CUDA_ARCH__)
  atomicOr(errors, kErrBadAction);
  if (atomicCAS(errors + 1, kNoEnv, env) == kNoEnv) errors[2] = agent;
#else
  errors[0] |= kErrBadAction;
  if (errors[1] == kNoEnv) {
    errors[1] = env;
    errors[2] = agent;
  }
#endif
}

// Row k of env fields from `from` on, zeroed / copied to the final_* fields,
// the bytes shared out over the team.
template <typename Team>
ENVPOOL_X_HD inline void ZeroFieldsTeam(uint8_t* const* fields, const Outputs& o, int from,
                                        int64_t k, const Team& team) {
  for (int f = from; f < o.num_fields; ++f) {
    uint8_t* row = fields[f] + k * o.row_bytes[f];
    for (int64_t b = team.tid; b < o.row_bytes[f]; b += team.size) row[b] = 0;
  }
}
template <typename Team>
ENVPOOL_X_HD inline void CopyFinalRowTeam(const Outputs& o, int64_t k, const Team& team) {
  for (int f = 0; f < o.num_fields; ++f) {
    const uint8_t* from = o.field[f] + k * o.row_bytes[f];
    uint8_t* to = o.final_field[f] + k * o.row_bytes[f];
    for (int64_t b = team.tid; b < o.row_bytes[f]; b += team.size) to[b] = from[b];
  }
}

// One row of a launch for a multi-agent adapter K: env e = ids[k] (or k).
template <typename K, typename Team>
ENVPOOL_X_HD inline void RunAgentRow(const LaunchArgs& a, const typename K::Params& p, int64_t k,
                                     const Team& team) {
  const int64_t e = a.ids != nullptr ? a.ids[k] : k;
  const bool lead = team.tid == 0;
  const int32_t n = K::NumAgents(p);
  typename K::State s;
  K::Load(a.env, e, p, s);
  Rng rng;  // used by the lead thread only (resets draw in agent order)
  bool rng_used = false;
  auto load_rng = [&]() {
    if (lead && !rng_used) {
      rng = Rng(a.env.rng_key[e], a.env.rng_counter[e]);
      rng_used = true;
    }
  };
  uint8_t flags = a.env.flags[e];
  int32_t elapsed = a.env.elapsed[e];

  const RowOut row{&a.out, k};
  float* reward = a.out.reward + k * n;
  bool terminated = false;
  bool truncated = false;
  bool stepped = false;  // the env wrote its rewards
  const bool same_step = a.out.final_mask != nullptr;
  if (same_step) {  // rows of envs that do not end this step are zero
    ZeroFieldsTeam(a.out.final_field, a.out, 0, k, team);
    if (lead) {
      a.out.final_env_id[k] = 0;
      a.out.final_elapsed_step[k] = 0;
      a.out.final_mask[k] = false;
    }
  }
  if (lead) a.out.env_id[k] = static_cast<int32_t>(e);

  bool reset;
  if (a.op == Op::kResetMasked) {
    reset = a.mask[e] != 0;
  } else {
    reset = a.op == Op::kReset || ResetsInsteadOfStep((flags & kFlagDone) != 0,
                                                      (flags & kFlagForceReset) != 0, a.autoreset);
  }
  if (reset) {
    if (lead && a.seeds != nullptr) {
      rng = Rng(a.seeds[k]);
      rng_used = true;
    }
    load_rng();
    K::Reset(rng, s, p, row, team);
    elapsed = 0;
    flags = 0;
  } else if (a.op == Op::kResetMasked) {
    // Not reset: the env's current observation; its info row is zero, as
    // the CPU front end's reset_mask result.
    K::Observe(s, p, row, team);
    team.Sync();
    ZeroFieldsTeam(a.out.field, a.out, a.out.num_obs_fields, k, team);
    for (int32_t i = team.tid; i < n; i += team.size) reward[i] = 0.0f;
    if (lead) {
      a.out.elapsed_step[k] = 0;
      a.out.terminated[k] = false;
      a.out.truncated[k] = false;
    }
    return;
  } else {
    // Every agent's action is checked before any agent moves.
    int32_t bad = 0;
    for (int32_t i = team.tid; i < n; i += team.size) {
      if (!K::ActionValid(a, k, p, i)) {
        RecordAgentError(a.errors, static_cast<uint32_t>(e), static_cast<uint32_t>(i));
        ++bad;
      }
    }
    bad = team.Sum(bad);
    if (StepOfFinishedEnvRefused((flags & kFlagDone) != 0, a.autoreset)) {
      // The CPU pool refuses this call; here it is recorded and the env is
      // left as it is (still finished, waiting for a reset).
      if (lead) RecordError(a.errors, kErrStepFinished, static_cast<uint32_t>(e));
      K::Observe(s, p, row, team);
      truncated = true;
    } else if (bad > 0) {
      // As the CPU pool does with an env that threw: the episode ends
      // (truncated, rewards 0) and the env resets on its next step.
      K::Observe(s, p, row, team);
      truncated = true;
      flags = kFlagDone | kFlagForceReset;
    } else {
      K::Step(s, a, k, p, row, reward, &terminated, &truncated, team);
      stepped = true;
      ++elapsed;
      truncated = truncated || TimeLimitReached(elapsed, a.max_episode_steps);
      const bool done = terminated || truncated;
      flags = done ? kFlagDone : 0;
      if (done && same_step) {
        team.Sync();  // every agent's row is written
        CopyFinalRowTeam(a.out, k, team);
        if (lead) {
          a.out.final_env_id[k] = static_cast<int32_t>(e);
          a.out.final_elapsed_step[k] = elapsed;
          a.out.final_mask[k] = true;
        }
        team.Sync();  // copied before the reset overwrites the rows
        load_rng();
        K::Reset(rng, s, p, row, team);
        elapsed = 0;
        flags = 0;
      }
    }
  }
  if (reset) {
    terminated = false;
    truncated = false;
  }
  if (reset || !stepped) {
    for (int32_t i = team.tid; i < n; i += team.size) reward[i] = 0.0f;
  }
  // Every thread has read the env's flags and scalars before the lead
  // writes them back.
  team.Sync();
  if (!lead) return;
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

}  // namespace cuda_pool
}  // namespace envpool_x
