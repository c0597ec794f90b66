// The CUDA stepper's host side: owns the per-env state arrays on a device
// (DeviceOps), validates what the caller asks for, and turns each step or
// reset into exactly one launch of the kernel body (cpp/cuda/kernel_body.h).
// Nothing here waits for the device except get_state / set_state /
// CheckErrors, which say so.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/errors.h"
#include "core/random.h"
#include "core/spec.h"
#include "cuda/cuda_fields.h"
#include "cuda/device_arrays.h"
#include "cuda/device_ops.h"
#include "cuda/kernel_body.h"
#include "cuda/kernel_params.h"
#include "cuda/param_tables.h"

namespace envpool_x {
namespace cuda_pool {

class CudaPool {
 public:
  // Largest batch: 2^31 - 1 rows would overflow int32 env ids.
  static constexpr int64_t kMaxEnvs = int64_t{1} << 30;

  CudaPool(EnvKind kind, const Config& cfg, CudaPoolOptions opt, std::shared_ptr<DeviceOps> ops)
      : kind_(kind), opt_(std::move(opt)), ops_(std::move(ops)) {
    const int64_t n = opt_.num_envs;
    if (n < 1 || n > kMaxEnvs) {
      throw ValueError("num_envs must be in [1, 2**30] on the GPU path, got " + std::to_string(n));
    }
    if (static_cast<int64_t>(opt_.env_seeds.size()) != n) {
      throw ValueError("need one seed per env: got " + std::to_string(opt_.env_seeds.size()) +
                       " seeds for num_envs=" + std::to_string(n));
    }
    EnvSpec spec;
    std::string name;
    std::vector<ParamSpec> param_specs;  // those the adapter applies per env
    VisitKind(kind_, [&](auto tag) {
      using K = typename decltype(tag)::Kernel;
      spec = K::CpuEnv::Spec(cfg);
      name = K::CpuEnv::kName;
      words_ = K::kWords;
      discrete_ = K::kDiscrete;
      if constexpr (ParamCountOf<K>::value > 0) param_specs = ParamSpecsOf<typename K::CpuEnv>();
      if (param_specs.size() != static_cast<size_t>(ParamCountOf<K>::value)) {
        throw StateError("the CUDA adapter of '" + name + "' disagrees with its CPU env on the " +
                         "number of per-env parameters");
      }
    });
    env_params_.Init(param_specs, ParamValuesOf(param_specs, cfg), opt_.env_seeds);
    // The adapter's compile-time action kind must be the CPU env's: the spec
    // (shapes, counts, bounds) comes from the CPU env alone.
    if (discrete_ != spec.action.discrete) {
      throw StateError("the CUDA adapter of '" + name +
                       "' disagrees with its CPU env on the action kind");
    }
    num_actions_ = spec.action.discrete ? spec.action.n : 0;
    action_ = spec.action;
    layout_ = std::make_unique<OutputLayout>(spec, opt_.autoreset == AutoresetMode::kSameStep);
    // A failed allocation frees what was allocated before it: the caller sees
    // MemoryError and no half-built pool keeps device memory.
    try {
      owned_.reserve(32);  // no push_back below may throw after an allocation
      MakeParams(cfg);
      AllocateState(n);
    } catch (...) {
      for (void* p : owned_) ops_->Free(p, 0);
      owned_.clear();
      throw;
    }
  }

  ~CudaPool() { Close(); }

 private:
  // The adapter's Params, with any shared instance uploaded to the device.
  void MakeParams(const Config& cfg) {
    ParamContext ctx{cfg, opt_.num_envs, opt_.max_episode_steps,
                     [this](const void* host, size_t bytes) {
                       void* p = Alloc(bytes);
                       ops_->CopyToDevice(p, host, bytes, 0);
                       return p;
                     }};
    MakeKindParams(kind_, ctx, params_, &slab_bytes_, &action_rule_);
  }

  void AllocateState(int64_t n) {
    const uintptr_t s = 0;
    dev_.Allocate(n, words_, slab_bytes_, action_.NumElements(),
                  [this](size_t bytes) { return Alloc(bytes); });
    ops_->Memset(dev_.state, 0, sizeof(double) * n * words_, s);
    ops_->Memset(dev_.slab, 0, static_cast<size_t>(n * slab_bytes_), s);
    ops_->Memset(dev_.rng_counter, 0, sizeof(uint64_t) * n, s);
    ops_->Memset(dev_.elapsed, 0, sizeof(int32_t) * n, s);
    ops_->Memset(dev_.flags, 0, n, s);
    ops_->CopyToDevice(dev_.rng_key, opt_.env_seeds.data(), sizeof(uint64_t) * n, s);
    ClearErrors(s);
    started_.assign(n, 0);
    if (!opt_.copy_results)
      fixed_ = std::make_shared<Block>(ops_, layout_->BlockBytes(n, nullptr), s);
    // The state above was written on the legacy default stream.
    last_stream_ = s;
  }

