// The envs the CUDA stepper knows, and the dispatch from a run-time kind
// to the compile-time adapter the row body is instantiated with.
#pragma once

#include <cstdint>

#include "cuda/classic_kernels.h"
#include "cuda/combinatorial_kernels.h"
#include "cuda/multi_agent_kernels.h"

namespace envpool_x {
namespace cuda_pool {

// By the name of their CPU pool class (K::CpuEnv::kName).
enum class EnvKind : int32_t {
  kCartPole = 0,
  kPendulum,
  kMountainCar,
  kMountainCarContinuous,
  kAcrobot,
  kMaxCut,
  kTsp,
  kTagGridworld,
  kTagContinuous,
};

// Every kind, for lookups by name.
constexpr EnvKind kAllKinds[] = {EnvKind::kCartPole,     EnvKind::kPendulum,
                                 EnvKind::kMountainCar,  EnvKind::kMountainCarContinuous,
                                 EnvKind::kAcrobot,      EnvKind::kMaxCut,
                                 EnvKind::kTsp,          EnvKind::kTagGridworld,
                                 EnvKind::kTagContinuous};

template <typename K>
struct KernelTag {
  using Kernel = K;
};

// Calls f(KernelTag<K>{}) with the adapter of `kind`.
template <typename F>
inline void VisitKind(EnvKind kind, F&& f) {
  switch (kind) {
    case EnvKind::kCartPole:
      f(KernelTag<WordKernel<CartPoleKernel>>{});
      return;
    case EnvKind::kPendulum:
      f(KernelTag<WordKernel<PendulumKernel>>{});
      return;
    case EnvKind::kMountainCar:
      f(KernelTag<WordKernel<MountainCarKernel>>{});
      return;
    case EnvKind::kMountainCarContinuous:
      f(KernelTag<WordKernel<MountainCarContinuousKernel>>{});
      return;
    case EnvKind::kAcrobot:
      f(KernelTag<WordKernel<AcrobotKernel>>{});
      return;
    case EnvKind::kMaxCut:
      f(KernelTag<MaxCutKernel>{});
      return;
    case EnvKind::kTsp:
      f(KernelTag<TspKernel>{});
      return;
    case EnvKind::kTagGridworld:
      f(KernelTag<TagGridKernel>{});
      return;
    case EnvKind::kTagContinuous:
      f(KernelTag<TagContinuousKernel>{});
      return;
  }
}

}  // namespace cuda_pool
}  // namespace envpool_x
