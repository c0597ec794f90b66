// PyPool: one CPU pool as Python sees it (numpy in, numpy out, the GIL
// released while C++ steps or waits), whatever the env type; BindEnv
// (pool_binding.h) registers it per env type. Definitions in py_pool.cpp.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "bindings/conversions.h"
#include "core/errors.h"
#include "core/pool_base.h"

namespace envpool_x {

class PyPool {
 public:
  explicit PyPool(std::unique_ptr<PoolBase> pool);
  ~PyPool();

  PoolBase& pool() { return *pool_; }

  // The number a handle (env.xla()) carries for this pool; registered in
  // PoolRegistry (pool_registry.h) on first use.
  uint32_t Handle();

  py::list Fields() const;

  void SendStep(const py::object& action, const py::object& env_id);
  void SendReset(const py::object& env_id, const py::object& seed);
  py::tuple Recv();
  py::tuple Step(const py::object& action, const py::object& env_id);
  py::tuple Reset(const py::object& env_id, const py::object& seed);
  void Close();
  py::array_t<double> GetState(int env_id);
  // Frames (k, height, width, 3) of the envs in env_id (all when None), for
  // envs that draw their own (RenderShape); only with no work in flight.
  py::array_t<uint8_t> Render(const py::object& env_id);
  void SetState(int env_id,
                const py::array_t<double, py::array::c_style | py::array::forcecast>& a);
  // Timing of sync rounds (core/round_profile.h): starts or stops recording,
  // and the mean microseconds per round of each part so far.
  void ProfileRounds(bool on);
  py::dict RoundProfileSummary();

  // Two callers on one env would interleave sends and receives: the second
  // is refused instead of corrupting results.
  struct Guard {
    explicit Guard(PyPool* p, const char* busy =
                                  "this env is being used by another thread; calls must "
                                  "not overlap")
        : p_(p) {
      if (p_->busy_.exchange(true)) throw StateError(busy);
    }
    ~Guard() { p_->busy_.store(false); }
    PyPool* p_;
  };

 private:
  void SendResetLocked(const py::object& env_id, const py::object& seed, bool for_recv);
  const std::vector<int32_t>& Ids(const py::object& env_id);
  void StoreActions(const py::object& action, const std::vector<int32_t>& ids);
  py::array OutputArray(int rows, int field);
  py::array ReusableArray(int rows, int field);
  py::array Column(const Batch& b, int field);
  void HandOnBlock(const Batch& b);
  py::array SpareArray(int rows, int field);
  py::tuple RecvLocked(bool help);

  std::unique_ptr<PoolBase> pool_;
  std::atomic<bool> busy_{false};
  uint32_t handle_ = 0;                  // in PoolRegistry; 0: not registered
  std::vector<py::dtype> dtypes_;        // per field
  std::vector<py::array> round_arrays_;  // outputs the envs write to directly
  // Per field, the last two results' arrays (for reuse) and which is newer.
  std::vector<std::array<py::array, 2>> kept_arrays_;
  std::vector<int> newest_kept_;
  // First-finished mode: per block, the arrays its rows are being written
  // to (empty: the pool's buffers), and per field every array made for a
  // block (reused once only this list holds it).
  std::vector<std::vector<py::array>> block_arrays_;
  std::vector<std::vector<py::array>> spare_arrays_;
  std::vector<py::str> names_;  // per field, without the "final_obs/" prefix
  std::vector<py::str> mask_names_;
  std::vector<int32_t> narrow_;  // discrete actions given in a wider dtype
};

}  // namespace envpool_x