 public:
  // What a pool of `kind` would allocate per env, without building one. The
  // Params are built with a stand-in for uploads: the sizes depend only on
  // whether an instance is shared, never on its bytes.
  static PerEnvSizes Sizes(EnvKind kind, const Config& cfg, int64_t num_envs,
                           AutoresetMode autoreset) {
    EnvSpec spec;
    int words = 0;
    VisitKind(kind, [&](auto tag) {
      using K = typename decltype(tag)::Kernel;
      spec = K::CpuEnv::Spec(cfg);
      words = K::kWords;
    });
    static unsigned char stand_in = 0;
    ParamContext ctx{cfg, num_envs, 0, [](const void*, size_t) -> void* { return &stand_in; }};
    alignas(16) unsigned char params[kParamsBytes];
    std::string rule;
    PerEnvSizes sizes;
    MakeKindParams(kind, ctx, params, &sizes.slab, &rule);
    sizes.device = DeviceArrays::BytesPerEnv(words, spec.action.NumElements());
    // The seeds kept and a reset's seeds, the started flags.
    sizes.host = 2 * sizeof(decltype(CudaPoolOptions::env_seeds)::value_type) +
                 sizeof(decltype(started_)::value_type);
    sizes.row =
        static_cast<int64_t>(OutputLayout(spec, autoreset == AutoresetMode::kSameStep).RowBytes());
    return sizes;
  }

  void Close() {
    if (closed_) return;
    closed_ = true;
    // Work still queued may read these arrays: free them in stream order.
    for (void* p : owned_) ops_->Free(p, last_stream_);
    owned_.clear();
    env_params_.Free(*ops_, last_stream_);
    fixed_.reset();
  }

  bool closed() const { return closed_; }
  const std::vector<OutputField>& fields() const { return layout_->fields(); }
  const CudaPoolOptions& options() const { return opt_; }
  const std::shared_ptr<DeviceOps>& ops() const { return ops_; }
  bool discrete() const { return discrete_; }
  int64_t num_actions() const { return num_actions_; }
  int64_t slab_bytes() const { return slab_bytes_; }

  // One step of `ids` (nullptr: every env, row k = env k). Here and in the
  // resets, ids are checked for range and repeats by the caller (EnvIdSet).
  Result Step(const ActionInput& action, const std::vector<int32_t>* ids, uintptr_t stream) {
    CheckOpen();
    const int64_t rows = ids ? static_cast<int64_t>(ids->size()) : opt_.num_envs;
    if (ids) {
      for (int32_t id : *ids) CheckStarted(id);
    } else if (num_started_ != opt_.num_envs) {
      for (int64_t e = 0; e < opt_.num_envs; ++e) CheckStarted(static_cast<int32_t>(e));
    }
    UseStream(stream);
    LaunchArgs a = Args(Op::kStep, ids, rows, stream);
    a.action_type = action.type;
    if (action.on_host && ops_->device_type() != kDeviceCpu) {
      const size_t item =
          action.type == ActionType::kInt64 || action.type == ActionType::kFloat64 ? 8 : 4;
      ops_->CopyToDevice(dev_.actions, action.data, item * rows * action_.NumElements(), stream);
      a.action = dev_.actions;
    } else {
      a.action = action.data;
    }
    return Launch(a, rows, stream);
  }

  // Resets `ids` (nullptr: all); seeds[k] (optional) re-seeds the k-th.
  Result Reset(const std::vector<int32_t>* ids, const std::vector<uint64_t>* seeds,
               uintptr_t stream) {
    CheckOpen();
    const int64_t rows = ids ? static_cast<int64_t>(ids->size()) : opt_.num_envs;
    if (seeds && static_cast<int64_t>(seeds->size()) != rows) {
      throw ValueError("got " + std::to_string(seeds->size()) + " seeds for " +
                       std::to_string(rows) + " envs");
    }
    UseStream(stream);
    LaunchArgs a = Args(Op::kReset, ids, rows, stream);
    if (seeds) {
      ops_->CopyToDevice(dev_.seeds, seeds->data(), sizeof(uint64_t) * rows, stream);
      a.seeds = dev_.seeds;
      env_params_.NoteSeeds(ids, *seeds);
    }
    MarkStarted(ids);
    return Launch(a, rows, stream);
  }

