// The pool: num_envs envs stepped by a set of worker threads.
//
// Protocol (driven by one caller thread at a time):
//   Send(step or reset for a list of env ids)  -> chunks go onto the ActionQueues
//   Recv()                                      -> waits for a batch, returns where it is
// Two ways of filling batches:
//   ordered (batch_size == num_envs): every send reserves output rows in the
//     order of its ids; Recv returns everything sent since the last Recv, in
//     that order (so a full step is in env_id order).
//   first-finished (batch_size < num_envs): a worker takes consecutive tickets
//     when it starts a chunk; ticket t lands in block t / batch_size. Recv
//     returns the next full block: the first batch_size envs to run.
// Scheduling: envs are split into chunks (many per chunk for cheap envs, one
// for expensive ones); each chunk goes to the queue of the worker that owns
// its envs (so an env's state stays in one core's cache) and idle threads
// steal. A caller about to wait takes a share itself. For envs stepped in
// parts (core/env.h) a full sync step sends each queue's last two envs as one
// pair chunk, stepped a part at a time so that an idle thread can take one
// over (RunPairT). Workers spin briefly, then sleep on a semaphore; no mutex
// is taken on the hot path.
// Output: workers write straight into the batch buffers: for a sync step,
// the very arrays handed to Python; otherwise the pool's blocks, copied out
// once by the bindings. Returned arrays never alias later results.
#pragma once

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <semaphore>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/action_queue.h"
#include "core/env.h"
#include "core/errors.h"
#include "core/random.h"
#include "core/spec.h"

namespace envpool_x {

// The optional env hooks (see core/env.h), shared by the pool and the raw
// benchmark loop so both treat an env alike.
// Envs whose episodes may span several resets (Atari's episodic_life) count
// the time limit themselves.
template <typename Env>
void ApplyMaxEpisodeSteps(Env& env, int max_episode_steps) {
  if constexpr (requires(Env& e) { e.SetMaxEpisodeSteps(0); }) {
    env.SetMaxEpisodeSteps(max_episode_steps);
  }
}
// elapsed_step after a reset: 0, unless the env continues an episode (Atari
// with episodic_life after a lost life keeps counting the game).
template <typename Env>
int32_t ElapsedAfterResetOf(const Env& env) {
  if constexpr (requires(const Env& e) { e.ElapsedAfterReset(); }) {
    return env.ElapsedAfterReset();
  } else {
    return 0;
  }
}

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

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

enum class AutoresetMode { kNextStep, kSameStep, kDisabled };

inline AutoresetMode ParseAutoresetMode(const std::string& s) {
  if (s == "next_step") return AutoresetMode::kNextStep;
  if (s == "same_step") return AutoresetMode::kSameStep;
  if (s == "disabled") return AutoresetMode::kDisabled;
  throw ValueError("autoreset_mode must be 'next_step', 'same_step' or 'disabled', got '" + s +
                   "'");
}

struct PoolOptions {
  int num_envs = 1;
  int batch_size = 0;               // 0: num_envs
  int num_threads = 0;              // 0: min(batch_size, hardware threads)
  int thread_affinity_offset = -1;  // < 0: no pinning
  int max_episode_steps = 0;        // <= 0: no time limit
  AutoresetMode autoreset = AutoresetMode::kNextStep;
  std::vector<uint64_t> env_seeds;  // one per env
  int chunk_size = 0;               // 0: automatic
};

// Roles of the output fields, in the order PoolBase lays them out.
struct FieldLayout {
  int num_obs = 0;
  int reward = 0, terminated = 0, truncated = 0, env_id = 0, elapsed_step = 0;
  int first_info = 0, num_info = 0;
  // same_step only (else -1): final copies of obs and of the info fields
  // (env_id, elapsed_step, extras), and the mask.
  int first_final_obs = -1, first_final_info = -1, final_mask = -1;
};

// A finished batch: `count` consecutive rows starting at `data[field]`.
struct Batch {
  std::vector<const uint8_t*> data;
  int count = 0;
};

class PoolBase {
 public:
  // How long a worker / the caller spins for new work / results before sleeping.
  static constexpr std::chrono::microseconds kWorkerSpin{100};
  static constexpr std::chrono::microseconds kCallerSpin{200};
  static constexpr std::chrono::microseconds kMaxWorkerSpin{2000};
  // Sync steps of at most this many cheap envs run on the calling thread.
  static constexpr size_t kInlineCheapEnvs = 128;

  PoolBase(const EnvSpec& spec, const PoolOptions& opt) : spec_(spec), opt_(opt) {
    if (opt_.num_envs < 1) {
      throw ValueError("num_envs must be >= 1, got " + std::to_string(opt_.num_envs));
    }
    if (opt_.batch_size == 0) opt_.batch_size = opt_.num_envs;
    if (opt_.batch_size < 1 || opt_.batch_size > opt_.num_envs) {
      throw ValueError("batch_size must be in [1, num_envs=" + std::to_string(opt_.num_envs) +
                       "], got " + std::to_string(opt_.batch_size));
    }
    if (opt_.num_threads > 4096) {
      throw ValueError("num_threads must be at most 4096, got " + std::to_string(opt_.num_threads));
    }
    if (opt_.num_threads < 0) {
      throw ValueError("num_threads must be >= 0 (0 picks a default), got " +
                       std::to_string(opt_.num_threads));
    }
    if (opt_.num_threads == 0) {
      opt_.num_threads = std::max(1, std::min(opt_.batch_size, UsableCpus()));
    }
    if (static_cast<int>(opt_.env_seeds.size()) != opt_.num_envs) {
      throw ValueError("need one seed per env: got " + std::to_string(opt_.env_seeds.size()) +
                       " seeds for num_envs=" + std::to_string(opt_.num_envs));
    }
    if (spec_.obs.size() > kMaxFields || spec_.info.size() > kMaxFields) {
      throw ValueError("an env may declare at most " + std::to_string(kMaxFields) +
                       " observation and " + std::to_string(kMaxFields) + " info fields");
    }
    ordered_ = opt_.batch_size == opt_.num_envs;
    workers_cover_cores_ = opt_.num_threads >= UsableCpus();
    BuildLayout();
    block_cap_ = ordered_ ? opt_.num_envs : opt_.batch_size;
    num_blocks_ = ordered_ ? 1 : (opt_.num_envs + opt_.batch_size - 1) / opt_.batch_size + 1;
    for (const ArraySpec& f : fields_) {
      buffers_.emplace_back(new uint8_t[f.NumBytes() * block_cap_ * num_blocks_]());
      base_.push_back(buffers_.back().get());
      row_bytes_.push_back(f.NumBytes());
    }
    block_done_ = std::make_unique<std::atomic<int>[]>(num_blocks_);
    for (int b = 0; b < num_blocks_; ++b) block_done_[b].store(0);
    action_bytes_ =
        spec_.action.discrete ? sizeof(int32_t) : spec_.action.box.NumElements() * sizeof(float);
    actions_.reset(new uint8_t[action_bytes_ * opt_.num_envs]());
    states_.resize(opt_.num_envs);
    for (int i = 0; i < opt_.num_envs; ++i) states_[i].rng.Seed(opt_.env_seeds[i]);
    caller_.resize(opt_.num_envs);
    mark_.assign(opt_.num_envs, 0);
    all_ids_.resize(opt_.num_envs);
    for (int i = 0; i < opt_.num_envs; ++i) all_ids_[i] = i;
    // Which queue owns env e: part e * parts / num_envs of the envs,
    // precomputed (a division per env per step would cost more than a
    // CartPole step). kWorkersOnly: T workers; kCallerToo: T workers + the
    // caller (queue T); kCallerForLast: T - 1 workers + the caller, which
    // takes the last worker's CPU (see Dispatch).
    for (int k = 0; k < 3; ++k) {
      const int64_t T = opt_.num_threads;
      const int64_t parts = k == kCallerToo ? T + 1 : T;
      owner_of_[k].resize(opt_.num_envs);
      owner_end_[k].assign(T + 1, 0);
      for (int64_t e = 0; e < opt_.num_envs; ++e) {
        int64_t q = e * parts / opt_.num_envs;
        if (k == kCallerForLast && q == T - 1) q = T;
        owner_of_[k][e] = static_cast<uint16_t>(q);
        owner_end_[k][q] = static_cast<int32_t>(e + 1);
      }
    }
    active_workers_.store(opt_.num_threads, std::memory_order_relaxed);
    // One queue per worker, plus one (the last) for the caller's share of a
    // batch it waits for.
    for (int t = 0; t <= opt_.num_threads; ++t) {
      workers_state_.push_back(std::make_unique<WorkerState>(opt_.num_envs + 1));
    }
  }

