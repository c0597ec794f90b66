// The CUDA stepper's output fields and results: what each field is, the
// device block a launch writes, the options a pool is built with, and the
// kinds the GPU path has by name. Host-side only.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "core/result_fields.h"
#include "core/spec.h"
#include "cuda/device_ops.h"
#include "cuda/env_kinds.h"

namespace envpool_x {
namespace cuda_pool {

// The C++ pool names (CartPole, ...) of the envs the GPU path has.
inline std::vector<std::string> KindNames() {
  std::vector<std::string> names;
  for (EnvKind k : kAllKinds) {
    VisitKind(k, [&](auto tag) { names.push_back(decltype(tag)::Kernel::CpuEnv::kName); });
  }
  return names;
}

inline EnvKind ParseEnvKind(const std::string& pool_name) {
  std::vector<std::string> names = KindNames();
  std::string all;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == pool_name) return kAllKinds[i];
    all += (i ? ", " : "") + names[i];
  }
  throw ValueError("the GPU path has no kernel for '" + pool_name + "'; it has " + all);
}

// One output field: its per-env shape and where it sits in a result block.
// The env's fields are named "obs" (an array observation) or "obs/<key>" (a
// Dict's), and "info/<key>"; in same_step mode "final_obs/<key>" and
// "final_info/<key>" beside them (core/result_fields.h).
struct OutputField {
  std::string name;
  DType dtype;
  std::vector<int64_t> shape;  // one env's row
  size_t row_bytes = 0;
};

// One device allocation holding every output field of a launch. Freed when
// the last exported tensor that references it is released, on the stream of
// its last consumer (so work that consumer queued before is not cut short).
struct Block {
  Block(std::shared_ptr<DeviceOps> o, size_t bytes, uintptr_t stream)
      : ops(std::move(o)), free_stream(stream) {
    ptr = static_cast<uint8_t*>(ops->Alloc(bytes, stream));
  }
  ~Block() { ops->Free(ptr, free_stream.load()); }
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  std::shared_ptr<DeviceOps> ops;
  uint8_t* ptr = nullptr;
  std::atomic<uintptr_t> free_stream;
};

// A launch's outputs: `rows` rows of every field, field f at block->ptr +
// offsets[f]; ready once the work queued on `stream` has run.
struct Result {
  std::shared_ptr<Block> block;
  std::vector<size_t> offsets;
  int64_t rows = 0;
  uintptr_t stream = 0;
};

// An action array the caller hands over: on the host (copied to the device
// once, or used in place by HostOps) or already in device memory.
struct ActionInput {
  const void* data = nullptr;
  ActionType type = ActionType::kInt32;
  bool on_host = true;
};

struct CudaPoolOptions {
  int64_t num_envs = 1;
  int32_t max_episode_steps = 0;
  AutoresetMode autoreset = AutoresetMode::kNextStep;
  std::vector<uint64_t> env_seeds;  // one per env
  bool copy_results = true;         // false: every result is a view of one reused block
};

// The output fields of a pool of an env with `spec`, and where each sits in
// a result block: its observation fields, reward, terminated, truncated,
// env_id, elapsed_step, its info fields, and in same_step mode the final_*
// copies and the mask.
class OutputLayout {
 public:
  static constexpr size_t kAlign = 256;

