// Box2D pools: one line per env (cpp/envs/box2d/), and the single-env
// simulators the parity tests drive with gymnasium's random draws.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <tuple>
#include <vector>

#include "bindings/pool_binding.h"
#include "envs/box2d/bipedal_walker.h"
#include "envs/box2d/lunar_lander.h"

namespace envpool_x {

void BindBox2d(py::module_& m) {
  using box2d::LunarLanderSim;
  BindEnv<box2d::LunarLander>(m);
  BindEnv<box2d::BipedalWalker>(m);

  // Test hook: LunarLanderSim fed with given draws (tests/test_box2d_lunar.py).
  py::class_<LunarLanderSim>(m, "LunarLanderSim")
      .def(py::init([](bool continuous, double gravity, bool enable_wind, double wind_power,
                       double turbulence_power) {
             box2d::LunarLanderParams p{continuous, gravity, enable_wind, wind_power,
                                        turbulence_power};
             return std::make_unique<LunarLanderSim>(p);
           }),
           py::arg("continuous"), py::arg("gravity"), py::arg("enable_wind"), py::arg("wind_power"),
           py::arg("turbulence_power"))
      .def(
          "build",
          [](LunarLanderSim& sim, const std::array<double, 12>& heights, double fx, double fy,
             int64_t wind_idx, int64_t torque_idx) {
            sim.Build(box2d::LunarLanderResetDraws{heights, fx, fy, wind_idx, torque_idx});
          },
          py::arg("heights"), py::arg("force_x"), py::arg("force_y"), py::arg("wind_idx"),
          py::arg("torque_idx"))
      .def(
          "step",
          [](LunarLanderSim& sim, const std::array<float, 2>& action, double d0, double d1) {
            std::vector<float> obs(8);
            double reward = 0.0;
            bool terminated = false;
            sim.Step(action.data(), d0, d1, obs.data(), &reward, &terminated);
            return std::make_tuple(obs, reward, terminated);
          },
          py::arg("action"), py::arg("d0"), py::arg("d1"))
      .def("bodies", &LunarLanderSim::Bodies);

  // Test hook: BipedalWalkerSim replaying gymnasium's draws (tests/test_box2d_walker.py).
  using box2d::BipedalWalkerSim;
  py::class_<BipedalWalkerSim>(m, "BipedalWalkerSim")
      .def(py::init([](bool hardcore) { return std::make_unique<BipedalWalkerSim>(hardcore); }),
           py::arg("hardcore"))
      .def(
          "build",
          [](BipedalWalkerSim& sim, std::vector<double> draws) {
            box2d::ReplayDraws replay(std::move(draws));
            sim.Build(replay);
            return replay.Left();
          },
          py::arg("draws"), "Builds the world from gymnasium's draws; returns how many are left.")
      .def(
          "step",
          [](BipedalWalkerSim& sim, const std::array<float, 4>& action) {
            std::vector<float> obs(BipedalWalkerSim::kObsSize);
            double reward = 0.0;
            bool terminated = false;
            sim.Step(action.data(), obs.data(), &reward, &terminated);
            return std::make_tuple(obs, reward, terminated);
          },
          py::arg("action"))
      .def("terrain_vertices", &BipedalWalkerSim::TerrainVertices);
}

}  // namespace envpool_x