  virtual ~PoolBase() { Close(); }

  const EnvSpec& spec() const { return spec_; }
  const PoolOptions& options() const { return opt_; }
  const std::vector<ArraySpec>& fields() const { return fields_; }
  const FieldLayout& layout() const { return layout_; }
  bool closed() const { return closed_; }
  size_t action_bytes() const { return action_bytes_; }

  // The common full step: every env, in order. Checks in bulk (loops the
  // compiler vectorises) and copies the actions with one memcpy. Returns false
  // when something is wrong; the per-env path then finds it and says what.
  bool StoreAllActions(const void* actions) {
    const int64_t n = opt_.num_envs;
    if (pending_ != 0 || num_started_ != n) return false;
    if (opt_.autoreset == AutoresetMode::kDisabled) {
      for (const EnvState& s : states_) {
        if (s.done) return false;
      }
    }
    const ActionSpec& a = spec_.action;
    if (a.discrete) {
      const int32_t* src = static_cast<const int32_t*>(actions);
      int32_t lo = 0, hi = 0;
      for (int64_t k = 0; k < n; ++k) {
        lo = std::min(lo, src[k]);
        hi = std::max(hi, src[k]);
      }
      if (lo < 0 || hi >= a.n) return false;
    } else {
      const float* src = static_cast<const float*>(actions);
      int64_t m = n * a.box.NumElements();
      bool finite = true;
      for (int64_t k = 0; k < m; ++k) finite &= std::isfinite(src[k]);
      if (!finite) return false;
    }
    std::memcpy(actions_.get(), actions, action_bytes_ * n);
    return true;
  }

  [[noreturn, gnu::noinline, gnu::cold]] static void ThrowBadAction(int32_t id, int64_t action,
                                                                    int64_t n) {
    throw ValueError("action " + std::to_string(action) + " for env " + std::to_string(id) +
                     " is out of range [0, " + std::to_string(n) + ")");
  }

  void CheckIdleOne(int32_t id, bool stepping) const {
    const CallerState& c = caller_[id];
    // states_[id].done was written by the worker before this env's result
    // was received, so reading it here is ordered after that write.
    bool busy = c.round == round_;
    bool bad_step = stepping && (!c.started ||
                                 (opt_.autoreset == AutoresetMode::kDisabled && states_[id].done));
    if (busy || bad_step) ThrowNotIdle(id, stepping);
  }

  [[noreturn, gnu::noinline, gnu::cold]] void ThrowNotIdle(int32_t id, bool stepping) const {
    const CallerState& c = caller_[id];
    if (c.round == round_) {
      throw StateError("env " + std::to_string(id) +
                       " already has work in flight; recv() its result before sending to it");
    }
    if (stepping && !c.started) {
      throw StateError("env " + std::to_string(id) +
                       " has not been reset; call reset() (or async_reset()) before stepping");
    }
    throw StateError("env " + std::to_string(id) +
                     " finished its episode and autoreset_mode='disabled'; reset it first "
                     "(reset(env_id=...) or options={'reset_mask': mask})");
  }

  // Called every ~50 ms while Recv blocks; may throw to abort the wait
  // (the bindings raise KeyboardInterrupt from here).
  void set_interrupt_check(std::function<void()> f) { interrupt_check_ = std::move(f); }

  // ---- caller side -------------------------------------------------------

  // Validates ids (nullptr: all envs) and returns them as a list.
  // Validates ids (have_ids false: all envs); the result stays valid until
  // the next call.
  const std::vector<int32_t>& ResolveIds(const int64_t* ids, int64_t n, bool have_ids) {
    CheckOpen();
    if (!have_ids) return all_ids_;
    std::vector<int32_t>& out = scratch_ids_;
    if (n < 1) throw ValueError("env_id must not be empty");
    out.resize(n);
    ++mark_epoch_;
    if (mark_epoch_ == 0) {  // wrapped: clear the marks once
      std::fill(mark_.begin(), mark_.end(), 0);
      mark_epoch_ = 1;
    }
    for (int64_t k = 0; k < n; ++k) {
      int64_t id = ids[k];
      if (id < 0 || id >= opt_.num_envs) {
        throw ValueError("env_id " + std::to_string(id) + " is out of range [0, " +
                         std::to_string(opt_.num_envs) + ")");
      }
      if (mark_[id] == mark_epoch_) {
        throw ValueError("env_id " + std::to_string(id) + " appears more than once");
      }
      mark_[id] = mark_epoch_;
      out[k] = static_cast<int32_t>(id);
    }
    return out;
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
    if (&ids == &all_ids_ && StoreAllActions(actions)) return;
    const ActionSpec& a = spec_.action;
    if (a.discrete) {
      const int32_t* src = static_cast<const int32_t*>(actions);
      int32_t* dst = reinterpret_cast<int32_t*>(actions_.get());
      for (size_t k = 0; k < ids.size(); ++k) {
        int32_t id = ids[k];
        if (src[k] < 0 || src[k] >= a.n) {
          throw ValueError("action " + std::to_string(src[k]) + " for env " + std::to_string(id) +
                           " is out of range [0, " + std::to_string(a.n) + ")");
        }
        CheckIdleOne(id, true);
        dst[id] = src[k];
      }
      return;
    }
    const float* src = static_cast<const float*>(actions);
    float* dst = reinterpret_cast<float*>(actions_.get());
    int64_t m = a.box.NumElements();
    for (size_t k = 0; k < ids.size(); ++k) {
      int32_t id = ids[k];
      // Before any write: a worker may be reading an in-flight env's action.
      CheckIdleOne(id, true);
      for (int64_t j = 0; j < m; ++j) {
        float v = src[k * m + j];
        if (!std::isfinite(v)) {
          throw ValueError("action for env " + std::to_string(id) +
                           " is not finite (NaN or inf) at index " + std::to_string(j));
        }
        dst[id * m + j] = v;
      }
    }
  }

