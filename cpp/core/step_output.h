// Where one env writes a step's result: StepOutput (this env's row of every
// output field) and OutputField<T>, a handle to one field resolved by name
// once, when the env is built. Writing through a handle costs one array index;
// the name lookup and the dtype check happen at resolution only.
//
//   obs_ = ObsField<float>(spec, "obs");          // in the env's constructor
//   x_ = InfoField<double>(spec, "x_position");
//   float* o = out[obs_];                          // in Reset / Step
//   *out[x_] = 1.0;
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/spec.h"

namespace envpool_x {

constexpr int kMaxFields = 16;

// The dtype of a C++ element type, as a spec declares it.
template <typename T>
constexpr DType DTypeOf();
template <>
constexpr DType DTypeOf<bool>() {
  return DType::kBool;
}
template <>
constexpr DType DTypeOf<uint8_t>() {
  return DType::kUInt8;
}
template <>
constexpr DType DTypeOf<int8_t>() {
  return DType::kInt8;
}
template <>
constexpr DType DTypeOf<int32_t>() {
  return DType::kInt32;
}
template <>
constexpr DType DTypeOf<int64_t>() {
  return DType::kInt64;
}
template <>
constexpr DType DTypeOf<float>() {
  return DType::kFloat32;
}
template <>
constexpr DType DTypeOf<double>() {
  return DType::kFloat64;
}

// A handle to one output field with element type T. Default-constructed it is
// unbound (an optional field the config left out); test with bound().
template <typename T>
class OutputField {
 public:
  constexpr OutputField() = default;
  constexpr bool bound() const { return slot_ >= 0; }
  constexpr int slot() const { return slot_; }
  static constexpr OutputField AtSlot(int slot) {
    OutputField f;
    f.slot_ = slot;
    return f;
  }

 private:
  int slot_ = -1;
};

// This env's row of every output field. Observation field i is slot i, info
// field i is slot kMaxFields + i (EnvSpec order); the pool fills the slots
// the env's spec has and leaves the rest uninitialised.
struct StepOutput {
  static constexpr int kInfoSlot = kMaxFields;

  std::array<uint8_t*, 2 * kMaxFields> slots;
  float* reward = nullptr;  // one per agent (EnvSpec::num_agents)
  bool* terminated = nullptr;
  // False when a step starts. An env sets it to end the episode early for a
  // reason outside the task (a MuJoCo simulation gone unstable); the pool
  // also sets it at max_episode_steps. Null where nobody reads it.
  bool* truncated = nullptr;
  // True where this row is one of a batch far larger than the caches: an
  // env that builds a large row may stream it (core/stream_rows.h). False
  // for a row that stays in the cache (the raw loops, a profiler's row) and
  // for every env whose kCheap is true (its rows are small).
  bool stream_rows = false;

  template <typename T>
  T* operator[](OutputField<T> f) const {
#ifdef ENVPOOL_X_CHECKED
    if (!f.bound()) throw std::logic_error("write through an unbound OutputField");
#endif
    return reinterpret_cast<T*>(slots[f.slot()]);
  }

  // This row with observation field i (EnvSpec order) written to obs[i]
  // instead and the rest unchanged: how a wrapper env (pixel observations)
  // keeps its inner env's observation fields to itself.
  StepOutput WithObservationsIn(const std::vector<std::vector<uint8_t>>& obs) const {
    StepOutput row = *this;
    for (size_t i = 0; i < obs.size(); ++i) row.slots[i] = const_cast<uint8_t*>(obs[i].data());
    return row;
  }
};

namespace output_detail {

template <typename T>
OutputField<T> Find(const std::vector<ArraySpec>& fields, std::string_view name, int base,
                    const char* kind, bool required) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name != name) continue;
    if (fields[i].dtype != DTypeOf<T>()) {
      throw std::logic_error(std::string(kind) + " field '" + std::string(name) + "' is declared " +
                             DTypeName(fields[i].dtype) + " in the env's spec but written as " +
                             DTypeName(DTypeOf<T>()));
    }
    return OutputField<T>::AtSlot(base + static_cast<int>(i));
  }
  if (required) {
    throw std::logic_error("the env's spec declares no " + std::string(kind) + " field '" +
                           std::string(name) + "'");
  }
  return OutputField<T>();
}

}  // namespace output_detail

// Resolves an observation field of `spec` by name; throws std::logic_error
// (a bug in the env, not the user's) when it is missing or T is not its dtype.
template <typename T>
OutputField<T> ObsField(const EnvSpec& spec, std::string_view name) {
  return output_detail::Find<T>(spec.obs, name, 0, "observation", true);
}

// Resolves an info field of `spec` by name, checked as ObsField.
template <typename T>
OutputField<T> InfoField(const EnvSpec& spec, std::string_view name) {
  return output_detail::Find<T>(spec.info, name, StepOutput::kInfoSlot, "info", true);
}

// An info field that some configs leave out: unbound when `spec` lacks it.
template <typename T>
OutputField<T> OptionalInfoField(const EnvSpec& spec, std::string_view name) {
  return output_detail::Find<T>(spec.info, name, StepOutput::kInfoSlot, "info", false);
}

// An observation field that some configs leave out: unbound when absent.
template <typename T>
OutputField<T> OptionalObsField(const EnvSpec& spec, std::string_view name) {
  return output_detail::Find<T>(spec.obs, name, 0, "observation", false);
}

}  // namespace envpool_x
