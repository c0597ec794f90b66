// The CUDA pool as the Python class _core.CudaPool, over the
// DLPack import and export of cpp/bindings/dlpack.h. No env logic lives here
// (that is cpp/cuda/kernel_body.h).
#include "cuda/cuda_pool.h"

#include <Python.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/conversions.h"
#include "bindings/dlpack.h"
#include "bindings/dlpack_inspect.h"
#include "bindings/param_conversions.h"
#include "core/action_check.h"
#include "core/env_ids.h"
#include "core/errors.h"
#include "core/pool_options.h"
#include "cuda/device_ops.h"
#include "cuda/dlpack_abi.h"

#ifdef ENVPOOL_X_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace envpool_x {
namespace cuda_pool {

using dlpack::DLTensor;

class PyCudaPool {
 public:
  PyCudaPool(const std::string& pool_name, const py::dict& env_config, int64_t num_envs,
             int max_episode_steps, const std::string& autoreset_mode, const py::object& seed,
             const std::string& device, int device_id, bool copy_results)
      : env_ids_(CheckedNumEnvs(num_envs)) {
    EnvKind kind = ParseEnvKind(pool_name);
    Config cfg = KindConfig(kind, env_config);
    VisitKind(kind, [&](auto tag) { action_ = decltype(tag)::Kernel::CpuEnv::Spec(cfg).action; });
    CudaPoolOptions opt;
    opt.num_envs = num_envs;
    opt.max_episode_steps = max_episode_steps;
    opt.autoreset = ParseAutoresetMode(autoreset_mode);
    if (!ParseSeeds(seed, env_ids_.all(), &opt.env_seeds)) {
      throw ValueError("seed must not be None");
    }
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
    const std::string what =
        "a " + device + " pool of " + std::to_string(num_envs) + " " + pool_name + " envs";
    try {
      pool_ = BuildOrMemoryError(what, [&] {
        return std::make_unique<CudaPool>(kind, cfg, std::move(opt), std::move(ops));
      });
    } catch (const MemoryError&) {
      throw;
    } catch (const std::runtime_error& e) {
      // cuda_ops.cu reports a failed cudaMallocAsync as a runtime_error.
      if (std::string(e.what()).find("cudaErrorMemoryAllocation") == std::string::npos) throw;
      throw MemoryError("out of GPU memory building " + what + " (" + e.what() +
                        "); use fewer envs");
    }
    for (const OutputField& f : pool_->fields()) names_.push_back(f.name);
  }

  // check_host_values=false (tests only) sends host actions unchecked to the
  // kernel body, to exercise the errors it records for device tensors.
  py::tuple Step(const py::object& action, const py::object& env_id, uintptr_t stream,
                 bool check_host_values) {
    const std::vector<int32_t>* ids = Ids(env_id);
    const int64_t n = ids ? static_cast<int64_t>(ids->size()) : pool_->options().num_envs;
    ActionInput in;
    std::unique_ptr<ImportedTensor> imported;
    py::array host;  // keeps a converted numpy array alive for the launch
    if (py::isinstance<py::array>(action) || !py::hasattr(action, "__dlpack__")) {
      host = HostAction(action, n);
      in.data = host.data();
      in.type = HostType(host);
      in.on_host = true;
    } else {
      imported = ImportAction(action, *pool_->ops(), action_, n, stream, &in);
    }
    if (in.on_host && check_host_values) CheckHostActions(in.data, in.type, n, ids);
    Result r = pool_->Step(in, ids, stream);
    // A device tensor must outlive the kernel that reads it: hold it until the
    // next call (by then the caller's stream has moved past this step).
    if (imported && !in.on_host) last_action_ = std::move(imported);
    return Wrap(r);
  }

  py::tuple Reset(const py::object& env_id, const py::object& seed, uintptr_t stream) {
    const std::vector<int32_t>* ids = Ids(env_id);
    std::vector<uint64_t> seeds;
    const bool have_seeds = ParseSeeds(seed, ids ? *ids : env_ids_.all(), &seeds);
    Result r = pool_->Reset(ids, have_seeds ? &seeds : nullptr, stream);
    return Wrap(r);
  }