  // Sends a step to `ids` (actions must have been stored).
  void SendStep(const std::vector<int32_t>& ids) {
    Dispatch(ids, Op::kStep, nullptr, Placement::kWorkers);
  }

  // A step whose result the caller waits for at once (sync `step`): a small
  // batch of cheap envs runs right here, because waking a worker costs more
  // than the steps themselves.
  void SendStepForRecv(const std::vector<int32_t>& ids) {
    bool tiny = ordered_ && cheap() && ids.size() <= kInlineCheapEnvs;
    Dispatch(ids, Op::kStep, nullptr, tiny ? Placement::kInline : Placement::kWithCaller);
  }

  // Sends a reset to `ids`; `seeds` (optional) re-seeds env ids[k] with seeds[k].
  // `for_recv`: the caller will Recv(help=true) at once and takes a share.
  void SendReset(const std::vector<int32_t>& ids, const std::vector<uint64_t>* seeds,
                 bool for_recv = false) {
    if (seeds && seeds->size() != ids.size()) {
      throw ValueError("got " + std::to_string(seeds->size()) + " seeds for " +
                       std::to_string(ids.size()) + " envs");
    }
    Dispatch(ids, Op::kReset, seeds, for_recv ? Placement::kWithCaller : Placement::kWorkers);
  }

  int pending() const { return pending_; }
  // Envs the calling thread stepped or reset itself (inline or while it
  // waited in Recv) instead of a worker: a diagnostic for the scheduling.
  int64_t caller_steps() const { return caller_steps_; }
  // Env steps of pair chunks finished by a thread other than their runner
  // (see RunPairT): a diagnostic for the scheduling.
  int64_t split_steals() const { return split_steals_.load(std::memory_order_relaxed); }
  // Envs each worker stepped or reset: the same diagnostic per worker.
  std::vector<int64_t> worker_steps() const {
    std::vector<int64_t> out;
    for (int t = 0; t < opt_.num_threads; ++t) {
      out.push_back(workers_state_[t]->steps.load(std::memory_order_relaxed));
    }
    return out;
  }

  // Ordered mode, nothing in flight: the next round's results go straight to
  // `bases` (one array per field, rows for the envs of the coming send) instead
  // of the pool's buffers, which saves a copy. Valid until that round's Recv.
  void WriteNextRoundTo(const std::vector<uint8_t*>& bases) {
    if (!ordered_ || pending_ != 0 || bases.size() != fields_.size()) {
      throw StateError("WriteNextRoundTo needs ordered mode and nothing in flight");
    }
    base_ = bases;
  }
  bool cheap_env() const { return cheap(); }
  bool ordered() const { return ordered_; }

  // Waits for the next batch. `help`: the caller runs queued chunks itself
  // while it waits (it would only sleep otherwise).
  Batch Recv(bool help = true) {
    CheckOpen();
    Batch batch;
    batch.data.resize(fields_.size());
    if (ordered_) {
      if (pending_ == 0) {
        throw StateError("recv() with nothing in flight: send() or async_reset() first");
      }
      WaitUntil([this] { return done_.load(std::memory_order_acquire) >= sent_; }, help);
      batch.count = pending_;
      for (size_t f = 0; f < fields_.size(); ++f) batch.data[f] = base_[f];
      // The round is over: later rounds write to the pool's own buffers again.
      for (size_t f = 0; f < fields_.size(); ++f) base_[f] = buffers_[f].get();
      pending_ = 0;
    } else {
      if (pending_ < opt_.batch_size) {
        throw StateError("recv() would wait forever: " + std::to_string(pending_) +
                         " envs in flight but batch_size=" + std::to_string(opt_.batch_size) +
                         "; send() to more envs first");
      }
      int b = static_cast<int>(recv_block_ % num_blocks_);
      WaitUntil(
          [this, b] { return block_done_[b].load(std::memory_order_acquire) == opt_.batch_size; },
          help);
      block_done_[b].store(0, std::memory_order_relaxed);
      ++recv_block_;
      batch.count = opt_.batch_size;
      size_t off = static_cast<size_t>(b) * block_cap_;
      for (size_t f = 0; f < fields_.size(); ++f) {
        batch.data[f] = buffers_[f].get() + off * fields_[f].NumBytes();
      }
      pending_ -= batch.count;
    }
    // These envs are free again.
    if (ordered_) {
      if (++round_ == 0) ResetRounds();
    } else {
      const int32_t* ids = reinterpret_cast<const int32_t*>(batch.data[layout_.env_id]);
      for (int s = 0; s < batch.count; ++s) caller_[ids[s]].round = 0;
    }
    if (has_error_.load(std::memory_order_acquire)) {
      std::string msg;
      {
        std::lock_guard<std::mutex> lock(error_mu_);
        msg = error_msg_;
        has_error_.store(false, std::memory_order_relaxed);
      }
      throw std::runtime_error(msg);
    }
    return batch;
  }

  // Safe to call from several threads: one of them stops and joins the
  // workers, the others return at once.
  void Close() {
    if (closed_.exchange(true)) return;
    if (fork_generation_ != ForkGeneration().load()) {
      // A forked child's copy: the workers live in the parent only. Joining
      // them would hang, so their handles are leaked on purpose.
      new std::vector<std::thread>(std::move(workers_));
      return;
    }
    stop_.store(true, std::memory_order_release);
    for (int t = 0; t < opt_.num_threads; ++t) workers_state_[t]->wake.release();
    for (std::thread& t : workers_) {
      if (t.joinable()) t.join();
    }
    workers_.clear();
  }

  // round_ wrapped around to 0 (after 2^32 rounds): nothing is in flight in
  // ordered mode at this point, so every env can start from round 0.
  void ResetRounds() {
    for (CallerState& c : caller_) c.round = 0;
    round_ = 1;
  }

  void CheckOpen() const {
    if (fork_generation_ != ForkGeneration().load(std::memory_order_relaxed)) {
      throw StateError(
          "this env was created before os.fork(); its worker threads do not exist in the "
          "child process: create the env in the child (or use the 'spawn' start method)");
    }
    if (closed_) throw StateError("the env is closed");
  }

  // Test hooks: an env's simulator state, only while it has no work in flight.
  std::vector<double> GetState(int env_id) {
    CheckStateAccess(env_id);
    return DoGetState(env_id);
  }
  void SetState(int env_id, const std::vector<double>& s) {
    CheckStateAccess(env_id);
    DoSetState(env_id, s);
  }

 protected:
  enum class Op : uint8_t { kStep, kReset };
  // Who runs a dispatched batch: the workers only; the workers and the caller
  // (which is about to wait for it); or the caller alone, right now.
  enum class Placement : uint8_t { kWorkers, kWithCaller, kInline };

