// The boundary between envpool_x._core and an env compiled on the user's
// machine (envpool_x.register_cpp_env): the user's module instantiates the
// pool for its env class, here, and hands _core a table of plain functions.
// Both sides compile these same headers; the ABI tag says whether they did so
// with the same envpool_x version, compiler and standard library ABI, since
// C++ objects (Config, EnvSpec, PoolBase) cross the boundary.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/env.h"
#include "core/env_boundary.h"
#include "core/env_pool.h"
#include "core/errors.h"
#include "core/pool_options.h"
#include "core/raw_loop.h"
#include "core/spec.h"

#ifndef ENVPOOL_X_VERSION
#define ENVPOOL_X_VERSION "unknown"
#endif

#define ENVPOOL_X_STR2(x) #x
#define ENVPOOL_X_STR(x) ENVPOOL_X_STR2(x)

// What must agree between _core and a user module for the objects above to
// mean the same on both sides: the headers (the version) and the standard
// library's string / list layout. The compiler itself may differ (GCC and
// Clang share the Itanium C++ ABI); it is part of the module's cache key.
#define ENVPOOL_X_ABI_TAG                                                \
  "envpool_x " ENVPOOL_X_VERSION "; libstdc++ cxx11 abi " ENVPOOL_X_STR( \
      _GLIBCXX_USE_CXX11_ABI) "; c++ " ENVPOOL_X_STR(__cplusplus) "; api 1"

namespace envpool_x {

// Bumped when the table below changes.
constexpr int kExternalApiVersion = 1;

// The table a user module exports (envpool_x_env_api). Functions that may
// fail throw envpool_x's error types (errors.h), which _core translates.
struct ExternalEnvApi {
  int api_version;
  const char* abi_tag;
  const char* name;  // Env::kName
  // What envpool_x.memory needs: sizeof(Env) and how the pool runs it.
  size_t env_size;
  bool stepped_in_parts;
  bool cheap;
  Config (*default_config)();
  EnvSpec (*spec)(const Config&);
  PoolBase* (*make_pool)(const Config&, const PoolOptions&);
  // (seconds, episodes) of RawLoopSeconds (core/raw_loop.h).
  std::pair<double, int64_t> (*raw_loop)(const Config&, int, int64_t, uint64_t, int);
};

// Compile-time checks of the env contract (core/env.h), so that a class that
// breaks it fails with a sentence instead of a page of template errors.
template <typename Env, typename = void>
struct HasName : std::false_type {};
template <typename Env>
struct HasName<Env, std::void_t<decltype(Env::kName)>> : std::true_type {};
template <typename Env, typename = void>
struct HasCheap : std::false_type {};
template <typename Env>
struct HasCheap<Env, std::void_t<decltype(Env::kCheap)>> : std::true_type {};
template <typename Env, typename = void>
struct HasDefaultConfig : std::false_type {};
template <typename Env>
struct HasDefaultConfig<Env, std::void_t<decltype(Config(Env::DefaultConfig()))>> : std::true_type {
};
template <typename Env, typename = void>
struct HasSpec : std::false_type {};
template <typename Env>
struct HasSpec<Env, std::void_t<decltype(EnvSpec(Env::Spec(std::declval<const Config&>())))>>
    : std::true_type {};
template <typename Env, typename = void>
struct HasReset : std::false_type {};
template <typename Env>
struct HasReset<Env, std::void_t<decltype(std::declval<Env&>().Reset(
                         std::declval<Rng&>(), std::declval<const StepOutput&>()))>>
    : std::true_type {};
template <typename Env, typename = void>
struct HasStep : std::false_type {};
template <typename Env>
struct HasStep<Env, std::void_t<decltype(std::declval<Env&>().Step(
                        nullptr, std::declval<Rng&>(), std::declval<const StepOutput&>()))>>
    : std::true_type {};

template <typename Env, typename = void>
struct HasState : std::false_type {};
template <typename Env>
struct HasState<Env,
                std::void_t<decltype(std::vector<double>(std::declval<const Env&>().GetState())),
                            decltype(std::declval<Env&>().SetState(
                                std::declval<const std::vector<double>&>()))>> : std::true_type {};

template <typename Env>
constexpr bool CheckEnvContract() {
  static_assert(HasName<Env>::value,
                "envpool_x env contract: the class needs `static constexpr const char* kName`");
  static_assert(HasCheap<Env>::value,
                "envpool_x env contract: the class needs `static constexpr bool kCheap`");
  static_assert(HasDefaultConfig<Env>::value,
                "envpool_x env contract: the class needs `static Config DefaultConfig()`");
  static_assert(HasSpec<Env>::value,
                "envpool_x env contract: the class needs `static EnvSpec Spec(const Config&)`");
  static_assert(std::is_constructible_v<Env, const Config&, const EnvSpec&>,
                "envpool_x env contract: the class needs a constructor "
                "`Env(const Config&, const EnvSpec&)`");
  static_assert(HasReset<Env>::value,
                "envpool_x env contract: the class needs `void Reset(Rng&, const StepOutput&)`");
  static_assert(HasStep<Env>::value || SteppedInParts<Env>(),
                "envpool_x env contract: the class needs `void Step(const void* action, Rng&, "
                "const StepOutput&)` (or BeginStep / StepPart / EndStep)");
  static_assert(HasState<Env>::value,
                "envpool_x env contract: the class needs `std::vector<double> GetState() const` "
                "and `void SetState(const std::vector<double>&)`");
  return true;
}

template <typename Env>
const ExternalEnvApi* MakeExternalEnvApi() {
  static_assert(CheckEnvContract<Env>());
  static const ExternalEnvApi api{
      kExternalApiVersion,
      ENVPOOL_X_ABI_TAG,
      Env::kName,
      sizeof(Env),
      EnvPool<Env>::kSteppedInParts,
      Env::kCheap,
      // Every call into the user's code leaves with a std::exception at worst
      // (core/env_boundary.h): _core reports those, naming the env.
      [] {
        return CallEnvCode(Env::kName, "DefaultConfig", -1, [] { return Env::DefaultConfig(); });
      },
      [](const Config& c) {
        return CallEnvCode(Env::kName, "Spec", -1, [&] { return Env::Spec(c); });
      },
      [](const Config& c, const PoolOptions& o) -> PoolBase* { return new EnvPool<Env>(c, o); },
      [](const Config& c, int num_envs, int64_t steps, uint64_t seed, int max_steps) {
        return CallEnvCode(Env::kName, "raw loop", -1, [&] {
          return RawLoopSeconds<Env>(c, num_envs, steps, seed, max_steps);
        });
      },
  };
  return &api;
}

}  // namespace envpool_x

// The one line a user module ends with (envpool_x writes it for you).
#define ENVPOOL_X_EXPORT_ENV(EnvClass)                                                \
  extern "C" __attribute__((visibility("default"))) const void* envpool_x_env_api() { \
    return static_cast<const void*>(::envpool_x::MakeExternalEnvApi<EnvClass>());     \
  }