  OutputLayout(const EnvSpec& spec, bool same_step) : same_step_(same_step) {
    auto scalar = [](const std::string& name, DType d) {
      return OutputField{name, d, {}, ItemSize(d)};
    };
    auto final_info = [](const char* name) {
      return std::string(result_fields::kFinalInfoPrefix) + name;
    };
    auto field = [](const std::string& name, const ArraySpec& a) {
      size_t bytes = ItemSize(a.dtype);
      for (int64_t d : a.shape) bytes *= static_cast<size_t>(d);
      return OutputField{name, a.dtype, a.shape, bytes};
    };
    const bool array_obs = spec.obs.size() == 1 && spec.obs[0].name == result_fields::kObs;
    std::vector<ArraySpec> env = spec.obs;
    env.insert(env.end(), spec.info.begin(), spec.info.end());
    if (env.size() > static_cast<size_t>(kMaxEnvFields)) {
      throw ValueError("the GPU path takes at most " + std::to_string(kMaxEnvFields) +
                       " observation and info fields per env");
    }
    num_obs_ = static_cast<int>(spec.obs.size());
    auto add_env_fields = [&](size_t from, size_t to, const std::string& prefix) {
      for (size_t f = from; f < to; ++f) {
        env_field_.push_back(fields_.size());
        fields_.push_back(
            field(array_obs && f == 0 ? result_fields::kObs : prefix + env[f].name, env[f]));
      }
    };
    add_env_fields(0, spec.obs.size(), result_fields::kObsPrefix);
    const std::pair<const char*, DType> fixed[] = {{result_fields::kReward, DType::kFloat32},
                                                   {result_fields::kTerminated, DType::kBool},
                                                   {result_fields::kTruncated, DType::kBool},
                                                   {result_fields::kEnvId, DType::kInt32},
                                                   {result_fields::kElapsedStep, DType::kInt32}};
    for (const auto& [name, dtype] : fixed) {
      fixed_field_.push_back(fields_.size());
      fields_.push_back(scalar(name, dtype));
    }
    if (spec.num_agents() > 1) {  // one reward per agent (docs/multi_agent.md)
      OutputField& reward = fields_[fixed_field_[0]];
      reward.shape = {spec.num_agents()};
      reward.row_bytes *= static_cast<size_t>(spec.num_agents());
    }
    add_env_fields(spec.obs.size(), env.size(), result_fields::kInfoPrefix);
    if (!same_step) return;
    for (size_t f = 0; f < env.size(); ++f) {
      final_field_.push_back(fields_.size());
      const char* prefix =
          f < spec.obs.size() ? result_fields::kFinalObsPrefix : result_fields::kFinalInfoPrefix;
      fields_.push_back(field(prefix + env[f].name, env[f]));
      if (f + 1 == spec.obs.size()) {
        fixed_field_.push_back(fields_.size());
        fields_.push_back(scalar(final_info(result_fields::kEnvId), DType::kInt32));
        fixed_field_.push_back(fields_.size());
        fields_.push_back(scalar(final_info(result_fields::kElapsedStep), DType::kInt32));
      }
    }
    fixed_field_.push_back(fields_.size());
    fields_.push_back(scalar(result_fields::kFinalMask, DType::kBool));
  }

  const std::vector<OutputField>& fields() const { return fields_; }

  // Bytes of one env's row over every field (a block's size before alignment).
  size_t RowBytes() const {
    size_t bytes = 0;
    for (const OutputField& f : fields_) bytes += f.row_bytes;
    return bytes;
  }

  // Bytes of a block of `rows` rows (each field 256-byte aligned); fills
  // offsets when given.
  size_t BlockBytes(int64_t rows, std::vector<size_t>* offsets) const {
    size_t at = 0;
    for (const OutputField& f : fields_) {
      if (offsets) offsets->push_back(at);
      at += (f.row_bytes * rows + kAlign - 1) / kAlign * kAlign;
    }
    return at;
  }

  // Points a launch's outputs at a block starting at `base`.
  void Wire(uint8_t* base, const std::vector<size_t>& offsets, Outputs* out) const {
    auto at = [&](size_t i) { return base + offsets[fixed_field_[i]]; };
    out->num_fields = static_cast<int32_t>(env_field_.size());
    out->num_obs_fields = num_obs_;
    for (size_t f = 0; f < env_field_.size(); ++f) {
      out->field[f] = base + offsets[env_field_[f]];
      out->row_bytes[f] = static_cast<int64_t>(fields_[env_field_[f]].row_bytes);
      if (same_step_) out->final_field[f] = base + offsets[final_field_[f]];
    }
    out->reward = reinterpret_cast<float*>(at(0));
    out->terminated = reinterpret_cast<bool*>(at(1));
    out->truncated = reinterpret_cast<bool*>(at(2));
    out->env_id = reinterpret_cast<int32_t*>(at(3));
    out->elapsed_step = reinterpret_cast<int32_t*>(at(4));
    if (same_step_) {
      out->final_env_id = reinterpret_cast<int32_t*>(at(5));
      out->final_elapsed_step = reinterpret_cast<int32_t*>(at(6));
      out->final_mask = reinterpret_cast<bool*>(at(7));
    }
  }

 private:
  bool same_step_;
  int num_obs_ = 0;
  std::vector<OutputField> fields_;
  std::vector<size_t> env_field_;    // where env field f (obs, then info) sits
  std::vector<size_t> final_field_;  // same_step: its final_* copy
  std::vector<size_t> fixed_field_;  // reward ... elapsed_step, then the final ones
};

}  // namespace cuda_pool
}  // namespace envpool_x
