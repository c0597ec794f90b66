// EnvPool<Env>: the pool for one env type. It builds the envs, and gives the
// per-env loop (core/env_runner.h, core/pair_chunks.h) the env's own calls so
// that they inline there; everything else is PoolBase's (core/pool_base.h).
#pragma once

#include <algorithm>
#include <deque>
#include <exception>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/env.h"
#include "core/env_boundary.h"
#include "core/params.h"
#include "core/pool_base.h"

namespace envpool_x {

// Binds a concrete env type to the pool.
template <typename Env>
class EnvPool final : public PoolBase {
 public:
  EnvPool(const Config& env_config, const PoolOptions& opt)
      : PoolBase(CallEnvCode(Env::kName, "Spec", -1, [&] { return Env::Spec(env_config); }), opt) {
    const int n = options().num_envs;
    if constexpr (!Env::kCheap && std::is_move_constructible_v<Env>) {
      // Expensive envs can be slow to build (loading an Atari ROM takes a
      // tenth of a second): build them on num_threads threads.
      std::vector<std::optional<Env>> built(n);
      std::vector<std::exception_ptr> errors(n);
      const int threads = std::max(1, std::min(options().num_threads, n));
      std::vector<std::thread> builders;
      builders.reserve(threads);
      // A builder that cannot start (no memory for its stack) must not leave
      // the started ones joinable: destroying those would std::terminate.
      std::exception_ptr start_error;
      try {
        for (int t = 0; t < threads; ++t) {
          builders.emplace_back([&, t] {
            for (int i = t; i < n; i += threads) {
              try {
                CallEnvCode(Env::kName, "constructor", i,
                            [&] { built[i].emplace(env_config, spec()); });
              } catch (...) {
                errors[i] = std::current_exception();
              }
            }
          });
        }
      } catch (...) {
        start_error = std::current_exception();
      }
      for (std::thread& b : builders) b.join();
      if (start_error) std::rethrow_exception(start_error);
      for (std::exception_ptr& e : errors) {
        if (e) std::rethrow_exception(e);
      }
      for (std::optional<Env>& e : built) envs_.emplace_back(std::move(*e));
    } else {
      for (int i = 0; i < n; ++i) {
        CallEnvCode(Env::kName, "constructor", i, [&] { envs_.emplace_back(env_config, spec()); });
      }
    }
    // A deque keeps each env at a fixed address; indexing it costs a
    // division per access, so the hot path indexes this table instead.
    env_at_.reserve(n);
    for (Env& e : envs_) env_at_.push_back(&e);
    for (int i = 0; i < n; ++i) {
      CallEnvCode(Env::kName, "setup", i, [&] {
        // Envs that want to know their id (e.g. to misbehave selectively) get it.
        if constexpr (requires(Env& e) { e.SetEnvId(0); }) env_at_[i]->SetEnvId(i);
        ApplyMaxEpisodeSteps(*env_at_[i], opt.max_episode_steps);
      });
    }
    if constexpr (HasParams<Env>()) {
      std::vector<ParamSpec> specs = Env::ParamSpecs();
      std::vector<double> defaults = ParamValuesOf(specs, env_config);
      params_.Init(std::move(specs), std::move(defaults), n);
    }
    if constexpr (kSteppedInParts) EnablePairs(options().num_threads + 1);
    StartWorkers();
  }
  ~EnvPool() override { Close(); }

  const char* env_name() const { return Env::kName; }

  static constexpr bool kSteppedInParts = SteppedInParts<Env>();
  static constexpr bool kCheap = Env::kCheap;

 protected:
  int32_t RunChunk(const Chunk& c) override {
    if constexpr (kSteppedInParts) {
      if (c.pair) return RunPairT(c, *this);
    }
    return RunChunkT(c, *this);
  }
  bool StealPart() override {
    if constexpr (kSteppedInParts) {
      return StealPartT(*this);
    } else {
      return false;
    }
  }

 public:  // for RunChunkT
  void ResetEnv(int env_id, Rng& rng, const StepOutput& out) { env_at_[env_id]->Reset(rng, out); }
  void ApplyParams(int env_id, const double* values) {
    if constexpr (HasParams<Env>()) env_at_[env_id]->SetParams(values);
  }
  int32_t ElapsedAfterReset(int env_id) const { return ElapsedAfterResetOf(*env_at_[env_id]); }
  void StepEnv(int env_id, const void* action, Rng& rng, const StepOutput& out) {
    StepWhole(*env_at_[env_id], action, rng, out);
  }
  // Envs stepped in parts only (see RunPairT).
  void BeginStep(int env_id, const void* action) {
    if constexpr (kSteppedInParts) env_at_[env_id]->BeginStep(action);
  }
  bool StepPart(int env_id) {
    if constexpr (kSteppedInParts) {
      return env_at_[env_id]->StepPart();
    } else {
      return true;
    }
  }
  void EndStep(int env_id, const StepOutput& out) {
    if constexpr (kSteppedInParts) env_at_[env_id]->EndStep(out);
  }

 protected:
  std::vector<double> DoGetState(int env_id) override {
    return CallEnvCode(Env::kName, "GetState", env_id, [&] { return env_at_[env_id]->GetState(); });
  }
  void DoSetState(int env_id, const std::vector<double>& s) override {
    CallEnvCode(Env::kName, "SetState", env_id, [&] { env_at_[env_id]->SetState(s); });
  }
  void DoApplyParams(int env_id, const double* values) override {
    CallEnvCode(Env::kName, "SetParams", env_id, [&] { ApplyParams(env_id, values); });
  }
  std::array<int, 2> RenderShape() const override {
    if constexpr (RendersAtConfigSize<Env>()) {
      return env_at_.empty() ? std::array<int, 2>{0, 0} : env_at_[0]->RenderSize();
    } else if constexpr (RendersItself<Env>()) {
      return {Env::kRenderHeight, Env::kRenderWidth};
    }
    return {0, 0};
  }
  void DoRender(int env_id, uint8_t* rgb) override {
    if constexpr (RendersItself<Env>()) {
      CallEnvCode(Env::kName, "Render", env_id, [&] { env_at_[env_id]->Render(rgb); });
    } else {
      PoolBase::DoRender(env_id, rgb);
    }
  }
  bool cheap() const override { return Env::kCheap; }
  bool stalls() const override { return MayStall<Env>(); }

 private:
  std::deque<Env> envs_;
  std::vector<Env*> env_at_;  // env_at_[i] == &envs_[i]
};

}  // namespace envpool_x
