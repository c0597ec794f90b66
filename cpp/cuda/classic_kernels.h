// The classic-control envs' adapters for the CUDA stepper. Each names the
// env's state and parameter types, how the state maps to float64 SoA words
// (EnvArrays::state), and forwards Reset / Step to the shared dynamics exactly
// as the CPU env class does (same casts, same order). WordKernel<C> turns
// such an adapter into the row body's interface (kernel_body.h). kNumParams
// and ApplyValues serve per-env parameters (kernel_param_tables.h).
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "core/random.h"
#include "cuda/kernel_types.h"
#include "envs/classic_control/acrobot.h"
#include "envs/classic_control/cartpole.h"
#include "envs/classic_control/mountain_car.h"
#include "envs/classic_control/mountain_car_continuous.h"
#include "envs/classic_control/pendulum.h"

namespace envpool_x {
namespace cuda_pool {

struct CartPoleKernel {
  using CpuEnv = CartPole;  // the thread-pool env with the same dynamics
  using Params = CartPoleParams<double>;
  using State = CartPoleState<double>;
  static constexpr int kWords = 4;
  static constexpr bool kDiscrete = true;
  static constexpr int kNumParams = 6;  // CpuEnv::ParamSpecs(), in order
  // `v`'s values applied as the CPU env's SetParams applies them.
  ENVPOOL_X_HD static void ApplyValues(Params& p, const double* v) {
    p = CartPoleParamsOf(v, p.sutton_barto_reward);
  }

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
  static constexpr bool kDiscrete = false;
  static constexpr int kNumParams = 4;  // CpuEnv::ParamSpecs(), in order
  // `v`'s values applied as the CPU env's SetParams applies them.
  ENVPOOL_X_HD static void ApplyValues(Params& p, const double* v) { p.SetConstants(v); }

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
  static constexpr bool kDiscrete = true;
  static constexpr int kNumParams = 2;  // CpuEnv::ParamSpecs(), in order
  // `v`'s values applied as the CPU env's SetParams applies them.
  ENVPOOL_X_HD static void ApplyValues(Params& p, const double* v) {
    MountainCar::SetConstants(p, v);
  }

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
  static constexpr bool kDiscrete = false;
  static constexpr int kNumParams = 2;  // CpuEnv::ParamSpecs(), in order
  // `v`'s values applied as the CPU env's SetParams applies them.
  ENVPOOL_X_HD static void ApplyValues(Params& p, const double* v) {
    MountainCarContinuous::SetConstants(p, v);
  }

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
  static constexpr bool kDiscrete = true;
  static constexpr int kNumParams = 8;  // CpuEnv::ParamSpecs(), in order
  // `v`'s values applied as the CPU env's SetParams applies them.
  ENVPOOL_X_HD static void ApplyValues(Params& p, const double* v) { Acrobot::SetConstants(p, v); }

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

// The row body's interface over a classic adapter C: the state in words,
// the observation in the one float32 output field, no shared data.
template <typename C>
struct WordKernel : C {
  using Params = typename C::Params;
  using State = typename C::State;
  static int64_t SlabBytes(const Params&) { return 0; }  // all state is in words
  ENVPOOL_X_HD static void Load(const EnvArrays& env, int64_t e, const Params&, State& s) {
    C::Load(env.state + e, env.num_envs, s);
  }
  ENVPOOL_X_HD static void Store(const State& s, const EnvArrays& env, int64_t e, const Params&) {
    C::Store(s, env.state + e, env.num_envs);
  }
  ENVPOOL_X_HD static void Reset(Rng& rng, State& s, const Params&, const RowOut& row) {
    C::Reset(rng, s, row.Field<float>(0));
  }
  ENVPOOL_X_HD static void Observe(const State& s, const Params&, const RowOut& row) {
    C::Observe(s, row.Field<float>(0));
  }
  // Every in-range action is allowed.
  ENVPOOL_X_HD static bool Allowed(const State&, const Params&, int) { return true; }
  ENVPOOL_X_HD static void Step(State& s, int action, float box, const Params& p, const RowOut& row,
                                float* reward, bool* terminated) {
    C::Step(s, action, box, p, row.Field<float>(0), reward, terminated);
  }
};

}  // namespace cuda_pool
}  // namespace envpool_x
