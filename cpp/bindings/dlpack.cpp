// DLPack import and export for the CUDA pool (declared in dlpack.h).
#include "bindings/dlpack.h"

#include <Python.h>

#include <span>
#include <stdexcept>
#include <utility>

#include "core/action_check.h"
#include "core/errors.h"

namespace envpool_x {
namespace cuda_pool {

using dlpack::DLManagedTensor;
using dlpack::DLManagedTensorVersioned;
using dlpack::DLTensor;

namespace {

std::string DeviceName(int32_t type, int32_t id) {
  if (type == dlpack::kDLCUDA || type == dlpack::kDLCUDAManaged) {
    return "cuda:" + std::to_string(id);
  }
  if (type == dlpack::kDLCPU) return "the CPU";
  if (type == dlpack::kDLCUDAHost) return "pinned host memory";
  return "DLPack device type " + std::to_string(type);
}

std::string EnvDeviceName(const DeviceOps& ops) {
  return ops.device_type() == kDeviceCpu ? std::string("the CPU (device='cpu-reference')")
                                         : "cuda:" + std::to_string(ops.device_id());
}

dlpack::DLDataType ToDl(DType d) {
  switch (d) {
    case DType::kBool:
      return {dlpack::kDLBool, 8, 1};
    case DType::kFloat32:
      return {dlpack::kDLFloat, 32, 1};
    case DType::kInt32:
      return {dlpack::kDLInt, 32, 1};
    case DType::kInt8:
      return {dlpack::kDLInt, 8, 1};
    case DType::kUInt8:
      return {dlpack::kDLUInt, 8, 1};
    case DType::kInt64:
      return {dlpack::kDLInt, 64, 1};
    case DType::kFloat64:
      return {dlpack::kDLFloat, 64, 1};
    default:
      throw std::logic_error("no DLPack type for this output field");
  }
}

// ValueError unless t is compact row-major (the kernel reads it as such).
void CheckCompact(const DLTensor& t) {
  if (t.strides == nullptr) return;
  int64_t expect = 1;
  for (int d = t.ndim - 1; d >= 0; --d) {
    if (t.shape[d] != 1 && t.strides[d] != expect) {
      throw ValueError("action tensor must be contiguous (row-major); call .contiguous() first");
    }
    expect *= t.shape[d];
  }
}

// The action type the kernel reads for a tensor of dtype `t`: int32 / int64
// for a discrete action, float32 / float64 for a box (tensors are not
// converted, unlike numpy arrays).
ActionType DlActionType(const dlpack::DLDataType& t, const ActionSpec& a) {
  const bool wide_enough = t.lanes == 1 && (t.bits == 32 || t.bits == 64);
  if (wide_enough && a.discrete && t.code == dlpack::kDLInt) {
    return t.bits == 32 ? ActionType::kInt32 : ActionType::kInt64;
  }
  if (wide_enough && !a.discrete && t.code == dlpack::kDLFloat) {
    return t.bits == 32 ? ActionType::kFloat32 : ActionType::kFloat64;
  }
  const ElementKind kind = t.code == dlpack::kDLInt     ? ElementKind::kSigned
                           : t.code == dlpack::kDLUInt  ? ElementKind::kUnsigned
                           : t.code == dlpack::kDLFloat ? ElementKind::kFloat
                                                        : ElementKind::kOther;
  CheckActionKind(a, kind, [&] { return DlTypeName(t); });
  if (a.discrete) {
    throw TypeError("discrete actions in a tensor must be int32 or int64, got dtype " +
                    DlTypeName(t));
  }
  throw TypeError("continuous actions in a tensor must be float32 or float64, got dtype " +
                  DlTypeName(t));
}

// What an exported capsule owns: the block its data lives in and its shape.
struct ExportContext {
  std::shared_ptr<Block> block;
  std::vector<int64_t> shape;
  DLManagedTensor legacy;
  DLManagedTensorVersioned versioned;
};

void DeleteLegacy(DLManagedTensor* t) { delete static_cast<ExportContext*>(t->manager_ctx); }
void DeleteVersioned(DLManagedTensorVersioned* t) {
  delete static_cast<ExportContext*>(t->manager_ctx);
}

// Frees the tensor of a capsule no consumer took (still named "dltensor*").
void CapsuleDestructor(PyObject* cap) {
  if (PyCapsule_IsValid(cap, dlpack::kCapsuleName)) {
    auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, dlpack::kCapsuleName));
    if (t && t->deleter) t->deleter(t);
  } else if (PyCapsule_IsValid(cap, dlpack::kVersionedCapsuleName)) {
    auto* t = static_cast<DLManagedTensorVersioned*>(
        PyCapsule_GetPointer(cap, dlpack::kVersionedCapsuleName));
    if (t && t->deleter) t->deleter(t);
  }
}

}  // namespace

