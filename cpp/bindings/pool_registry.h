// Live pools by number, for callers outside Python that name a pool by a
// handle (env.xla()'s custom calls, cpp/bindings/xla.cpp).
//
// A handle is a plain array that user code can build or keep after the env is
// gone, so it holds a registry number, never an address: an unknown or stale
// number is an error, not a wild pointer. Calls hold a shared lock for their
// whole run, so a pool cannot be destroyed under a call that uses it.
#pragma once

#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace envpool_x {

class PyPool;

class PoolRegistry {
 public:
  static PoolRegistry& Get() {
    // Leaked on purpose: pools may be destroyed during interpreter exit,
    // after static destructors would have run.
    static PoolRegistry* registry = new PoolRegistry;
    return *registry;
  }

  uint32_t Add(PyPool* pool) {
    std::unique_lock lock(mu_);
    uint32_t id = next_++;
    pools_[id] = pool;
    return id;
  }

  // Waits for calls on any pool that are in progress.
  void Remove(uint32_t id) {
    std::unique_lock lock(mu_);
    pools_.erase(id);
  }

  // Runs fn(PyPool&) while the pool cannot go away; returns false when `id`
  // names no live pool.
  template <typename Fn>
  bool With(uint32_t id, Fn&& fn) {
    std::shared_lock lock(mu_);
    auto it = pools_.find(id);
    if (it == pools_.end()) return false;
    fn(*it->second);
    return true;
  }

 private:
  std::shared_mutex mu_;
  std::unordered_map<uint32_t, PyPool*> pools_;
  uint32_t next_ = 1;  // 0 is never a valid handle
};

// Set on a thread that waits for a pool on behalf of a caller outside Python
// (an XLA call): it holds no GIL, so the pool must not check Python signals
// there.
inline thread_local bool t_waiting_outside_python = false;

}  // namespace envpool_x
