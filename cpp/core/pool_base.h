// The caller's side of a pool: the protocol one caller thread at a time
// drives (store actions, send a step or a reset to a list of env ids, recv a
// batch, close) and which envs are in flight.
//
//   Send(step or reset for a list of env ids)  -> chunks go onto the queues
//   Recv()                                      -> waits for a batch, returns where it is
// Two ways of filling batches:
//   ordered (batch_size == num_envs): every send reserves output rows in the
//     order of its ids; Recv returns everything sent since the last Recv, in
//     that order (so a full step is in env_id order).
//   first-finished (batch_size < num_envs): Recv returns the next full block
//     of rows: the first batch_size envs to run (core/env_runner.h).
// Output: workers write straight into the batch buffers: for a sync step,
// the very arrays handed to Python; otherwise a block's arrays, handed on as
// they are from a block's second batch (core/pool_recv.h). Returned arrays
// never alias later results.
#pragma once

#include <pthread.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/action_check.h"
#include "core/autoreset.h"
#include "core/env_ids.h"
#include "core/errors.h"
#include "core/in_flight.h"
#include "core/params.h"
#include "core/scheduler.h"

namespace envpool_x {

// Counts fork()s of this process: a child gets a copy of a pool without its
// worker threads, so every call on such a copy must fail clearly.
inline std::atomic<uint64_t>& ForkGeneration() {
  static std::atomic<uint64_t> generation{0};
  static const bool registered = [] {
    pthread_atfork(nullptr, nullptr, [] { ForkGeneration().fetch_add(1); });
    return true;
  }();
  (void)registered;
  return generation;
}

class PoolBase : public Scheduler {
 public:
  // Sync steps of at most this many cheap envs run on the calling thread.
  static constexpr size_t kInlineCheapEnvs = 128;

  PoolBase(const EnvSpec& spec, const PoolOptions& opt)
      : Scheduler(spec, CheckedPoolOptions(spec, opt)),
        ids_(opt.num_envs),
        in_flight_(opt.num_envs) {}

  virtual ~PoolBase() { Close(); }

  // Heap bytes of the pool's own bookkeeping for `num_envs` envs, batches of
  // `batch_size` and `num_threads` workers: everything but the envs and the
  // output rows (python/envpool_x/memory.py adds those). Kept beside the
  // members it counts; update it when one per env (or per queue) is added.
  static int64_t BookkeepingBytes(int64_t num_envs, int64_t batch_size, int64_t num_threads,
                                  int64_t action_bytes, bool pairs) {
    const int64_t n = num_envs;
    int64_t cells = 2;  // RingQueue's capacity for num_envs + 1 chunks
    while (cells < n + 1) cells <<= 1;
    struct QueueCell {  // RingQueue<Chunk>'s cell
      std::atomic<size_t> seq;
      Chunk value;
    };
    int64_t b = 0;
    b += n * (static_cast<int64_t>(sizeof(EnvState)) +
              InFlightEnvs::kBytesPerEnv);                                // states_, in_flight_
    b += n * 2 * static_cast<int64_t>(sizeof(int32_t)) + batch_size * 4;  // ids_
    b += n * kNumSharings * static_cast<int64_t>(sizeof(uint16_t));       // owners_
    b += (num_threads + 1) * cells * static_cast<int64_t>(sizeof(QueueCell));  // queues_
    b += n * (action_bytes + static_cast<int64_t>(sizeof(uint64_t)));  // actions_, env_seeds
    b += n * static_cast<int64_t>(sizeof(void*));                      // EnvPool's env_at_
    if (pairs) b += n * static_cast<int64_t>(sizeof(PairState));       // pairs_
    return b;
  }

  bool closed() const { return closed_; }
  int pending() const { return pending_; }

  // Checks ids (have_ids false: all envs) and returns them as a list; the
  // result stays valid until the next call.
  const std::vector<int32_t>& ResolveIds(const int64_t* ids, int64_t n, bool have_ids) {
    CheckOpen();
    if (!have_ids) return ids_.all();
    return ids_.Check(ids, n);
  }