  py::tuple ResetMasked(const py::object& env_id, const py::object& seed, uintptr_t stream) {
    const std::vector<int32_t>* ids = Ids(env_id);
    if (!ids) throw ValueError("reset_mask selects no env");
    const int64_t n = pool_->options().num_envs;
    std::vector<uint8_t> mask(n, 0);
    for (int32_t id : *ids) mask[id] = 1;
    std::vector<uint64_t> seeds;
    std::vector<uint64_t> per_env;
    const bool have_seeds = ParseSeeds(seed, *ids, &seeds);
    if (have_seeds) {
      per_env.assign(n, 0);
      for (size_t k = 0; k < ids->size(); ++k) per_env[(*ids)[k]] = seeds[k];
    }
    Result r = pool_->ResetMasked(mask, have_seeds ? &per_env : nullptr, stream);
    return Wrap(r);
  }

  // What a pool would allocate per env, from the code the pool allocates
  // with (CudaPool::Sizes), for the memory estimate before building one.
  static py::dict MemorySizes(const std::string& pool_name, const py::dict& env_config,
                              int64_t num_envs, const std::string& autoreset_mode) {
    CheckedNumEnvs(num_envs);
    const EnvKind kind = ParseEnvKind(pool_name);
    const PerEnvSizes s = CudaPool::Sizes(kind, KindConfig(kind, env_config), num_envs,
                                          ParseAutoresetMode(autoreset_mode));
    py::dict d;
    d["device_per_env"] = s.device;
    d["slab_per_env"] = s.slab;
    d["host_per_env"] = s.host + static_cast<int64_t>(EnvIdSet::BytesPerEnv());
    d["row_bytes"] = s.row;
    // The parameter tables a first set_params makes (docs/params.md#cost).
    int64_t num_params = 0;
    VisitKind(kind,
              [&](auto tag) { num_params = ParamCountOf<typename decltype(tag)::Kernel>::value; });
    d["params_device_per_env"] = DeviceParamTables::DeviceBytesPerEnv(num_params);
    d["params_host_per_env"] = DeviceParamTables::HostBytesPerEnv(num_params);
    return d;
  }

  // Per-env parameters (docs/params.md): the CPU pools' set_params /
  // get_params over the device tables (cpp/cuda/param_tables.h).
  void SetParams(const py::object& env_id, const py::dict& settings, bool immediate,
                 uintptr_t stream) {
    const std::vector<int32_t> ids = ParamIds(env_id);
    std::vector<std::string> names;
    std::vector<std::vector<ParamSetting>> values;
    for (auto item : settings) {
      names.push_back(item.first.cast<std::string>());
      values.push_back(ParamSettingsOf(item.second.cast<py::tuple>()));
    }
    pool_->SetParams(ids, names, values, immediate, stream);
  }
  py::array_t<double> GetParams(const py::object& env_id, uintptr_t stream) {
    const std::vector<int32_t> ids = ParamIds(env_id);
    const size_t n = pool_->param_specs().size();
    const std::vector<double> values = pool_->GetParams(ids, stream);
    py::array_t<double> out({ids.size(), n});
    std::copy(values.begin(), values.end(), out.mutable_data());
    return out;
  }
  py::list ParamSpecs() const { return ParamSpecsToList(pool_->param_specs()); }

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
  int64_t slab_bytes() const { return pool_->slab_bytes(); }
  py::tuple Device() const {
    return py::make_tuple(pool_->ops()->device_type(), pool_->ops()->device_id());
  }

 private:
  // The env's default config updated with the caller's keys.
  static Config KindConfig(EnvKind kind, const py::dict& env_config) {
    Config cfg;
    VisitKind(kind, [&](auto tag) {
      cfg = ConfigFromDict(decltype(tag)::Kernel::CpuEnv::DefaultConfig(), env_config);
    });
    return cfg;
  }

  static int CheckedNumEnvs(int64_t num_envs) {
    if (num_envs < 1 || num_envs > CudaPool::kMaxEnvs) {
      throw ValueError("num_envs must be in [1, 2**30] on the GPU path, got " +
                       std::to_string(num_envs));
    }
    return static_cast<int>(num_envs);
  }

