// Scheduling: the worker threads, their queues of chunks, how a send is cut
// into chunks and spread over the queues (Distribute), and how workers and
// the waiting caller take work, spin and sleep.
//
// Envs are cut into chunks (many per chunk for cheap envs; for expensive
// ones one, or a few when each thread has many: see ChunkSize); each chunk
// goes to the queue of the worker that owns its envs (so an env's state
// stays in one core's cache) and idle threads steal. A caller
// about to wait takes a share itself. Workers spin briefly, then sleep on a
// semaphore; no mutex is taken on the hot path.
#pragma once

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <semaphore>
#include <thread>
#include <vector>

#include "core/env_ids.h"
#include "core/pair_chunks.h"
#include "core/ring_queue.h"
#include "core/round_profile.h"

namespace envpool_x {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// Spins until pred() or the budget runs out; returns pred()'s last value.
// After the first microseconds it yields between checks: with more runnable
// threads than cores (workers plus the caller), a pure spinner would keep the
// thread that has the work from running.
template <typename Pred>
bool SpinFor(Pred pred, std::chrono::microseconds budget) {
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

class Scheduler : public PairChunks {
 public:
  // How long a worker / the caller spins for new work / results before sleeping.
  static constexpr std::chrono::microseconds kWorkerSpin{100};
  static constexpr std::chrono::microseconds kCallerSpin{200};
  static constexpr std::chrono::microseconds kMaxWorkerSpin{2000};
  // Expensive envs: about this many chunks per thread in a large round (see ChunkSize).
  static constexpr size_t kExpensiveChunksPerThread = 64;
  // ... and at most this many envs a chunk, so that a chunk of slow envs
  // (an Atari step is ~100 us) stays short next to the caller's interrupt checks.
  static constexpr size_t kMaxExpensiveChunk = 32;

  Scheduler(const EnvSpec& spec, const PoolOptions& opt)
      : PairChunks(spec, opt),
        workers_cover_cores_(opt.num_threads >= UsableCpus()),
        owners_(opt.num_envs, opt.num_threads),
        profile_(opt.num_threads + 1) {
    active_workers_.store(opt_.num_threads, std::memory_order_relaxed);
    // One queue per worker, plus one (the last) for the caller's share of a
    // batch it waits for.
    for (int t = 0; t <= opt_.num_threads; ++t) {
      queues_.push_back(std::make_unique<WorkerState>(opt_.num_envs + 1));
    }
  }

  // Envs the calling thread stepped or reset itself (inline or while it
  // waited) instead of a worker: a diagnostic for the scheduling.
  int64_t caller_steps() const { return caller_steps_; }
  // Envs each worker stepped or reset: the same diagnostic per worker.
  std::vector<int64_t> worker_steps() const {
    std::vector<int64_t> out;
    for (int t = 0; t < opt_.num_threads; ++t) {
      out.push_back(queues_[t]->steps.load(std::memory_order_relaxed));
    }
    return out;
  }

  // Timing of the rounds the caller waits for (core/round_profile.h).
  RoundProfile& round_profile() { return profile_; }

  // Called every ~50 ms while the caller blocks; may throw to abort the wait
  // (the bindings raise KeyboardInterrupt from here).
  void set_interrupt_check(std::function<void()> f) { interrupt_check_ = std::move(f); }

 protected:
  // Who runs a distributed batch: the workers only; the workers and the
  // caller (which is about to wait for it); or the caller alone, right now.
  enum class Placement : uint8_t { kWorkers, kWithCaller, kInline };

  // Runs a chunk: EnvPool<Env> forwards to RunChunkT / RunPairT with itself,
  // so that the env's calls are inlined into the per-env loop. Returns the
  // envs this thread finished (a pair's env may be finished by a thief).
  virtual int32_t RunChunk(const Chunk& c) = 0;
  // Finishes one env of a pair that its runner offered; false when none is.
  virtual bool StealPart() = 0;
  virtual bool cheap() const = 0;   // Env::kCheap
  virtual bool stalls() const = 0;  // a step may block for seconds

  // Starts the workers; called by EnvPool's constructor once envs exist. If
  // one cannot start (std::system_error: no memory for its stack), those
  // already running are stopped and joined before the error leaves, so a
  // failed constructor leaves no thread behind.
  void StartWorkers() {
    try {
      workers_.reserve(opt_.num_threads);
      StartEachWorker();
    } catch (...) {
      StopWorkers();
      throw;
    }
  }

  void StartEachWorker() {
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

  void StopWorkers() {
    stop_.store(true, std::memory_order_release);
    for (int t = 0; t < opt_.num_threads; ++t) queues_[t]->wake.release();
    for (std::thread& t : workers_) {
      if (t.joinable()) t.join();
    }
    workers_.clear();
  }

  // For a forked child's copy of the pool: its workers live in the parent
  // only, and joining them would hang, so their handles are leaked on purpose.
  void AbandonWorkers() { new std::vector<std::thread>(std::move(workers_)); }

  // Cuts `ids` (`all`: they are 0 .. num_envs - 1) into chunks whose rows
  // start at `first_slot` and queues them (or runs them, Placement::kInline).
  void Distribute(const std::vector<int32_t>& ids, bool all, Op op, int32_t first_slot,
                  Placement placement) {
    // A step that may stall for seconds never runs on the caller (Ctrl-C
    // would be ignored meanwhile): workers only.
    if (stalls()) placement = Placement::kWorkers;
    profile_.MarkDispatch();
    if (placement == Placement::kInline) {
      for (size_t k = 0; k + 1 < ids.size(); ++k) states_[ids[k]].next = ids[k + 1];
      caller_steps_ += static_cast<int64_t>(ids.size());
      profile_.MarkQueued();
      profile_.OnLane(opt_.num_threads, [&] {
        return RunChunk(Chunk{ids[0], static_cast<int32_t>(ids.size()), first_slot, op, false});
      });
      return;
    }
    // With a worker on every core, a round the caller waits for (a sync step)
    // runs on the caller and all workers but the last, which sits it out: the
    // caller takes that worker's CPU instead of time-slicing a core with a
    // worker. Other rounds run on the workers; the caller steals once it waits.
    const bool with_caller = placement == Placement::kWithCaller;
    const bool caller_for_last = with_caller && workers_cover_cores_ && ordered_;
    const Sharing sharing = caller_for_last                        ? Sharing::kCallerForLast
                            : with_caller && !workers_cover_cores_ ? Sharing::kCallerToo
                                                                   : Sharing::kWorkersOnly;
    const int active = caller_for_last ? opt_.num_threads - 1 : opt_.num_threads;
    // Stored only on a change (a seq_cst store is a full fence): between
    // changes the workers already see this value.
    if (active_workers_.load(std::memory_order_relaxed) != active) {
      active_workers_.store(active, std::memory_order_seq_cst);
    }
    const int64_t T = opt_.num_threads + (sharing == Sharing::kCallerToo ? 1 : 0);
    const size_t chunk = ChunkSize(ids.size(), static_cast<int>(T));
    const uint16_t* owner_of = owners_.Owners(sharing);
    // In first-finished mode every env goes to queue 0, which every worker
    // serves first: one FIFO, so no env waits behind envs sent after it (with
    // per-owner queues, threads stealing in a fixed order of queues would keep
    // re-running recently sent envs while those of a preempted worker
    // starved). The envs of an ordered round go to their owner's queue for
    // cache locality: the caller waits for all of them anyway.
    const bool by_owner = ordered_;
    // A full step of envs stepped in parts with two or more threads on it:
    // each queue's last two envs go as one pair chunk (core/pair_chunks.h).
    const int participants = active + (with_caller ? 1 : 0);
    const bool pairs =
        pairs_enabled() && op == Op::kStep && by_owner && all && chunk == 1 && participants >= 2;
    size_t start = 0;
    while (start < ids.size()) {
      const int owner = by_owner ? owner_of[ids[start]] : 0;
      size_t end = start + 1;
      bool consecutive = true;
      if (all) {  // ids are 0..n-1: the chunk ends at its size or its owner's last env
        const size_t limit = by_owner ? owners_.End(sharing, owner) : ids.size();
        end = std::min(start + chunk, limit);
        if (pairs && limit - start == 2) {
          end = limit;
          SetOffer(owner, ids[start], ids[start + 1]);
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
      WorkerState& w = *queues_[owner];
      // Cannot fail: at most num_envs envs are in flight and capacity > num_envs.
      while (!w.queue.TryPush(c)) std::this_thread::yield();
      start = end;
    }
    WakeWorkers(active);
    profile_.MarkQueued();
  }

  // Waits until ready(); `help`: the caller runs queued chunks itself while
  // it waits (it would only sleep otherwise).
  template <typename Pred>
  void WaitUntil(Pred ready, bool help) {
    help = help && !stalls();  // see Distribute
    if (!help && active_workers_.load(std::memory_order_relaxed) < opt_.num_threads) {
      // A round that left a worker out for the caller, who will not help
      // after all: every worker takes part (with one CPU, none would run it).
      active_workers_.store(opt_.num_threads, std::memory_order_seq_cst);
      WakeWorkers(opt_.num_threads);
    }
    using Clock = std::chrono::steady_clock;
    auto last_check = Clock::now();
    // Every ~50 ms, asleep or running expensive envs' chunks (a cheap env's
    // chunk is shorter than reading the clock after it would be worth).
    auto check_interrupt = [&] {
      if (interrupt_check_ && Clock::now() - last_check > std::chrono::milliseconds(50)) {
        last_check = Clock::now();
        interrupt_check_();
      }
    };
    bool spun = false;
    while (!ready()) {
      Chunk c;
      if (help && TakeChunk(opt_.num_threads, &c)) {  // own share first
        caller_steps_ += profile_.OnLane(opt_.num_threads, [&] { return RunChunk(c); });
        if (!cheap()) check_interrupt();
        continue;
      }
      if (help && profile_.OnLane(opt_.num_threads, [&] { return StealPart(); })) {
        ++caller_steps_;
        check_interrupt();  // only expensive envs are stepped in parts
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
      check_interrupt();
    }
  }

  int64_t caller_steps_ = 0;

 private:
  struct WorkerState {
    explicit WorkerState(size_t capacity) : queue(capacity) {}
    RingQueue<Chunk> queue;  // chunks of the envs this worker owns
    std::binary_semaphore wake{0};
    alignas(64) std::atomic<bool> sleeping{false};
    std::atomic<int64_t> steps{0};  // envs this worker stepped or reset (its own writes only)
  };

  size_t ChunkSize(size_t n, int threads) const {
    if (opt_.chunk_size > 0) return static_cast<size_t>(opt_.chunk_size);
    if (!cheap()) {
      // One env a chunk while envs per thread are few (and always for envs
      // stepped in parts, whose pair chunks need it); past that, up to
      // kExpensiveChunksPerThread chunks a thread, so that a step of a
      // microsecond (Craftax-Classic) does not also pay for a queue entry,
      // two clock reads and an update of the shared done counter.
      if (pairs_enabled()) return 1;
      const size_t parts = static_cast<size_t>(threads) * kExpensiveChunksPerThread;
      return std::clamp<size_t>(n / parts, 1, kMaxExpensiveChunk);
    }
    // A few chunks per thread: enough to balance load when a thread is
    // preempted, few enough that queue traffic and wake-ups stay negligible.
    size_t parts = static_cast<size_t>(threads) * 4;
    return std::max<size_t>(1, (n + parts - 1) / parts);
  }

  // Wakes those of workers [0, n) that sleep.
  void WakeWorkers(int n) {
    for (int t = 0; t < n; ++t) {
      WorkerState& w = *queues_[t];
      if (w.sleeping.load(std::memory_order_seq_cst) && w.sleeping.exchange(false)) {
        w.wake.release();
      }
    }
  }

  // Takes a chunk: from queue `first` if it has one, else from any other.
  bool TakeChunk(int first, Chunk* c) {
    const int T = static_cast<int>(queues_.size());
    for (int k = 0; k < T; ++k) {
      if (queues_[(first + k) % T]->queue.TryPop(c)) return true;
    }
    return false;
  }

  bool HasWork() const {
    for (const auto& w : queues_) {
      if (!w->queue.Empty()) return true;
    }
    return HasOffer();
  }

  void WorkerLoop(int t) {
    WorkerState& me = *queues_[t];
    // Expensive envs (a chunk takes hundreds of microseconds): spin for about
    // two chunks' time before sleeping, so a worker stays awake across the
    // caller's turn between rounds instead of paying a wake-up every round.
    // Cheap envs keep the fixed budget.
    std::chrono::microseconds spin = kWorkerSpin;
    // A worker sitting out a sync round (see Distribute) neither takes work
    // nor spins: it sleeps until a round that includes it wakes it.
    auto active = [&] { return t < active_workers_.load(std::memory_order_seq_cst); };
    auto count = [&](int64_t n) {
      me.steps.store(me.steps.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    };
    auto run = [&](const Chunk& c) { count(profile_.OnLane(t, [&] { return RunChunk(c); })); };
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
      if (active() && profile_.OnLane(t, [&] { return StealPart(); })) {
        count(1);
        continue;
      }
      if (stop_.load(std::memory_order_acquire)) return;
      // Spin a while before sleeping: on virtual machines waking a sleeping
      // thread can take longer than a whole batch.
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

  const bool workers_cover_cores_;
  const OwnerTable owners_;
  // Workers [0, active_workers_) take work; the others sit out (see Distribute).
  alignas(64) std::atomic<int> active_workers_{0};
  std::vector<std::unique_ptr<WorkerState>> queues_;  // per worker, then the caller's
  std::atomic<bool> stop_{false};
  std::vector<std::thread> workers_;
  std::function<void()> interrupt_check_;
  RoundProfile profile_;
};

}  // namespace envpool_x
