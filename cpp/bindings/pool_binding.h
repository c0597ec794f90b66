// Generic pybind11 glue for EnvPool<Env>: numpy in, numpy out, GIL released
// while C++ steps or waits. No env logic lives here.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <cmath>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bindings/xla_registry.h"
#include "core/env_pool.h"

namespace envpool_x {
namespace py = pybind11;

inline py::dtype ToNumpy(DType d) { return py::dtype(DTypeName(d)); }

inline py::dict ArraySpecToDict(const ArraySpec& s) {
  py::dict d;
  d["name"] = s.name;
  d["dtype"] = DTypeName(s.dtype);
  d["shape"] = py::tuple(py::cast(s.shape));
  d["low"] = s.low;
  d["high"] = s.high;
  d["discrete"] = s.discrete;
  return d;
}

inline py::dict EnvSpecToDict(const EnvSpec& spec) {
  py::list obs, info;
  for (const ArraySpec& a : spec.obs) obs.append(ArraySpecToDict(a));
  for (const ArraySpec& a : spec.info) info.append(ArraySpecToDict(a));
  py::dict action;
  action["discrete"] = spec.action.discrete;
  action["n"] = spec.action.n;
  if (!spec.action.discrete) action["box"] = ArraySpecToDict(spec.action.box);
  py::dict d;
  d["obs"] = obs;
  d["info"] = info;
  d["action"] = action;
  d["reward_low"] = spec.reward_low;
  d["reward_high"] = spec.reward_high;
  return d;
}

inline py::dict ConfigToDict(const Config& c) {
  py::dict d;
  for (const auto& [k, v] : c.values()) {
    std::visit([&](const auto& x) { d[py::str(k)] = x; }, v);
  }
  return d;
}

// A list config value from any sequence (list, tuple, numpy array) of
// numbers (T = double) or of strings (T = std::string; a row may also be
// bytes or a sequence of characters, as in numpy's char arrays).
template <typename T>
std::vector<T> ConfigList(const std::string& key, py::handle value, const std::string& got) {
  const char* want = std::is_same_v<T, double> ? "a sequence of numbers" : "a sequence of str";
  if (py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value) ||
      !py::hasattr(value, "__iter__")) {
    throw TypeError("config key '" + key + "' expects " + want + ", got " + got);
  }
  std::vector<T> out;
  for (py::handle item : py::iter(value)) {
    std::string item_type = py::str(py::type::handle_of(item).attr("__name__"));
    auto bad = [&] {
      return TypeError("config key '" + key + "' expects " + want + ", got an item of type " +
                       item_type);
    };
    if constexpr (std::is_same_v<T, double>) {
      if (!py::hasattr(item, "__float__") || py::isinstance<py::str>(item)) throw bad();
      out.push_back(item.cast<double>());
    } else {
      auto chars = [&](py::handle h) -> std::string {
        if (py::isinstance<py::str>(h)) return h.cast<std::string>();
        if (py::isinstance<py::bytes>(h)) return std::string(py::bytes(h.cast<py::object>()));
        throw bad();
      };
      if (py::isinstance<py::str>(item) || py::isinstance<py::bytes>(item)) {
        out.push_back(chars(item));
      } else if (py::hasattr(item, "__iter__")) {
        std::string row;
        for (py::handle ch : py::iter(item)) row += chars(ch);
        out.push_back(row);
      } else {
        throw bad();
      }
    }
  }
  return out;
}

