// The CUDA-only layer of the stepper in cpp/cuda: allocation, copies, stream
// ordering and the launch. All env logic is in cpp/cuda/kernel_body.h, shared
// with the host loop that the tests run without a GPU.
//
// Compiled with --fmad=false: the CPU build uses -ffp-contract=off to keep
// gymnasium's float64 results bit for bit, and fused multiply-adds would move
// the GPU's trajectories away from the CPU's by more than libm differences.
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "cuda/device_ops.h"

namespace envpool_x {
namespace cuda_pool {
namespace {

void Check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) {
    throw std::runtime_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorName(err) +
                             " (" + cudaGetErrorString(err) + ")");
  }
}

cudaStream_t AsStream(uintptr_t s) { return reinterpret_cast<cudaStream_t>(s); }

template <typename K, bool kOwnParams>
__global__ void __launch_bounds__(256) BatchKernel(LaunchArgs a, typename K::Params p) {
  const int64_t k = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < a.count) RunRow<K, kOwnParams>(a, p, k);
}

// A multi-agent env's threads: one block per env (agent_body.h), with one
// int of shared memory for its sums.
struct BlockTeam {
  int32_t tid;
  int32_t size;
  int32_t* shared;
  __device__ void Sync() const { __syncthreads(); }
  __device__ int32_t Sum(int32_t v) const {
    if (tid == 0) *shared = 0;
    __syncthreads();
    if (v != 0) atomicAdd(shared, v);
    __syncthreads();
    const int32_t total = *shared;
    __syncthreads();  // read by all before the next Sum resets it
    return total;
  }
  __device__ void Add(int32_t* at, int32_t v) const { atomicAdd(at, v); }
};

template <typename K>
__global__ void __launch_bounds__(256) AgentKernel(LaunchArgs a, typename K::Params p) {
  __shared__ int32_t sum;
  const BlockTeam team{static_cast<int32_t>(threadIdx.x), static_cast<int32_t>(blockDim.x), &sum};
  RunAgentRow<K>(a, p, static_cast<int64_t>(blockIdx.x), team);
}

// Makes `device_id` current for the lifetime of the guard.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device_id) {
    Check(cudaGetDevice(&previous_), "cudaGetDevice");
    if (previous_ != device_id) Check(cudaSetDevice(device_id), "cudaSetDevice");
  }
  ~DeviceGuard() { cudaSetDevice(previous_); }

 private:
  int previous_ = 0;
};