  // A chunk is a linked list through EnvState::next: an env is in at most one
  // live chunk, so a chunk of any size costs one queue cell of 8 bytes.
  // When the ids are consecutive (the usual full step) the chunk is just the
  // range [head, head + count) and no per-env links are written.
  struct Chunk {
    int32_t head;
    int32_t count;
    int32_t slot;  // ordered mode: output row of the chunk's first env
    Op op;
    bool consecutive;
    bool pair = false;  // two envs stepped in alternating parts (see Dispatch)
  };

  // Written by the caller before a send, read by the worker after it (the
  // queue's release/acquire orders them).
  struct EnvState {
    Rng rng;
    bool reseed = false;
    uint64_t seed = 0;
    int32_t next = -1;  // the next env of the same chunk
    int32_t elapsed = 0;
    bool done = false;         // last step ended the episode
    bool force_reset = false;  // the env threw; start over
  };
  // Only touched by the caller thread. An env is in flight while its round
  // equals round_: ending an ordered round (++round_) frees all its envs at
  // once; in first-finished mode each received env gets round 0.
  struct CallerState {
    uint32_t round = 0;
    bool started = false;
  };

  // Runs a chunk: EnvPool<Env> forwards to RunChunkT with itself, so that
  // the env's Step and Reset are inlined into the per-env loop. Returns the
  // envs this thread finished (a pair's env may be finished by a thief).
  virtual int32_t RunChunk(const Chunk& c) = 0;
  // Finishes one env of a pair that its runner offered (see RunPairT); false
  // when none is offered.
  virtual bool StealPart() = 0;
  virtual std::vector<double> DoGetState(int env_id) = 0;
  virtual void DoSetState(int env_id, const std::vector<double>& s) = 0;
  virtual bool cheap() const = 0;
  virtual bool stalls() const = 0;