  // gymnasium's reset(options={"reset_mask": mask}): a row for every env;
  // masked envs reset (seeds, when given, has one entry per env and is read
  // for masked envs only), the others report their current observation.
  Result ResetMasked(const std::vector<uint8_t>& mask, const std::vector<uint64_t>* seeds,
                     uintptr_t stream) {
    CheckOpen();
    const int64_t n = opt_.num_envs;
    if (static_cast<int64_t>(mask.size()) != n)
      throw ValueError("reset_mask needs one entry per env");
    if (num_started_ != n) {
      throw StateError("reset(options={'reset_mask': ...}) needs a full reset() first");
    }
    UseStream(stream);
    LaunchArgs a = Args(Op::kResetMasked, nullptr, n, stream);
    ops_->CopyToDevice(dev_.mask, mask.data(), n, stream);
    a.mask = dev_.mask;
    if (seeds) {
      ops_->CopyToDevice(dev_.seeds, seeds->data(), sizeof(uint64_t) * n, stream);
      a.seeds = dev_.seeds;
      env_params_.NoteSeeds(nullptr, *seeds, &mask);
    }
    return Launch(a, n, stream);
  }

  // Reads back the error flags the launches recorded (a synchronisation),
  // clears them, and throws if there were any.
  void CheckErrors(uintptr_t stream) {
    CheckOpen();
    UseStream(stream);
    uint32_t e[4];
    ops_->CopyToHost(e, dev_.errors, sizeof(e), stream);
    if (e[0] == 0) return;
    ClearErrors(stream);
    ThrowLaunchErrors(e, action_, discrete_, num_actions_, action_rule_);
  }

  // Test hooks (synchronise): one env's state, in the CPU env's layout.
  std::vector<double> GetState(int64_t env, uintptr_t stream) {
    CheckEnv(env);
    CheckWordState();
    CheckStarted(env, "get_state()");
    UseStream(stream);
    std::vector<double> w(words_);
    for (int i = 0; i < words_; ++i) {
      ops_->CopyToHost(&w[i], dev_.state + i * opt_.num_envs + env, sizeof(double), stream);
    }
    if (kind_ == EnvKind::kMountainCarContinuous) w.resize(2);  // the flag is internal
    return w;
  }

  void SetState(int64_t env, const std::vector<double>& s, uintptr_t stream) {
    CheckEnv(env);
    CheckWordState();
    CheckStarted(env, "set_state()");
    std::vector<double> w = s;
    VisitKind(kind_, [&](auto tag) {
      using K = typename decltype(tag)::Kernel;
      constexpr bool kFlagged = std::is_same_v<typename K::CpuEnv, MountainCarContinuous>;
      const size_t want = kFlagged ? 2 : K::kWords;
      if (s.size() != want) {
        throw ValueError("state must have " + std::to_string(want) + " values, got " +
                         std::to_string(s.size()));
      }
      if constexpr (kFlagged) {
        // As the CPU env: values that are not both float32 are a fresh float64 state.
        auto f32 = [](double x) { return static_cast<double>(static_cast<float>(x)) == x; };
        w.push_back(f32(s[0]) && f32(s[1]) ? 0.0 : 1.0);
      }
    });
    UseStream(stream);
    for (int i = 0; i < words_; ++i) {
      ops_->CopyToDevice(dev_.state + i * opt_.num_envs + env, &w[i], sizeof(double), stream);
    }
    ops_->Synchronize(stream);  // `w` is a stack buffer
  }

  void Synchronize(uintptr_t stream) { ops_->Synchronize(stream); }

  // Per-env parameters (cpp/cuda/param_tables.h), as the CPU pool's
  // SetParams / GetParams take and give them; ids checked by the caller.
  const std::vector<ParamSpec>& param_specs() const { return env_params_.specs(); }
  void SetParams(const std::vector<int32_t>& ids, const std::vector<std::string>& names,
                 const std::vector<std::vector<ParamSetting>>& settings, bool immediate,
                 uintptr_t stream) {
    CheckOpen();
    const std::vector<size_t> index = env_params_.Check(ids, names, settings, immediate);
    if (immediate) {
      for (int32_t id : ids) CheckStarted(id, "set_params(immediate=True)");
    }
    UseStream(stream);
    env_params_.Write(*ops_, stream, ids, index, settings, immediate);
  }
  std::vector<double> GetParams(const std::vector<int32_t>& ids, uintptr_t stream) {
    CheckOpen();
    UseStream(stream);
    return env_params_.Get(*ops_, stream, ids);
  }

