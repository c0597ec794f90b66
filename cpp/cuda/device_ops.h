// What the CUDA stepper needs from a device: memory, copies, stream
// ordering and one launch per step. Two implementations: HostOps (below; the
// kernel body run by a host loop, device="cpu-reference", for tests) and
// CudaOps (cpp/cuda/cuda_ops.cu, only built when nvcc is found). Streams are
// cudaStream_t values carried as integers so that no header here needs CUDA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "cuda/agent_body.h"
#include "cuda/kernel_body.h"

namespace envpool_x {
namespace cuda_pool {

// DLPack device types (see cpp/cuda/dlpack_abi.h).
constexpr int32_t kDeviceCpu = 1;
constexpr int32_t kDeviceCuda = 2;

class DeviceOps {
 public:
  virtual ~DeviceOps() = default;
  virtual int32_t device_type() const = 0;  // DLPack's: kDeviceCpu / kDeviceCuda
  virtual int32_t device_id() const = 0;
  // Stream-ordered allocation; Free must not throw (it runs in deleters).
  virtual void* Alloc(size_t bytes, uintptr_t stream) = 0;
  virtual void Free(void* p, uintptr_t stream) noexcept = 0;
  virtual void Memset(void* p, int value, size_t bytes, uintptr_t stream) = 0;
  // Host -> device; the host buffer may be reused once this returns.
  virtual void CopyToDevice(void* dst, const void* src, size_t bytes, uintptr_t stream) = 0;
  // Device -> host; returns when the data is there (a synchronisation).
  virtual void CopyToHost(void* dst, const void* src, size_t bytes, uintptr_t stream) = 0;
  // Makes work queued later on `consumer` wait for the work queued so far on
  // `producer` (no host wait).
  virtual void StreamWait(uintptr_t consumer, uintptr_t producer) = 0;
  // One launch: a.count rows of env `kind` with parameters `params`.
  virtual void Launch(EnvKind kind, const LaunchArgs& a, const void* params, uintptr_t stream) = 0;
  // Waits for everything queued on `stream`.
  virtual void Synchronize(uintptr_t stream) = 0;
};

// The kernel body, run on the host: a loop over the same row indices a
// kernel's threads would take. Rows of one launch touch distinct envs, so
// the order does not matter, as on a GPU. A multi-agent env's row is one
// team of a single thread: its phases over the agents in order.
template <typename K>
inline void HostLaunch(const LaunchArgs& a, const void* params) {
  const auto& p = *static_cast<const typename K::Params*>(params);
  if constexpr (IsAgentKernel<K>::value) {
    for (int64_t k = 0; k < a.count; ++k) RunAgentRow<K>(a, p, k, HostTeam{});
  } else {
    WithParamsMode<K>(a, [&](auto own) {
      for (int64_t k = 0; k < a.count; ++k) RunRow<K, decltype(own)::value>(a, p, k);
    });
  }
}

class HostOps final : public DeviceOps {
 public:
  int32_t device_type() const override { return kDeviceCpu; }
  int32_t device_id() const override { return 0; }
  void* Alloc(size_t bytes, uintptr_t) override {
    // 256-byte aligned, as cudaMalloc's memory is.
    size_t rounded = (bytes + 255) / 256 * 256;
    void* p = std::aligned_alloc(256, rounded == 0 ? 256 : rounded);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  void Free(void* p, uintptr_t) noexcept override { std::free(p); }
  void Memset(void* p, int value, size_t bytes, uintptr_t) override {
    std::memset(p, value, bytes);
  }
  void CopyToDevice(void* dst, const void* src, size_t bytes, uintptr_t) override {
    if (bytes != 0) std::memcpy(dst, src, bytes);
  }
  void CopyToHost(void* dst, const void* src, size_t bytes, uintptr_t) override {
    if (bytes != 0) std::memcpy(dst, src, bytes);
  }
  void StreamWait(uintptr_t, uintptr_t) override {}
  void Launch(EnvKind kind, const LaunchArgs& a, const void* params, uintptr_t) override {
    VisitKind(kind, [&](auto tag) { HostLaunch<typename decltype(tag)::Kernel>(a, params); });
  }
  void Synchronize(uintptr_t) override {}
};

// Implemented in cpp/cuda/cuda_ops.cu (builds with ENVPOOL_X_WITH_CUDA only).
// Number of usable GPUs; 0 with the CUDA runtime's reason in *why.
int CudaDeviceCount(std::string* why);
std::shared_ptr<DeviceOps> MakeCudaOps(int device_id);
struct CudaDeviceInfo {
  std::string name;
  int memory_clock_khz = 0;  // peak memory clock
  int bus_width_bits = 0;
};
CudaDeviceInfo GetCudaDeviceInfo(int device_id);

}  // namespace cuda_pool
}  // namespace envpool_x
