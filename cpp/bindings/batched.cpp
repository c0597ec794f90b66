// pybind11 glue of the batched (GPU) stepper: DLPack import of actions,
// DLPack export of results, and the Python class _core.BatchedPool. No env
// logic lives here (that is cpp/cuda/kernel_body.h).
#include <Python.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bindings/pool_binding.h"
#include "cuda/batched_pool.h"
#include "cuda/device_ops.h"
#include "cuda/dlpack_abi.h"

namespace envpool_x {
namespace batched {
namespace {

using dlpack::DLManagedTensor;
using dlpack::DLManagedTensorVersioned;
using dlpack::DLTensor;

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
    default:
      throw std::logic_error("no DLPack type for this output field");
  }
}

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

// A tensor taken from a producer's capsule; calls the producer's deleter when
// destroyed.
class ImportedTensor {
 public:
  ImportedTensor(DLManagedTensor* legacy, DLManagedTensorVersioned* versioned)
      : legacy_(legacy), versioned_(versioned) {}
  ~ImportedTensor() {
    if (legacy_ && legacy_->deleter) legacy_->deleter(legacy_);
    if (versioned_ && versioned_->deleter) versioned_->deleter(versioned_);
  }
  ImportedTensor(const ImportedTensor&) = delete;
  ImportedTensor& operator=(const ImportedTensor&) = delete;

  const DLTensor& tensor() const { return legacy_ ? legacy_->dl_tensor : versioned_->dl_tensor; }
  bool versioned() const { return versioned_ != nullptr; }
  const void* data() const {
    return static_cast<const uint8_t*>(tensor().data) + tensor().byte_offset;
  }

 private:
  DLManagedTensor* legacy_;
  DLManagedTensorVersioned* versioned_;
};

// Calls obj.__dlpack__ (asking for a versioned capsule, falling back to the
// legacy call for producers that predate DLPack 1.0) and takes ownership of
// what it returns. `stream` (CUDA producers only): where we will read the
// tensor; the producer orders its pending writes before it.
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

// Where the device of an object with __dlpack_device__ is, checked against
// where the env runs. Returns true when the data is in host memory.
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

// Shape rules of the CPU pool (PyPool::StoreActions), with its messages.
void CheckActionShape(const int64_t* shape, int ndim, int64_t n, bool discrete) {
  bool ok = ndim == (discrete ? 1 : 2) && shape[0] == n && (discrete || shape[1] == 1);
  if (!ok && !discrete && ndim == 1 && shape[0] == n) ok = true;  // flat (n,) for a 1-elem box
  if (!ok) {
    std::vector<int64_t> got(shape, shape + ndim), want{n};
    if (!discrete) want.push_back(1);
    throw ValueError("action has shape " + ShapeString(got) + " but " + std::to_string(n) +
                     " envs need shape " + ShapeString(want));
  }
}

// Host data can be checked at once, as the CPU pool does, instead of in the
// kernel (where a bad value is only recorded).
void CheckHostValues(const void* data, ActionType type, int64_t n, int num_actions,
                     const std::vector<int32_t>* ids) {
  auto env_of = [&](int64_t k) { return ids ? static_cast<int64_t>((*ids)[k]) : k; };
  for (int64_t k = 0; k < n; ++k) {
    switch (type) {
      case ActionType::kInt32:
      case ActionType::kInt64: {
        int64_t v = type == ActionType::kInt64 ? static_cast<const int64_t*>(data)[k]
                                               : static_cast<const int32_t*>(data)[k];
        if (v < 0 || v >= num_actions) {
          throw ValueError("action " + std::to_string(v) + " for env " + std::to_string(env_of(k)) +
                           " is out of range [0, " + std::to_string(num_actions) + ")");
        }
        break;
      }
      case ActionType::kFloat32:
      case ActionType::kFloat64: {
        float v = type == ActionType::kFloat64
                      ? static_cast<float>(static_cast<const double*>(data)[k])
                      : static_cast<const float*>(data)[k];
        if (!IsFinite(v)) {
          throw ValueError("action for env " + std::to_string(env_of(k)) +
                           " is not finite (NaN or inf) at index 0");
        }
        break;
      }
    }
  }
}

ActionType DlActionType(const dlpack::DLDataType& t, bool discrete) {
  if (t.lanes == 1 && discrete && t.code == dlpack::kDLInt && (t.bits == 32 || t.bits == 64)) {
    return t.bits == 32 ? ActionType::kInt32 : ActionType::kInt64;
  }
  if (t.lanes == 1 && !discrete && t.code == dlpack::kDLFloat && (t.bits == 32 || t.bits == 64)) {
    return t.bits == 32 ? ActionType::kFloat32 : ActionType::kFloat64;
  }
  if (discrete) {
    if (t.code == dlpack::kDLInt || t.code == dlpack::kDLUInt) {
      throw TypeError("discrete actions in a tensor must be int32 or int64, got dtype " +
                      DlTypeName(t));
    }
    throw TypeError("discrete actions must be integers, got dtype " + DlTypeName(t));
  }
  throw TypeError("continuous actions in a tensor must be float32 or float64, got dtype " +
                  DlTypeName(t));
}

// ---- export ---------------------------------------------------------------

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

// One output array of a launch, living in device (or, for cpu-reference,
// host) memory; frameworks take it with from_dlpack, without a copy.
class DeviceArray {
 public:
  DeviceArray(std::shared_ptr<Block> block, size_t offset, const OutputField& field, int64_t rows,
              uintptr_t stream)
      : block_(std::move(block)), offset_(offset), dtype_(field.dtype), stream_(stream) {
    shape_.push_back(rows);
    for (int64_t d : field.shape) shape_.push_back(d);
  }