std::string DlTypeName(const dlpack::DLDataType& t) {
  std::string base;
  switch (t.code) {
    case dlpack::kDLInt:
      base = "int";
      break;
    case dlpack::kDLUInt:
      base = "uint";
      break;
    case dlpack::kDLFloat:
      base = "float";
      break;
    case dlpack::kDLBool:
      return "bool";
    default:
      base = "type code " + std::to_string(t.code) + " of ";
  }
  std::string name = base + std::to_string(t.bits);
  if (t.lanes != 1) name += "x" + std::to_string(t.lanes);
  return name;
}

// ---- import ---------------------------------------------------------------

std::unique_ptr<ImportedTensor> TakeCapsule(const py::handle& obj, bool pass_stream,
                                            uintptr_t stream) {
  py::object fn = obj.attr("__dlpack__");
  py::object capsule;
  auto kwargs = [&](bool with_version) {
    py::dict d;
    // DLPack: 1 is the legacy default stream (0 is ambiguous and not allowed).
    if (pass_stream) d["stream"] = py::int_(stream == 0 ? 1 : stream);
    if (with_version) {
      d["max_version"] = py::make_tuple(dlpack::kMajorVersion, dlpack::kMinorVersion);
    }
    return d;
  };
  try {
    capsule = fn(**kwargs(true));
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    capsule = fn(**kwargs(false));  // a producer from before DLPack 1.0
  }
  PyObject* cap = capsule.ptr();
  if (!PyCapsule_CheckExact(cap)) {
    throw TypeError("__dlpack__() of the action returned a " +
                    std::string(py::str(py::type::handle_of(capsule).attr("__name__"))) +
                    ", not a capsule");
  }
  const char* name = PyCapsule_GetName(cap);
  if (name && std::string(name) == dlpack::kVersionedCapsuleName) {
    auto* t = static_cast<DLManagedTensorVersioned*>(
        PyCapsule_GetPointer(cap, dlpack::kVersionedCapsuleName));
    if (t == nullptr) throw py::error_already_set();
    if (t->version.major != dlpack::kMajorVersion) {
      // Not ours to use; the capsule keeps ownership and frees it.
      throw ValueError("the action's DLPack tensor has ABI version " +
                       std::to_string(t->version.major) + "." + std::to_string(t->version.minor) +
                       "; this build reads major version " + std::to_string(dlpack::kMajorVersion));
    }
    PyCapsule_SetName(cap, dlpack::kUsedVersionedCapsuleName);
    return std::make_unique<ImportedTensor>(nullptr, t);
  }
  if (name && std::string(name) == dlpack::kCapsuleName) {
    auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, dlpack::kCapsuleName));
    if (t == nullptr) throw py::error_already_set();
    PyCapsule_SetName(cap, dlpack::kUsedCapsuleName);
    return std::make_unique<ImportedTensor>(t, nullptr);
  }
  throw TypeError("__dlpack__() returned a capsule named '" + std::string(name ? name : "") +
                  "' (expected 'dltensor' or 'dltensor_versioned'; already consumed?)");
}

bool CheckDevice(const py::handle& obj, const DeviceOps& ops) {
  py::tuple dev = obj.attr("__dlpack_device__")();
  const int32_t type = dev[0].cast<int32_t>();
  const int32_t id = dev[1].cast<int32_t>();
  const bool host = type == dlpack::kDLCPU;
  const bool cuda = type == dlpack::kDLCUDA || type == dlpack::kDLCUDAManaged;
  if (ops.device_type() == kDeviceCuda) {
    if (host || type == dlpack::kDLCUDAHost) {
      throw ValueError("action is a tensor in host memory (" + DeviceName(type, id) +
                       ") but this env runs on " + EnvDeviceName(ops) +
                       ": move it to that GPU first (e.g. tensor.to('cuda:" +
                       std::to_string(ops.device_id()) + "')) or pass a numpy array (copied once)");
    }
    if (!cuda) {
      throw ValueError("action is on " + DeviceName(type, id) + ", which the env cannot read");
    }
    if (id != ops.device_id()) {
      throw ValueError("action is on " + DeviceName(type, id) + " but this env runs on " +
                       EnvDeviceName(ops));
    }
    return false;
  }
  if (!host) {
    throw ValueError("action is on " + DeviceName(type, id) + " but this env runs on " +
                     EnvDeviceName(ops) + "; pass a host (CPU) tensor or a numpy array");
  }
  return true;
}

