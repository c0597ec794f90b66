// Env ids on the caller's side: checking a list of ids (EnvIdSet), and which
// queue owns each env for each way of sharing a round (OwnerTable).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.h"

namespace envpool_x {

// Checks lists of env ids against [0, num_envs) and for repeats, without
// allocating once warmed up.
class EnvIdSet {
 public:
  explicit EnvIdSet(int num_envs) : num_envs_(num_envs), mark_(num_envs, 0), all_(num_envs) {
    for (int i = 0; i < num_envs; ++i) all_[i] = i;
  }

  // Bytes this object keeps per env (the marks and the list of all ids).
  static constexpr size_t BytesPerEnv() {
    return sizeof(decltype(mark_)::value_type) + sizeof(decltype(all_)::value_type);
  }

  // 0 .. num_envs - 1. Callers recognise a full step by this object's address.
  const std::vector<int32_t>& all() const { return all_; }

  // The checked ids as int32; valid until the next call.
  const std::vector<int32_t>& Check(const int64_t* ids, int64_t n) {
    if (n < 1) throw ValueError("env_id must not be empty");
    scratch_.resize(n);
    ++epoch_;
    if (epoch_ == 0) {  // wrapped: clear the marks once
      std::fill(mark_.begin(), mark_.end(), 0);
      epoch_ = 1;
    }
    for (int64_t k = 0; k < n; ++k) {
      const int64_t id = ids[k];
      if (id < 0 || id >= num_envs_) {
        throw ValueError("env_id " + std::to_string(id) + " is out of range [0, " +
                         std::to_string(num_envs_) + ")");
      }
      if (mark_[id] == epoch_) {
        throw ValueError("env_id " + std::to_string(id) + " appears more than once");
      }
      mark_[id] = epoch_;
      scratch_[k] = static_cast<int32_t>(id);
    }
    return scratch_;
  }

 private:
  int num_envs_;
  std::vector<uint32_t> mark_;  // mark_[id] == epoch_: id seen in this call
  uint32_t epoch_ = 0;
  std::vector<int32_t> all_;
  std::vector<int32_t> scratch_;
};

// How a round's envs are shared among T workers and the caller.
enum class Sharing : int {
  kWorkersOnly = 0,    // T queues, one per worker
  kCallerToo = 1,      // T + 1 queues: the caller (queue T) takes a share
  kCallerForLast = 2,  // T queues, the caller (queue T) takes the last worker's
};
constexpr int kNumSharings = 3;

// Which queue owns env e: part e * parts / num_envs of the envs, precomputed
// for each Sharing (a division per env per step would cost more than a
// CartPole step). Each queue owns a consecutive range of envs.
class OwnerTable {
 public:
  OwnerTable(int num_envs, int num_threads) {
    const int64_t T = num_threads;
    for (int k = 0; k < kNumSharings; ++k) {
      const Sharing sharing = static_cast<Sharing>(k);
      const int64_t parts = sharing == Sharing::kCallerToo ? T + 1 : T;
      owner_of_[k].resize(num_envs);
      owner_end_[k].assign(T + 1, 0);
      for (int64_t e = 0; e < num_envs; ++e) {
        int64_t q = e * parts / num_envs;
        if (sharing == Sharing::kCallerForLast && q == T - 1) q = T;
        owner_of_[k][e] = static_cast<uint16_t>(q);
        owner_end_[k][q] = static_cast<int32_t>(e + 1);
      }
    }
  }

  // owner[e]: the queue owning env e.
  const uint16_t* Owners(Sharing s) const { return owner_of_[static_cast<int>(s)].data(); }
  // One past the last env queue q owns.
  int32_t End(Sharing s, int q) const { return owner_end_[static_cast<int>(s)][q]; }

 private:
  std::vector<uint16_t> owner_of_[kNumSharings];
  std::vector<int32_t> owner_end_[kNumSharings];
};

}  // namespace envpool_x
