// The per-env body of the batched (GPU) stepper: what one kernel thread does
// for one row of a batch. Everything here is ENVPOOL_X_HD and free of CUDA
// API calls, so the same code runs in a CUDA kernel (cpp/cuda/cuda_ops.cu)
// and in a plain host loop over the same row indices (HostOps in
// cpp/cuda/device_ops.h), which is what the tests exercise on machines
// without a GPU.
//
// The row logic mirrors EnvRunner::RunOne (cpp/core/env_runner.h) step for step:
// elapsed steps, truncation, the three autoreset modes, reseeding, and the
// same_step final rows. The env dynamics are the very functions the CPU envs
// call (cpp/envs/classic_control/*.h), and random numbers come from the same
// Philox stream, resumed from a (key, counter) pair kept per env.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "core/random.h"
#include "envs/classic_control/acrobot.h"
#include "envs/classic_control/cartpole.h"
#include "envs/classic_control/mountain_car.h"
#include "envs/classic_control/mountain_car_continuous.h"
#include "envs/classic_control/pendulum.h"

namespace envpool_x {
namespace batched {

enum class Op : int32_t {
  kStep = 0,
  kReset = 1,
  // Every env: rows with mask[e] reset, the others report their current
  // observation (gymnasium's reset(options={"reset_mask": mask})).
  kResetMasked = 2,
};
enum class Autoreset : int32_t { kNextStep = 0, kSameStep = 1, kDisabled = 2 };
// Element types an action array may have on the device (no conversion copy).
enum class ActionType : int32_t { kInt32 = 0, kInt64 = 1, kFloat32 = 2, kFloat64 = 3 };

// Error bits a launch records instead of throwing (a device cannot throw,
// and reading a flag back every step would be a device-to-host sync).
constexpr uint32_t kErrBadAction = 1;     // out of range / not finite
constexpr uint32_t kErrStepFinished = 2;  // autoreset 'disabled', episode over
constexpr uint32_t kNoEnv = 0xFFFFFFFFu;

// Per-env flag bits.
constexpr uint8_t kFlagDone = 1;        // the last step ended the episode
constexpr uint8_t kFlagForceReset = 2;  // a bad action ended it: start over

// State of all envs, structure of arrays: word w of env e is at
// state[w * num_envs + e], so a warp reads consecutive addresses.
struct EnvArrays {
  int64_t num_envs = 0;
  double* state = nullptr;
  uint64_t* rng_key = nullptr;
  uint64_t* rng_counter = nullptr;
  int32_t* elapsed = nullptr;
  uint8_t* flags = nullptr;
};

// Output rows of one launch (row k for the k-th env of the launch). The
// final_* arrays exist only in same_step mode (else nullptr).
struct Outputs {
  float* obs = nullptr;
  float* reward = nullptr;
  bool* terminated = nullptr;
  bool* truncated = nullptr;
  int32_t* env_id = nullptr;
  int32_t* elapsed_step = nullptr;
  float* final_obs = nullptr;
  int32_t* final_env_id = nullptr;
  int32_t* final_elapsed_step = nullptr;
  bool* final_mask = nullptr;
};

struct LaunchArgs {
  int64_t count = 0;                // rows
  const int32_t* ids = nullptr;     // row k is env ids[k]; nullptr: env k
  const uint8_t* mask = nullptr;    // kResetMasked: which envs reset
  const uint64_t* seeds = nullptr;  // resets: new stream key per row; nullptr: continue
  Op op = Op::kStep;
  Autoreset autoreset = Autoreset::kNextStep;
  int32_t max_episode_steps = 0;  // <= 0: no time limit
  ActionType action_type = ActionType::kInt32;
  const void* action = nullptr;  // row k: the action of the row's env
  EnvArrays env;
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

// ---- per-env adapters -------------------------------------------------------
// Each adapter names the env's state and parameter types, how the state maps
// to SoA words, and forwards Reset / Step to the shared dynamics exactly as
// the CPU env class does (same casts, same order).

struct CartPoleKernel {
  using CpuEnv = CartPole;  // the thread-pool env with the same dynamics
  using Params = CartPoleParams<double>;
  using State = CartPoleState<double>;
  static constexpr int kWords = 4;
  static constexpr int kObs = 4;
  static constexpr bool kDiscrete = true;
  static constexpr int kNumActions = 2;