  py::tuple Device() const {
    return py::make_tuple(block_->ops->device_type(), block_->ops->device_id());
  }

  py::object DLPack(const py::object& stream, const py::object& max_version,
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

  py::tuple Shape() const { return py::tuple(py::cast(shape_)); }
  std::string DTypeStr() const { return DTypeName(dtype_); }

 private:
  std::shared_ptr<Block> block_;
  size_t offset_;
  DType dtype_;
  std::vector<int64_t> shape_;
  uintptr_t stream_;
};

// The Python-facing batched pool.
class PyBatchedPool {
 public:
  PyBatchedPool(const std::string& pool_name, const py::dict& env_config, int64_t num_envs,
                int max_episode_steps, const std::string& autoreset_mode, const py::object& seed,
                const std::string& device, int device_id, bool copy_results) {
    EnvKind kind = ParseEnvKind(pool_name);
    Config cfg;
    VisitKind(kind, [&](auto tag) {
      using K = typename decltype(tag)::Kernel;
      cfg = ConfigFromDict(K::CpuEnv::DefaultConfig(), env_config);
    });
    BatchedOptions opt;
    opt.num_envs = num_envs;
    if (num_envs < 1 || num_envs > BatchedPool::kMaxEnvs) {
      throw ValueError("num_envs must be in [1, 2**30] on the GPU path, got " +
                       std::to_string(num_envs));
    }
    opt.max_episode_steps = max_episode_steps;
    switch (ParseAutoresetMode(autoreset_mode)) {
      case AutoresetMode::kNextStep:
        opt.autoreset = Autoreset::kNextStep;
        break;
      case AutoresetMode::kSameStep:
        opt.autoreset = Autoreset::kSameStep;
        break;
      case AutoresetMode::kDisabled:
        opt.autoreset = Autoreset::kDisabled;
        break;
    }
    std::vector<int32_t> all(num_envs);
    for (int64_t i = 0; i < num_envs; ++i) all[i] = static_cast<int32_t>(i);
    if (!ParseSeeds(seed, all, &opt.env_seeds)) throw ValueError("seed must not be None");
    opt.copy_results = copy_results;
    std::shared_ptr<DeviceOps> ops;
    if (device == "cpu-reference") {
      ops = std::make_shared<HostOps>();
    } else if (device == "cuda") {
#ifdef ENVPOOL_X_WITH_CUDA
      ops = MakeCudaOps(device_id);
#else
      (void)device_id;
      throw StateError("this envpool_x was built without CUDA (nvcc was not found at build time)");
#endif
    } else {
      throw ValueError("device must be 'cuda' or 'cpu-reference', got '" + device + "'");
    }
    pool_ = std::make_unique<BatchedPool>(kind, cfg, std::move(opt), std::move(ops));
    for (const OutputField& f : pool_->fields()) names_.push_back(f.name);
  }

