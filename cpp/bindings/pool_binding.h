// The CPU pool as a Python class: PyPool (numpy in, numpy out, the GIL
// released while C++ steps or waits) and BindEnv<Env>, which registers the
// pool class of one env type under Env::kName. No env logic lives here.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bindings/conversions.h"
#include "bindings/pool_registry.h"
#include "bindings/raw_loop.h"
#include "core/env_pool.h"

namespace envpool_x {

// Python-facing wrapper around one pool.
class PyPool {
 public:
  static bool PythonIsFinalizing() {
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsFinalizing();
#else
    return _Py_IsFinalizing();
#endif
  }

  explicit PyPool(std::unique_ptr<PoolBase> pool) : pool_(std::move(pool)) {
    // Python objects made once: building dtypes and key strings on every
    // step costs more than stepping a small batch.
    for (const ArraySpec& f : pool_->fields()) {
      dtypes_.push_back(ToNumpy(f.dtype));
      std::string name = f.name;
      size_t slash = name.find('/');
      if (slash != std::string::npos) name = name.substr(slash + 1);
      names_.push_back(py::str(name));
      mask_names_.push_back(py::str("_" + name));
    }
    pool_->set_interrupt_check([] {
      if (t_waiting_outside_python) return;
      py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    });
  }

  ~PyPool() {
    if (handle_ != 0) PoolRegistry::Get().Remove(handle_);
    // Joining the workers without the GIL, for the same reason as in the
    // constructor (a worker may be inside a callback that needs it); at
    // interpreter exit the GIL stays held (no thread may take it any more).
    if (Py_IsInitialized() && !PythonIsFinalizing()) {
      py::gil_scoped_release nogil;
      pool_.reset();
    }
  }

  PoolBase& pool() { return *pool_; }

  // The number a handle (env.xla()) carries for this pool; registered in
  // PoolRegistry on first use.
  uint32_t Handle() {
    if (handle_ == 0) handle_ = PoolRegistry::Get().Add(this);
    return handle_;
  }

  py::list Fields() const {
    py::list l;
    for (const ArraySpec& f : pool_->fields()) l.append(ArraySpecToDict(f));
    return l;
  }

  void SendStep(const py::object& action, const py::object& env_id) {
    Guard g(this);
    const std::vector<int32_t>& ids = Ids(env_id);
    StoreActions(action, ids);
    py::gil_scoped_release nogil;
    pool_->SendStep(ids);
  }

  void SendReset(const py::object& env_id, const py::object& seed) {
    Guard g(this);
    SendResetLocked(env_id, seed, false);
  }

  // While it waits, the caller runs queued chunks itself (it would only
  // sleep otherwise, and waking it costs a context switch per batch: with a
  // worker on every core that overhead alone cost ~8% of async throughput).
  // The pool never lets it run a step that may stall (Env::kMayStall).
  py::tuple Recv() {
    Guard g(this);
    return RecvLocked(true);
  }

  py::tuple Step(const py::object& action, const py::object& env_id) {
    Guard g(this);
    const std::vector<int32_t>& ids = Ids(env_id);
    StoreActions(action, ids);
    // Sync mode: the envs write into the arrays we return (no copy). They
    // are kept in round_arrays_ until the round is received, even if the
    // wait is interrupted.
    bool direct = pool_->ordered() && pool_->pending() == 0;
    if (direct) {
      round_arrays_.clear();
      std::vector<uint8_t*> bases;
      for (size_t f = 0; f < pool_->fields().size(); ++f) {
        round_arrays_.push_back(OutputArray(static_cast<int>(ids.size()), static_cast<int>(f)));
        bases.push_back(static_cast<uint8_t*>(round_arrays_.back().mutable_data()));
      }
      pool_->WriteNextRoundTo(bases);
    }
    if (ids.size() <= PoolBase::kInlineCheapEnvs) {
      pool_->SendStepForRecv(ids);  // may run inline: too short to drop the GIL for
    } else {
      py::gil_scoped_release nogil;
      pool_->SendStepForRecv(ids);
    }
    // The caller would only wait: it runs queued chunks itself.
    return RecvLocked(true);
  }

  py::tuple Reset(const py::object& env_id, const py::object& seed) {
    Guard g(this);
    SendResetLocked(env_id, seed, /*for_recv=*/true);
    return RecvLocked(true);
  }

  // Holds the guard while the GIL is released: a step or a second close()
  // from another thread is refused instead of running beside it (two closes
  // at once raced on the pool's state and joined the same threads twice).
  void Close() {
    Guard g(this, "close() called while another thread is using this env");
    py::gil_scoped_release nogil;
    pool_->Close();
  }

  py::array_t<double> GetState(int env_id) {
    Guard g(this);
    std::vector<double> s = pool_->GetState(env_id);
    return py::array_t<double>(static_cast<py::ssize_t>(s.size()), s.data());
  }