class CudaOps final : public DeviceOps {
 public:
  explicit CudaOps(int device_id) : device_id_(device_id) {
    DeviceGuard g(device_id_);
    // Keep freed blocks in the stream-ordered pool: each step allocates its
    // outputs, and returning memory to the driver every step would cost a sync.
    cudaMemPool_t pool;
    Check(cudaDeviceGetDefaultMemPool(&pool, device_id_), "cudaDeviceGetDefaultMemPool");
    uint64_t keep = UINT64_MAX;
    Check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep),
          "cudaMemPoolSetAttribute");
    Check(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming), "cudaEventCreate");
  }
  ~CudaOps() override { cudaEventDestroy(event_); }

  int32_t device_type() const override { return kDeviceCuda; }
  int32_t device_id() const override { return device_id_; }

  void* Alloc(size_t bytes, uintptr_t stream) override {
    DeviceGuard g(device_id_);
    void* p = nullptr;
    Check(cudaMallocAsync(&p, bytes == 0 ? 256 : bytes, AsStream(stream)), "cudaMallocAsync");
    return p;
  }
  void Free(void* p, uintptr_t stream) noexcept override {
    // Errors are ignored: this runs in DLPack deleters, possibly after the
    // CUDA context is gone at interpreter exit.
    int previous = 0;
    if (cudaGetDevice(&previous) != cudaSuccess) return;
    cudaSetDevice(device_id_);
    if (cudaFreeAsync(p, AsStream(stream)) != cudaSuccess) cudaGetLastError();
    cudaSetDevice(previous);
  }
  void Memset(void* p, int value, size_t bytes, uintptr_t stream) override {
    DeviceGuard g(device_id_);
    Check(cudaMemsetAsync(p, value, bytes, AsStream(stream)), "cudaMemsetAsync");
  }
  void CopyToDevice(void* dst, const void* src, size_t bytes, uintptr_t stream) override {
    if (bytes == 0) return;
    DeviceGuard g(device_id_);
    // From pageable memory the runtime stages the data before returning, so
    // the caller may reuse `src` at once.
    Check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, AsStream(stream)),
          "cudaMemcpyAsync (host to device)");
  }
  void CopyToHost(void* dst, const void* src, size_t bytes, uintptr_t stream) override {
    if (bytes == 0) return;
    DeviceGuard g(device_id_);
    Check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, AsStream(stream)),
          "cudaMemcpyAsync (device to host)");
    Check(cudaStreamSynchronize(AsStream(stream)), "cudaStreamSynchronize");
  }
  void StreamWait(uintptr_t consumer, uintptr_t producer) override {
    if (consumer == producer) return;
    DeviceGuard g(device_id_);
    Check(cudaEventRecord(event_, AsStream(producer)), "cudaEventRecord");
    Check(cudaStreamWaitEvent(AsStream(consumer), event_, 0), "cudaStreamWaitEvent");
  }
  void Launch(EnvKind kind, const LaunchArgs& a, const void* params, uintptr_t stream) override {
    if (a.count == 0) return;
    DeviceGuard g(device_id_);
    constexpr int kBlock = 256;
    const int64_t blocks = (a.count + kBlock - 1) / kBlock;
    VisitKind(kind, [&](auto tag) {
      using K = typename decltype(tag)::Kernel;
      const auto& p = *static_cast<const typename K::Params*>(params);
      if constexpr (IsAgentKernel<K>::value) {
        const int threads = TeamThreads(K::NumAgents(p));
        AgentKernel<K><<<static_cast<unsigned>(a.count), threads, 0, AsStream(stream)>>>(a, p);
      } else {
        // Envs with their own parameter values run their own instantiation.
        WithParamsMode<K>(a, [&](auto own) {
          BatchKernel<K, decltype(own)::value>
              <<<static_cast<unsigned>(blocks), kBlock, 0, AsStream(stream)>>>(a, p);
        });
      }
    });
    Check(cudaGetLastError(), "kernel launch");
  }
  void Synchronize(uintptr_t stream) override {
    DeviceGuard g(device_id_);
    Check(cudaStreamSynchronize(AsStream(stream)), "cudaStreamSynchronize");
  }

 private:
  int device_id_;
  cudaEvent_t event_ = nullptr;
};

}  // namespace

int CudaDeviceCount(std::string* why) {
  int n = 0;
  cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    if (why) *why = std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
    cudaGetLastError();  // clear the sticky-free error so later calls retry
    return 0;
  }
  if (n == 0 && why) *why = "the CUDA runtime reports no devices";
  return n;
}

CudaDeviceInfo GetCudaDeviceInfo(int device_id) {
  CudaDeviceInfo info;
  cudaDeviceProp prop;
  Check(cudaGetDeviceProperties(&prop, device_id), "cudaGetDeviceProperties");
  info.name = prop.name;
  Check(cudaDeviceGetAttribute(&info.memory_clock_khz, cudaDevAttrMemoryClockRate, device_id),
        "cudaDeviceGetAttribute");
  Check(cudaDeviceGetAttribute(&info.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, device_id),
        "cudaDeviceGetAttribute");
  return info;
}

std::shared_ptr<DeviceOps> MakeCudaOps(int device_id) {
  return std::make_shared<CudaOps>(device_id);
}

}  // namespace cuda_pool
}  // namespace envpool_x