  // Checks that every id can take new work now.
  void CheckIdle(const std::vector<int32_t>& ids, bool stepping) {
    for (int32_t id : ids) CheckIdleOne(id, stepping);
  }

  // Checks that `ids` can step and stores their actions (row k of `actions`
  // is for ids[k]; int32 for discrete, float32 for a box, shaped right), in
  // one pass. A rejected call may have overwritten the stored actions of
  // idle envs only, which no one reads before their next (valid) send.
  void StoreActions(const std::vector<int32_t>& ids, const void* actions) {
    if (&ids == &ids_.all() && StoreAllActions(actions)) return;
    const ActionSpec& a = spec_.action;
    const int64_t m = a.NumElements();
    if (a.discrete && m == 1) {
      const int32_t* src = static_cast<const int32_t*>(actions);
      int32_t* dst = reinterpret_cast<int32_t*>(actions_.get());
      for (size_t k = 0; k < ids.size(); ++k) {
        int32_t id = ids[k];
        CheckDiscreteAction(a, src[k], id);
        CheckIdleOne(id, true);
        dst[id] = src[k];
      }
      return;
    }
    if (a.discrete) {  // several values per env: agents, MultiDiscrete
      const int32_t* src = static_cast<const int32_t*>(actions);
      int32_t* dst = reinterpret_cast<int32_t*>(actions_.get());
      for (size_t k = 0; k < ids.size(); ++k) {
        int32_t id = ids[k];
        for (int64_t j = 0; j < m; ++j) CheckDiscreteElement(a, src[k * m + j], id, j);
        CheckIdleOne(id, true);
        std::memcpy(dst + id * m, src + k * m, m * sizeof(int32_t));
      }
      return;
    }
    const float* src = static_cast<const float*>(actions);
    float* dst = reinterpret_cast<float*>(actions_.get());
    for (size_t k = 0; k < ids.size(); ++k) {
      int32_t id = ids[k];
      // Before any write: a worker may be reading an in-flight env's action.
      CheckIdleOne(id, true);
      for (int64_t j = 0; j < m; ++j) {
        const float v = src[k * m + j];
        CheckFiniteAction(a, v, id, j);
        dst[id * m + j] = v;
      }
    }
  }

  // Sends a step to `ids` (actions must have been stored).
  void SendStep(const std::vector<int32_t>& ids) { Dispatch(ids, Op::kStep, nullptr, false); }

  // A step whose result the caller waits for at once (sync `step`): a small
  // batch of cheap envs runs right here, because waking a worker costs more
  // than the steps themselves.
  void SendStepForRecv(const std::vector<int32_t>& ids) {
    const bool tiny = ordered_ && cheap() && ids.size() <= kInlineCheapEnvs;
    Dispatch(ids, Op::kStep, nullptr, true, tiny);
  }

  // Sends a reset to `ids`; `seeds` (optional) re-seeds env ids[k] with seeds[k].
  // `for_recv`: the caller will Recv(help=true) at once and takes a share.
  void SendReset(const std::vector<int32_t>& ids, const std::vector<uint64_t>* seeds,
                 bool for_recv = false) {
    if (seeds && seeds->size() != ids.size()) {
      throw ValueError("got " + std::to_string(seeds->size()) + " seeds for " +
                       std::to_string(ids.size()) + " envs");
    }
    Dispatch(ids, Op::kReset, seeds, for_recv);
  }

  // Where the next rows go instead of the pool's own buffers, and receiving
  // a batch: core/pool_recv.h.
  void WriteNextRoundTo(const std::vector<uint8_t*>& bases);
  void WriteReceivedBlockTo(const std::vector<uint8_t*>& bases);
  Batch Recv(bool help = true);

  // Safe to call from several threads: one of them stops and joins the
  // workers, the others return at once.
  void Close() {
    if (closed_.exchange(true)) return;
    if (fork_generation_ != ForkGeneration().load()) {
      AbandonWorkers();
      return;
    }
    StopWorkers();
  }