  // check_host_values=false (tests only) sends host actions unchecked to the
  // kernel body, to exercise the errors it records for device tensors.
  py::tuple Step(const py::object& action, const py::object& env_id, uintptr_t stream,
                 bool check_host_values) {
    std::vector<int32_t> ids;
    const bool have_ids = Ids(env_id, &ids);
    const int64_t n = have_ids ? static_cast<int64_t>(ids.size()) : pool_->options().num_envs;
    const DeviceOps& ops = *pool_->ops();
    ActionInput in;
    std::unique_ptr<ImportedTensor> imported;
    py::array host;  // keeps a converted numpy array alive for the launch
    if (py::isinstance<py::array>(action) || !py::hasattr(action, "__dlpack__")) {
      host = HostAction(action, n);
      in.data = host.data();
      in.type = HostType(host);
      in.on_host = true;
    } else {
      const bool on_host = CheckDevice(action, ops);
      imported = TakeCapsule(action, !on_host, stream);
      const DLTensor& t = imported->tensor();
      CheckActionShape(t.shape, t.ndim, n, pool_->discrete());
      CheckCompact(t);
      in.type = DlActionType(t.dtype, pool_->discrete());
      in.data = imported->data();
      in.on_host = on_host;
    }
    if (in.on_host && check_host_values) {
      CheckHostValues(in.data, in.type, n, pool_->num_actions(), have_ids ? &ids : nullptr);
    }
    Result r = pool_->Step(in, have_ids ? &ids : nullptr, stream);
    // A device tensor must outlive the kernel that reads it: hold it until the
    // next call (by then the caller's stream has moved past this step).
    if (imported && !in.on_host) last_action_ = std::move(imported);
    return Wrap(r);
  }

  py::tuple Reset(const py::object& env_id, const py::object& seed, uintptr_t stream) {
    std::vector<int32_t> ids;
    const bool have_ids = Ids(env_id, &ids);
    std::vector<uint64_t> seeds;
    bool have_seeds;
    if (have_ids) {
      have_seeds = ParseSeeds(seed, ids, &seeds);
    } else if (!seed.is_none()) {
      std::vector<int32_t> all(pool_->options().num_envs);
      for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int32_t>(i);
      have_seeds = ParseSeeds(seed, all, &seeds);
    } else {
      have_seeds = false;
    }
    Result r = pool_->Reset(have_ids ? &ids : nullptr, have_seeds ? &seeds : nullptr, stream);
    return Wrap(r);
  }

  py::tuple ResetMasked(const py::object& env_id, const py::object& seed, uintptr_t stream) {
    std::vector<int32_t> ids;
    if (!Ids(env_id, &ids)) throw ValueError("reset_mask selects no env");
    const int64_t n = pool_->options().num_envs;
    std::vector<uint8_t> mask(n, 0);
    for (int32_t id : ids) mask[id] = 1;
    std::vector<uint64_t> seeds;
    std::vector<uint64_t> per_env;
    const bool have_seeds = ParseSeeds(seed, ids, &seeds);
    if (have_seeds) {
      per_env.assign(n, 0);
      for (size_t k = 0; k < ids.size(); ++k) per_env[ids[k]] = seeds[k];
    }
    Result r = pool_->ResetMasked(mask, have_seeds ? &per_env : nullptr, stream);
    return Wrap(r);
  }

  void CheckErrors(uintptr_t stream) { pool_->CheckErrors(stream); }
  void Synchronize(uintptr_t stream) {
    py::gil_scoped_release nogil;
    pool_->Synchronize(stream);
  }
  py::array_t<double> GetState(int64_t env, uintptr_t stream) {
    std::vector<double> s = pool_->GetState(env, stream);
    return py::array_t<double>(static_cast<py::ssize_t>(s.size()), s.data());
  }
  void SetState(int64_t env,
                const py::array_t<double, py::array::c_style | py::array::forcecast>& a,
                uintptr_t stream) {
    pool_->SetState(env, std::vector<double>(a.data(), a.data() + a.size()), stream);
  }
  void Close() {
    last_action_.reset();
    pool_->Close();
  }
  bool closed() const { return pool_->closed(); }
  const std::vector<std::string>& names() const { return names_; }
  py::tuple Device() const {
    return py::make_tuple(pool_->ops()->device_type(), pool_->ops()->device_id());
  }

