// The arrays a CUDA pool keeps on its device for its whole life: per env,
// state words, the adapter's slab, Philox keys and counters, elapsed steps,
// flags, and the staging arrays of ids, seeds, a reset mask and actions; the
// error words. One list both allocates them and sizes them, so the memory
// estimate (CudaPool.memory_sizes) needs no pool and cannot drift from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace envpool_x {
namespace cuda_pool {

// Bytes per env of a pool (CudaPool::Sizes): device arrays (the slab and the
// result blocks aside), the adapter's slab, host arrays, one result row.
struct PerEnvSizes {
  int64_t device = 0;
  int64_t slab = 0;
  int64_t host = 0;
  int64_t row = 0;
};

struct DeviceArrays {
  // The action staging array holds the widest element type (int64 /
  // float64), so any action dtype fits without reallocating.
  static constexpr int64_t kActionItemBytes = 8;
  // Error bits, the first env, the first agent, padding (CheckErrors).
  static constexpr int64_t kErrorWords = 4;

  double* state = nullptr;  // words per env, word w of env e at w * num_envs + e
  uint64_t* rng_key = nullptr;
  uint64_t* rng_counter = nullptr;
  int32_t* elapsed = nullptr;
  uint8_t* flags = nullptr;
  int32_t* ids = nullptr;
  uint64_t* seeds = nullptr;
  uint8_t* mask = nullptr;
  uint8_t* actions = nullptr;
  uint8_t* slab = nullptr;     // slab_bytes per env, laid out by the adapter
  uint32_t* errors = nullptr;  // kErrorWords, not per env

  // Calls f(member, elements per env) for every per-env array but the slab.
  template <typename F>
  static void ForEachPerEnv(int words, int64_t action_elements, F&& f) {
    f(&DeviceArrays::state, int64_t{words});
    f(&DeviceArrays::rng_key, int64_t{1});
    f(&DeviceArrays::rng_counter, int64_t{1});
    f(&DeviceArrays::elapsed, int64_t{1});
    f(&DeviceArrays::flags, int64_t{1});
    f(&DeviceArrays::ids, int64_t{1});
    f(&DeviceArrays::seeds, int64_t{1});
    f(&DeviceArrays::mask, int64_t{1});
    f(&DeviceArrays::actions, kActionItemBytes * action_elements);
  }

  // Device bytes per env of the arrays Allocate makes, the slab aside.
  static int64_t BytesPerEnv(int words, int64_t action_elements) {
    int64_t bytes = 0;
    ForEachPerEnv(words, action_elements, [&](auto member, int64_t per_env) {
      bytes += static_cast<int64_t>(ItemBytes(member)) * per_env;
    });
    return bytes;
  }

  // Every array for `n` envs, each from alloc(bytes) (which owns them).
  template <typename Alloc>
  void Allocate(int64_t n, int words, int64_t slab_bytes, int64_t action_elements, Alloc&& alloc) {
    ForEachPerEnv(words, action_elements, [&](auto member, int64_t per_env) {
      using T = std::remove_pointer_t<std::remove_reference_t<decltype(this->*member)>>;
      this->*member = static_cast<T*>(alloc(sizeof(T) * static_cast<size_t>(n * per_env)));
    });
    slab = static_cast<uint8_t*>(alloc(static_cast<size_t>(n * slab_bytes)));
    errors = static_cast<uint32_t*>(alloc(sizeof(uint32_t) * kErrorWords));
  }

 private:
  template <typename T>
  static constexpr size_t ItemBytes(T* DeviceArrays::*) {
    return sizeof(T);
  }
};

}  // namespace cuda_pool
}  // namespace envpool_x