  void SetState(int env_id,
                const py::array_t<double, py::array::c_style | py::array::forcecast>& a) {
    Guard g(this);
    std::vector<double> s(a.data(), a.data() + a.size());
    pool_->SetState(env_id, s);
  }

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
  void SendResetLocked(const py::object& env_id, const py::object& seed, bool for_recv) {
    const std::vector<int32_t>& ids = Ids(env_id);
    pool_->CheckIdle(ids, false);
    std::vector<uint64_t> seeds;
    bool have = ParseSeeds(seed, ids, &seeds);
    py::gil_scoped_release nogil;
    pool_->SendReset(ids, have ? &seeds : nullptr, for_recv);
  }

  const std::vector<int32_t>& Ids(const py::object& env_id) {
    pool_->CheckOpen();
    if (env_id.is_none()) return pool_->ResolveIds(nullptr, 0, false);
    auto ids = EnvIdArray(env_id);
    return pool_->ResolveIds(ids.data(), ids.size(), true);
  }

  void StoreActions(const py::object& action, const std::vector<int32_t>& ids) {
    const ActionSpec& a = pool_->spec().action;
    py::array arr = py::array::ensure(action);
    if (!arr) {
      throw TypeError("action must be array-like, got " +
                      std::string(py::str(py::type::handle_of(action).attr("__name__"))));
    }
    const int64_t n = static_cast<int64_t>(ids.size());
    CheckActionKind(a, KindOf(arr.dtype()), std::string(py::str(arr.dtype())));
    CheckActionShape(a, std::vector<int64_t>(arr.shape(), arr.shape() + arr.ndim()), n);
    if (a.discrete) {
      if (arr.dtype().is(py::dtype::of<int32_t>()) && (arr.flags() & py::array::c_style)) {
        pool_->StoreActions(ids, arr.data());
        return;
      }
      auto wide = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(arr);
      std::vector<int32_t> narrow(n);
      for (int64_t k = 0; k < n; ++k) {
        const int64_t v = wide.data()[k];
        CheckDiscreteAction(a, v, ids[k]);
        narrow[k] = static_cast<int32_t>(v);
      }
      pool_->StoreActions(ids, narrow.data());
    } else {
      auto f = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(arr);
      pool_->StoreActions(ids, f.data());
    }
  }

  // A new array for `rows` rows of field `field`.
  py::array OutputArray(int rows, int field) {
    std::vector<py::ssize_t> shape{rows};
    for (int64_t d : pool_->fields()[field].shape) shape.push_back(d);
    return py::array(dtypes_[field], shape);
  }

  // Field `field` of batch b as a fresh array: the round's own array when the
  // envs wrote there, else a copy out of the pool's buffers.
  py::array Column(const Batch& b, int field) {
    if (!round_arrays_.empty() &&
        round_arrays_[field].data() == static_cast<const void*>(b.data[field]) &&
        round_arrays_[field].shape(0) == b.count) {
      return round_arrays_[field];
    }
    py::array out = OutputArray(b.count, field);
    std::memcpy(out.mutable_data(), b.data[field], pool_->fields()[field].NumBytes() * b.count);
    return out;
  }

  py::tuple RecvLocked(bool help) {
    Batch b;
    {
      py::gil_scoped_release nogil;
      b = pool_->Recv(help);
    }
    const FieldLayout& L = pool_->layout();
    const auto& fields = pool_->fields();
    py::object obs;
    if (L.num_obs == 1 && fields[0].name == "obs") {
      obs = Column(b, 0);
    } else {
      py::dict d;
      for (int i = 0; i < L.num_obs; ++i) d[names_[i]] = Column(b, i);
      obs = d;
    }
    py::dict info;
    for (int i = 0; i < L.num_info; ++i) {
      info[names_[L.first_info + i]] = Column(b, L.first_info + i);
    }
    if (L.final_mask >= 0) {
      py::array mask = Column(b, L.final_mask);
      if (L.num_obs == 1 && fields[0].name == "obs") {
        info["final_obs"] = Column(b, L.first_final_obs);
      } else {
        py::dict d;
        for (int i = 0; i < L.num_obs; ++i) {
          d[names_[i]] = Column(b, L.first_final_obs + i);
        }
        info["final_obs"] = d;
      }
      py::dict fi;
      for (int i = 0; i < L.num_info; ++i) {
        fi[names_[L.first_info + i]] = Column(b, L.first_final_info + i);
        fi[mask_names_[L.first_info + i]] = mask;
      }
      info["final_info"] = fi;
      info["_final_obs"] = mask;
      info["_final_info"] = mask;
    }
    return py::make_tuple(obs, Column(b, L.reward), Column(b, L.terminated), Column(b, L.truncated),
                          info);
  }

