// The DLPack test hook of _core.CudaPool's module (_core._dlpack_inspect):
// what a step would import, without a pool or a GPU.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "bindings/dlpack.h"
#include "cuda/device_ops.h"

namespace envpool_x {
namespace cuda_pool {

// Test hook: imports `obj` through the same DLPack path as a step's action,
// for an env on `device` ("cuda:K" style checks need no GPU: the checks run
// before anything touches device memory).
inline py::dict InspectDlpack(const py::object& obj, int32_t device_type, int32_t device_id) {
  struct FakeOps final : DeviceOps {
    int32_t type, id;
    FakeOps(int32_t t, int32_t i) : type(t), id(i) {}
    int32_t device_type() const override { return type; }
    int32_t device_id() const override { return id; }
    void* Alloc(size_t, uintptr_t) override { throw std::logic_error("inspect only"); }
    void Free(void*, uintptr_t) noexcept override {}
    void Memset(void*, int, size_t, uintptr_t) override {}
    void CopyToDevice(void*, const void*, size_t, uintptr_t) override {}
    void CopyToHost(void*, const void*, size_t, uintptr_t) override {}
    void StreamWait(uintptr_t, uintptr_t) override {}
    void Launch(EnvKind, const LaunchArgs&, const void*, uintptr_t) override {}
    void Synchronize(uintptr_t) override {}
  } ops(device_type, device_id);
  const bool host = CheckDevice(obj, ops);
  auto t = TakeCapsule(obj, !host, 0);
  const dlpack::DLTensor& dl = t->tensor();
  py::dict d;
  d["versioned"] = t->versioned();
  d["device"] = py::make_tuple(dl.device.device_type, dl.device.device_id);
  d["dtype"] = DlTypeName(dl.dtype);
  d["shape"] = py::tuple(py::cast(std::vector<int64_t>(dl.shape, dl.shape + dl.ndim)));
  return d;
}

}  // namespace cuda_pool
}  // namespace envpool_x
