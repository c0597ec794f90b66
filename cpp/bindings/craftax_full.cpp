// The full Craftax game's test hooks: CraftaxSim, one game stepped with the
// random draws the caller gives (the parity tests' hook into the step's
// randomness), and per-part hooks that take a packed state (full/state_io.h)
// and return it after one part of Craftax's step, so that the parity tests
// compare each part with Craftax's own function (tests/oracles/
// craftax_full_oracle.py). Each part's hooks are bound in its own file.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "bindings/conversions.h"
#include "envs/craftax/full/draws.h"
#include "envs/craftax/full/state_io.h"
#include "envs/craftax/full/step.h"
#include "envs/craftax/full/symbolic_obs.h"

namespace envpool_x {
namespace {

class CraftaxSim {
 public:
  CraftaxSim() : s_(std::make_unique<craftax::full::FullState>()) {}
  void SetState(const std::vector<double>& values) { craftax::full::UnpackState(values, *s_); }
  py::array_t<double> GetState() const {
    const std::vector<double> packed = craftax::full::PackState(*s_);
    py::array_t<double> out(static_cast<py::ssize_t>(packed.size()));
    std::copy(packed.begin(), packed.end(), out.mutable_data());
    return out;
  }
  void SetStateRng(uint32_t k0, uint32_t k1) {
    s_->state_rng[0] = k0;
    s_->state_rng[1] = k1;
  }
  py::array_t<float> Obs() const {
    py::array_t<float> obs(craftax::full::kSymbolicObsSize);
    craftax::full::WriteSymbolicObs(*s_, obs.mutable_data());
    return obs;
  }
  // Returns (reward, done, draws used).
  py::tuple Step(int action, const std::vector<float>& draws) {
    if (action < 0 || action >= craftax::full::kNumActions) {
      throw ValueError("Craftax action must be in [0, 43), got " + std::to_string(action));
    }
    craftax::full::GivenDraws given{draws.data(), static_cast<int>(draws.size())};
    const float reward = craftax::full::FullStep(*s_, action, given, p_);
    return py::make_tuple(reward, craftax::full::IsGameOver(*s_, p_), given.used);
  }

 private:
  craftax::full::FullParams p_;
  std::unique_ptr<craftax::full::FullState> s_;
};

}  // namespace

// Each part's hooks (cpp/bindings/craftax_full_<part>.cpp).
void BindCraftaxFullSymbolic(py::module_& m);
void BindCraftaxFullMobs(py::module_& m);
void BindCraftaxFullPlayer(py::module_& m);
void BindCraftaxFullWorldgen(py::module_& m);
void BindCraftaxFullPixels(py::module_& m);
void BindCraftaxFullActions(py::module_& m);

void BindCraftaxFull(py::module_& m) {
  BindCraftaxFullSymbolic(m);
  BindCraftaxFullMobs(m);
  BindCraftaxFullPlayer(m);
  BindCraftaxFullWorldgen(m);
  BindCraftaxFullPixels(m);
  BindCraftaxFullActions(m);
  m.attr("craftax_full_state_size") = craftax::full::StateSize();
  m.def(
      "craftax_full_roundtrip",
      [](const std::vector<double>& values) {
        auto s = std::make_unique<craftax::full::FullState>();
        craftax::full::UnpackState(values, *s);
        return craftax::full::PackState(*s);
      },
      py::arg("state"), "Unpack a packed full Craftax state into ours and pack it again.");
  py::class_<CraftaxSim>(m, "CraftaxSim")
      .def(py::init<>())
      .def("set_state", &CraftaxSim::SetState)
      .def("get_state", &CraftaxSim::GetState)
      .def("set_state_rng", &CraftaxSim::SetStateRng)
      .def("obs", &CraftaxSim::Obs)
      .def("step", &CraftaxSim::Step, py::arg("action"), py::arg("draws"));
}

}  // namespace envpool_x