  std::unique_ptr<PoolBase> pool_;
  std::atomic<bool> busy_{false};
  uint32_t handle_ = 0;                  // in PoolRegistry; 0: not registered
  std::vector<py::dtype> dtypes_;        // per field
  std::vector<py::array> round_arrays_;  // outputs the envs write to directly
  std::vector<py::str> names_;           // per field, without the "final_obs/" prefix
  std::vector<py::str> mask_names_;
};

// pybind11 needs one C++ type per Python class.
template <typename Env>
class TypedPyPool final : public PyPool {
 public:
  using PyPool::PyPool;
};

// Registers the pool class of env type Env in module m, named Env::kName.
template <typename Env>
void BindEnv(py::module_& m) {
  using P = TypedPyPool<Env>;
  py::class_<P>(m, Env::kName)
      .def(py::init([](const py::dict& env_config, int num_envs, int batch_size, int num_threads,
                       int thread_affinity_offset, int max_episode_steps,
                       const std::string& autoreset_mode, std::vector<uint64_t> env_seeds,
                       int chunk_size) {
             PoolOptions opt;
             opt.num_envs = num_envs;
             opt.batch_size = batch_size;
             opt.num_threads = num_threads;
             opt.thread_affinity_offset = thread_affinity_offset;
             opt.max_episode_steps = max_episode_steps;
             opt.autoreset = ParseAutoresetMode(autoreset_mode);
             opt.env_seeds = std::move(env_seeds);
             opt.chunk_size = chunk_size;
             Config cfg = ConfigFromDict(Env::DefaultConfig(), env_config);
             // Without the GIL: envs are built on several threads, and a library
             // may have pointed a process-wide C callback at Python (dm_control
             // logs MuJoCo's warnings through a ctypes callback), which a
             // builder thread could only run if this thread let go of the GIL.
             std::unique_ptr<EnvPool<Env>> pool;
             {
               py::gil_scoped_release nogil;
               pool = std::make_unique<EnvPool<Env>>(cfg, opt);
             }
             return std::make_unique<P>(std::move(pool));
           }),
           py::arg("env_config"), py::arg("num_envs"), py::arg("batch_size"),
           py::arg("num_threads"), py::arg("thread_affinity_offset"), py::arg("max_episode_steps"),
           py::arg("autoreset_mode"), py::arg("env_seeds"), py::arg("chunk_size") = 0)
      .def_static("default_config", [] { return ConfigToDict(Env::DefaultConfig()); })
      .def_static("env_spec",
                  [](const py::dict& cfg) {
                    return EnvSpecToDict(Env::Spec(ConfigFromDict(Env::DefaultConfig(), cfg)));
                  })
      .def_static(
          "raw_loop",
          [](const py::dict& cfg, int num_envs, int64_t steps, uint64_t seed,
             int max_episode_steps) {
            // The config is read from the dict before the GIL is released.
            Config config = ConfigFromDict(Env::DefaultConfig(), cfg);
            py::gil_scoped_release nogil;
            return RawLoopSeconds<Env>(config, num_envs, steps, seed, max_episode_steps);
          },
          py::arg("env_config"), py::arg("num_envs"), py::arg("steps"), py::arg("seed") = 0,
          py::arg("max_episode_steps") = 0,
          "(seconds, episodes): the seconds one thread takes for `steps` env steps "
          "round-robin over num_envs envs in a plain C++ loop (no pool), the raw rate "
          "benchmarks compare against, and how many episodes ended meanwhile. An env "
          "resets when terminated or, if max_episode_steps > 0, after that many steps.")
      .def_property_readonly("fields", [](P& p) { return p.Fields(); })
      .def_property_readonly("num_threads", [](P& p) { return p.pool().options().num_threads; })
      .def_property_readonly("pending", [](P& p) { return p.pool().pending(); })
      .def_property_readonly("caller_steps", [](P& p) { return p.pool().caller_steps(); })
      .def_property_readonly("worker_steps", [](P& p) { return p.pool().worker_steps(); })
      .def_property_readonly("pair_steals", [](P& p) { return p.pool().pair_steals(); })
      .def_property_readonly("closed", [](P& p) { return p.pool().closed(); })
      .def("xla_handle", [](P& p) { return p.Handle(); })
      .def("send_step", static_cast<decltype(&PyPool::SendStep)>(&PyPool::SendStep),
           py::arg("action"), py::arg("env_id") = py::none())
      .def("send_reset", static_cast<decltype(&PyPool::SendReset)>(&PyPool::SendReset),
           py::arg("env_id") = py::none(), py::arg("seed") = py::none())
      .def("recv", static_cast<decltype(&PyPool::Recv)>(&PyPool::Recv))
      .def("step", static_cast<decltype(&PyPool::Step)>(&PyPool::Step), py::arg("action"),
           py::arg("env_id") = py::none())
      .def("reset", static_cast<decltype(&PyPool::Reset)>(&PyPool::Reset),
           py::arg("env_id") = py::none(), py::arg("seed") = py::none())
      .def("close", static_cast<decltype(&PyPool::Close)>(&PyPool::Close))
      .def("get_state", static_cast<decltype(&PyPool::GetState)>(&PyPool::GetState))
      .def("set_state", static_cast<decltype(&PyPool::SetState)>(&PyPool::SetState));
}

}  // namespace envpool_x
