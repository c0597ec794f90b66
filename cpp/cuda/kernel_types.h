// What one launch of the CUDA stepper sees: the per-env arrays, the
// output rows, the launch arguments, and the error flags a launch records.
// Plain structs of device pointers, passed to the kernel by value; the row
// body (kernel_body.h) and the env adapters (classic_kernels.h,
// combinatorial_kernels.h) are written against them.
#pragma once

#include <cstdint>

#include "core/autoreset.h"
#include "core/host_device.h"
#include "cuda/kernel_param_tables.h"

namespace envpool_x {
namespace cuda_pool {

enum class Op : int32_t {
  kStep = 0,
  kReset = 1,
  // Every env: rows with mask[e] reset, the others report their current
  // observation (gymnasium's reset(options={"reset_mask": mask})).
  kResetMasked = 2,
};
// Element types an action array may have on the device (no conversion copy).
enum class ActionType : int32_t { kInt32 = 0, kInt64 = 1, kFloat32 = 2, kFloat64 = 3 };

// Error bits a launch records instead of throwing (a device cannot throw,
// and reading a flag back every step would be a device-to-host sync).
constexpr uint32_t kErrBadAction = 1;     // out of range / not finite / refused by the env
constexpr uint32_t kErrStepFinished = 2;  // autoreset 'disabled', episode over
constexpr uint32_t kNoEnv = 0xFFFFFFFFu;

// Per-env flag bits.
constexpr uint8_t kFlagDone = 1;        // the last step ended the episode
constexpr uint8_t kFlagForceReset = 2;  // a bad action ended it: start over

// State of all envs. Small fixed states are float64 words, structure of
// arrays: word w of env e is at state[w * num_envs + e], so a warp reads
// consecutive addresses. Envs with per-env arrays (a MaxCut assignment, a TSP
// tour) keep them in a byte slab instead: env e's at slab + e * slab_bytes,
// laid out by the env's adapter. Read-only data every env shares (a graph,
// fixed coordinates) is not here: the adapter's Params point at it.
struct EnvArrays {
  int64_t num_envs = 0;
  double* state = nullptr;
  uint8_t* slab = nullptr;
  int64_t slab_bytes = 0;
  uint64_t* rng_key = nullptr;
  uint64_t* rng_counter = nullptr;
  int32_t* elapsed = nullptr;
  uint8_t* flags = nullptr;
};

// Most output fields an env declares (observation and info fields together).
constexpr int kMaxEnvFields = 8;

// Output rows of one launch (row k for the k-th env of the launch). The env's
// own fields come first: its observation fields, then its info fields, in the
// order of its CPU Spec; row k of field f is at field[f] + k * row_bytes[f].
// The final_* arrays exist only in same_step mode (else nullptr).
struct Outputs {
  int32_t num_fields = 0;
  int32_t num_obs_fields = 0;
  uint8_t* field[kMaxEnvFields] = {};
  uint8_t* final_field[kMaxEnvFields] = {};
  int64_t row_bytes[kMaxEnvFields] = {};
  float* reward = nullptr;
  bool* terminated = nullptr;
  bool* truncated = nullptr;
  int32_t* env_id = nullptr;
  int32_t* elapsed_step = nullptr;
  int32_t* final_env_id = nullptr;
  int32_t* final_elapsed_step = nullptr;
  bool* final_mask = nullptr;
};

// One env's output row: the place its adapter writes its fields.
struct RowOut {
  const Outputs* out;
  int64_t k;
  template <typename T>
  ENVPOOL_X_HD T* Field(int f) const {
    return reinterpret_cast<T*>(out->field[f] + k * out->row_bytes[f]);
  }
};

struct LaunchArgs {
  int64_t count = 0;                // rows
  const int32_t* ids = nullptr;     // row k is env ids[k]; nullptr: env k
  const uint8_t* mask = nullptr;    // kResetMasked: which envs reset
  const uint64_t* seeds = nullptr;  // resets: new stream key per row; nullptr: continue
  Op op = Op::kStep;
  AutoresetMode autoreset = AutoresetMode::kNextStep;
  int32_t max_episode_steps = 0;  // <= 0: no time limit
  int64_t num_actions = 0;        // discrete actions: valid ones are [0, num_actions)
  ActionType action_type = ActionType::kInt32;
  const void* action = nullptr;  // row k: the action of the row's env
  EnvArrays env;
  ParamTables params;  // per-env parameters (count 0: none, the shared Params)
  Outputs out;
  uint32_t* errors = nullptr;  // [0]: error bits, [1]: first env with an error
};

ENVPOOL_X_HD inline void RecordError(uint32_t* errors, uint32_t bit, uint32_t env) {
#if defined(__CUDA_ARCH__)
  atomicOr(errors, bit);
  atomicCAS(errors + 1, kNoEnv, env);
#else
  errors[0] |= bit;
  if (errors[1] == kNoEnv) errors[1] = env;
#endif
}

// False for NaN and +-inf (without <cmath>'s isfinite, which not every
// device toolchain offers in namespace std).
ENVPOOL_X_HD inline bool IsFinite(float v) { return v - v == 0.0f; }

}  // namespace cuda_pool
}  // namespace envpool_x
