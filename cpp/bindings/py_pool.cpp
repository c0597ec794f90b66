// PyPool's definitions (declared in py_pool.h): the CPU pool's Python calls,
// from numpy actions in to result arrays out.
#include "bindings/py_pool.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <utility>

#include "bindings/pool_registry.h"
#include "core/action_check.h"
#include "core/result_fields.h"

namespace envpool_x {

namespace {

bool PythonIsFinalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

}  // namespace

PyPool::PyPool(std::unique_ptr<PoolBase> pool) : pool_(std::move(pool)) {
  // Python objects made once: building dtypes and key strings on every
  // step costs more than stepping a small batch.
  kept_arrays_.resize(pool_->fields().size());
  spare_arrays_.resize(pool_->fields().size());
  newest_kept_.assign(pool_->fields().size(), 0);
  for (const ArraySpec& f : pool_->fields()) {
    dtypes_.push_back(ToNumpy(f.dtype));
    std::string name = f.name;
    size_t slash = name.find('/');
    if (slash != std::string::npos) name = name.substr(slash + 1);
    names_.push_back(py::str(name));
    mask_names_.push_back(py::str(result_fields::kMaskPrefix + name));
  }
  pool_->set_interrupt_check([] {
    if (t_waiting_outside_python) return;
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  });
}

PyPool::~PyPool() {
  if (handle_ != 0) PoolRegistry::Get().Remove(handle_);
  // Joining the workers without the GIL: a worker may be inside a callback
  // that needs it. At interpreter exit the GIL stays held (no thread may
  // take it any more).
  if (Py_IsInitialized() && !PythonIsFinalizing()) {
    py::gil_scoped_release nogil;
    pool_.reset();
    return;
  }
  // The workers may still be writing in-flight rows into blocks' arrays:
  // those are left allocated rather than freed under them.
  for (std::vector<py::array>& arrays : block_arrays_) {
    for (py::array& a : arrays) a.release();
  }
}

uint32_t PyPool::Handle() {
  if (handle_ == 0) handle_ = PoolRegistry::Get().Add(this);
  return handle_;
}

py::list PyPool::Fields() const {
  py::list l;
  for (const ArraySpec& f : pool_->fields()) l.append(ArraySpecToDict(f));
  return l;
}

void PyPool::SendStep(const py::object& action, const py::object& env_id) {
  Guard g(this);
  const std::vector<int32_t>& ids = Ids(env_id);
  StoreActions(action, ids);
  py::gil_scoped_release nogil;
  pool_->SendStep(ids);
}

void PyPool::SendReset(const py::object& env_id, const py::object& seed) {
  Guard g(this);
  SendResetLocked(env_id, seed, false);
}

// While it waits, the caller runs queued chunks itself: it would only sleep
// otherwise, and waking it costs a context switch per batch. The pool never
// lets it run a step that may stall (Env::kMayStall).
py::tuple PyPool::Recv() {
  Guard g(this);
  return RecvLocked(true);
}

py::tuple PyPool::Step(const py::object& action, const py::object& env_id) {
  Guard g(this);
  pool_->round_profile().MarkEntry();
  const std::vector<int32_t>& ids = Ids(env_id);
  StoreActions(action, ids);

  // Sync mode: the envs write into the arrays we return (no copy). They
  // are kept in round_arrays_ until the round is received, even if the
  // wait is interrupted.
  bool direct = pool_->ordered() && pool_->pending() == 0;
  if (direct) {
    round_arrays_.clear();  // drops our reference to the last round's arrays
    std::vector<uint8_t*> bases;
    for (size_t f = 0; f < pool_->fields().size(); ++f) {
      round_arrays_.push_back(ReusableArray(static_cast<int>(ids.size()), static_cast<int>(f)));
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

py::tuple PyPool::Reset(const py::object& env_id, const py::object& seed) {
  Guard g(this);
  pool_->round_profile().MarkEntry();
  SendResetLocked(env_id, seed, /*for_recv=*/true);
  return RecvLocked(true);
}

// Holds the guard while the GIL is released: a step or a second close() from
// another thread is refused instead of running beside it (two closes at once
// would race on the pool's state and join the same threads twice).
void PyPool::Close() {
  Guard g(this, "close() called while another thread is using this env");
  py::gil_scoped_release nogil;
  pool_->Close();
}

py::array_t<double> PyPool::GetState(int env_id) {
  Guard g(this);
  std::vector<double> s = pool_->GetState(env_id);
  return py::array_t<double>(static_cast<py::ssize_t>(s.size()), s.data());
}

py::array_t<uint8_t> PyPool::Render(const py::object& env_id) {
  Guard g(this);
  const std::array<int, 2> shape = pool_->RenderShape();
  if (shape[0] == 0) throw ValueError("this env draws no frames of its own");
  const std::vector<int32_t>& ids = Ids(env_id);
  py::array_t<uint8_t> out({static_cast<py::ssize_t>(ids.size()), py::ssize_t{shape[0]},
                            py::ssize_t{shape[1]}, py::ssize_t{3}});
  const size_t frame = static_cast<size_t>(shape[0]) * shape[1] * 3;
  uint8_t* dst = out.mutable_data();
  for (size_t k = 0; k < ids.size(); ++k) pool_->Render(ids[k], dst + k * frame);
  return out;
}

void PyPool::SetState(int env_id,
                      const py::array_t<double, py::array::c_style | py::array::forcecast>& a) {
  Guard g(this);
  std::vector<double> s(a.data(), a.data() + a.size());
  pool_->SetState(env_id, s);
}

void PyPool::SendResetLocked(const py::object& env_id, const py::object& seed, bool for_recv) {
  const std::vector<int32_t>& ids = Ids(env_id);
  pool_->CheckIdle(ids, false);
  std::vector<uint64_t> seeds;
  bool have = ParseSeeds(seed, ids, &seeds);
  py::gil_scoped_release nogil;
  pool_->SendReset(ids, have ? &seeds : nullptr, for_recv);
}

const std::vector<int32_t>& PyPool::Ids(const py::object& env_id) {
  pool_->CheckOpen();
  if (env_id.is_none()) return pool_->ResolveIds(nullptr, 0, false);
  auto ids = EnvIdArray(env_id);
  return pool_->ResolveIds(ids.data(), ids.size(), true);
}

void PyPool::StoreActions(const py::object& action, const std::vector<int32_t>& ids) {
  const ActionSpec& a = pool_->spec().action;
  const int64_t n = static_cast<int64_t>(ids.size());
  py::array arr = ActionArray(action, a, n);
  if (a.discrete) {
    if (arr.dtype().is(py::dtype::of<int32_t>()) && (arr.flags() & py::array::c_style)) {
      pool_->StoreActions(ids, arr.data());
      return;
    }
    // Other integer dtypes (numpy's default int64, torch's argmax): narrowed
    // in one pass the compiler vectorises, into a buffer kept across steps;
    // element by element only to name a value out of range.
    auto wide = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(arr);
    const int64_t m = a.NumElements();  // values per env
    const int64_t* src = wide.data();
    narrow_.resize(n * m);
    int64_t lo = 0, hi = 0;
    for (int64_t k = 0; k < n * m; ++k) {
      lo = std::min(lo, src[k]);
      hi = std::max(hi, src[k]);
      narrow_[k] = static_cast<int32_t>(src[k]);
    }
    // The pool checks each element's own bound (MultiDiscrete) on the int32s.
    const int64_t limit = a.nvec.empty() ? a.n : int64_t{INT32_MAX} + 1;
    if (lo < 0 || hi >= limit) {
      for (int64_t k = 0; k < n * m; ++k) CheckDiscreteElement(a, src[k], ids[k / m], k % m);
    }
    pool_->StoreActions(ids, narrow_.data());
  } else {
    auto f = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(arr);
    pool_->StoreActions(ids, f.data());
  }
}

// A new array for `rows` rows of field `field`.
py::array PyPool::OutputArray(int rows, int field) {
  std::vector<py::ssize_t> shape{rows};
  for (int64_t d : pool_->fields()[field].shape) shape.push_back(d);
  return py::array(dtypes_[field], shape);
}

// An array for field `field` of a result of `rows` envs: one of the two
// kept from earlier steps when only we still reference it (the caller let go
// of that result, so no one can see it change), else a new one that replaces
// the older kept one. Fresh arrays every step cost MiniGrid at 256 envs about
// a tenth of its rate (benchmarks/bench_result_arrays.py), and numpy's
// allocations were most of the caller's own time in a short round.
py::array PyPool::ReusableArray(int rows, int field) {
  std::array<py::array, 2>& kept = kept_arrays_[field];
  int& newest = newest_kept_[field];
  auto free = [&](int k) {
    return kept[k] && kept[k].shape(0) == rows && kept[k].ref_count() == 1;
  };
  // The older one first: the newest is usually still in the caller's hands.
  for (int k : {1 - newest, newest}) {
    if (free(k)) {
      newest = k;
      return kept[k];
    }
  }
  newest = 1 - newest;
  kept[newest] = OutputArray(rows, field);
  return kept[newest];
}

// First-finished mode: from a block's second batch on, its rows were written
// into arrays of ours, which become the result as they are (Column finds them
// in round_arrays_); the block's next rows go to other arrays. A batch of
// Craftax's 33 KB observations costs the caller as much to copy as the
// workers take to step it.
void PyPool::HandOnBlock(const Batch& b) {
  if (block_arrays_.size() <= static_cast<size_t>(b.block)) block_arrays_.resize(b.block + 1);
  std::vector<py::array>& written = block_arrays_[b.block];
  round_arrays_ = std::move(written);
  written.clear();
  std::vector<uint8_t*> bases;
  for (size_t f = 0; f < pool_->fields().size(); ++f) {
    written.push_back(SpareArray(b.count, static_cast<int>(f)));
    bases.push_back(static_cast<uint8_t*>(written.back().mutable_data()));
  }
  pool_->WriteReceivedBlockTo(bases);
}

// An array of `rows` rows of field `field` for a block to write: one made
// earlier that only spare_arrays_ still holds (the caller let go of that
// result and no block writes it), else a new one.
py::array PyPool::SpareArray(int rows, int field) {
  std::vector<py::array>& spare = spare_arrays_[field];
  for (const py::array& a : spare) {
    if (a.ref_count() == 1 && a.shape(0) == rows) return a;
  }
  // Bounded: past a few per block, forget the oldest (whoever holds it keeps it).
  if (spare.size() > 2 * block_arrays_.size() + 2) spare.erase(spare.begin());
  spare.push_back(OutputArray(rows, field));
  return spare.back();
}

// Field `field` of batch b as a fresh array: the round's own array when the
// envs wrote there, else a copy out of the pool's buffers.
py::array PyPool::Column(const Batch& b, int field) {
  if (!round_arrays_.empty() &&
      round_arrays_[field].data() == static_cast<const void*>(b.data[field]) &&
      round_arrays_[field].shape(0) == b.count) {
    return round_arrays_[field];
  }
  py::array out = ReusableArray(b.count, field);
  std::memcpy(out.mutable_data(), b.data[field], pool_->fields()[field].NumBytes() * b.count);
  return out;
}

py::tuple PyPool::RecvLocked(bool help) {
  Batch b;
  {
    py::gil_scoped_release nogil;
    b = pool_->Recv(help);
  }
  if (b.block >= 0) HandOnBlock(b);
  const FieldLayout& L = pool_->layout();
  const auto& fields = pool_->fields();
  py::object obs;
  if (L.num_obs == 1 && fields[0].name == result_fields::kObs) {
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
    if (L.num_obs == 1 && fields[0].name == result_fields::kObs) {
      info[result_fields::kFinalObs] = Column(b, L.first_final_obs);
    } else {
      py::dict d;
      for (int i = 0; i < L.num_obs; ++i) {
        d[names_[i]] = Column(b, L.first_final_obs + i);
      }
      info[result_fields::kFinalObs] = d;
    }
    py::dict fi;
    for (int i = 0; i < L.num_info; ++i) {
      fi[names_[L.first_info + i]] = Column(b, L.first_final_info + i);
      fi[mask_names_[L.first_info + i]] = mask;
    }
    info[result_fields::kFinalInfo] = fi;
    info[result_fields::kFinalMask] = mask;
    info[result_fields::kFinalInfoMask] = mask;
  }
  py::tuple result = py::make_tuple(obs, Column(b, L.reward), Column(b, L.terminated),
                                    Column(b, L.truncated), info);
  pool_->round_profile().MarkReturn();
  return result;
}

void PyPool::ProfileRounds(bool on) {
  Guard g(this);
  pool_->CheckOpen();
  if (!pool_->ordered()) {
    throw ValueError(
        "round profiles time the rounds a caller waits for: sync pools only "
        "(batch_size == num_envs)");
  }
  if (pool_->pending() != 0) throw StateError("profile_rounds() with work in flight: recv() first");
  pool_->round_profile().Enable(on);
}

py::dict PyPool::RoundProfileSummary() {
  py::dict d;
  for (const auto& [key, value] : pool_->round_profile().Summary()) d[py::str(key)] = value;
  return d;
}

}  // namespace envpool_x
