// The batched stepper's output fields and results: what each field is, the
// device block a launch writes, the options a pool is built with, and the
// kinds the GPU path has by name. Host-side only.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/spec.h"
#include "cuda/device_ops.h"
#include "cuda/env_kinds.h"

namespace envpool_x {
namespace batched {

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
// "final_info/<key>" beside them.
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

struct BatchedOptions {
  int64_t num_envs = 1;
  int32_t max_episode_steps = 0;
  Autoreset autoreset = Autoreset::kNextStep;
  std::vector<uint64_t> env_seeds;  // one per env
  bool copy_results = true;         // false: every result is a view of one reused block
};

// The output fields of a pool of an env with `spec`: its observation fields,
// reward, terminated, truncated, env_id, elapsed_step, its info fields, and in
// same_step mode the final_* copies and the mask. env_field[f] is where the
// env's field f (observation fields, then info fields) sits in *fields,
// final_field[f] its final copy.
inline void BuildOutputFields(const EnvSpec& spec, bool same_step, std::vector<OutputField>* fields,
                              std::vector<int>* env_field, std::vector<int>* final_field) {
  std::vector<OutputField>& out = *fields;
  auto scalar = [](const char* name, DType d) { return OutputField{name, d, {}, ItemSize(d)}; };
  auto field = [](const std::string& name, const ArraySpec& a) {
    size_t bytes = ItemSize(a.dtype);
    for (int64_t d : a.shape) bytes *= static_cast<size_t>(d);
    return OutputField{name, a.dtype, a.shape, bytes};
  };
  const bool array_obs = spec.obs.size() == 1 && spec.obs[0].name == "obs";
  std::vector<ArraySpec> env = spec.obs;
  env.insert(env.end(), spec.info.begin(), spec.info.end());
  if (env.size() > static_cast<size_t>(kMaxEnvFields)) {
    throw ValueError("the GPU path takes at most " + std::to_string(kMaxEnvFields) +
                     " observation and info fields per env");
  }
  auto add_env_fields = [&](size_t from, size_t to, const std::string& prefix) {
    for (size_t f = from; f < to; ++f) {
      env_field->push_back(static_cast<int>(out.size()));
      out.push_back(field(array_obs && f == 0 ? "obs" : prefix + env[f].name, env[f]));
    }
  };
  add_env_fields(0, spec.obs.size(), "obs/");
  out.push_back(scalar("reward", DType::kFloat32));
  out.push_back(scalar("terminated", DType::kBool));
  out.push_back(scalar("truncated", DType::kBool));
  out.push_back(scalar("env_id", DType::kInt32));
  out.push_back(scalar("elapsed_step", DType::kInt32));
  add_env_fields(spec.obs.size(), env.size(), "info/");
  if (same_step) {
    for (size_t f = 0; f < env.size(); ++f) {
      const bool obs = f < spec.obs.size();
      final_field->push_back(static_cast<int>(out.size()));
      out.push_back(field((obs ? "final_obs/" : "final_info/") + env[f].name, env[f]));
      if (f + 1 == spec.obs.size()) {
        out.push_back(scalar("final_info/env_id", DType::kInt32));
        out.push_back(scalar("final_info/elapsed_step", DType::kInt32));
      }
    }
    out.push_back(scalar("_final_obs", DType::kBool));
  }
}

}  // namespace batched
}  // namespace envpool_x