 private:
  bool Ids(const py::object& env_id, std::vector<int32_t>* ids) {
    if (pool_->closed()) throw StateError("the env is closed");
    if (env_id.is_none()) return false;
    py::array arr = py::array::ensure(env_id);
    if (!arr || (arr.dtype().kind() != 'i' && arr.dtype().kind() != 'u')) {
      throw TypeError("env_id must be a sequence of integers, got " +
                      std::string(py::str(py::type::handle_of(env_id).attr("__name__"))) +
                      (arr ? " of dtype " + std::string(py::str(arr.dtype())) : ""));
    }
    if (arr.ndim() == 0) arr = arr.attr("reshape")(1);
    if (arr.ndim() != 1) {
      throw ValueError("env_id must be one-dimensional, got " + std::to_string(arr.ndim()) +
                       " dimensions");
    }
    auto wide = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(arr);
    ids->resize(wide.size());
    for (py::ssize_t k = 0; k < wide.size(); ++k) {
      int64_t v = wide.data()[k];
      if (v < 0 || v >= pool_->options().num_envs) {
        throw ValueError("env_id " + std::to_string(v) + " is out of range [0, " +
                         std::to_string(pool_->options().num_envs) + ")");
      }
      (*ids)[k] = static_cast<int32_t>(v);
    }
    pool_->CheckIds(*ids);
    return true;
  }

  // A numpy (or list) action, checked like the CPU pool's and converted to
  // a type the kernel reads (int32 / int64 / float32 / float64).
  py::array HostAction(const py::object& action, int64_t n) {
    py::array arr = py::array::ensure(action);
    if (!arr) {
      throw TypeError("action must be array-like, got " +
                      std::string(py::str(py::type::handle_of(action).attr("__name__"))));
    }
    const char kind = arr.dtype().kind();
    const std::string dt = py::str(arr.dtype());
    if (pool_->discrete()) {
      if (kind != 'i' && kind != 'u') {
        throw TypeError("discrete actions must be integers, got dtype " + dt);
      }
    } else if (kind != 'f' && kind != 'i' && kind != 'u') {
      throw TypeError("continuous actions must be real numbers, got dtype " + dt);
    }
    std::vector<int64_t> shape(arr.shape(), arr.shape() + arr.ndim());
    CheckActionShape(shape.data(), static_cast<int>(arr.ndim()), n, pool_->discrete());
    if (pool_->discrete()) {
      if (arr.dtype().is(py::dtype::of<int32_t>()) || arr.dtype().is(py::dtype::of<int64_t>())) {
        return py::array::ensure(arr, py::array::c_style);
      }
      return py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(arr);
    }
    if (arr.dtype().is(py::dtype::of<float>())) return py::array::ensure(arr, py::array::c_style);
    return py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(arr);
  }

  static ActionType HostType(const py::array& a) {
    if (a.dtype().is(py::dtype::of<int32_t>())) return ActionType::kInt32;
    if (a.dtype().is(py::dtype::of<int64_t>())) return ActionType::kInt64;
    if (a.dtype().is(py::dtype::of<double>())) return ActionType::kFloat64;
    return ActionType::kFloat32;
  }

  static void CheckCompact(const DLTensor& t) {
    if (t.strides == nullptr) return;
    int64_t expect = 1;
    for (int d = t.ndim - 1; d >= 0; --d) {
      if (t.shape[d] != 1 && t.strides[d] != expect) {
        throw ValueError("action tensor must be contiguous (row-major); call .contiguous() first");
      }
      expect *= t.shape[d];
    }
  }

  py::tuple Wrap(const Result& r) {
    const auto& fields = pool_->fields();
    py::tuple out(fields.size());
    for (size_t f = 0; f < fields.size(); ++f) {
      out[f] = py::cast(DeviceArray(r.block, r.offsets[f], fields[f], r.rows, r.stream));
    }
    return out;
  }

