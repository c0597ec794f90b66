// Per-env parameters (docs/params.md): physical constants an env declares,
// which the caller may change for some envs while the pool runs, as fixed
// values or as distributions drawn at each of the env's resets.
//
// An env that has them declares
//   static std::vector<ParamSpec> ParamSpecs();  // names are config keys
//   void SetParams(const double* values);        // one per spec, in order
// and its constructor reads the same keys from its config, so that an env
// given values p by SetParams steps exactly as one built with p as config.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "core/host_device.h"
#include "core/random.h"
#include "core/spec.h"

namespace envpool_x {

struct ParamSpec {
  std::string name;  // also the config key that sets it when the pool is made
  double low;        // accepted values, both ends included
  double high;
  bool mid_episode = true;  // may change while an episode runs (immediate=True)
};

// How an env's value is chosen at each of its resets.
enum class ParamDraw : uint8_t { kFixed, kUniform, kLogUniform, kNormal, kChoice };

// One value of a setting (ParamSetting's fields, flat, so that the CUDA
// stepper's kernel draws with the very same code): kFixed a; kUniform /
// kLogUniform in [a, b); kNormal mean a, standard deviation b, clipped to
// [low, high]; kChoice one of choices[0, num_choices), equally likely.
ENVPOOL_X_HD inline double DrawParamValue(ParamDraw draw, double a, double b, const double* choices,
                                          uint64_t num_choices, double low, double high, Rng& rng) {
  switch (draw) {
    case ParamDraw::kFixed:
      return a;
    case ParamDraw::kUniform:
      return rng.Uniform(a, b);
    case ParamDraw::kLogUniform:  // exp(log(b)) may round above b
      return std::fmin(std::exp(rng.Uniform(std::log(a), std::log(b))), b);
    case ParamDraw::kNormal:
      return std::fmin(std::fmax(a + b * rng.Normal(), low), high);
    case ParamDraw::kChoice:
      return choices[rng.UniformInt(num_choices)];
  }
  return a;
}

struct ParamSetting {
  ParamDraw draw = ParamDraw::kFixed;
  // kFixed: the value a. kUniform / kLogUniform: [a, b). kNormal: mean a,
  // standard deviation b, clipped to the declared range. kChoice: one of
  // `choices`, each equally likely.
  double a = 0.0;
  double b = 0.0;
  std::vector<double> choices;

  bool random() const { return draw != ParamDraw::kFixed; }

  double Draw(Rng& rng, const ParamSpec& spec) const {
    return DrawParamValue(draw, a, b, choices.data(), choices.size(), spec.low, spec.high, rng);
  }
};

// Env::ParamSpecs and Env::SetParams exist (detected the C++17 way, as in
// core/env.h: the CUDA sources include this header too).
template <typename Env, typename = void>
struct HasParamsOf : std::false_type {};
template <typename Env>
struct HasParamsOf<Env, std::void_t<decltype(Env::ParamSpecs()),
                                    decltype(std::declval<Env&>().SetParams(nullptr))>>
    : std::true_type {};
template <typename Env>
constexpr bool HasParams() {
  return HasParamsOf<Env>::value;
}

template <typename Env>
std::vector<ParamSpec> ParamSpecsOf() {
  if constexpr (HasParams<Env>()) {
    return Env::ParamSpecs();
  } else {
    return {};
  }
}

// Bytes one env of `config` takes while its parameters differ from the
// pool's (a model copy of its own: Env::ParamCopyBytes), 0 where none.
template <typename Env, typename = void>
struct HasParamCopyBytesOf : std::false_type {};
template <typename Env>
struct HasParamCopyBytesOf<Env, std::void_t<decltype(Env::ParamCopyBytes(std::declval<Config>()))>>
    : std::true_type {};
template <typename Env>
size_t ParamCopyBytesOf(const Config& config) {
  if constexpr (HasParamCopyBytesOf<Env>::value) {
    return Env::ParamCopyBytes(config);
  } else {
    return 0;
  }
}

// The salt of an env's parameter stream: draws come from their own Philox
// stream, so that randomising a value leaves the env's initial states (drawn
// from its main stream) as they were.
ENVPOOL_X_HD inline uint64_t ParamStreamKey(uint64_t env_seed) {
  return SplitMix64(env_seed ^ 0x7061726D73ULL);  // "parms"
}

// The shortest of 15 to 17 digits that reads back as `v` (0.1, not
// 0.10000000000000001), enough to tell a value from the bound it crossed.
inline std::string ParamValueText(double v) {
  char text[32];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(text, sizeof(text), "%.*g", digits, v);
    if (std::strtod(text, nullptr) == v) break;
  }
  return text;
}

// Throws ValueError unless `v` is a finite value in the range of `spec`.
inline void CheckParamValue(const ParamSpec& spec, double v, const std::string& where) {
  if (!std::isfinite(v) || v < spec.low || v > spec.high) {
    throw ValueError("parameter '" + spec.name + "'" + where + ": " + ParamValueText(v) + " is " +
                     (std::isfinite(v) ? "outside" : "not a finite number in") + " its range [" +
                     ParamValueText(spec.low) + ", " + ParamValueText(spec.high) + "]");
  }
}

// Throws ValueError unless every value `setting` can give is accepted.
inline void CheckParamSetting(const ParamSpec& spec, const ParamSetting& s,
                              const std::string& where) {
  switch (s.draw) {
    case ParamDraw::kFixed:
      CheckParamValue(spec, s.a, where);
      return;
    case ParamDraw::kUniform:
    case ParamDraw::kLogUniform:
      CheckParamValue(spec, s.a, where + " (low)");
      CheckParamValue(spec, s.b, where + " (high)");
      if (!(s.a <= s.b)) {
        throw ValueError("parameter '" + spec.name + "'" + where + ": low " + ParamValueText(s.a) +
                         " is above high " + ParamValueText(s.b));
      }
      if (s.draw == ParamDraw::kLogUniform && !(s.a > 0.0)) {
        throw ValueError("parameter '" + spec.name + "'" + where +
                         ": a log-uniform range needs low > 0, got " + ParamValueText(s.a));
      }
      return;
    case ParamDraw::kNormal:
      CheckParamValue(spec, s.a, where + " (mean)");
      if (!std::isfinite(s.b) || s.b < 0.0) {
        throw ValueError("parameter '" + spec.name + "'" + where +
                         ": the standard deviation must be finite and >= 0, got " +
                         ParamValueText(s.b));
      }
      return;
    case ParamDraw::kChoice:
      if (s.choices.empty()) {
        throw ValueError("parameter '" + spec.name + "'" + where + ": a choice needs values");
      }
      for (double v : s.choices) CheckParamValue(spec, v, where + " (choice)");
      return;
  }
}

// Checks a config's values of the declared parameters (the pool's defaults).
inline std::vector<double> ParamValuesOf(const std::vector<ParamSpec>& specs, const Config& cfg) {
  std::vector<double> values;
  values.reserve(specs.size());
  for (const ParamSpec& spec : specs) {
    const double v = cfg.Double(spec.name);
    CheckParamValue(spec, v, " (config key)");
    values.push_back(v);
  }
  return values;
}

}  // namespace envpool_x
