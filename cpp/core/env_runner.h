// The per-env run: stepping or resetting the envs of a chunk into their
// output rows, the pool's part of a step (elapsed steps, time limit,
// autoreset, an env's error), and telling the caller that rows are done.
//
// Rows: in ordered mode (batch_size == num_envs) a chunk's envs write the rows
// its send reserved; in first-finished mode a thread takes consecutive tickets
// when it starts a chunk, and ticket t lands in row t % batch_size of block
// (t / batch_size) % num_blocks.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <semaphore>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/autoreset.h"
#include "core/env.h"
#include "core/env_boundary.h"
#include "core/output_rows.h"
#include "core/param_store.h"
#include "core/pool_options.h"
#include "core/random.h"
#include "core/spec.h"

namespace envpool_x {

enum class Op : uint8_t { kStep, kReset };

// A chunk is a linked list through EnvState::next: an env is in at most one
// live chunk, so a chunk of any size costs one queue cell.
// When the ids are consecutive (the usual full step) the chunk is just the
// range [head, head + count) and no per-env links are written.
struct Chunk {
  int32_t head;
  int32_t count;
  int32_t slot;  // ordered mode: output row of the chunk's first env
  Op op;
  bool consecutive;
  bool pair = false;  // two envs stepped in alternating parts (core/pair_chunks.h)
};

class EnvRunner {
 public:
  EnvRunner(const EnvSpec& spec, const PoolOptions& opt)
      : spec_(spec),
        opt_(opt),
        ordered_(opt.batch_size == opt.num_envs),
        rows_(spec, opt.autoreset, ordered_ ? opt.num_envs : opt.batch_size,
              ordered_ ? 1 : (opt.num_envs + opt.batch_size - 1) / opt.batch_size + 1) {
    block_done_ = std::make_unique<std::atomic<int>[]>(rows_.num_blocks());
    for (int b = 0; b < rows_.num_blocks(); ++b) block_done_[b].store(0);
    // int32 values (discrete) or float32 (box): 4 bytes each.
    action_bytes_ = CheckedBytes(sizeof(int32_t), spec_.action.NumElements(), "the action");
    actions_.reset(new uint8_t[CheckedBytes(action_bytes_, opt_.num_envs, "the actions")]());
    states_.resize(opt_.num_envs);
    for (int i = 0; i < opt_.num_envs; ++i) {
      states_[i].rng.Seed(opt_.env_seeds[i]);
      states_[i].param_rng.Seed(ParamStreamKey(opt_.env_seeds[i]));
    }
  }

  const EnvSpec& spec() const { return spec_; }
  const PoolOptions& options() const { return opt_; }
  const std::vector<ArraySpec>& fields() const { return rows_.fields(); }
  const FieldLayout& layout() const { return rows_.layout(); }
  size_t action_bytes() const { return action_bytes_; }
  bool ordered() const { return ordered_; }

 protected:
  // Written by the caller before a send, read by the worker after it (the
  // queue's release/acquire orders them).
  struct EnvState {
    Rng rng;
    bool reseed = false;
    uint64_t seed = 0;
    int32_t next = -1;  // the next env of the same chunk
    int32_t elapsed = 0;
    bool done = false;             // last step ended the episode
    bool force_reset = false;      // the env threw; start over
    bool has_state = false;        // its last reset completed (state access and frames need one)
    bool params_at_reset = false;  // its next reset applies its parameter settings
    Rng param_rng;                 // draws of its randomised parameters (core/params.h)
  };

  // Steps or resets the envs of `c`; Pool (EnvPool<Env>) provides the env
  // calls, so that they inline into this loop. Returns the envs it finished.
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
        block = static_cast<int>((t / opt_.batch_size) % rows_.num_blocks());
        slot = static_cast<int>(t % opt_.batch_size);
      }
      RunOne(pool, id, rows_.RowAt(block, static_cast<size_t>(slot)), c.op);
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

  // Ordered mode's row `slot` (one block).
  Row OrderedRow(size_t slot) const { return rows_.RowAt(0, slot); }

  // Ordered mode: `n` more envs of the round are done.
  void FinishOrdered(int32_t n) {
    int64_t now = done_.fetch_add(n, std::memory_order_acq_rel) + n;
    if (now >= sent_target_.load(std::memory_order_acquire)) WakeCaller();
  }

  // First-finished mode: `n` more rows of `block` are done. Returns true when
  // this made the block full.
  bool FinishBlockRows(int block, int n) {
    return block_done_[block].fetch_add(n, std::memory_order_acq_rel) + n == opt_.batch_size;
  }