// Merges `overrides` into `defaults`, converting each value to the type of
// its default. Unknown keys are an error that lists the valid ones.
inline Config ConfigFromDict(const Config& defaults, const py::dict& overrides) {
  Config c = defaults;
  for (auto item : overrides) {
    std::string key = py::str(item.first);
    py::handle value = item.second;
    if (!defaults.Has(key)) {
      std::string valid;
      for (const auto& kv : defaults.values()) valid += (valid.empty() ? "" : ", ") + kv.first;
      throw KeyError("unknown env config key '" + key +
                     "'; valid keys: " + (valid.empty() ? "(none)" : valid));
    }
    const ConfigValue& def = defaults.Get(key);
    std::string got = py::str(py::type::handle_of(value).attr("__name__"));
    if (std::holds_alternative<bool>(def)) {
      if (!py::isinstance<py::bool_>(value) && !py::isinstance<py::int_>(value)) {
        throw TypeError("config key '" + key + "' expects a bool, got " + got);
      }
      c.Set(key, value.cast<bool>());
    } else if (std::holds_alternative<int64_t>(def)) {
      if (py::isinstance<py::float_>(value) || !py::hasattr(value, "__index__")) {
        throw TypeError("config key '" + key + "' expects an int, got " + got);
      }
      c.Set(key, value.cast<int64_t>());
    } else if (std::holds_alternative<double>(def)) {
      if (!py::hasattr(value, "__float__") || py::isinstance<py::str>(value)) {
        throw TypeError("config key '" + key + "' expects a number, got " + got);
      }
      c.Set(key, value.cast<double>());
    } else if (std::holds_alternative<std::vector<double>>(def)) {
      c.Set(key, ConfigList<double>(key, value, got));
    } else if (std::holds_alternative<std::vector<std::string>>(def)) {
      c.Set(key, ConfigList<std::string>(key, value, got));
    } else {
      if (!py::isinstance<py::str>(value)) {
        throw TypeError("config key '" + key + "' expects a str, got " + got);
      }
      c.Set(key, value.cast<std::string>());
    }
  }
  return c;
}