  // CPUs this process may run on (its affinity mask: taskset, cgroups'
  // cpusets), not every CPU of the machine that hardware_concurrency counts.
  static int UsableCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) {
      return CPU_COUNT(&set);
    }
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }

  // Starts the workers; called by the derived constructor once envs exist.
  void StartWorkers() {
    unsigned ncpu = std::max(1u, std::thread::hardware_concurrency());
    for (int t = 0; t < opt_.num_threads; ++t) {
      workers_.emplace_back([this, t] { WorkerLoop(t); });
      if (opt_.thread_affinity_offset >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET((opt_.thread_affinity_offset + t) % ncpu, &set);
        pthread_setaffinity_np(workers_.back().native_handle(), sizeof(set), &set);
      }
    }
  }

 private:
  void CheckStateAccess(int env_id) {
    CheckOpen();
    if (env_id < 0 || env_id >= opt_.num_envs) {
      throw ValueError("env_id " + std::to_string(env_id) + " is out of range [0, " +
                       std::to_string(opt_.num_envs) + ")");
    }
    if (caller_[env_id].round == round_) {
      throw StateError("env " + std::to_string(env_id) + " has work in flight");
    }
  }

  void BuildLayout() {
    auto scalar = [](const std::string& name, DType d) {
      ArraySpec s;
      s.name = name;
      s.dtype = d;
      return s;
    };
    for (const ArraySpec& o : spec_.obs) fields_.push_back(o);
    layout_.num_obs = static_cast<int>(spec_.obs.size());
    layout_.reward = static_cast<int>(fields_.size());
    fields_.push_back(scalar("reward", DType::kFloat32));
    layout_.terminated = static_cast<int>(fields_.size());
    fields_.push_back(scalar("terminated", DType::kBool));
    layout_.truncated = static_cast<int>(fields_.size());
    fields_.push_back(scalar("truncated", DType::kBool));
    layout_.first_info = static_cast<int>(fields_.size());
    layout_.env_id = layout_.first_info;
    fields_.push_back(scalar("env_id", DType::kInt32));
    layout_.elapsed_step = layout_.first_info + 1;
    fields_.push_back(scalar("elapsed_step", DType::kInt32));
    for (const ArraySpec& i : spec_.info) fields_.push_back(i);
    layout_.num_info = static_cast<int>(fields_.size()) - layout_.first_info;
    if (opt_.autoreset == AutoresetMode::kSameStep) {
      layout_.first_final_obs = static_cast<int>(fields_.size());
      for (int i = 0; i < layout_.num_obs; ++i) {
        ArraySpec f = fields_[i];
        f.name = "final_obs/" + f.name;
        fields_.push_back(f);
      }
      layout_.first_final_info = static_cast<int>(fields_.size());
      for (int i = 0; i < layout_.num_info; ++i) {
        ArraySpec f = fields_[layout_.first_info + i];
        f.name = "final_info/" + f.name;
        fields_.push_back(f);
      }
      layout_.final_mask = static_cast<int>(fields_.size());
      fields_.push_back(scalar("_final_obs", DType::kBool));
    }
  }

  size_t ChunkSize(size_t n, int threads) const {
    if (opt_.chunk_size > 0) return static_cast<size_t>(opt_.chunk_size);
    if (!cheap()) return 1;
    // A few chunks per thread: enough to balance load when a thread is
    // preempted, few enough that queue traffic and wake-ups stay negligible.
    size_t parts = static_cast<size_t>(threads) * 4;
    return std::max<size_t>(1, (n + parts - 1) / parts);
  }

  void Dispatch(const std::vector<int32_t>& ids, Op op, const std::vector<uint64_t>* seeds,
                Placement placement) {
    CheckOpen();
    if (seeds) {
      for (size_t k = 0; k < ids.size(); ++k) {
        EnvState& s = states_[ids[k]];
        s.reseed = true;
        s.seed = (*seeds)[k];
      }
    }
    for (int32_t id : ids) {
      CallerState& c = caller_[id];
      c.round = round_;
      if (op == Op::kReset && !c.started) {
        c.started = true;
        ++num_started_;
      }
    }
    const int32_t first_slot = pending_;
    pending_ += static_cast<int>(ids.size());
    sent_ += static_cast<int64_t>(ids.size());
    sent_target_.store(sent_, std::memory_order_release);
    // A step that may stall for seconds never runs on the caller (Ctrl-C
    // would be ignored meanwhile): workers only.
    if (stalls()) placement = Placement::kWorkers;
    if (placement == Placement::kInline) {
      for (size_t k = 0; k + 1 < ids.size(); ++k) states_[ids[k]].next = ids[k + 1];
      caller_steps_ += static_cast<int64_t>(ids.size());
      RunChunk(Chunk{ids[0], static_cast<int32_t>(ids.size()), first_slot, op, false});
      return;
    }
    // Env e belongs to queue e * T / num_envs: an env is stepped by the same
    // thread step after step, so its state stays in that core's cache. When
    // the caller is about to wait, it owns a share too (queue T). Idle threads
    // steal, so a slow or preempted one does not stall a batch.
    // With a worker on every core, a round the caller waits for (a sync step)
    // runs on the caller and all workers but the last, which sits it out: the
    // caller takes that worker's CPU instead of time-slicing a core with a
    // worker (three threads on two cores lost 2-3% of an Ant-v5 round to
    // preempted steps). Other rounds run on the workers; the caller steals
    // once it waits.
    const bool with_caller = placement == Placement::kWithCaller;
    const bool caller_for_last = with_caller && workers_cover_cores_ && ordered_;
    const int split = caller_for_last                        ? kCallerForLast
                      : with_caller && !workers_cover_cores_ ? kCallerToo
                                                             : kWorkersOnly;
    const int active = caller_for_last ? opt_.num_threads - 1 : opt_.num_threads;
    // Stored only on a change (a seq_cst store is a full fence): between
    // changes the workers already see this value.
    if (active_workers_.load(std::memory_order_relaxed) != active) {
      active_workers_.store(active, std::memory_order_seq_cst);
    }
    const int64_t T = opt_.num_threads + (split == kCallerToo ? 1 : 0);
    size_t chunk = ChunkSize(ids.size(), static_cast<int>(T));
    const bool all = &ids == &all_ids_;
    const uint16_t* owner_of = owner_of_[split].data();
    // In first-finished mode every env goes to queue 0, which every worker
    // serves first: one FIFO, so no env waits behind envs sent after it (with
    // per-owner queues, a caller or worker stealing from a fixed order of
    // queues kept re-running recently sent envs while those of a preempted
    // worker starved). The envs of an ordered round go to their owner's
    // queue for cache locality: the caller waits for all of them anyway.
    const bool by_owner = ordered_;
    // A full step of envs stepped in parts with two or more threads on it:
    // each queue's last two envs go as one pair chunk (see RunPairT).
    const int participants = active + (with_caller ? 1 : 0);
    const bool pairs =
        split_ && op == Op::kStep && by_owner && all && chunk == 1 && participants >= 2;
    size_t start = 0;
    while (start < ids.size()) {
      int owner = by_owner ? owner_of[ids[start]] : 0;
      size_t end = start + 1;
      bool consecutive = true;
      if (all) {  // ids are 0..n-1: the chunk ends at its size or its owner's last env
        size_t limit = by_owner ? owner_end_[split][owner] : ids.size();
        end = std::min(start + chunk, limit);
        if (pairs && limit - start == 2) {
          end = limit;
          offer_slots_[2 * owner].store(ids[start], std::memory_order_relaxed);
          offer_slots_[2 * owner + 1].store(ids[start + 1], std::memory_order_relaxed);
        }
      } else {
        while (end < ids.size() && end - start < chunk &&
               (!by_owner || owner_of[ids[end]] == owner)) {
          consecutive &= ids[end] == ids[end - 1] + 1;
          ++end;
        }
        if (!consecutive) {
          for (size_t k = start; k + 1 < end; ++k) states_[ids[k]].next = ids[k + 1];
        }
      }
      Chunk c{ids[start],
              static_cast<int32_t>(end - start),
              first_slot + static_cast<int32_t>(start),
              op,
              consecutive,
              end - start == 2 && pairs};
      WorkerState& w = *workers_state_[owner];
      // Cannot fail: at most num_envs envs are in flight and capacity > num_envs.
      while (!w.queue.TryPush(c)) std::this_thread::yield();
      start = end;
    }
    WakeWorkers(active);
  }

  // Wakes those of workers [0, n) that sleep.
  void WakeWorkers(int n) {
    for (int t = 0; t < n; ++t) {
      WorkerState& w = *workers_state_[t];
      if (w.sleeping.load(std::memory_order_seq_cst) && w.sleeping.exchange(false)) {
        w.wake.release();
      }
    }
  }

  // Takes a chunk: from queue `first` if it has one, else from any other.
  bool TakeChunk(int first, Chunk* c) {
    const int T = static_cast<int>(workers_state_.size());
    for (int k = 0; k < T; ++k) {
      if (workers_state_[(first + k) % T]->queue.TryPop(c)) return true;
    }
    return false;
  }

  template <typename Pred>
  void WaitUntil(Pred ready, bool help) {
    help = help && !stalls();  // see Dispatch
    if (!help && active_workers_.load(std::memory_order_relaxed) < opt_.num_threads) {
      // A round that left a worker out for the caller, who will not help
      // after all: every worker takes part (with one CPU, none would run it).
      active_workers_.store(opt_.num_threads, std::memory_order_seq_cst);
      WakeWorkers(opt_.num_threads);
    }
    using Clock = std::chrono::steady_clock;
    auto last_check = Clock::now();
    bool spun = false;
    while (!ready()) {
      Chunk c;
      if (help && TakeChunk(opt_.num_threads, &c)) {  // own share first
        caller_steps_ += RunChunk(c);
        continue;
      }
      if (help && StealPart()) {
        ++caller_steps_;
        continue;
      }
      // Spin a while (results usually arrive within microseconds and waking
      // a sleeping thread is slow on VMs), then sleep.
      if (!spun) {
        spun = true;
        if (SpinFor([&] { return ready() || (help && HasWork()); }, kCallerSpin)) continue;
      }
      waiting_.store(true, std::memory_order_seq_cst);
      if (ready()) {
        waiting_.store(false, std::memory_order_relaxed);
        break;
      }
      done_sem_.try_acquire_for(std::chrono::milliseconds(20));
      waiting_.store(false, std::memory_order_relaxed);
      if (interrupt_check_ && Clock::now() - last_check > std::chrono::milliseconds(50)) {
        last_check = Clock::now();
        interrupt_check_();
      }
    }
  }

  void WorkerLoop(int t) {
    WorkerState& me = *workers_state_[t];
    // Expensive envs (a chunk takes hundreds of microseconds): spin for about
    // two chunks' time before sleeping, so a worker stays awake across the
    // caller's turn between rounds instead of paying a wake-up (often 100+ us
    // on VMs) every round. Cheap envs keep the fixed budget.
    std::chrono::microseconds spin = kWorkerSpin;
    // A worker sitting out a sync round (see Dispatch) neither takes work nor
    // spins: it sleeps until a round that includes it wakes it.
    auto active = [&] { return t < active_workers_.load(std::memory_order_seq_cst); };
    auto count = [&](int64_t n) {
      me.steps.store(me.steps.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    };
    auto run = [&](const Chunk& c) { count(RunChunk(c)); };
    for (;;) {
      Chunk c;
      if (active() && TakeChunk(t, &c)) {
        if (cheap()) {
          run(c);
        } else {
          auto t0 = std::chrono::steady_clock::now();
          run(c);
          auto took = std::chrono::duration_cast<std::chrono::microseconds>(
              std::chrono::steady_clock::now() - t0);
          spin = std::clamp(2 * took, kWorkerSpin, kMaxWorkerSpin);
        }
        continue;
      }
      if (active() && StealPart()) {
        count(1);
        continue;
      }
      if (stop_.load(std::memory_order_acquire)) return;
      // Spin a while before sleeping: on virtual machines waking a sleeping
      // thread can take hundreds of microseconds, longer than a whole batch.
      if (active() &&
          SpinFor([&] { return !active() || HasWork() || stop_.load(std::memory_order_relaxed); },
                  spin)) {
        continue;
      }
      // Announce the nap, then look once more: a chunk pushed (or this worker
      // made active) before the announcement is seen here, one after it wakes
      // us.
      me.sleeping.store(true, std::memory_order_seq_cst);
      if (active() && TakeChunk(t, &c)) {
        me.sleeping.store(false, std::memory_order_relaxed);
        run(c);
        continue;
      }
      if (stop_.load(std::memory_order_acquire)) return;
      me.wake.acquire();
      if (stop_.load(std::memory_order_acquire)) return;
    }
  }

  bool HasWork() const {
    for (const auto& w : workers_state_) {
      if (!w->queue.Empty()) return true;
    }
    return HasOffer();
  }

  // Spins until pred() or the budget runs out; returns pred()'s last value.
  // After the first microseconds it yields between checks: with more
  // runnable threads than cores (workers plus the caller), a pure spinner
  // would keep the thread that has the work from running.
  template <typename Pred>
  static bool SpinFor(Pred pred, std::chrono::microseconds budget) {
    auto start = std::chrono::steady_clock::now();
    auto deadline = start + budget;
    auto yield_after = start + std::chrono::microseconds(5);
    for (;;) {
      for (int i = 0; i < 16; ++i) {
        if (pred()) return true;
        CpuRelax();
      }
      auto now = std::chrono::steady_clock::now();
      if (now >= deadline) return pred();
      if (now >= yield_after) std::this_thread::yield();
    }
  }

  // This env's row of every field the env writes (only those: the arrays
  // are not cleared, so the per-env cost stays a handful of adds).
  void OutputAt(size_t row, StepOutput* out) {
    for (int i = 0; i < layout_.num_obs; ++i) out->obs[i] = base_[i] + row * row_bytes_[i];
    int num_extra = layout_.num_info - 2;
    for (int i = 0; i < num_extra; ++i) {
      int f = layout_.first_info + 2 + i;
      out->info[i] = base_[f] + row * row_bytes_[f];
    }
    out->reward = reinterpret_cast<float*>(base_[layout_.reward]) + row;
    out->terminated = reinterpret_cast<bool*>(base_[layout_.terminated]) + row;
    out->truncated = reinterpret_cast<bool*>(base_[layout_.truncated]) + row;
  }

  template <typename T>
  T& At(int field, size_t row) {
    return reinterpret_cast<T*>(base_[field])[row];
  }

  // The per-env loop lives here; EnvPool<Env> instantiates it with itself.
 protected:
  template <typename Pool>
  int32_t RunChunkT(const Chunk& c, Pool& pool) {
    int64_t ticket = 0;
    // acq_rel: a late chunk may take tickets of a block slot the caller read
    // a cycle ago; the caller's later sends (and their chunks' tickets) are
    // ordered before this, so the reuse happens after that read.
    if (!ordered_) ticket = ticket_.fetch_add(c.count, std::memory_order_acq_rel);
    int finished_block = -1;
    int finished_count = 0;
    bool completed = false;
    int32_t next = c.head;
    for (int k = 0; k < c.count; ++k) {
      int32_t id = next;
      // Read before this env can be finished and re-sent.
      next = c.consecutive ? id + 1 : states_[id].next;
      int block = 0;
      int slot;
      if (ordered_) {
        slot = c.slot + k;
      } else {
        int64_t t = ticket + k;
        block = static_cast<int>((t / opt_.batch_size) % num_blocks_);
        slot = static_cast<int>(t % opt_.batch_size);
      }
      RunOne(pool, id, block, slot, c.op);
      if (!ordered_) {
        if (block != finished_block && finished_count > 0) {
          completed |= FinishBlockRows(finished_block, finished_count);
          finished_count = 0;
        }
        finished_block = block;
        ++finished_count;
      }
    }
    if (ordered_) {
      FinishOrdered(c.count);
      return c.count;
    }
    if (finished_count > 0) completed |= FinishBlockRows(finished_block, finished_count);
    if (completed) WakeCaller();
    return c.count;
  }

  // Ordered mode: `n` more envs of the round are done.
  void FinishOrdered(int32_t n) {
    int64_t now = done_.fetch_add(n, std::memory_order_acq_rel) + n;
    if (now >= sent_target_.load(std::memory_order_acquire)) WakeCaller();
  }

  // Called when what the caller waits for may be complete: a wake-up per
  // chunk would cost more than the chunk.
  void WakeCaller() {
    if (waiting_.load(std::memory_order_seq_cst) && waiting_.exchange(false)) {
      done_sem_.release();
    }
  }

  // A pair chunk (see Dispatch): the thread running it steps its two envs
  // one part (one physics substep) at a time, alternately, and offers the one
  // it is not stepping; a thread that runs out of work takes an offered env
  // over (StealPartT) and finishes it. Whole steps leave one thread idle for
  // about half a step at the end of a sync round while the other finishes
  // its last env; this way the two share the last two steps instead.
  // An env's SplitState.holder: kSplitIdle (not offered: held by its runner,
  // or not in a pair), kSplitOffered, kSplitStolen (a thief finishes it).
  template <typename Pool>
  int32_t RunPairT(const Chunk& c, Pool& pool) {
    const int32_t id[2] = {c.head, c.head + 1};
    bool mine[2];
    int32_t finished = 0;
    for (int j = 0; j < 2; ++j) {
      split_[id[j]].row = c.slot + j;
      mine[j] = !BeginOne(pool, id[j], c.slot + j);
      if (!mine[j]) ++finished;
    }
    int cur = mine[0] ? 0 : 1;
    if (mine[0] && mine[1]) split_[id[1]].holder.store(kSplitOffered, std::memory_order_release);
    while (mine[cur]) {
      if (PartOne(pool, id[cur], c.slot + cur)) {
        mine[cur] = false;
        ++finished;
      }
      const int other = 1 - cur;
      if (!mine[other]) continue;  // alone: step this one to its end
      uint8_t offered = kSplitOffered;
      if (split_[id[other]].holder.compare_exchange_strong(
              offered, kSplitIdle, std::memory_order_acquire, std::memory_order_relaxed)) {
        if (mine[cur]) split_[id[cur]].holder.store(kSplitOffered, std::memory_order_release);
        cur = other;
      } else {
        mine[other] = false;  // stolen: the thief finishes and counts it
      }
    }
    FinishOrdered(finished);
    return finished;
  }

  template <typename Pool>
  bool StealPartT(Pool& pool) {
    if (!split_) return false;
    for (size_t k = 0; k < num_offer_slots_; ++k) {
      const int32_t id = offer_slots_[k].load(std::memory_order_relaxed);
      if (id < 0) continue;
      // Slots may name envs of an earlier round: only the holder says
      // whether the env's step is offered now.
      SplitState& st = split_[id];
      uint8_t offered = kSplitOffered;
      if (st.holder.load(std::memory_order_relaxed) != kSplitOffered ||
          !st.holder.compare_exchange_strong(offered, kSplitStolen, std::memory_order_acq_rel,
                                             std::memory_order_relaxed)) {
        continue;
      }
      const size_t row = static_cast<size_t>(st.row);
      while (!PartOne(pool, id, row)) {
      }
      split_steals_.fetch_add(1, std::memory_order_relaxed);
      // Before the round can end (FinishOrdered): the next round's runner
      // starts from kSplitIdle.
      st.holder.store(kSplitIdle, std::memory_order_release);
      FinishOrdered(1);
      return true;
    }
    return false;
  }

  // Whether some pair offers an env now.
  bool HasOffer() const {
    if (!split_) return false;
    for (size_t k = 0; k < num_offer_slots_; ++k) {
      const int32_t id = offer_slots_[k].load(std::memory_order_relaxed);
      if (id >= 0 && split_[id].holder.load(std::memory_order_relaxed) == kSplitOffered) {
        return true;
      }
    }
    return false;
  }

  // Envs stepped in parts: the state pair chunks need.
  void EnablePairs() {
    split_ = std::make_unique<SplitState[]>(opt_.num_envs);
    num_offer_slots_ = 2 * static_cast<size_t>(opt_.num_threads + 1);
    offer_slots_ = std::make_unique<std::atomic<int32_t>[]>(num_offer_slots_);
    for (size_t k = 0; k < num_offer_slots_; ++k) offer_slots_[k].store(-1);
  }

  // Returns true when this made the block full.
  bool FinishBlockRows(int block, int n) {
    return block_done_[block].fetch_add(n, std::memory_order_acq_rel) + n == opt_.batch_size;
  }

  template <typename Pool>
  void RunOne(Pool& pool, int32_t id, int block, int slot, Op op) {
    EnvState& s = states_[id];
    size_t row = static_cast<size_t>(block) * block_cap_ + slot;
    StepOutput out;
    OutputAt(row, &out);
    bool& truncated = At<bool>(layout_.truncated, row);
    if (layout_.final_mask >= 0) ClearFinal(row);
    At<int32_t>(layout_.env_id, row) = id;
    try {
      bool reset = op == Op::kReset || s.force_reset ||
                   (s.done && opt_.autoreset == AutoresetMode::kNextStep);
      if (reset) {
        DoReset(pool, id, s, out, truncated, row);
      } else {
        truncated = false;
        pool.StepEnv(id, actions_.get() + id * action_bytes_, s.rng, out);
        AfterStep(pool, id, s, out, truncated, row);
      }
    } catch (const std::exception& e) {
      FailOne(id, e.what(), s, out, truncated);
    }
  }

  // A pair's env, in three parts (ordered mode: row == slot). BeginOne and
  // PartOne return true once the env's work is finished: a reset or an
  // error finishes it at once, else PartOne after the last part.
  template <typename Pool>
  bool BeginOne(Pool& pool, int32_t id, size_t row) {
    EnvState& s = states_[id];
    if (s.force_reset || (s.done && opt_.autoreset == AutoresetMode::kNextStep)) {
      RunOne(pool, id, 0, static_cast<int>(row), Op::kStep);
      return true;
    }
    if (layout_.final_mask >= 0) ClearFinal(row);
    At<int32_t>(layout_.env_id, row) = id;
    try {
      pool.BeginStep(id, actions_.get() + id * action_bytes_);
      return false;
    } catch (const std::exception& e) {
      StepOutput out;
      OutputAt(row, &out);
      FailOne(id, e.what(), s, out, At<bool>(layout_.truncated, row));
      return true;
    }
  }

  template <typename Pool>
  bool PartOne(Pool& pool, int32_t id, size_t row) {
    EnvState& s = states_[id];
    StepOutput out;
    bool last;
    try {
      last = pool.StepPart(id);
    } catch (const std::exception& e) {
      OutputAt(row, &out);
      FailOne(id, e.what(), s, out, At<bool>(layout_.truncated, row));
      return true;
    }
    if (!last) return false;
    OutputAt(row, &out);
    bool& truncated = At<bool>(layout_.truncated, row);
    truncated = false;
    try {
      pool.EndStep(id, out);
      AfterStep(pool, id, s, out, truncated, row);
    } catch (const std::exception& e) {
      FailOne(id, e.what(), s, out, truncated);
    }
    return true;
  }

  // The pool's part of a step, once the env has written its result.
  template <typename Pool>
  void AfterStep(Pool& pool, int32_t id, EnvState& s, StepOutput& out, bool& truncated,
                 size_t row) {
    ++s.elapsed;
    // The env may have ended the episode early itself (see StepOutput).
    truncated = truncated || (opt_.max_episode_steps > 0 && s.elapsed >= opt_.max_episode_steps);
    s.done = *out.terminated || truncated;
    At<int32_t>(layout_.elapsed_step, row) = s.elapsed;
    if (s.done && opt_.autoreset == AutoresetMode::kSameStep) {
      CopyFinal(row);
      float reward = *out.reward;
      bool term = *out.terminated;
      bool trunc = truncated;
      DoReset(pool, id, s, out, truncated, row);
      *out.reward = reward;
      *out.terminated = term;
      truncated = trunc;
    }
  }

  // The env threw: its episode ends here and it resets on its next step.
  void FailOne(int32_t id, const char* what, EnvState& s, const StepOutput& out, bool& truncated) {
    RecordError(id, what);
    s.force_reset = true;
    s.done = true;
    *out.reward = 0.0f;
    *out.terminated = false;
    truncated = true;
  }

  template <typename Pool>
  void DoReset(Pool& pool, int32_t id, EnvState& s, const StepOutput& out, bool& truncated,
               size_t row) {
    if (s.reseed) {
      s.rng.Seed(s.seed);
      s.reseed = false;
    }
    s.force_reset = false;
    pool.ResetEnv(id, s.rng, out);
    s.elapsed = pool.ElapsedAfterReset(id);
    s.done = false;
    *out.reward = 0.0f;
    *out.terminated = false;
    truncated = false;
    At<int32_t>(layout_.elapsed_step, row) = s.elapsed;
  }

  // same_step mode: an env that did not end this step has zero final rows
  // (the buffers are reused, so they would otherwise hold stale values).
  void ClearFinal(size_t row) {
    for (int i = 0; i < layout_.num_obs; ++i) {
      size_t nb = fields_[i].NumBytes();
      std::memset(base_[layout_.first_final_obs + i] + row * nb, 0, nb);
    }
    for (int i = 0; i < layout_.num_info; ++i) {
      size_t nb = fields_[layout_.first_info + i].NumBytes();
      std::memset(base_[layout_.first_final_info + i] + row * nb, 0, nb);
    }
    At<bool>(layout_.final_mask, row) = false;
  }

  void CopyFinal(size_t row) {
    for (int i = 0; i < layout_.num_obs; ++i) {
      size_t nb = fields_[i].NumBytes();
      std::memcpy(base_[layout_.first_final_obs + i] + row * nb, base_[i] + row * nb, nb);
    }
    for (int i = 0; i < layout_.num_info; ++i) {
      int f = layout_.first_info + i;
      size_t nb = fields_[f].NumBytes();
      std::memcpy(base_[layout_.first_final_info + i] + row * nb, base_[f] + row * nb, nb);
    }
    At<bool>(layout_.final_mask, row) = true;
  }

  void RecordError(int32_t id, const char* what) {
    std::lock_guard<std::mutex> lock(error_mu_);
    if (!has_error_.load(std::memory_order_relaxed)) {
      error_msg_ = "env " + std::to_string(id) + " raised an error: " + what +
                   " (its episode was ended; it resets on its next step)";
      has_error_.store(true, std::memory_order_release);
    }
  }

  EnvSpec spec_;
  PoolOptions opt_;
  bool ordered_ = true;
  bool workers_cover_cores_ = false;
  FieldLayout layout_;
  std::vector<ArraySpec> fields_;
  std::vector<std::unique_ptr<uint8_t[]>> buffers_;
  // Where workers write field f: buffers_[f], or a round's own arrays (see
  // WriteNextRoundTo). Workers must only ever write through base_.
  std::vector<uint8_t*> base_;
  std::vector<size_t> row_bytes_;  // fields_[f].NumBytes()
  int block_cap_ = 0;
  int num_blocks_ = 1;
  std::unique_ptr<std::atomic<int>[]> block_done_;
  size_t action_bytes_ = 0;
  std::unique_ptr<uint8_t[]> actions_;
  std::vector<EnvState> states_;
  std::vector<CallerState> caller_;
  std::vector<uint32_t> mark_;
  std::vector<int32_t> all_ids_;                                        // 0 .. num_envs - 1
  enum : int { kWorkersOnly = 0, kCallerToo = 1, kCallerForLast = 2 };  // owner splits
  std::vector<uint16_t> owner_of_[3];  // queue owning each env (see constructor)
  std::vector<int32_t> owner_end_[3];  // one past the last env each queue owns
  // Workers [0, active_workers_) take work; the others sit out (see Dispatch).
  alignas(64) std::atomic<int> active_workers_{0};
  std::vector<int32_t> scratch_ids_;  // ResolveIds' result for explicit ids
  uint32_t mark_epoch_ = 0;
  struct WorkerState {
    explicit WorkerState(size_t capacity) : queue(capacity) {}
    RingQueue<Chunk> queue;  // the ActionQueue of chunks owned by this worker
    std::binary_semaphore wake{0};
    alignas(64) std::atomic<bool> sleeping{false};
    std::atomic<int64_t> steps{0};  // envs this worker stepped or reset (its own writes only)
  };
  std::vector<std::unique_ptr<WorkerState>> workers_state_;
  // Pair chunks (envs stepped in parts only; see RunPairT).
  enum : uint8_t { kSplitIdle = 0, kSplitOffered = 1, kSplitStolen = 2 };
  struct alignas(64) SplitState {
    std::atomic<uint8_t> holder{kSplitIdle};
    int32_t row = 0;  // output row of the step in progress
  };
  std::unique_ptr<SplitState[]> split_;  // per env; null unless EnablePairs
  // Two per queue: the envs of the pair last sent to that queue, -1 none.
  std::unique_ptr<std::atomic<int32_t>[]> offer_slots_;
  size_t num_offer_slots_ = 0;
  std::atomic<int64_t> split_steals_{0};
  std::counting_semaphore<> done_sem_{0};
  alignas(64) std::atomic<bool> waiting_{false};
  alignas(64) std::atomic<int64_t> sent_target_{0};  // mirror of sent_ for workers
  alignas(64) std::atomic<int64_t> done_{0};
  alignas(64) std::atomic<int64_t> ticket_{0};
  int64_t sent_ = 0;
  uint32_t round_ = 1;       // see CallerState
  int64_t num_started_ = 0;  // envs reset at least once
  int pending_ = 0;
  int64_t caller_steps_ = 0;
  int64_t recv_block_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<bool> closed_{false};
  const uint64_t fork_generation_ = ForkGeneration().load();
  std::vector<std::thread> workers_;
  std::function<void()> interrupt_check_;
  std::mutex error_mu_;  // error path only
  std::atomic<bool> has_error_{false};
  std::string error_msg_;
};

