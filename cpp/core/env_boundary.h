// The boundary to env code. An env (a user's above all) may throw anything,
// including values not derived from std::exception (`throw 42;`): those carry
// no message, a worker thread would die of one (std::terminate), and pybind11
// reports one only as "Caught an unknown exception!". The per-env run
// (core/env_runner.h) catches everything itself; every other call into env
// code (construction, the spec, state access, frames, the raw loop) goes
// through CallEnvCode, which turns such a value into a std::runtime_error
// that names the env class and the call.
#pragma once

#include <stdexcept>
#include <string>

namespace envpool_x {

// "env 3: MyEnv's Step threw ..." (env_id < 0: no env of a pool, e.g. the spec).
inline std::string NonStandardExceptionText(const char* env, const char* call, int env_id = -1) {
  std::string s = env_id >= 0 ? "env " + std::to_string(env_id) + ": " : std::string();
  return s + env + "'s " + call +
         " threw a non-standard C++ exception (a value not derived from std::exception, "
         "which carries no message)";
}

// Runs f() and returns what it returns; a std::exception leaves unchanged,
// anything else as a std::runtime_error saying what threw it.
template <typename F>
decltype(auto) CallEnvCode(const char* env, const char* call, int env_id, F&& f) {
  try {
    return f();
  } catch (const std::exception&) {
    throw;
  } catch (...) {
    throw std::runtime_error(NonStandardExceptionText(env, call, env_id));
  }
}

}  // namespace envpool_x