  ENVPOOL_X_HD static void Load(const double* w, int64_t n, State& s) {
    s.x = w[0];
    s.x_dot = w[n];
    s.theta = w[2 * n];
    s.theta_dot = w[3 * n];
  }
  ENVPOOL_X_HD static void Store(const State& s, double* w, int64_t n) {
    w[0] = s.x;
    w[n] = s.x_dot;
    w[2 * n] = s.theta;
    w[3 * n] = s.theta_dot;
  }
  ENVPOOL_X_HD static void Reset(Rng& rng, State& s, float* obs) {
    CartPoleResetState(rng, s);
    CartPoleObservation(s, obs);
  }
  ENVPOOL_X_HD static void Observe(const State& s, float* obs) { CartPoleObservation(s, obs); }
  ENVPOOL_X_HD static void Step(State& s, int action, float, const Params& p, float* obs,
                                float* reward, bool* terminated) {
    double r = 0.0;
    CartPoleDynamics(s, action, p, terminated, &r);
    *reward = static_cast<float>(r);
    CartPoleObservation(s, obs);
  }
};

struct PendulumKernel {
  using CpuEnv = Pendulum;  // the thread-pool env with the same dynamics
  using Params = PendulumParams<double>;
  using State = PendulumState<double>;
  static constexpr int kWords = 2;
  static constexpr int kObs = 3;
  static constexpr bool kDiscrete = false;
  static constexpr int kNumActions = 0;

  ENVPOOL_X_HD static void Load(const double* w, int64_t n, State& s) {
    s.th = w[0];
    s.thdot = w[n];
  }
  ENVPOOL_X_HD static void Store(const State& s, double* w, int64_t n) {
    w[0] = s.th;
    w[n] = s.thdot;
  }
  ENVPOOL_X_HD static void Reset(Rng& rng, State& s, float* obs) {
    PendulumResetState(rng, s);
    PendulumObservation(s, obs);
  }
  ENVPOOL_X_HD static void Observe(const State& s, float* obs) { PendulumObservation(s, obs); }
  ENVPOOL_X_HD static void Step(State& s, int, float action, const Params& p, float* obs,
                                float* reward, bool* terminated) {
    double r = 0.0;
    PendulumDynamics(s, action, p, &r);
    *reward = static_cast<float>(r);
    *terminated = false;
    PendulumObservation(s, obs);
  }
};

struct MountainCarKernel {
  using CpuEnv = MountainCar;  // the thread-pool env with the same dynamics
  using Params = MountainCarParams<double>;
  using State = MountainCarState<double>;
  static constexpr int kWords = 2;
  static constexpr int kObs = 2;
  static constexpr bool kDiscrete = true;
  static constexpr int kNumActions = 3;

  ENVPOOL_X_HD static void Load(const double* w, int64_t n, State& s) {
    s.position = w[0];
    s.velocity = w[n];
  }
  ENVPOOL_X_HD static void Store(const State& s, double* w, int64_t n) {
    w[0] = s.position;
    w[n] = s.velocity;
  }
  ENVPOOL_X_HD static void Reset(Rng& rng, State& s, float* obs) {
    MountainCarResetState(rng, s);
    MountainCarObservation(s, obs);
  }
  ENVPOOL_X_HD static void Observe(const State& s, float* obs) { MountainCarObservation(s, obs); }
  ENVPOOL_X_HD static void Step(State& s, int action, float, const Params& p, float* obs,
                                float* reward, bool* terminated) {
    double r = 0.0;
    MountainCarDynamics(s, action, p, terminated, &r);
    *reward = static_cast<float>(r);
    MountainCarObservation(s, obs);
  }
};

struct MountainCarContinuousKernel {
  using CpuEnv = MountainCarContinuous;  // the thread-pool env with the same dynamics
  using Params = MountainCarContinuousParams<double>;
  using State = MountainCarContinuousState<double>;
  static constexpr int kWords = 3;  // position, velocity, float64 flag
  static constexpr int kObs = 2;
  static constexpr bool kDiscrete = false;
  static constexpr int kNumActions = 0;

