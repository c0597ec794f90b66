// Craftax pools, and CraftaxClassicSim: one Craftax-Classic game stepped with
// draws the caller gives (the parity tests' hook into the step's randomness),
// and its pixel view at any loaded block size.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/conversions.h"
#include "bindings/pool_binding.h"
#include "envs/craftax/classic_profile.h"
#include "envs/craftax/craftax_classic.h"
#include "envs/craftax/craftax_full.h"

namespace envpool_x {

void BindCraftaxFull(py::module_& m);  // cpp/bindings/craftax_full.cpp

namespace {

class CraftaxClassicSim {
 public:
  explicit CraftaxClassicSim(const py::dict& options)
      : p_(CraftaxClassic::Params(ConfigFromDict(CraftaxClassic::DefaultConfig(), options))) {}
  void SetState(const std::vector<double>& values) { craftax::UnpackState(values, s_); }
  std::vector<double> GetState() const { return craftax::PackState(s_); }
  void SetStateRng(uint32_t k0, uint32_t k1) {
    s_.state_rng[0] = k0;
    s_.state_rng[1] = k1;
  }
  // Craftax's render_craftax_pixels at `block` pixels a cell (0..255 floats).
  py::array_t<float> Pixels(int block) const {
    const auto textures = craftax::FindPixelTextures(block);
    py::array_t<float> out({textures->Rows(), textures->Cols(), 3});
    craftax::DrawPixels(s_, *textures, out.mutable_data());
    return out;
  }
  py::array_t<float> Obs() const {
    py::array_t<float> obs(craftax::kObsSize);
    craftax::WriteSymbolicObs(s_, obs.mutable_data());
    return obs;
  }
  // Returns (reward, done, draws used).
  py::tuple Step(int action, const std::vector<float>& draws) {
    if (action < 0 || action >= craftax::kNumActions) {
      throw ValueError("Craftax action must be in [0, 17), got " + std::to_string(action));
    }
    craftax::GivenDraws given{draws.data(), static_cast<int>(draws.size())};
    const float reward = craftax::ClassicStep(s_, action, given, p_);
    return py::make_tuple(reward, craftax::IsGameOver(s_, p_), given.used);
  }

 private:
  craftax::ClassicParams p_;
  craftax::ClassicState s_{};
};

}  // namespace

void BindCraftax(py::module_& m) {
  BindCraftaxFull(m);
  BindEnv<CraftaxClassic>(m);
  BindEnv<CraftaxClassicPixels>(m);
  BindEnv<CraftaxSymbolic>(m);
  BindEnv<CraftaxPixels>(m);
  m.def(
      "craftax_set_textures",
      [](int block, std::vector<std::vector<float>> parts) {
        craftax::SetPixelTextures(block, std::move(parts));
      },
      py::arg("block"), py::arg("parts"),
      "Load Craftax-Classic's textures at `block` pixels a cell (craftax_textures.py's arrays).");
  m.def("craftax_has_textures", [](int block) {
    try {
      craftax::FindPixelTextures(block);
      return true;
    } catch (const std::runtime_error&) {
      return false;
    }
  });
  py::class_<CraftaxClassicSim>(m, "CraftaxClassicSim")
      .def(py::init<const py::dict&>(), py::arg("options") = py::dict())
      .def("set_state", &CraftaxClassicSim::SetState)
      .def("get_state", &CraftaxClassicSim::GetState)
      .def("obs", &CraftaxClassicSim::Obs)
      .def("pixels", &CraftaxClassicSim::Pixels, py::arg("block"))
      .def("set_state_rng", &CraftaxClassicSim::SetStateRng)
      .def("step", &CraftaxClassicSim::Step, py::arg("action"), py::arg("draws"));
  m.def(
      "craftax_profile",
      [](bool pixels, const py::dict& options, int num_envs, int64_t steps, uint64_t seed,
         bool full) {
        if (num_envs < 1 || steps < 1) throw ValueError("num_envs and steps must be positive");
        const Config config = full ? ConfigFromDict(CraftaxSymbolic::DefaultConfig(), options)
                                   : ConfigFromDict(CraftaxClassic::DefaultConfig(), options);
        py::gil_scoped_release release;
        if (full) {
          return pixels ? craftax::ProfileClassic<CraftaxPixels>(config, num_envs, steps, seed)
                        : craftax::ProfileClassic<CraftaxSymbolic>(config, num_envs, steps, seed);
        }
        return pixels ? craftax::ProfileClassic<CraftaxClassicPixels>(config, num_envs, steps, seed)
                      : craftax::ProfileClassic<CraftaxClassic>(config, num_envs, steps, seed);
      },
      py::arg("pixels"), py::arg("options"), py::arg("num_envs"), py::arg("steps"),
      py::arg("seed") = 0, py::arg("full") = false,
      "Microseconds per step of each part of a Craftax step (classic_profile.h); full: the "
      "full game, else Craftax-Classic.");
  m.attr("craftax_draws_per_step") = craftax::kDrawsPerStep;
  m.attr("craftax_state_size") = craftax::StateSize();
}

}  // namespace envpool_x