  std::unique_ptr<BatchedPool> pool_;
  std::unique_ptr<ImportedTensor> last_action_;
  std::vector<std::string> names_;
};

namespace {
// Test hook: imports `obj` through the same DLPack path as a step's action,
// for an env on `device` ("cuda:K" style checks need no GPU: the checks run
// before anything touches device memory).
py::dict InspectDlpack(const py::object& obj, int32_t device_type, int32_t device_id) {
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
  const DLTensor& dl = t->tensor();
  py::dict d;
  d["versioned"] = t->versioned();
  d["device"] = py::make_tuple(dl.device.device_type, dl.device.device_id);
  d["dtype"] = DlTypeName(dl.dtype);
  d["shape"] = py::tuple(py::cast(std::vector<int64_t>(dl.shape, dl.shape + dl.ndim)));
  return d;
}
}  // namespace

void BindBatched(py::module_& m) {
  py::class_<DeviceArray>(m, "DeviceArray",
                          "One output array of the batched stepper (device memory, or host "
                          "memory for device='cpu-reference'); pass it to a framework's "
                          "from_dlpack. It keeps its memory alive.")
      .def("__dlpack__", &DeviceArray::DLPack, py::kw_only(), py::arg("stream") = py::none(),
           py::arg("max_version") = py::none(), py::arg("dl_device") = py::none(),
           py::arg("copy") = py::none())
      .def("__dlpack_device__", &DeviceArray::Device)
      .def_property_readonly("shape", &DeviceArray::Shape)
      .def_property_readonly("dtype", &DeviceArray::DTypeStr);
  py::class_<PyBatchedPool>(m, "BatchedPool")
      .def(py::init<const std::string&, const py::dict&, int64_t, int, const std::string&,
                    const py::object&, const std::string&, int, bool>(),
           py::arg("pool_name"), py::arg("env_config"), py::arg("num_envs"),
           py::arg("max_episode_steps"), py::arg("autoreset_mode"), py::arg("seed"),
           py::arg("device"), py::arg("device_id") = 0, py::arg("copy_results") = true)
      .def("step", &PyBatchedPool::Step, py::arg("action"), py::arg("env_id") = py::none(),
           py::arg("stream") = 0, py::arg("check_host_values") = true)
      .def("reset", &PyBatchedPool::Reset, py::arg("env_id") = py::none(),
           py::arg("seed") = py::none(), py::arg("stream") = 0)
      .def("reset_masked", &PyBatchedPool::ResetMasked, py::arg("env_id"),
           py::arg("seed") = py::none(), py::arg("stream") = 0)
      .def("check_errors", &PyBatchedPool::CheckErrors, py::arg("stream") = 0)
      .def("synchronize", &PyBatchedPool::Synchronize, py::arg("stream") = 0)
      .def("get_state", &PyBatchedPool::GetState, py::arg("env_id"), py::arg("stream") = 0)
      .def("set_state", &PyBatchedPool::SetState, py::arg("env_id"), py::arg("state"),
           py::arg("stream") = 0)
      .def("close", &PyBatchedPool::Close)
      .def_property_readonly("closed", &PyBatchedPool::closed)
      .def_property_readonly("field_names", &PyBatchedPool::names)
      .def_property_readonly("device", &PyBatchedPool::Device)
      .def_static("kinds", &KindNames);
  m.def("_dlpack_inspect", &InspectDlpack, py::arg("obj"), py::arg("device_type"),
        py::arg("device_id"),
        "Test hook: imports obj through the action DLPack path for an env on (device_type, "
        "device_id) and describes the tensor (raises as a step would).");
#ifdef ENVPOOL_X_WITH_CUDA
  m.attr("built_with_cuda") = true;
  m.def(
      "cuda_device_count",
      [] {
        std::string why;
        int n = CudaDeviceCount(&why);
        return py::make_tuple(n, why);
      },
      "(number of usable GPUs, the CUDA runtime's reason when 0).");
  m.def(
      "cuda_device_info",
      [](int device_id) {
        CudaDeviceInfo i = GetCudaDeviceInfo(device_id);
        py::dict d;
        d["name"] = i.name;
        d["memory_clock_khz"] = i.memory_clock_khz;
        d["bus_width_bits"] = i.bus_width_bits;
        // Double data rate: two transfers per clock.
        d["peak_bandwidth"] = 2.0 * i.memory_clock_khz * 1e3 * i.bus_width_bits / 8.0;
        return d;
      },
      py::arg("device_id"), "Name and peak memory bandwidth (bytes/s) of a GPU.");
#else
  m.attr("built_with_cuda") = false;
#endif
}

}  // namespace batched

void BindBatched(py::module_& m) { batched::BindBatched(m); }

}  // namespace envpool_x