  // Called when what the caller waits for may be complete: a wake-up per
  // chunk would cost more than the chunk.
  void WakeCaller() {
    if (waiting_.load(std::memory_order_seq_cst) && waiting_.exchange(false)) {
      done_sem_.release();
    }
  }

  // The env's row of every field, and whether to stream it: only envs that
  // are not cheap are told (a cheap env's rows are small, and its step of a
  // few ns should not pay for the store).
  template <typename Pool>
  void FillRow(Row row, StepOutput* out) const {
    rows_.Fill(row, out);
    if constexpr (!Pool::kCheap) out->stream_rows = rows_.stream_rows();
  }

  // One env, whole: a reset, or a step (then an autoreset where it applies).
  template <typename Pool>
  void RunOne(Pool& pool, int32_t id, Row row, Op op) {
    EnvState& s = states_[id];
    StepOutput out;
    FillRow<Pool>(row, &out);
    bool& truncated = *out.truncated;
    if (rows_.has_final()) rows_.ClearFinal(row);
    rows_.At<int32_t>(layout().env_id, row) = id;
    const char* call = "Reset";  // what a non-standard exception came from
    try {
      bool reset = op == Op::kReset || ResetsInsteadOfStep(s.done, s.force_reset, opt_.autoreset);
      if (reset) {
        DoReset(pool, id, s, out, row);
      } else {
        truncated = false;
        call = "Step";
        pool.StepEnv(id, actions_.get() + id * action_bytes_, s.rng, out);
        call = "Reset";  // of a same_step autoreset
        AfterStep(pool, id, s, out, row);
      }
    } catch (const std::exception& e) {
      FailOne(id, &e, pool.env_name(), call, s, out);
    } catch (...) {
      FailOne(id, nullptr, pool.env_name(), call, s, out);
    }
  }

  // An env stepped in parts (ordered mode: row == slot), in three calls.
  // BeginOne and PartOne return true once the env's work is finished: a reset
  // or an error finishes it at once, else PartOne after the last part.
  template <typename Pool>
  bool BeginOne(Pool& pool, int32_t id, Row row) {
    EnvState& s = states_[id];
    if (ResetsInsteadOfStep(s.done, s.force_reset, opt_.autoreset)) {
      RunOne(pool, id, row, Op::kStep);
      return true;
    }
    if (rows_.has_final()) rows_.ClearFinal(row);
    rows_.At<int32_t>(layout().env_id, row) = id;
    try {
      pool.BeginStep(id, actions_.get() + id * action_bytes_);
      return false;
    } catch (const std::exception& e) {
      FailRow(id, &e, pool.env_name(), "BeginStep", s, row);
    } catch (...) {
      FailRow(id, nullptr, pool.env_name(), "BeginStep", s, row);
    }
    return true;
  }

  template <typename Pool>
  bool PartOne(Pool& pool, int32_t id, Row row) {
    EnvState& s = states_[id];
    StepOutput out;
    bool last;
    try {
      last = pool.StepPart(id);
    } catch (const std::exception& e) {
      FailRow(id, &e, pool.env_name(), "StepPart", s, row);
      return true;
    } catch (...) {
      FailRow(id, nullptr, pool.env_name(), "StepPart", s, row);
      return true;
    }
    if (!last) return false;
    FillRow<Pool>(row, &out);
    *out.truncated = false;
    const char* call = "EndStep";
    try {
      pool.EndStep(id, out);
      call = "Reset";  // of a same_step autoreset
      AfterStep(pool, id, s, out, row);
    } catch (const std::exception& e) {
      FailOne(id, &e, pool.env_name(), call, s, out);
    } catch (...) {
      FailOne(id, nullptr, pool.env_name(), call, s, out);
    }
    return true;
  }

  // The pool's part of a step, once the env has written its result.
  template <typename Pool>
  void AfterStep(Pool& pool, int32_t id, EnvState& s, const StepOutput& out, Row row) {
    bool& truncated = *out.truncated;
    ++s.elapsed;
    // The env may have ended the episode early itself (see StepOutput).
    truncated = truncated || TimeLimitReached(s.elapsed, opt_.max_episode_steps);
    s.done = *out.terminated || truncated;
    rows_.At<int32_t>(layout().elapsed_step, row) = s.elapsed;
    if (ResetsInSameStep(s.done, opt_.autoreset)) {
      rows_.CopyFinal(row);
      const bool term = *out.terminated;
      const bool trunc = truncated;
      DoReset(pool, id, s, out, row, /*keep_reward=*/true);
      *out.terminated = term;
      truncated = trunc;
    }
  }