  void CheckOpen() const {
    if (fork_generation_ != ForkGeneration().load(std::memory_order_relaxed)) {
      throw StateError(
          "this env was created before os.fork(); its worker threads do not exist in the "
          "child process: create the env in the child (or use the 'spawn' start method)");
    }
    if (closed_) throw StateError("the env is closed");
  }

  // Test hooks: an env's simulator state, only while it has no work in flight
  // and once it was reset (before, an env may have no state to read or
  // overwrite: a Box2D world is built by its first reset).
  std::vector<double> GetState(int env_id) {
    CheckStateAccess(env_id, "get_state()");
    return DoGetState(env_id);
  }
  void SetState(int env_id, const std::vector<double>& s) {
    CheckStateAccess(env_id, "set_state()");
    DoSetState(env_id, s);
  }

  // Per-env parameters (core/param_store.h): settings[k] for names[k] of the
  // envs in `ids`; `immediate`: values applied now, mid-episode; `require_idle`:
  // refused if an env is in flight. Checks all before it changes anything.
  const std::vector<ParamSpec>& param_specs() const { return params_.specs(); }
  void SetParams(const std::vector<int32_t>& ids, const std::vector<std::string>& names,
                 const std::vector<std::vector<ParamSetting>>& settings, bool immediate,
                 bool require_idle = false) {
    CheckOpen();
    const std::vector<size_t> index = params_.Check(ids, names, settings, immediate);
    if (immediate) {
      for (int32_t id : ids) CheckStateAccess(id, "set_params(immediate=True)");
    }
    if (require_idle) {
      for (int32_t id : ids) {
        if (in_flight_.busy(id)) ThrowNotIdle(id, false);
      }
    }
    params_.Write(
        ids, index, settings, immediate, [this](int32_t id) { return in_flight_.busy(id); },
        [this](int32_t id) { states_[id].params_at_reset = true; },
        [this](int32_t id) { DoApplyParams(id, params_.values(id)); });
  }
  // What each env of `ids` runs with now (row-major; see ParamStore::Values).
  std::vector<double> GetParams(const std::vector<int32_t>& ids) const {
    return params_.Values(ids);
  }

  // {height, width} of the frames Render writes; {0, 0} when the env is
  // drawn from its state instead (see core/env.h).
  virtual std::array<int, 2> RenderShape() const { return {0, 0}; }
  // An env's current frame (RGB), only while it has no work in flight.
  void Render(int env_id, uint8_t* rgb) {
    CheckStateAccess(env_id, "render()");
    DoRender(env_id, rgb);
  }

 protected:
  virtual void DoRender(int /*env_id*/, uint8_t* /*rgb*/) {
    throw ValueError("this env draws no frames of its own");
  }
  virtual std::vector<double> DoGetState(int env_id) = 0;
  // Env `env_id` (idle) runs with `values` from now on (core/params.h).
  virtual void DoApplyParams(int /*env_id*/, const double* /*values*/) {}
  virtual void DoSetState(int env_id, const std::vector<double>& s) = 0;

 private:
  // The common full step: every env, in order. Checks in bulk (loops the
  // compiler vectorises) and copies the actions with one memcpy. Returns false
  // when something is wrong; the per-env path then finds it and says what.
  bool StoreAllActions(const void* actions) {
    const int64_t n = opt_.num_envs;
    if (pending_ != 0 || !in_flight_.all_started()) return false;
    if (opt_.autoreset == AutoresetMode::kDisabled) {
      for (const EnvState& s : states_) {
        if (s.done) return false;
      }
    }
    const ActionSpec& a = spec_.action;
    if (a.discrete && !a.nvec.empty()) return false;  // per-element bounds: checked per env
    if (a.discrete) {
      const int32_t* src = static_cast<const int32_t*>(actions);
      int32_t lo = 0, hi = 0;
      for (int64_t k = 0; k < n * a.num_agents; ++k) {
        lo = std::min(lo, src[k]);
        hi = std::max(hi, src[k]);
      }
      if (lo < 0 || hi >= a.n) return false;
    } else {
      const float* src = static_cast<const float*>(actions);
      int64_t m = n * a.NumElements();
      bool finite = true;
      for (int64_t k = 0; k < m; ++k) finite &= std::isfinite(src[k]);
      if (!finite) return false;
    }
    std::memcpy(actions_.get(), actions, action_bytes_ * n);
    return true;
  }