  // The env ids the caller named, checked (the CPU pool's parser and
  // checks); nullptr for None (every env). Valid until the next call.
  const std::vector<int32_t>* Ids(const py::object& env_id) {
    if (pool_->closed()) throw StateError("the env is closed");
    if (env_id.is_none()) return nullptr;
    auto wide = EnvIdArray(env_id);
    return &env_ids_.Check(wide.data(), wide.size());
  }

  // The ids set_params / get_params name (None: every env), checked.
  std::vector<int32_t> ParamIds(const py::object& env_id) {
    const std::vector<int32_t>* ids = Ids(env_id);
    return ids ? *ids : env_ids_.all();
  }

  // A numpy (or list) action, checked like the CPU pool's and converted to
  // a type the kernel reads (int32 / int64 / float32 / float64).
  py::array HostAction(const py::object& action, int64_t n) {
    py::array arr = ActionArray(action, action_, n);
    if (action_.discrete) {
      if (arr.dtype().is(py::dtype::of<int32_t>()) || arr.dtype().is(py::dtype::of<int64_t>())) {
        return py::array::ensure(arr, py::array::c_style);
      }
      return py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(arr);
    }
    if (arr.dtype().is(py::dtype::of<float>())) return py::array::ensure(arr, py::array::c_style);
    return py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(arr);
  }

  // Host data is checked at once, as the CPU pool does, instead of in the
  // kernel (where a bad value is only recorded).
  void CheckHostActions(const void* data, ActionType type, int64_t n,
                        const std::vector<int32_t>* ids) const {
    const int64_t m = action_.NumElements();
    for (int64_t k = 0; k < n; ++k) {
      const int64_t env = ids ? static_cast<int64_t>((*ids)[k]) : k;
      if (m > 1 && action_.discrete) {  // agents or elements: named by the validator
        for (int64_t j = 0; j < m; ++j) {
          const int64_t v = type == ActionType::kInt64
                                ? static_cast<const int64_t*>(data)[k * m + j]
                                : static_cast<const int32_t*>(data)[k * m + j];
          CheckDiscreteElement(action_, v, env, j);
        }
        continue;
      }
      switch (type) {
        case ActionType::kInt32:
          CheckDiscreteAction(action_, static_cast<const int32_t*>(data)[k], env);
          break;
        case ActionType::kInt64:
          CheckDiscreteAction(action_, static_cast<const int64_t*>(data)[k], env);
          break;
        case ActionType::kFloat32:
          CheckFiniteAction(static_cast<const float*>(data)[k], env, 0);
          break;
        case ActionType::kFloat64:  // the kernel reads it as float32
          CheckFiniteAction(static_cast<float>(static_cast<const double*>(data)[k]), env, 0);
          break;
      }
    }
  }

  static ActionType HostType(const py::array& a) {
    if (a.dtype().is(py::dtype::of<int32_t>())) return ActionType::kInt32;
    if (a.dtype().is(py::dtype::of<int64_t>())) return ActionType::kInt64;
    if (a.dtype().is(py::dtype::of<double>())) return ActionType::kFloat64;
    return ActionType::kFloat32;
  }

  py::tuple Wrap(const Result& r) {
    const auto& fields = pool_->fields();
    py::tuple out(fields.size());
    for (size_t f = 0; f < fields.size(); ++f) {
      out[f] = py::cast(DeviceArray(r.block, r.offsets[f], fields[f], r.rows, r.stream));
    }
    return out;
  }