  // The env threw `e` (null: a value not derived from std::exception, thrown
  // by env class `env` in `call`): its episode ends here and it resets on its
  // next step. Never throws, so that no thread dies of an env's error.
  void FailOne(int32_t id, const std::exception* e, const char* env, const char* call, EnvState& s,
               const StepOutput& out) noexcept {
    RecordError(id, e, env, call);
    s.force_reset = true;
    s.done = true;
    ZeroReward(out);
    *out.terminated = false;
    *out.truncated = true;
  }

  // FailOne for an env whose row is not filled yet.
  void FailRow(int32_t id, const std::exception* e, const char* env, const char* call, EnvState& s,
               Row row) noexcept {
    StepOutput out;
    rows_.Fill(row, &out);
    FailOne(id, e, env, call, s, out);
  }

  // Every agent's reward of this row.
  void ZeroReward(const StepOutput& out) const {
    for (int64_t a = 0; a < spec_.action.num_agents; ++a) out.reward[a] = 0.0f;
  }

  // `keep_reward`: a same_step autoreset, whose row keeps the step's rewards
  // (an env's Reset writes no reward).
  template <typename Pool>
  void DoReset(Pool& pool, int32_t id, EnvState& s, const StepOutput& out, Row row,
               bool keep_reward = false) {
    if (s.reseed) {
      s.rng.Seed(s.seed);
      s.param_rng.Seed(ParamStreamKey(s.seed));
      s.reseed = false;
    }
    if (s.params_at_reset) {
      s.params_at_reset = params_.Draw(id, s.param_rng);
      pool.ApplyParams(id, params_.values(id));
    }
    s.force_reset = false;
    s.has_state = false;  // until this reset completes
    pool.ResetEnv(id, s.rng, out);
    s.has_state = true;
    s.elapsed = pool.ElapsedAfterReset(id);
    s.done = false;
    if (!keep_reward) ZeroReward(out);
    *out.terminated = false;
    *out.truncated = false;
    rows_.At<int32_t>(layout().elapsed_step, row) = s.elapsed;
  }

  // An env's ValueError (an action the env refuses, such as a visited city)
  // reaches the caller as a ValueError; anything else as a RuntimeError. If
  // even the message cannot be built (no memory), the error is still kept.
  void RecordError(int32_t id, const std::exception* e, const char* env,
                   const char* call) noexcept {
    std::lock_guard<std::mutex> lock(error_mu_);
    if (has_error_.load(std::memory_order_relaxed)) return;
    error_is_value_ = dynamic_cast<const ValueError*>(e) != nullptr;
    error_env_ = id;
    try {
      error_msg_ = "env " + std::to_string(id) + " raised an error: " +
                   (e != nullptr ? std::string(e->what()) : NonStandardExceptionText(env, call)) +
                   " (its episode was ended; it resets on its next step)";
    } catch (...) {
      error_msg_.clear();
    }
    has_error_.store(true, std::memory_order_release);
  }

  // Throws the first error an env raised since the last call, if any.
  void ThrowRecordedError() {
    if (!has_error_.load(std::memory_order_acquire)) return;
    std::string msg;
    bool value = false;
    {
      std::lock_guard<std::mutex> lock(error_mu_);
      msg = error_msg_.empty() ? "env " + std::to_string(error_env_) +
                                     " raised an error (its message was lost: out of memory)"
                               : error_msg_;
      value = error_is_value_;
      has_error_.store(false, std::memory_order_relaxed);
    }
    if (value) throw ValueError(msg);
    throw std::runtime_error(msg);
  }

  EnvSpec spec_;
  PoolOptions opt_;
  bool ordered_;
  OutputRows rows_;
  std::unique_ptr<std::atomic<int>[]> block_done_;  // rows finished per block
  size_t action_bytes_ = 0;
  std::unique_ptr<uint8_t[]> actions_;  // the last action sent to each env
  std::vector<EnvState> states_;
  ParamStore params_;  // per-env parameters (core/param_store.h)
  // Completion: what the caller waits for, and how it is woken.
  std::counting_semaphore<> done_sem_{0};
  alignas(64) std::atomic<bool> waiting_{false};
  alignas(64) std::atomic<int64_t> sent_target_{0};  // envs sent so far (ordered mode)
  alignas(64) std::atomic<int64_t> done_{0};         // envs finished so far (ordered mode)
  alignas(64) std::atomic<int64_t> ticket_{0};       // next first-finished row
  std::mutex error_mu_;                              // error path only
  std::atomic<bool> has_error_{false};
  std::string error_msg_;
  int32_t error_env_ = 0;
  bool error_is_value_ = false;
};

}  // namespace envpool_x