std::unique_ptr<ImportedTensor> ImportAction(const py::handle& action, const DeviceOps& ops,
                                             const ActionSpec& spec, int64_t n, uintptr_t stream,
                                             ActionInput* in) {
  const bool on_host = CheckDevice(action, ops);
  std::unique_ptr<ImportedTensor> imported = TakeCapsule(action, !on_host, stream);
  const DLTensor& t = imported->tensor();
  CheckActionShape(spec, std::span<const int64_t>(t.shape, t.ndim), n);
  CheckCompact(t);
  in->type = DlActionType(t.dtype, spec);
  in->data = imported->data();
  in->on_host = on_host;
  return imported;
}

// ---- export ---------------------------------------------------------------

DeviceArray::DeviceArray(std::shared_ptr<Block> block, size_t offset, const OutputField& field,
                         int64_t rows, uintptr_t stream)
    : block_(std::move(block)), offset_(offset), dtype_(field.dtype), stream_(stream) {
  shape_.push_back(rows);
  for (int64_t d : field.shape) shape_.push_back(d);
}

py::tuple DeviceArray::Device() const {
  return py::make_tuple(block_->ops->device_type(), block_->ops->device_id());
}

py::object DeviceArray::DLPack(const py::object& stream, const py::object& max_version,
                               const py::object& dl_device, const py::object& copy) {
  const DeviceOps& ops = *block_->ops;
  if (!copy.is_none() && copy.cast<bool>()) {
    throw py::buffer_error("envpool_x arrays are exported without copying (copy=True given)");
  }
  if (!dl_device.is_none()) {
    py::tuple d = dl_device;
    if (d[0].cast<int32_t>() != ops.device_type() || d[1].cast<int32_t>() != ops.device_id()) {
      throw py::buffer_error("envpool_x arrays can only be exported to their own device");
    }
  }
  if (ops.device_type() == kDeviceCuda) {
    // DLPack: None means the legacy default stream, -1 no synchronisation.
    int64_t consumer = stream.is_none() ? 1 : stream.cast<int64_t>();
    if (consumer == 0) consumer = 1;
    if (consumer != -1) {
      const uintptr_t s = static_cast<uintptr_t>(consumer);
      block_->ops->StreamWait(s, stream_);
      block_->free_stream.store(s);
    }
  } else if (!stream.is_none() && stream.cast<int64_t>() != -1) {
    throw py::buffer_error("a CPU array takes no stream, got stream=" +
                           std::string(py::str(stream)));
  }
  bool versioned = false;
  if (!max_version.is_none()) {
    py::tuple v = max_version;
    versioned = v[0].cast<int64_t>() >= static_cast<int64_t>(dlpack::kMajorVersion);
  }
  auto* ctx = new ExportContext{block_, shape_, {}, {}};
  DLTensor t{};
  t.data = block_->ptr + offset_;
  t.device = {ops.device_type(), ops.device_id()};
  t.ndim = static_cast<int32_t>(ctx->shape.size());
  t.dtype = ToDl(dtype_);
  t.shape = ctx->shape.data();
  t.strides = nullptr;  // compact row-major
  t.byte_offset = 0;
  PyObject* cap;
  if (versioned) {
    ctx->versioned.version = {dlpack::kMajorVersion, dlpack::kMinorVersion};
    ctx->versioned.manager_ctx = ctx;
    ctx->versioned.deleter = DeleteVersioned;
    ctx->versioned.flags = 0;
    ctx->versioned.dl_tensor = t;
    cap = PyCapsule_New(&ctx->versioned, dlpack::kVersionedCapsuleName, CapsuleDestructor);
  } else {
    ctx->legacy.dl_tensor = t;
    ctx->legacy.manager_ctx = ctx;
    ctx->legacy.deleter = DeleteLegacy;
    cap = PyCapsule_New(&ctx->legacy, dlpack::kCapsuleName, CapsuleDestructor);
  }
  if (cap == nullptr) {
    delete ctx;
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::object>(cap);
}

py::tuple DeviceArray::Shape() const { return py::tuple(py::cast(shape_)); }

std::string DeviceArray::DTypeStr() const { return DTypeName(dtype_); }

}  // namespace cuda_pool
}  // namespace envpool_x
