// Opt-in timing of the rounds a caller waits for (sync steps and resets):
// where a round's wall time goes, so that a run on any machine says whether
// the caller's own work, waking the workers, the steps themselves or the wait
// for the last thread is what keeps a pool from scaling.
//
// A round, as the caller sees it:
//   entry    the caller enters step() (before its own work on the actions and
//            the output arrays)
//   dispatch the envs are about to be queued
//   queued   the chunks are queued and the sleeping workers woken
//   done     the caller saw the last env finish
//   return   the result is handed back (Python objects built)
// and each lane (a worker, or the caller: the last lane) records when it
// started its first chunk of the round, when it ended its last, and how long
// its chunks took together. Off by default: one predictable branch per chunk.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace envpool_x {

class RoundProfile {
 public:
  explicit RoundProfile(int lanes) : lanes_(lanes) {}

  static int64_t Now() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  // Starts (or stops) recording; either way the totals start from zero.
  // Only while no work is in flight.
  void Enable(bool on) {
    enabled_.store(on, std::memory_order_relaxed);
    totals_ = Totals{};
    round_.fetch_add(1, std::memory_order_relaxed);  // no lane's record is current
    entry_ = dispatch_ = queued_ = done_ = last_return_ = 0;
  }
  bool enabled() const { return enabled_.load(std::memory_order_relaxed); }

  // The caller's marks (see above). Entry is optional: a round sent from C++
  // starts at its dispatch.
  void MarkEntry() {
    if (enabled()) entry_ = Now();
  }
  // Starts a round: the workers see the new number once they take its work
  // (the queue orders this store before their reads).
  void MarkDispatch() {
    if (!enabled()) return;
    round_.fetch_add(1, std::memory_order_relaxed);
    dispatch_ = Now();
  }
  uint32_t round() const { return round_.load(std::memory_order_relaxed); }
  void MarkQueued() {
    if (enabled()) queued_ = Now();
  }
  void MarkDone() {
    if (enabled()) done_ = Now();
  }
  // Ends the round: folds it into the totals. Lanes are read here, after the
  // caller saw every env finish; a lane's record of an older round (a chunk
  // that began before this round's dispatch) is left out.
  void MarkReturn() {
    if (!enabled() || dispatch_ == 0 || done_ == 0) return;
    const int64_t now = Now();
    const int64_t entry = entry_ != 0 ? entry_ : dispatch_;
    Totals& t = totals_;
    ++t.rounds;
    if (last_return_ != 0) t.gap += entry - last_return_;
    t.prologue += dispatch_ - entry;
    t.queue += queued_ - dispatch_;
    t.span += done_ - dispatch_;
    t.epilogue += now - done_;
    t.wall += now - entry;
    int64_t latest_start = 0;
    const uint32_t current = round();
    for (const Lane& l : lanes_) {
      if (l.round.load(std::memory_order_relaxed) != current) continue;
      const int64_t first = l.first.load(std::memory_order_relaxed);
      ++t.lane_rounds;
      t.busy += l.busy.load(std::memory_order_relaxed);
      t.start += first - dispatch_;
      latest_start = std::max(latest_start, first - dispatch_);
      t.end_idle += std::max<int64_t>(0, done_ - l.last.load(std::memory_order_relaxed));
      t.chunks += l.chunks.load(std::memory_order_relaxed);
    }
    t.latest_start += latest_start;
    entry_ = dispatch_ = queued_ = done_ = 0;
    last_return_ = now;
  }

  // Runs f (a chunk, or a part of an env: returns what it did, 0 / false for
  // nothing) on `lane`, timed while rounds are profiled.
  template <typename F>
  auto OnLane(int lane, F f) {
    if (!enabled()) return f();
    const uint32_t at = round();
    const int64_t start = Now();
    auto did = f();
    if (did) Ran(lane, at, start, Now());
    return did;
  }

  // A lane ran a chunk (or part of an env) of round `round` (its number when
  // the chunk began) from `start` to `end`. Only that lane's thread calls this.
  void Ran(int lane, uint32_t round, int64_t start, int64_t end) {
    Lane& l = lanes_[lane];
    constexpr auto kRelaxed = std::memory_order_relaxed;
    if (l.round.load(kRelaxed) != round) {
      l.first.store(start, kRelaxed);
      l.busy.store(0, kRelaxed);
      l.chunks.store(0, kRelaxed);
      l.round.store(round, kRelaxed);
    }
    l.last.store(end, kRelaxed);
    l.busy.store(l.busy.load(kRelaxed) + end - start, kRelaxed);
    l.chunks.store(l.chunks.load(kRelaxed) + 1, kRelaxed);
  }

  // Mean microseconds per round of each part, plus counts (see the header
  // comment; `busy_per_lane` is the steps' own time on a lane that took part).
  std::map<std::string, double> Summary() const {
    const Totals& t = totals_;
    const double r = std::max<int64_t>(t.rounds, 1);
    const double lr = std::max<int64_t>(t.lane_rounds, 1);
    auto us = [](double ns) { return ns / 1000.0; };
    return {
        {"rounds", static_cast<double>(t.rounds)},
        {"lanes_per_round", t.lane_rounds / r},
        {"chunks_per_round", t.chunks / r},
        {"wall_us", us(t.wall / r)},
        {"gap_us", us(t.rounds > 1 ? t.gap / (r - 1) : 0.0)},
        {"prologue_us", us(t.prologue / r)},
        {"queue_us", us(t.queue / r)},
        {"span_us", us(t.span / r)},
        {"epilogue_us", us(t.epilogue / r)},
        {"first_start_us", us(t.start / lr)},
        {"latest_start_us", us(t.latest_start / r)},
        {"end_idle_us", us(t.end_idle / lr)},
        {"busy_per_lane_us", us(t.busy / lr)},
        {"busy_total_us", us(t.busy / r)},
    };
  }

 private:
  struct alignas(64) Lane {  // written by its own thread only (atomics: the caller reads)
    std::atomic<uint32_t> round{0};
    std::atomic<int64_t> first{0}, last{0}, busy{0}, chunks{0};
  };
  struct Totals {
    int64_t rounds = 0, lane_rounds = 0, chunks = 0;
    int64_t wall = 0, gap = 0, prologue = 0, queue = 0, span = 0, epilogue = 0;
    int64_t start = 0, latest_start = 0, end_idle = 0, busy = 0;
  };

  std::atomic<bool> enabled_{false};  // read by the workers
  std::vector<Lane> lanes_;
  std::atomic<uint32_t> round_{0};
  Totals totals_;
  int64_t entry_ = 0, dispatch_ = 0, queued_ = 0, done_ = 0, last_return_ = 0;
};

}  // namespace envpool_x
