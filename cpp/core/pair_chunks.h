// Pair chunks, for envs stepped in parts (core/env.h): at the end of a sync
// round a thread steps its last two envs one part (one physics substep) at a
// time, alternately, and offers the one it is not stepping; a thread that runs
// out of work takes an offered env over and finishes it. Whole steps would
// leave one thread idle for about half a step while the other finishes its
// last env; this way the two share the last two steps.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/env_runner.h"

namespace envpool_x {

class PairChunks : public EnvRunner {
 public:
  using EnvRunner::EnvRunner;

  // Env steps of pair chunks finished by a thread other than their runner:
  // a diagnostic for the scheduling.
  int64_t pair_steals() const { return pair_steals_.load(std::memory_order_relaxed); }

 protected:
  // An env's PairState::holder.
  enum : uint8_t {
    kPairIdle = 0,     // not offered: held by its runner, or not in a pair
    kPairOffered = 1,  // its runner offers it to a thief
    kPairStolen = 2,   // a thief finishes it
  };
  struct alignas(64) PairState {
    std::atomic<uint8_t> holder{kPairIdle};
    int32_t row = 0;  // output row of the step in progress
  };

  // Envs stepped in parts: the state pair chunks need, with two offer slots
  // for each of `num_queues` queues.
  void EnablePairs(int num_queues) {
    pairs_ = std::make_unique<PairState[]>(opt_.num_envs);
    num_offer_slots_ = 2 * static_cast<size_t>(num_queues);
    offer_slots_ = std::make_unique<std::atomic<int32_t>[]>(num_offer_slots_);
    for (size_t k = 0; k < num_offer_slots_; ++k) offer_slots_[k].store(-1);
  }
  bool pairs_enabled() const { return pairs_ != nullptr; }

  // Names the envs of the pair chunk just sent to `queue`.
  void SetOffer(int queue, int32_t first, int32_t second) {
    offer_slots_[2 * queue].store(first, std::memory_order_relaxed);
    offer_slots_[2 * queue + 1].store(second, std::memory_order_relaxed);
  }

  // Runs a pair chunk (ordered mode, envs c.head and c.head + 1).
  template <typename Pool>
  int32_t RunPairT(const Chunk& c, Pool& pool) {
    const int32_t id[2] = {c.head, c.head + 1};
    bool mine[2];
    int32_t finished = 0;
    for (int j = 0; j < 2; ++j) {
      pairs_[id[j]].row = c.slot + j;
      mine[j] = !BeginOne(pool, id[j], OrderedRow(c.slot + j));
      if (!mine[j]) ++finished;
    }
    int cur = mine[0] ? 0 : 1;
    if (mine[0] && mine[1]) pairs_[id[1]].holder.store(kPairOffered, std::memory_order_release);
    while (mine[cur]) {
      if (PartOne(pool, id[cur], OrderedRow(c.slot + cur))) {
        mine[cur] = false;
        ++finished;
      }
      const int other = 1 - cur;
      if (!mine[other]) continue;  // alone: step this one to its end
      uint8_t offered = kPairOffered;
      if (pairs_[id[other]].holder.compare_exchange_strong(
              offered, kPairIdle, std::memory_order_acquire, std::memory_order_relaxed)) {
        if (mine[cur]) pairs_[id[cur]].holder.store(kPairOffered, std::memory_order_release);
        cur = other;
      } else {
        mine[other] = false;  // stolen: the thief finishes and counts it
      }
    }
    FinishOrdered(finished);
    return finished;
  }

  // Finishes one offered env; false when none is offered.
  template <typename Pool>
  bool StealPartT(Pool& pool) {
    if (!pairs_) return false;
    for (size_t k = 0; k < num_offer_slots_; ++k) {
      const int32_t id = offer_slots_[k].load(std::memory_order_relaxed);
      if (id < 0) continue;
      // Slots may name envs of an earlier round: only the holder says
      // whether the env's step is offered now.
      PairState& st = pairs_[id];
      uint8_t offered = kPairOffered;
      if (st.holder.load(std::memory_order_relaxed) != kPairOffered ||
          !st.holder.compare_exchange_strong(offered, kPairStolen, std::memory_order_acq_rel,
                                             std::memory_order_relaxed)) {
        continue;
      }
      const Row row = OrderedRow(static_cast<size_t>(st.row));
      while (!PartOne(pool, id, row)) {
      }
      pair_steals_.fetch_add(1, std::memory_order_relaxed);
      // Before the round can end (FinishOrdered): the next round's runner
      // starts from kPairIdle.
      st.holder.store(kPairIdle, std::memory_order_release);
      FinishOrdered(1);
      return true;
    }
    return false;
  }

  // Whether some pair offers an env now.
  bool HasOffer() const {
    if (!pairs_) return false;
    for (size_t k = 0; k < num_offer_slots_; ++k) {
      const int32_t id = offer_slots_[k].load(std::memory_order_relaxed);
      if (id >= 0 && pairs_[id].holder.load(std::memory_order_relaxed) == kPairOffered) {
        return true;
      }
    }
    return false;
  }

 private:
  std::unique_ptr<PairState[]> pairs_;  // per env; null unless EnablePairs
  // Two per queue: the envs of the pair last sent to that queue, -1 none.
  std::unique_ptr<std::atomic<int32_t>[]> offer_slots_;
  size_t num_offer_slots_ = 0;
  std::atomic<int64_t> pair_steals_{0};
};

}  // namespace envpool_x
