// Which envs have work in flight, and which were ever reset, as the caller
// thread sees them (only the caller touches this).
//
// An env is in flight while its round equals the current round: ending an
// ordered round frees all its envs at once (the round number moves on); in
// first-finished mode each received env is freed by itself. A send to every
// env of an ordered pool (the common full step) marks the whole round with
// one store instead of one per env: that per-env pass was the caller's
// largest serial cost per step, and it is what many threads wait for.
#pragma once

#include <cstdint>
#include <vector>

namespace envpool_x {

class InFlightEnvs {
 public:
  // Bytes per env (the pool's memory estimate counts them).
  static constexpr int64_t kBytesPerEnv = 8;

  explicit InFlightEnvs(int num_envs) : envs_(num_envs) {}

  bool busy(int32_t id) const { return envs_[id].round == round_ || whole_round_ == round_; }
  bool started(int32_t id) const { return envs_[id].started; }
  bool all_started() const { return num_started_ == static_cast<int64_t>(envs_.size()); }

  // Marks `ids` in flight (and started, for a reset). `whole`: ids are every
  // env and the pool is ordered (so they are freed together).
  void Send(const std::vector<int32_t>& ids, bool whole, bool reset) {
    if (whole) whole_round_ = round_;
    if (whole && (!reset || all_started())) return;
    for (int32_t id : ids) {
      State& e = envs_[id];
      if (!whole) e.round = round_;
      if (reset && !e.started) {
        e.started = true;
        ++num_started_;
      }
    }
  }

  // Ordered mode: the round was received; every env is free.
  void EndRound() {
    if (++round_ != 0) return;
    // The round number wrapped around (after 2^32 rounds): nothing is in
    // flight now, so every env can start from round 0.
    for (State& e : envs_) e.round = 0;
    whole_round_ = 0;
    round_ = 1;
  }

  // First-finished mode: env `id` was received.
  void Free(int32_t id) { envs_[id].round = 0; }

 private:
  struct State {
    uint32_t round = 0;
    bool started = false;
  };
  static_assert(sizeof(State) == kBytesPerEnv);

  std::vector<State> envs_;
  uint32_t round_ = 1;
  uint32_t whole_round_ = 0;  // the round in which every env is in flight
  int64_t num_started_ = 0;
};

}  // namespace envpool_x
