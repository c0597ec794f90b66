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

// The action of one env: discrete (int32 categories) or a float32 box.
// One agent's part is a scalar in [0, n), or with `nvec` a row of nvec.size()
// values, value j in [0, nvec[j]) (gymnasium's MultiDiscrete), or the box.
// With num_agents > 1 the agents' parts follow one another: the action of an
// env has shape (num_agents, *one agent's shape), agent-major.
struct ActionSpec {
  bool discrete = true;
  int64_t n = 0;              // discrete without nvec: number of actions
  ArraySpec box;              // continuous: shape and bounds (dtype float32)
  std::vector<int64_t> nvec;  // discrete: categories per element (empty: one scalar)
  int64_t num_agents = 1;     // the env's agent count (EnvSpec::num_agents())
  int64_t AgentElements() const {
    if (!discrete) return box.NumElements();
    return nvec.empty() ? 1 : static_cast<int64_t>(nvec.size());
  }
  int64_t NumElements() const { return num_agents * AgentElements(); }
  // Discrete: values of element `index` of an env's action are in [0, Categories(index)).
  int64_t Categories(int64_t index) const {
    return nvec.empty() ? n : nvec[index % static_cast<int64_t>(nvec.size())];
  }
};

// What an env declares about itself for a given config.
// A multi-agent env (action.num_agents > 1) declares its observation and info
// fields with the agent axis first; the pool gives its reward that axis too,
// while terminated / truncated stay one per env (docs/multi_agent.md).
struct EnvSpec {
  std::vector<ArraySpec> obs;   // observation fields ("obs" for a plain array)
  std::vector<ArraySpec> info;  // env-specific info fields (besides env_id, elapsed_step)
  ActionSpec action;
  double reward_low = -std::numeric_limits<double>::infinity();
  double reward_high = std::numeric_limits<double>::infinity();
  // Agents per env: 1 for every single-agent task. Kept in the action spec,
  // which every step's checks read.
  int64_t num_agents() const { return action.num_agents; }
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
