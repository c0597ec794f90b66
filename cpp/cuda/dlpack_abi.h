// The DLPack ABI (https://dmlc.github.io/dlpack/latest/c_api.html), written
// here from the specification: the struct layouts and constants that a
// producer and a consumer must agree on. Only what the CUDA stepper uses.
//
// Two capsule kinds travel through `__dlpack__`:
//   "dltensor"            -> DLManagedTensor (the legacy, unversioned ABI)
//   "dltensor_versioned"  -> DLManagedTensorVersioned (DLPack >= 1.0)
// A consumer renames the capsule to "used_dltensor" / "used_dltensor_versioned"
// when it takes ownership; the producer's capsule destructor frees the tensor
// only if that never happened.
#pragma once

#include <cstdint>

namespace envpool_x {
namespace dlpack {

constexpr uint32_t kMajorVersion = 1;
constexpr uint32_t kMinorVersion = 0;

// DLDeviceType values used here.
constexpr int32_t kDLCPU = 1;
constexpr int32_t kDLCUDA = 2;
constexpr int32_t kDLCUDAHost = 3;
constexpr int32_t kDLCUDAManaged = 13;

// DLDataTypeCode values used here.
constexpr uint8_t kDLInt = 0;
constexpr uint8_t kDLUInt = 1;
constexpr uint8_t kDLFloat = 2;
constexpr uint8_t kDLBool = 6;

// DLManagedTensorVersioned::flags bits.
constexpr uint64_t kFlagReadOnly = 1ULL << 0;
constexpr uint64_t kFlagIsCopied = 1ULL << 1;

constexpr const char* kCapsuleName = "dltensor";
constexpr const char* kUsedCapsuleName = "used_dltensor";
constexpr const char* kVersionedCapsuleName = "dltensor_versioned";
constexpr const char* kUsedVersionedCapsuleName = "used_dltensor_versioned";

struct DLDevice {
  int32_t device_type;  // an enum (int-sized) in the specification
  int32_t device_id;
};

struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; nullptr: compact row-major
  uint64_t byte_offset;
};

struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};

struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
};

}  // namespace dlpack
}  // namespace envpool_x