  // Settings made while their envs were in flight, for those now received.
  void CommitStagedParams() {
    params_.CommitStaged([this](int32_t id) { return !in_flight_.busy(id); },
                         [this](int32_t id) { states_[id].params_at_reset = true; });
  }

  void CheckIdleOne(int32_t id, bool stepping) const {
    // Busy first: a worker may be writing an in-flight env's state. For an
    // idle env, states_[id].done was written before its result was received,
    // so reading it here is ordered after that write.
    if (in_flight_.busy(id)) ThrowNotIdle(id, stepping);
    if (stepping &&
        (!in_flight_.started(id) || StepOfFinishedEnvRefused(states_[id].done, opt_.autoreset))) {
      ThrowNotIdle(id, stepping);
    }
  }

  [[noreturn, gnu::noinline, gnu::cold]] void ThrowNotIdle(int32_t id, bool stepping) const {
    if (in_flight_.busy(id)) {
      throw StateError("env " + std::to_string(id) +
                       " already has work in flight; recv() its result before sending to it");
    }
    if (stepping && !in_flight_.started(id)) {
      throw StateError("env " + std::to_string(id) +
                       " has not been reset; call reset() (or async_reset()) before stepping");
    }
    throw StateError("env " + std::to_string(id) +
                     " finished its episode and autoreset_mode='disabled'; reset it first "
                     "(reset(env_id=...) or options={'reset_mask': mask})");
  }

  // `call`: what the caller is doing, for the message.
  void CheckStateAccess(int env_id, const char* call) {
    CheckOpen();
    if (env_id < 0 || env_id >= opt_.num_envs) {
      throw ValueError("env_id " + std::to_string(env_id) + " is out of range [0, " +
                       std::to_string(opt_.num_envs) + ")");
    }
    const std::string env = "env " + std::to_string(env_id);
    if (in_flight_.busy(env_id)) throw StateError(env + " has work in flight");
    // Written by the worker before the env's last result was received.
    if (states_[env_id].has_state) return;
    if (!in_flight_.started(env_id)) {
      throw StateError(env + " has not been reset; call reset() before " + call);
    }
    throw StateError(env + " has no state: its last reset raised an error; reset it again before " +
                     call);
  }

  // Marks `ids` in flight, reserves their rows and hands them to the
  // scheduler. `for_recv`: the caller waits for them at once (and helps);
  // `inline_run`: it runs them itself, right now.
  void Dispatch(const std::vector<int32_t>& ids, Op op, const std::vector<uint64_t>* seeds,
                bool for_recv, bool inline_run = false) {
    CheckOpen();
    received_block_ = -1;  // WriteReceivedBlockTo's window closes with a send
    if (seeds) {
      for (size_t k = 0; k < ids.size(); ++k) {
        EnvState& s = states_[ids[k]];
        s.reseed = true;
        s.seed = (*seeds)[k];
      }
    }
    const bool all = &ids == &ids_.all();
    in_flight_.Send(ids, all && ordered_, op == Op::kReset);
    const int32_t first_slot = pending_;
    pending_ += static_cast<int>(ids.size());
    sent_ += static_cast<int64_t>(ids.size());
    sent_target_.store(sent_, std::memory_order_release);
    const Placement placement = inline_run ? Placement::kInline
                                : for_recv ? Placement::kWithCaller
                                           : Placement::kWorkers;
    Distribute(ids, all, op, first_slot, placement);
  }

  EnvIdSet ids_;
  InFlightEnvs in_flight_;
  int64_t sent_ = 0;
  int pending_ = 0;          // envs sent and not yet received
  int64_t recv_block_ = 0;   // first-finished mode: blocks received so far
  int received_block_ = -1;  // the block the last Recv returned, until the next send
  std::atomic<bool> closed_{false};
  const uint64_t fork_generation_ = ForkGeneration().load();
};

}  // namespace envpool_x

#include "core/pool_recv.h"  // PoolBase's receiving side
