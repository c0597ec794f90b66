// The full Craftax game's symbolic observation as a test hook: a packed state
// (full/state_io.h) in, Craftax-Symbolic-v1's observation out, for the parity
// tests against Craftax's render_craftax_symbolic.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <chrono>
#include <memory>
#include <vector>

#include "bindings/conversions.h"
#include "envs/craftax/full/state_io.h"
#include "envs/craftax/full/symbolic_obs.h"

namespace envpool_x {

void BindCraftaxFullSymbolic(py::module_& m) {
  m.attr("craftax_full_symbolic_obs_size") = craftax::full::kSymbolicObsSize;
  m.def(
      "craftax_full_symbolic_obs",
      [](const std::vector<double>& values) {
        auto s = std::make_unique<craftax::full::FullState>();
        craftax::full::UnpackState(values, *s);
        py::array_t<float> obs(craftax::full::kSymbolicObsSize);
        craftax::full::WriteSymbolicObs(*s, obs.mutable_data());
        return obs;
      },
      py::arg("state"), "Craftax-Symbolic-v1's observation (float32) of a packed full state.");
  m.def(
      "craftax_full_symbolic_obs_us",
      [](const std::vector<double>& values, int calls) {
        auto s = std::make_unique<craftax::full::FullState>();
        craftax::full::UnpackState(values, *s);
        std::vector<float> obs(craftax::full::kSymbolicObsSize);
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; ++i) {
          craftax::full::WriteSymbolicObs(*s, obs.data());
          // Keeps the writes: the compiler may not drop a call whose output is unread.
          asm volatile("" : : "r"(obs.data()) : "memory");
        }
        const std::chrono::duration<double, std::micro> took =
            std::chrono::steady_clock::now() - start;
        return took.count() / calls;
      },
      py::arg("state"), py::arg("calls") = 10000,
      "Microseconds per WriteSymbolicObs of a packed full state (the benchmark's hook).");
}

}  // namespace envpool_x