// Binds a concrete env type to the pool.
template <typename Env>
class EnvPool final : public PoolBase {
 public:
  EnvPool(const Config& env_config, const PoolOptions& opt) : PoolBase(Env::Spec(env_config), opt) {
    const int n = options().num_envs;
    if constexpr (!Env::kCheap && std::is_move_constructible_v<Env>) {
      // Expensive envs can be slow to build (loading an Atari ROM takes a
      // tenth of a second): build them on num_threads threads.
      std::vector<std::optional<Env>> built(n);
      std::vector<std::exception_ptr> errors(n);
      const int threads = std::max(1, std::min(options().num_threads, n));
      std::vector<std::thread> builders;
      for (int t = 0; t < threads; ++t) {
        builders.emplace_back([&, t] {
          for (int i = t; i < n; i += threads) {
            try {
              built[i].emplace(env_config);
            } catch (...) {
              errors[i] = std::current_exception();
            }
          }
        });
      }
      for (std::thread& b : builders) b.join();
      for (std::exception_ptr& e : errors) {
        if (e) std::rethrow_exception(e);
      }
      for (std::optional<Env>& e : built) envs_.emplace_back(std::move(*e));
    } else {
      for (int i = 0; i < n; ++i) envs_.emplace_back(env_config);
    }
    // A deque keeps each env at a fixed address; indexing it costs a
    // division per access, so the hot path indexes this table instead.
    env_at_.reserve(n);
    for (Env& e : envs_) env_at_.push_back(&e);
    for (int i = 0; i < n; ++i) {
      // Envs that want to know their id (e.g. to misbehave selectively) get it.
      if constexpr (requires(Env& e) { e.SetEnvId(0); }) env_at_[i]->SetEnvId(i);
      ApplyMaxEpisodeSteps(*env_at_[i], opt.max_episode_steps);
    }
    if constexpr (kSplits) EnablePairs();
    StartWorkers();
  }
  ~EnvPool() override { Close(); }