// Seeds for a reset of `ids`: an int seed gives env id DeriveEnvSeed(seed,
// id); a sequence gives one seed per id. Returns false for None.
inline bool ParseSeeds(const py::object& seed, const std::vector<int32_t>& ids,
                       std::vector<uint64_t>* out) {
  if (seed.is_none()) return false;
  auto to_u64 = [](py::handle h) -> uint64_t {
    if (py::isinstance<py::bool_>(h) || py::isinstance<py::float_>(h) ||
        !py::hasattr(h, "__index__")) {
      throw TypeError("seed must be an int or a sequence of ints");
    }
    py::int_ v = py::reinterpret_steal<py::int_>(PyNumber_Index(h.ptr()));
    // No static Python object for the bound: it would be released after the
    // interpreter is gone (a segfault at exit on Python 3.12).
    const unsigned long long u = PyLong_AsUnsignedLongLong(v.ptr());     // NOLINT(runtime/int)
    if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {  // NOLINT(runtime/int)
      PyErr_Clear();  // OverflowError: negative or >= 2**64
      throw ValueError("seed must be in [0, 2**64), got " + std::string(py::str(h)));
    }
    return static_cast<uint64_t>(u);
  };
  if (py::hasattr(seed, "__index__") && !py::isinstance<py::array>(seed)) {
    uint64_t s = to_u64(seed);
    out->resize(ids.size());
    for (size_t k = 0; k < ids.size(); ++k) (*out)[k] = DeriveEnvSeed(s, ids[k]);
    return true;
  }
  py::list seq;
  try {
    seq = py::list(seed);
  } catch (const py::error_already_set&) {
    throw TypeError("seed must be an int or a sequence of ints, got " +
                    std::string(py::str(py::type::handle_of(seed).attr("__name__"))));
  }
  if (static_cast<size_t>(py::len(seq)) != ids.size()) {
    throw ValueError("seed list has " + std::to_string(py::len(seq)) + " entries but " +
                     std::to_string(ids.size()) + " envs are being reset");
  }
  out->clear();
  for (py::handle h : seq) out->push_back(to_u64(h));
  return true;
}

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
    spares_.resize(pool_->fields().size());
    returned_.resize(pool_->fields().size());
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
      if (t_waiting_for_xla) return;
      py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    });
  }

  ~PyPool() {
    if (xla_id_ != 0) XlaPoolRegistry::Get().Remove(xla_id_);
    // Joining the workers without the GIL, for the same reason as in the
    // constructor (a worker may be inside a callback that needs it); at
    // interpreter exit the GIL stays held (no thread may take it any more).
    if (Py_IsInitialized() && !PythonIsFinalizing()) {
      py::gil_scoped_release nogil;
      pool_.reset();
    }
  }

  PoolBase& pool() { return *pool_; }

  // The number an XLA handle carries for this pool (registered on first use).
  uint32_t XlaId() {
    if (xla_id_ == 0) xla_id_ = XlaPoolRegistry::Get().Add(this);
    return xla_id_;
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

 private:
  friend struct XlaCall;  // cpp/bindings/xla.cpp: send / recv without the GIL

  // Two Python threads on one env would interleave sends and receives:
  // refuse the second instead of corrupting results.
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

  void SendResetLocked(const py::object& env_id, const py::object& seed, bool for_recv) {
    const std::vector<int32_t>& ids = Ids(env_id);
    pool_->CheckIdle(ids, false);
    std::vector<uint64_t> seeds;
    bool have = Seeds(seed, ids, &seeds);
    py::gil_scoped_release nogil;
    pool_->SendReset(ids, have ? &seeds : nullptr, for_recv);
  }

  const std::vector<int32_t>& Ids(const py::object& env_id) {
    pool_->CheckOpen();
    if (env_id.is_none()) return pool_->ResolveIds(nullptr, 0, false);
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
    auto ids = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(arr);
    return pool_->ResolveIds(ids.data(), ids.size(), true);
  }

  bool Seeds(const py::object& seed, const std::vector<int32_t>& ids, std::vector<uint64_t>* out) {
    return ParseSeeds(seed, ids, out);
  }

  void StoreActions(const py::object& action, const std::vector<int32_t>& ids) {
    const ActionSpec& a = pool_->spec().action;
    py::array arr = py::array::ensure(action);
    if (!arr) {
      throw TypeError("action must be array-like, got " +
                      std::string(py::str(py::type::handle_of(action).attr("__name__"))));
    }
    char kind = arr.dtype().kind();
    int64_t n = static_cast<int64_t>(ids.size());
    auto dt = [&arr] { return std::string(py::str(arr.dtype())); };
    std::vector<int64_t> expected{n};
    if (a.discrete) {
      if (kind != 'i' && kind != 'u') {
        throw TypeError("discrete actions must be integers, got dtype " + dt());
      }
    } else {
      if (kind != 'f' && kind != 'i' && kind != 'u') {
        throw TypeError("continuous actions must be real numbers, got dtype " + dt());
      }
      for (int64_t d : a.box.shape) expected.push_back(d);
    }
    bool ok = arr.ndim() == static_cast<py::ssize_t>(expected.size());
    for (size_t d = 0; ok && d < expected.size(); ++d) ok = arr.shape(d) == expected[d];
    // A one-element box may also come as a flat (n,) array.
    if (!ok && !a.discrete && a.box.NumElements() == 1 && arr.ndim() == 1 && arr.shape(0) == n) {
      ok = true;
    }
    if (!ok) {
      std::vector<int64_t> got(arr.shape(), arr.shape() + arr.ndim());
      throw ValueError("action has shape " + ShapeString(got) + " but " + std::to_string(n) +
                       " envs need shape " + ShapeString(expected));
    }
    if (a.discrete) {
      if (arr.dtype().is(py::dtype::of<int32_t>()) && (arr.flags() & py::array::c_style)) {
        pool_->StoreActions(ids, arr.data());
        return;
      }
      auto wide = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(arr);
      std::vector<int32_t> narrow(n);
      for (int64_t k = 0; k < n; ++k) {
        int64_t v = wide.data()[k];
        if (v < 0 || v >= a.n) {
          throw ValueError("action " + std::to_string(v) + " for env " + std::to_string(ids[k]) +
                           " is out of range [0, " + std::to_string(a.n) + ")");
        }
        narrow[k] = static_cast<int32_t>(v);
      }
      pool_->StoreActions(ids, narrow.data());
    } else {
      auto f = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(arr);
      pool_->StoreActions(ids, f.data());
    }
  }

  py::array NewColumn(int rows, int field) {
    std::vector<py::ssize_t> shape{rows};
    for (int64_t d : pool_->fields()[field].shape) shape.push_back(d);
    return py::array(dtypes_[field], shape);
  }

  // An array for field `field` of a coming round: one returned earlier that
  // nobody references any more (only our spare list holds it) if there is
  // one, else a new one. Reuse skips the allocator and the page faults of
  // fresh memory, which cost more than stepping thousands of cheap envs.
  py::array OutputArray(int rows, int field) {
    for (py::array& a : spares_[field]) {
      if (a && Py_REFCNT(a.ptr()) == 1 && a.shape(0) == rows) {
        py::array out = std::move(a);
        a = py::array();
        return out;
      }
    }
    return NewColumn(rows, field);
  }

  // Remembers this round's arrays as candidates for reuse (the user drops
  // them a step or two later, so a few generations are kept).
  void KeepSpares() {
    for (size_t f = 0; f < returned_.size(); ++f) {
      if (!returned_[f]) continue;
      auto& list = spares_[f];
      list.insert(list.begin(), std::move(returned_[f]));
      returned_[f] = py::array();
      if (list.size() > kSpareGenerations) list.pop_back();
    }
  }

  // Field `field` of batch b as a fresh array: the round's own array when the
  // envs wrote there, else a copy out of the pool's buffers.
  py::array Column(const Batch& b, int field) {
    if (!round_arrays_.empty() &&
        round_arrays_[field].data() == static_cast<const void*>(b.data[field]) &&
        round_arrays_[field].shape(0) == b.count) {
      returned_[field] = round_arrays_[field];
      return round_arrays_[field];
    }
    py::array out = OutputArray(b.count, field);
    std::memcpy(out.mutable_data(), b.data[field], pool_->fields()[field].NumBytes() * b.count);
    returned_[field] = out;
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
  uint32_t xla_id_ = 0;
  std::vector<py::dtype> dtypes_;        // per field
  std::vector<py::array> round_arrays_;  // outputs the envs write to directly
  static constexpr size_t kSpareGenerations = 3;
  std::vector<std::vector<py::array>> spares_;  // per field: earlier outputs
  std::vector<py::array> returned_;             // per field: the array this recv returns
  std::vector<py::str> names_;                  // per field, without the "final_obs/" prefix
  std::vector<py::str> mask_names_;
};

// Actions for the raw loops: kRawLoopActions pre-drawn uniform choices of
// [0, n), cycled. Uniform like the benchmarks' pools, because a cheap fixed
// pattern does less work (Pong's paddle never moves under NOOP/FIRE, so fewer
// screen rows change and the preprocessing skips them) and would flatter the
// baseline the pools are measured against.
constexpr int kRawLoopActions = 64;
inline std::vector<int32_t> RawLoopDiscreteActions(int64_t n, uint64_t seed) {
  Rng draw(seed ^ 0x2545f4914f6cdd1dULL);
  std::vector<int32_t> out(kRawLoopActions, 0);
  for (int32_t& a : out) a = static_cast<int32_t>(draw.UniformInt(std::max<int64_t>(n, 1)));
  return out;
}

// The raw single-thread rate of Env: a plain loop, pre-drawn uniform actions,
// a reset when an episode ends: terminated, or `max_episode_steps` (> 0) steps
// after its reset, the pools' time limit. Without the time limit the loop
// would measure other work than a pool does: a MuJoCo episode that never ends
// settles into states whose steps cost less (an Ant on its back has fewer
// contacts) than the first thousand steps after a reset.
// Returns the seconds the steps took and how many episodes ended meanwhile.
template <typename Env>
std::pair<double, int64_t> RawLoopSeconds(const Config& cfg, int num_envs, int64_t steps,
                                          uint64_t seed, int max_episode_steps = 0) {
  EnvSpec spec = Env::Spec(cfg);
  std::deque<Env> envs;
  std::vector<Rng> rngs;
  std::vector<std::vector<uint8_t>> obs(spec.obs.size());
  for (int i = 0; i < num_envs; ++i) {
    envs.emplace_back(cfg, spec);
    rngs.emplace_back(DeriveEnvSeed(seed, i));
    ApplyMaxEpisodeSteps(envs.back(), max_episode_steps);
  }
  for (size_t f = 0; f < spec.obs.size(); ++f) obs[f].resize(spec.obs[f].NumBytes());
  std::vector<std::vector<uint8_t>> info(spec.info.size());
  for (size_t f = 0; f < spec.info.size(); ++f) info[f].resize(spec.info[f].NumBytes());
  float reward = 0;
  bool terminated = false;
  bool truncated = false;
  StepOutput out;
  for (size_t f = 0; f < obs.size(); ++f) out.slots[f] = obs[f].data();
  for (size_t f = 0; f < info.size(); ++f) out.slots[StepOutput::kInfoSlot + f] = info[f].data();
  out.reward = &reward;
  out.terminated = &terminated;
  out.truncated = &truncated;
  // Continuous actions: pre-drawn uniform vectors within the bounds (0
  // where unbounded), cycled, so physics envs do real work (an all-zero
  // action leaves a MuJoCo body at rest).
  const int64_t box_size = spec.action.NumElements();
  std::vector<float> boxes(kRawLoopActions * box_size, 0.0f);
  const std::vector<int32_t> discrete = RawLoopDiscreteActions(spec.action.n, seed);
  if (!spec.action.discrete) {
    Rng draw(seed ^ 0x9e3779b97f4a7c15ULL);
    for (int k = 0; k < kRawLoopActions; ++k) {
      for (int64_t j = 0; j < box_size; ++j) {
        const double lo = spec.action.box.Low(j);
        const double hi = spec.action.box.High(j);
        if (std::isfinite(lo) && std::isfinite(hi)) {
          boxes[k * box_size + j] = static_cast<float>(draw.Uniform(lo, hi));
        }
      }
    }
  }
  // Steps since each env's reset, counted as the pool counts them.
  std::vector<int64_t> elapsed(num_envs, 0);
  auto reset = [&](int i) {
    envs[i].Reset(rngs[i], out);
    elapsed[i] = ElapsedAfterResetOf(envs[i]);
  };
  for (int i = 0; i < num_envs; ++i) reset(i);
  auto t0 = std::chrono::steady_clock::now();
  int64_t done = 0;
  int64_t episodes = 0;
  while (done < steps) {
    for (int i = 0; i < num_envs && done < steps; ++i, ++done) {
      const int64_t k = done % kRawLoopActions;
      const void* a = spec.action.discrete ? static_cast<const void*>(&discrete[k])
                                           : static_cast<const void*>(&boxes[k * box_size]);
      truncated = false;
      StepWhole(envs[i], a, rngs[i], out);
      ++elapsed[i];
      if (terminated || truncated || (max_episode_steps > 0 && elapsed[i] >= max_episode_steps)) {
        reset(i);
        ++episodes;
      }
    }
  }
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), episodes};
}

// pybind11 needs one C++ type per Python class.
template <typename Env>
class TypedPyPool final : public PyPool {
 public:
  using PyPool::PyPool;
};

// Registers `<name>` (the pool class) for env type Env in module m.
template <typename Env>
void BindEnv(py::module_& m, const char* name) {
  using P = TypedPyPool<Env>;
  py::class_<P>(m, name)
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
      .def_property_readonly("split_steals", [](P& p) { return p.pool().split_steals(); })
      .def_property_readonly("closed", [](P& p) { return p.pool().closed(); })
      .def("xla_handle", [](P& p) { return p.XlaId(); })
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

// Maps our typed errors to Python exception types.
inline void RegisterExceptions(py::module_& m) {
  (void)m;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const KeyError& e) {
      PyErr_SetString(PyExc_KeyError, e.what());
    } catch (const StateError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
}

}  // namespace envpool_x
