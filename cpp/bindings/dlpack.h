// DLPack for the CUDA pool: importing an action tensor from any
// producer (torch, JAX, CuPy, numpy) with its device, shape, layout and dtype
// checked, and exporting each output array as a capsule frameworks take
// without a copy. Definitions in dlpack.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bindings/conversions.h"
#include "core/spec.h"
#include "cuda/cuda_pool.h"
#include "cuda/device_ops.h"
#include "cuda/dlpack_abi.h"

namespace envpool_x {
namespace cuda_pool {

// "int32", "float64", "bool", ... as numpy names them.
std::string DlTypeName(const dlpack::DLDataType& t);

// ---- import ---------------------------------------------------------------

// A tensor taken from a producer's capsule; calls the producer's deleter when
// destroyed.
class ImportedTensor {
 public:
  ImportedTensor(dlpack::DLManagedTensor* legacy, dlpack::DLManagedTensorVersioned* versioned)
      : legacy_(legacy), versioned_(versioned) {}
  ~ImportedTensor() {
    if (legacy_ && legacy_->deleter) legacy_->deleter(legacy_);
    if (versioned_ && versioned_->deleter) versioned_->deleter(versioned_);
  }
  ImportedTensor(const ImportedTensor&) = delete;
  ImportedTensor& operator=(const ImportedTensor&) = delete;

  const dlpack::DLTensor& tensor() const {
    return legacy_ ? legacy_->dl_tensor : versioned_->dl_tensor;
  }
  bool versioned() const { return versioned_ != nullptr; }
  const void* data() const {
    return static_cast<const uint8_t*>(tensor().data) + tensor().byte_offset;
  }

 private:
  dlpack::DLManagedTensor* legacy_;
  dlpack::DLManagedTensorVersioned* versioned_;
};

// Where the device of an object with __dlpack_device__ is, checked against
// where the env runs. Returns true when the data is in host memory.
bool CheckDevice(const py::handle& obj, const DeviceOps& ops);

// Calls obj.__dlpack__ (asking for a versioned capsule, falling back to the
// legacy call for producers that predate DLPack 1.0) and takes ownership of
// what it returns. `stream` (CUDA producers only): where we will read the
// tensor; the producer orders its pending writes before it.
std::unique_ptr<ImportedTensor> TakeCapsule(const py::handle& obj, bool pass_stream,
                                            uintptr_t stream);

// The actions of n envs from an object with __dlpack__: its device, shape
// (the action validator's rules), layout and dtype checked, *in pointed at
// its data. The returned tensor must outlive every read of in->data.
std::unique_ptr<ImportedTensor> ImportAction(const py::handle& action, const DeviceOps& ops,
                                             const ActionSpec& spec, int64_t n, uintptr_t stream,
                                             ActionInput* in);

// ---- export ---------------------------------------------------------------

// One output array of a launch, living in device (or, for cpu-reference,
// host) memory; frameworks take it with from_dlpack, without a copy.
class DeviceArray {
 public:
  DeviceArray(std::shared_ptr<Block> block, size_t offset, const OutputField& field, int64_t rows,
              uintptr_t stream);

  py::tuple Device() const;
  // The __dlpack__ protocol: a capsule holding the array (and its memory).
  py::object DLPack(const py::object& stream, const py::object& max_version,
                    const py::object& dl_device, const py::object& copy);
  py::tuple Shape() const;
  std::string DTypeStr() const;

 private:
  std::shared_ptr<Block> block_;
  size_t offset_;
  DType dtype_;
  std::vector<int64_t> shape_;
  uintptr_t stream_;
};

}  // namespace cuda_pool
}  // namespace envpool_x
