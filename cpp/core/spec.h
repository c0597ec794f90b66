// Array specs and configs: what an env declares once, and what Python turns
// into gymnasium spaces and dm_env specs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/errors.h"

namespace envpool_x {

enum class DType { kBool, kUInt8, kInt32, kInt64, kFloat32, kFloat64, kInt8 };

inline size_t ItemSize(DType d) {
  switch (d) {
    case DType::kBool:
    case DType::kUInt8:
    case DType::kInt8:
      return 1;
    case DType::kInt32:
    case DType::kFloat32:
      return 4;
    case DType::kInt64:
    case DType::kFloat64:
      return 8;
  }
  return 0;
}

inline const char* DTypeName(DType d) {
  switch (d) {
    case DType::kBool:
      return "bool";
    case DType::kUInt8:
      return "uint8";
    case DType::kInt8:
      return "int8";
    case DType::kInt32:
      return "int32";
    case DType::kInt64:
      return "int64";
    case DType::kFloat32:
      return "float32";
    case DType::kFloat64:
      return "float64";
  }
  return "?";
}

// One named array of a single env (no batch dimension). Bounds are either
// empty (unbounded), one value (broadcast) or one value per element.
// `discrete` marks an integer field whose values are categories in
// [low, high]: Python shows a scalar one as gymnasium's Discrete and an array
// as MultiDiscrete (not a Box), and dm_env as a DiscreteArray where it can.
struct ArraySpec {
  std::string name;
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;
  std::vector<double> low;
  std::vector<double> high;
  bool discrete = false;

  int64_t NumElements() const {
    return std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<int64_t>());
  }
  size_t NumBytes() const { return NumElements() * ItemSize(dtype); }
  double Low(int64_t i) const {
    if (low.empty()) return -std::numeric_limits<double>::infinity();
    return low.size() == 1 ? low[0] : low[i];
  }
  double High(int64_t i) const {
    if (high.empty()) return std::numeric_limits<double>::infinity();
    return high.size() == 1 ? high[0] : high[i];
  }
};

// A scalar categorical field with values in [0, n) (gymnasium's Discrete(n),
// whose default dtype is int64).
inline ArraySpec DiscreteSpec(const std::string& name, int64_t n, DType dtype = DType::kInt64) {
  return ArraySpec{name, dtype, {}, {0.0}, {static_cast<double>(n - 1)}, true};
}

// The action of one env: discrete (int32 scalar in [0, n)) or a float32 box.
struct ActionSpec {
  bool discrete = true;
  int64_t n = 0;  // discrete: number of actions
  ArraySpec box;  // continuous: shape and bounds (dtype float32)
  int64_t NumElements() const { return discrete ? 1 : box.NumElements(); }
};

// What an env declares about itself for a given config.
struct EnvSpec {
  std::vector<ArraySpec> obs;   // observation fields ("obs" for a plain array)
  std::vector<ArraySpec> info;  // env-specific info fields (besides env_id, elapsed_step)
  ActionSpec action;
  double reward_low = -std::numeric_limits<double>::infinity();
  double reward_high = std::numeric_limits<double>::infinity();
};

// Lists are for options such as FrozenLake's `desc` (rows of a map) or
// `reward_schedule`; Python passes any sequence of str / of numbers.
using ConfigValue =
    std::variant<bool, int64_t, double, std::string, std::vector<double>, std::vector<std::string>>;

// A flat key -> value map with typed access. Every key has a default declared
// by the env (or by the pool), so an unknown key is always an error.
class Config {
 public:
  Config() = default;
  Config(std::initializer_list<std::pair<const std::string, ConfigValue>> init) : values_(init) {}

  void Set(const std::string& key, ConfigValue v) { values_[key] = std::move(v); }
  bool Has(const std::string& key) const { return values_.count(key) != 0; }
  const std::map<std::string, ConfigValue>& values() const { return values_; }

  int64_t Int(const std::string& key) const {
    const ConfigValue& v = Get(key);
    if (auto* i = std::get_if<int64_t>(&v)) return *i;
    if (auto* b = std::get_if<bool>(&v)) return *b ? 1 : 0;
    throw TypeError("config key '" + key + "' must be an integer");
  }
  double Double(const std::string& key) const {
    const ConfigValue& v = Get(key);
    if (auto* d = std::get_if<double>(&v)) return *d;
    if (auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
    throw TypeError("config key '" + key + "' must be a number");
  }
  bool Bool(const std::string& key) const {
    const ConfigValue& v = Get(key);
    if (auto* b = std::get_if<bool>(&v)) return *b;
    if (auto* i = std::get_if<int64_t>(&v)) return *i != 0;
    throw TypeError("config key '" + key + "' must be a bool");
  }
  const std::string& String(const std::string& key) const {
    const ConfigValue& v = Get(key);
    if (auto* s = std::get_if<std::string>(&v)) return *s;
    throw TypeError("config key '" + key + "' must be a string");
  }

  const std::vector<double>& Doubles(const std::string& key) const {
    const ConfigValue& v = Get(key);
    if (auto* l = std::get_if<std::vector<double>>(&v)) return *l;
    throw TypeError("config key '" + key + "' must be a list of numbers");
  }
  const std::vector<std::string>& Strings(const std::string& key) const {
    const ConfigValue& v = Get(key);
    if (auto* l = std::get_if<std::vector<std::string>>(&v)) return *l;
    throw TypeError("config key '" + key + "' must be a list of strings");
  }

  const ConfigValue& Get(const std::string& key) const {
    auto it = values_.find(key);
    if (it == values_.end()) throw KeyError("missing config key '" + key + "'");
    return it->second;
  }

 private:
  std::map<std::string, ConfigValue> values_;
};

}  // namespace envpool_x