  EnvIdSet env_ids_;
  std::unique_ptr<CudaPool> pool_;
  ActionSpec action_;  // the CPU env's, for the action validator
  std::unique_ptr<ImportedTensor> last_action_;
  std::vector<std::string> names_;
};

void BindCudaPool(py::module_& m) {
  py::class_<DeviceArray>(m, "DeviceArray",
                          "One output array of the CUDA stepper (device memory, or host "
                          "memory for device='cpu-reference'); pass it to a framework's "
                          "from_dlpack. It keeps its memory alive.")
      .def("__dlpack__", &DeviceArray::DLPack, py::kw_only(), py::arg("stream") = py::none(),
           py::arg("max_version") = py::none(), py::arg("dl_device") = py::none(),
           py::arg("copy") = py::none())
      .def("__dlpack_device__", &DeviceArray::Device)
      .def_property_readonly("shape", &DeviceArray::Shape)
      .def_property_readonly("dtype", &DeviceArray::DTypeStr);
  py::class_<PyCudaPool>(m, "CudaPool")
      .def(py::init<const std::string&, const py::dict&, int64_t, int, const std::string&,
                    const py::object&, const std::string&, int, bool>(),
           py::arg("pool_name"), py::arg("env_config"), py::arg("num_envs"),
           py::arg("max_episode_steps"), py::arg("autoreset_mode"), py::arg("seed"),
           py::arg("device"), py::arg("device_id") = 0, py::arg("copy_results") = true)
      .def("step", &PyCudaPool::Step, py::arg("action"), py::arg("env_id") = py::none(),
           py::arg("stream") = 0, py::arg("check_host_values") = true)
      .def("reset", &PyCudaPool::Reset, py::arg("env_id") = py::none(),
           py::arg("seed") = py::none(), py::arg("stream") = 0)
      .def("reset_masked", &PyCudaPool::ResetMasked, py::arg("env_id"),
           py::arg("seed") = py::none(), py::arg("stream") = 0)
      .def("set_params", &PyCudaPool::SetParams, py::arg("env_id"), py::arg("settings"),
           py::arg("immediate") = false, py::arg("stream") = 0,
           "Per-env parameters (docs/params.md): settings name -> (draw, a, b, choices).")
      .def("get_params", &PyCudaPool::GetParams, py::arg("env_id") = py::none(),
           py::arg("stream") = 0,
           "(len(env_id), parameters) float64: the values each env runs with now (a sync).")
      .def_property_readonly("param_specs", &PyCudaPool::ParamSpecs)
      .def("check_errors", &PyCudaPool::CheckErrors, py::arg("stream") = 0)
      .def("synchronize", &PyCudaPool::Synchronize, py::arg("stream") = 0)
      .def("get_state", &PyCudaPool::GetState, py::arg("env_id"), py::arg("stream") = 0)
      .def("set_state", &PyCudaPool::SetState, py::arg("env_id"), py::arg("state"),
           py::arg("stream") = 0)
      .def("close", &PyCudaPool::Close)
      .def_property_readonly("closed", &PyCudaPool::closed)
      .def_property_readonly("field_names", &PyCudaPool::names)
      .def_property_readonly("slab_bytes", &PyCudaPool::slab_bytes,
                             "Device bytes of one env's array state (0: word state only).")
      .def_property_readonly("device", &PyCudaPool::Device)
      .def_static("kinds", &KindNames)
      .def_static("memory_sizes", &PyCudaPool::MemorySizes, py::arg("pool_name"),
                  py::arg("env_config"), py::arg("num_envs") = 1,
                  py::arg("autoreset_mode") = "next_step",
                  "Bytes per env a pool would allocate, without building one: device_per_env "
                  "(device arrays but the slab and the results), slab_per_env, host_per_env, "
                  "row_bytes (one env's result row over every field).");
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
      "cuda_mem_info",
      [](int device_id) {
        int previous = 0;
        size_t free_bytes = 0, total_bytes = 0;
        cudaGetDevice(&previous);
        cudaError_t err = cudaSetDevice(device_id);
        if (err == cudaSuccess) err = cudaMemGetInfo(&free_bytes, &total_bytes);
        cudaSetDevice(previous);
        if (err != cudaSuccess) {
          cudaGetLastError();
          throw StateError(std::string("cudaMemGetInfo failed on GPU ") +
                           std::to_string(device_id) + ": " + cudaGetErrorString(err));
        }
        return py::make_tuple(free_bytes, total_bytes);
      },
      py::arg("device_id"), "(free bytes, total bytes) of a GPU's memory (cudaMemGetInfo).");
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

}  // namespace cuda_pool

void BindCudaPool(py::module_& m) { cuda_pool::BindCudaPool(m); }

}  // namespace envpool_x