 private:
  // Device memory the pool owns until Close.
  void* Alloc(size_t bytes) {
    void* p = ops_->Alloc(bytes, 0);
    owned_.push_back(p);
    return p;
  }

  LaunchArgs Args(Op op, const std::vector<int32_t>* ids, int64_t rows, uintptr_t stream) {
    LaunchArgs a;
    a.count = rows;
    a.op = op;
    a.autoreset = opt_.autoreset;
    a.max_episode_steps = opt_.max_episode_steps;
    a.num_actions = num_actions_;
    a.env = EnvArrays{opt_.num_envs, dev_.state,       dev_.slab,    slab_bytes_,
                      dev_.rng_key,  dev_.rng_counter, dev_.elapsed, dev_.flags};
    a.errors = dev_.errors;
    a.params = env_params_.view();
    if (ids) {
      ops_->CopyToDevice(dev_.ids, ids->data(), sizeof(int32_t) * rows, stream);
      a.ids = dev_.ids;
    }
    return a;
  }

  Result Launch(LaunchArgs& a, int64_t rows, uintptr_t stream) {
    Result r;
    r.rows = rows;
    r.stream = stream;
    if (opt_.copy_results) {
      r.block = std::make_shared<Block>(ops_, layout_->BlockBytes(rows, &r.offsets), stream);
    } else {
      layout_->BlockBytes(rows, &r.offsets);
      r.block = fixed_;
    }
    layout_->Wire(r.block->ptr, r.offsets, &a.out);
    ops_->Launch(kind_, a, params_, stream);
    return r;
  }

  // Successive calls may come on different streams (the caller's current
  // one): order this call's work after everything queued before.
  void UseStream(uintptr_t stream) {
    if (stream != last_stream_) ops_->StreamWait(stream, last_stream_);
    last_stream_ = stream;
  }

  void ClearErrors(uintptr_t stream) {
    const uint32_t clean[4] = {0, kNoEnv, kNoEnv, 0};  // bits, env, agent
    ops_->CopyToDevice(dev_.errors, clean, sizeof(clean), stream);
  }

  void MarkStarted(const std::vector<int32_t>* ids) {
    if (!ids) {
      std::fill(started_.begin(), started_.end(), 1);
      num_started_ = opt_.num_envs;
      return;
    }
    for (int32_t id : *ids) {
      if (!started_[id]) {
        started_[id] = 1;
        ++num_started_;
      }
    }
  }

  // `before`: what needs the reset (a state to read or overwrite, as on the CPU pool).
  void CheckStarted(int64_t id, const char* before = "stepping") const {
    if (!started_[id]) {
      throw StateError("env " + std::to_string(id) +
                       " has not been reset; call reset() (or async_reset()) before " + before);
    }
  }

  void CheckEnv(int64_t env) const {
    CheckOpen();
    if (env < 0 || env >= opt_.num_envs) {
      throw ValueError("env_id " + std::to_string(env) + " is out of range [0, " +
                       std::to_string(opt_.num_envs) + ")");
    }
  }

  // get_state / set_state exist for the envs whose state is float64 words.
  void CheckWordState() const {
    if (words_ == 0) {
      throw ValueError(
          "get_state / set_state are not available on the GPU path for this env "
          "(its state is per-env arrays)");
    }
  }

  void CheckOpen() const {
    if (closed_) throw StateError("the env is closed");
  }

  EnvKind kind_;
  CudaPoolOptions opt_;
  std::shared_ptr<DeviceOps> ops_;
  alignas(16) unsigned char params_[kParamsBytes] = {};
  int words_ = 0;
  int64_t slab_bytes_ = 0;
  bool discrete_ = true;
  int64_t num_actions_ = 0;
  ActionSpec action_;        // the CPU env's (agents and elements per action)
  std::string action_rule_;  // what else a valid discrete action must be
  std::unique_ptr<OutputLayout> layout_;
  std::vector<void*> owned_;
  DeviceArrays dev_;
  DeviceParamTables env_params_;  // per-env parameters
  std::shared_ptr<Block> fixed_;
  std::vector<uint8_t> started_;
  int64_t num_started_ = 0;
  uintptr_t last_stream_ = 0;
  bool closed_ = false;
};

}  // namespace cuda_pool
}  // namespace envpool_x