  static constexpr bool kSplits = SteppedInParts<Env>();

 protected:
  int32_t RunChunk(const Chunk& c) override {
    if constexpr (kSplits) {
      if (c.pair) return RunPairT(c, *this);
    }
    return RunChunkT(c, *this);
  }
  bool StealPart() override {
    if constexpr (kSplits) {
      return StealPartT(*this);
    } else {
      return false;
    }
  }

 public:  // for RunChunkT
  void ResetEnv(int env_id, Rng& rng, const StepOutput& out) { env_at_[env_id]->Reset(rng, out); }
  int32_t ElapsedAfterReset(int env_id) const { return ElapsedAfterResetOf(*env_at_[env_id]); }
  void StepEnv(int env_id, const void* action, Rng& rng, const StepOutput& out) {
    StepWhole(*env_at_[env_id], action, rng, out);
  }
  // Envs stepped in parts only (see RunPairT).
  void BeginStep(int env_id, const void* action) {
    if constexpr (kSplits) env_at_[env_id]->BeginStep(action);
  }
  bool StepPart(int env_id) {
    if constexpr (kSplits) {
      return env_at_[env_id]->StepPart();
    } else {
      return true;
    }
  }
  void EndStep(int env_id, const StepOutput& out) {
    if constexpr (kSplits) env_at_[env_id]->EndStep(out);
  }

 protected:
  std::vector<double> DoGetState(int env_id) override { return env_at_[env_id]->GetState(); }
  void DoSetState(int env_id, const std::vector<double>& s) override {
    env_at_[env_id]->SetState(s);
  }
  bool cheap() const override { return Env::kCheap; }
  bool stalls() const override { return MayStall<Env>(); }

 private:
  std::deque<Env> envs_;
  std::vector<Env*> env_at_;  // env_at_[i] == &envs_[i]
};

}  // namespace envpool_x