  ENVPOOL_X_HD static void Load(const double* w, int64_t n, State& s) {
    s.position = w[0];
    s.velocity = w[n];
    s.float64 = w[2 * n] != 0.0;
  }
  ENVPOOL_X_HD static void Store(const State& s, double* w, int64_t n) {
    w[0] = s.position;
    w[n] = s.velocity;
    w[2 * n] = s.float64 ? 1.0 : 0.0;
  }
  ENVPOOL_X_HD static void Reset(Rng& rng, State& s, float* obs) {
    MountainCarContinuousResetState(rng, s);
    MountainCarContinuousObservation(s, obs);
  }
  ENVPOOL_X_HD static void Observe(const State& s, float* obs) {
    MountainCarContinuousObservation(s, obs);
  }
  ENVPOOL_X_HD static void Step(State& s, int, float action, const Params& p, float* obs,
                                float* reward, bool* terminated) {
    double r = 0.0;
    MountainCarContinuousDynamics(s, action, p, terminated, &r);
    *reward = static_cast<float>(r);
    MountainCarContinuousObservation(s, obs);
  }
};

struct AcrobotKernel {
  using CpuEnv = Acrobot;  // the thread-pool env with the same dynamics
  using Params = AcrobotParams<double>;
  using State = AcrobotState<double>;
  static constexpr int kWords = 4;
  static constexpr int kObs = 6;
  static constexpr bool kDiscrete = true;
  static constexpr int kNumActions = 3;

