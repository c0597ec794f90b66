// Python <-> C++ conversions shared by every binding: numpy dtypes, specs and
// configs as dicts, seeds, the env-id parser, numpy actions through the
// action validator, and our typed errors as Python exceptions. Definitions in
// conversions.cpp.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
// Every binding casts STL containers the same way: stl.h in every TU.
#include <pybind11/stl.h>

#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "core/spec.h"

namespace envpool_x {
namespace py = pybind11;

py::dtype ToNumpy(DType d);

py::dict ArraySpecToDict(const ArraySpec& s);
py::dict EnvSpecToDict(const EnvSpec& spec);

py::dict ConfigToDict(const Config& c);
// Merges `overrides` into `defaults`, converting each value to the type of
// its default. Unknown keys are an error that lists the valid ones.
Config ConfigFromDict(const Config& defaults, const py::dict& overrides);

// Seeds for a reset of `ids`: an int seed gives env id DeriveEnvSeed(seed,
// id); a sequence gives one seed per id. Returns false for None.
bool ParseSeeds(const py::object& seed, const std::vector<int32_t>& ids,
                std::vector<uint64_t>* out);

// The env ids a caller passed (a sequence or array of integers, or one
// integer) as a contiguous int64 array; range and repeats are EnvIdSet's to
// check (core/env_ids.h). Shared by the CPU pool and the GPU pool.
py::array_t<int64_t, py::array::c_style> EnvIdArray(const py::object& env_id);

// `action` (anything numpy takes) as an array whose element kind and shape
// the action validator (core/action_check.h) accepted for n envs of `a`; not
// converted yet. Shared by the CPU pool and the GPU pool.
py::array ActionArray(const py::object& action, const ActionSpec& a, int64_t n);

// Out of memory while building a pool (a failed allocation, a thread or a
// device array that could not be had): Python's MemoryError.
class MemoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs `build` (which constructs a pool) and turns a failed allocation into
// MemoryError naming `what` (e.g. "a pool of 1000 CartPole envs"); whatever
// `build` had made is already freed by then (its destructors ran).
template <typename F>
auto BuildOrMemoryError(const std::string& what, F&& build) -> decltype(build()) {
  try {
    return build();
  } catch (const std::bad_alloc& e) {
    throw MemoryError("out of memory building " + what + " (" + e.what() +
                      "); use fewer envs, or see envpool_x.memory.estimate()");
  } catch (const std::length_error& e) {
    throw MemoryError("out of memory building " + what + " (" + e.what() +
                      "): more than an array can hold; use fewer envs");
  } catch (const std::system_error& e) {
    // std::thread could not start one (EAGAIN: no memory for its stack, or
    // the process's thread limit).
    throw MemoryError("could not start a thread building " + what + " (" + e.what() +
                      "); use fewer envs or threads");
  }
}

// Maps our typed errors to Python exception types (MemoryError and
// std::bad_alloc to MemoryError).
void RegisterExceptions();

}  // namespace envpool_x