  ENVPOOL_X_HD static void Load(const double* w, int64_t n, State& s) {
    s.theta1 = w[0];
    s.theta2 = w[n];
    s.dtheta1 = w[2 * n];
    s.dtheta2 = w[3 * n];
  }
  ENVPOOL_X_HD static void Store(const State& s, double* w, int64_t n) {
    w[0] = s.theta1;
    w[n] = s.theta2;
    w[2 * n] = s.dtheta1;
    w[3 * n] = s.dtheta2;
  }
  ENVPOOL_X_HD static void Reset(Rng& rng, State& s, float* obs) {
    AcrobotResetState(rng, s);
    AcrobotObservation(s, obs);
  }
  ENVPOOL_X_HD static void Observe(const State& s, float* obs) { AcrobotObservation(s, obs); }
  ENVPOOL_X_HD static void Step(State& s, int action, float, const Params& p, float* obs,
                                float* reward, bool* terminated) {
    double r = 0.0;
    AcrobotDynamics(s, action, p, terminated, &r);
    *reward = static_cast<float>(r);
    AcrobotObservation(s, obs);
  }
};

// The envs the batched stepper knows, by the name of their CPU pool class.
enum class EnvKind : int32_t {
  kCartPole = 0,
  kPendulum,
  kMountainCar,
  kMountainCarContinuous,
  kAcrobot,
};

// Every kind, for lookups by name (K::CpuEnv::kName).
constexpr EnvKind kAllKinds[] = {EnvKind::kCartPole, EnvKind::kPendulum, EnvKind::kMountainCar,
                                 EnvKind::kMountainCarContinuous, EnvKind::kAcrobot};

template <typename K>
struct KernelTag {
  using Kernel = K;
};

// Calls f(KernelTag<K>{}) with the adapter of `kind`.
template <typename F>
inline void VisitKind(EnvKind kind, F&& f) {
  switch (kind) {
    case EnvKind::kCartPole:
      f(KernelTag<CartPoleKernel>{});
      return;
    case EnvKind::kPendulum:
      f(KernelTag<PendulumKernel>{});
      return;
    case EnvKind::kMountainCar:
      f(KernelTag<MountainCarKernel>{});
      return;
    case EnvKind::kMountainCarContinuous:
      f(KernelTag<MountainCarContinuousKernel>{});
      return;
    case EnvKind::kAcrobot:
      f(KernelTag<AcrobotKernel>{});
      return;
  }
}

// ---- the row body ---------------------------------------------------------

template <typename K>
ENVPOOL_X_HD inline bool LoadAction(const LaunchArgs& a, int64_t k, int* discrete, float* box) {
  if (K::kDiscrete) {
    int64_t v = a.action_type == ActionType::kInt64 ? static_cast<const int64_t*>(a.action)[k]
                                                    : static_cast<const int32_t*>(a.action)[k];
    *discrete = static_cast<int>(v);
    return v >= 0 && v < K::kNumActions;
  }
  // Every continuous classic env has a one-element action.
  float v = a.action_type == ActionType::kFloat64
                ? static_cast<float>(static_cast<const double*>(a.action)[k])
                : static_cast<const float*>(a.action)[k];
  *box = v;
  return IsFinite(v);
}

// One row of a launch: env e = ids[k] (or k), output row k.
template <typename K>
ENVPOOL_X_HD inline void RunRow(const LaunchArgs& a, const typename K::Params& p, int64_t k) {
  const int64_t e = a.ids != nullptr ? a.ids[k] : k;
  const int64_t n = a.env.num_envs;
  typename K::State s;
  K::Load(a.env.state + e, n, s);
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

  float* obs = a.out.obs + k * K::kObs;
  float reward = 0.0f;
  bool terminated = false;
  bool truncated = false;
  const bool same_step = a.out.final_mask != nullptr;
  if (same_step) {  // rows of envs that do not end this step are zero
    for (int i = 0; i < K::kObs; ++i) a.out.final_obs[k * K::kObs + i] = 0.0f;
    a.out.final_env_id[k] = 0;
    a.out.final_elapsed_step[k] = 0;
    a.out.final_mask[k] = false;
  }
  a.out.env_id[k] = static_cast<int32_t>(e);

  bool reset;
  if (a.op == Op::kResetMasked) {
    reset = a.mask[e] != 0;
  } else {
    reset = a.op == Op::kReset || (flags & kFlagForceReset) != 0 ||
            ((flags & kFlagDone) != 0 && a.autoreset == Autoreset::kNextStep);
  }
  if (reset) {
    if (a.seeds != nullptr) {
      rng = Rng(a.seeds[k]);
      rng_used = true;
    }
    load_rng();
    K::Reset(rng, s, obs);
    elapsed = 0;
    flags = 0;
  } else if (a.op == Op::kResetMasked) {
    // Not reset: the env's current observation (a function of its state).
    K::Observe(s, obs);
    a.out.elapsed_step[k] = 0;
    a.out.reward[k] = 0.0f;
    a.out.terminated[k] = false;
    a.out.truncated[k] = false;
    return;
  } else {
    int discrete = 0;
    float box = 0.0f;
    const bool valid = LoadAction<K>(a, k, &discrete, &box);
    if ((flags & kFlagDone) != 0 && a.autoreset == Autoreset::kDisabled) {
      // The CPU pool refuses this call; here it is recorded and the env is
      // left as it is (still finished, waiting for a reset).
      RecordError(a.errors, kErrStepFinished, static_cast<uint32_t>(e));
      K::Observe(s, obs);
      truncated = true;
    } else if (!valid) {
      // As the CPU pool does with an env that threw: the episode ends
      // (truncated, reward 0) and the env resets on its next step.
      RecordError(a.errors, kErrBadAction, static_cast<uint32_t>(e));
      K::Observe(s, obs);
      truncated = true;
      flags = kFlagDone | kFlagForceReset;
    } else {
      K::Step(s, discrete, box, p, obs, &reward, &terminated);
      ++elapsed;
      truncated = a.max_episode_steps > 0 && elapsed >= a.max_episode_steps;
      const bool done = terminated || truncated;
      flags = done ? kFlagDone : 0;
      if (done && same_step) {
        for (int i = 0; i < K::kObs; ++i) a.out.final_obs[k * K::kObs + i] = obs[i];
        a.out.final_env_id[k] = static_cast<int32_t>(e);
        a.out.final_elapsed_step[k] = elapsed;
        a.out.final_mask[k] = true;
        load_rng();
        K::Reset(rng, s, obs);
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

  K::Store(s, a.env.state + e, n);
  if (rng_used) {
    a.env.rng_key[e] = rng.key();
    a.env.rng_counter[e] = rng.counter();
  }
  a.env.flags[e] = flags;
  a.env.elapsed[e] = elapsed;
}

}  // namespace batched
}  // namespace envpool_x
