// Box2D pools: one line per env (cpp/envs/box2d/), and the single-env
// simulators the parity tests drive with gymnasium's random draws.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bindings/pool_binding.h"
#include "envs/box2d/bipedal_walker.h"
#include "envs/box2d/car_racing.h"
#include "envs/box2d/lunar_lander.h"

namespace envpool_x {

namespace {

// The test hooks' simulators have no world (or car) until build(): stepping
// or drawing one would dereference nothing.
template <typename Sim>
const Sim& Built(const Sim& sim, const char* name) {
  if (!sim.built()) throw StateError(std::string(name) + ": call build() first");
  return sim;
}

}  // namespace

void BindBox2d(py::module_& m) {
  using box2d::LunarLanderSim;
  BindEnv<box2d::LunarLander>(m);
  BindEnv<box2d::BipedalWalker>(m);
  BindEnv<box2d::CarRacing>(m);

  // Test hook: LunarLanderSim fed with given draws (tests/families/test_box2d_lunar.py).
  py::class_<LunarLanderSim>(m, "LunarLanderSim")
      .def(py::init([](bool continuous, double gravity, bool enable_wind, double wind_power,
                       double turbulence_power, bool particles) {
             box2d::LunarLanderParams p;
             p.continuous = continuous;
             p.gravity = gravity;
             p.enable_wind = enable_wind;
             p.wind_power = wind_power;
             p.turbulence_power = turbulence_power;
             p.particles = particles;
             return std::make_unique<LunarLanderSim>(p);
           }),
           py::arg("continuous"), py::arg("gravity"), py::arg("enable_wind"), py::arg("wind_power"),
           py::arg("turbulence_power"), py::arg("particles") = false)
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
            Built(sim, "LunarLanderSim");
            std::vector<float> obs(8);
            double reward = 0.0;
            bool terminated = false;
            sim.Step(action.data(), d0, d1, obs.data(), &reward, &terminated);
            return std::make_tuple(obs, reward, terminated);
          },
          py::arg("action"), py::arg("d0"), py::arg("d1"))
      .def("bodies",
           [](const LunarLanderSim& sim) { return Built(sim, "LunarLanderSim").Bodies(); })
      .def("particles",
           [](const LunarLanderSim& sim) {
             // x, y, ttl of each exhaust particle, oldest first.
             std::vector<std::array<double, 3>> out;
             for (const LunarLanderSim::Particle& q : Built(sim, "LunarLanderSim").particles()) {
               const b2Vec2 p = q.body->GetPosition();
               out.push_back({p.x, p.y, q.ttl});
             }
             return out;
           })
      .def("render", [](const LunarLanderSim& sim) {
        py::array_t<uint8_t> rgb(
            {box2d::LunarLanderRenderer::kH, box2d::LunarLanderRenderer::kW, 3});
        box2d::LunarLanderRenderer::Draw(Built(sim, "LunarLanderSim"), rgb.mutable_data());
        return rgb;
      });

  // Test hook: BipedalWalkerSim replaying gymnasium's draws (tests/families/test_box2d_walker.py).
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
            Built(sim, "BipedalWalkerSim");
            std::vector<float> obs(BipedalWalkerSim::kObsSize);
            double reward = 0.0;
            bool terminated = false;
            sim.Step(action.data(), obs.data(), &reward, &terminated);
            return std::make_tuple(obs, reward, terminated);
          },
          py::arg("action"))
      .def("terrain_vertices", &BipedalWalkerSim::TerrainVertices)
      .def("render", [](const BipedalWalkerSim& sim) {
        py::array_t<uint8_t> rgb(
            {box2d::BipedalWalkerRenderer::kH, box2d::BipedalWalkerRenderer::kW, 3});
        box2d::BipedalWalkerRenderer::Draw(Built(sim, "BipedalWalkerSim"), rgb.mutable_data());
        return rgb;
      });

  // Test hook: CarRacingSim and its renderer replaying gymnasium's draws
  // (tests/families/test_box2d_car*.py).
  using box2d::CarRacingSim;
  py::class_<CarRacingSim>(m, "CarRacingSim")
      .def(py::init([](bool continuous, double lap_complete_percent, bool domain_randomize) {
             return std::make_unique<CarRacingSim>(
                 box2d::CarRacingParams{continuous, lap_complete_percent, domain_randomize});
           }),
           py::arg("continuous") = true, py::arg("lap_complete_percent") = 0.95,
           py::arg("domain_randomize") = false)
      .def(
          "build",
          [](CarRacingSim& sim, std::vector<double> draws) {
            box2d::ReplayDraws replay(std::move(draws));
            sim.Build(replay);
            return replay.Left();
          },
          py::arg("draws"), "Builds the episode from gymnasium's draws; returns how many are left.")
      .def(
          "step",
          [](CarRacingSim& sim, std::optional<std::array<float, 3>> action) {
            Built(sim, "CarRacingSim");
            double reward = 0.0;
            bool terminated = false;
            sim.Step(action ? action->data() : nullptr, &reward, &terminated);
            return std::make_tuple(reward, terminated);
          },
          py::arg("action"), "One step (None: reset's first step); returns (reward, terminated).")
      .def("render",
           [](const CarRacingSim& sim) {
             py::array_t<uint8_t> obs({96, 96, 3});
             box2d::CarRacingRenderer::Draw(Built(sim, "CarRacingSim"), obs.mutable_data());
             return obs;
           })
      .def("car_state",
           [](const CarRacingSim& sim) {
             // hull x, y, angle, vx, vy, spin, then per wheel x, y, angle,
             // vx, vy, spin, joint angle (float32), omega, phase, gas, brake,
             // steer (float64), as doubles.
             std::vector<double> s;
             const box2d::Car& car = Built(sim, "CarRacingSim").car();
             auto body = [&s](const b2Body* b) {
               s.insert(s.end(), {b->GetPosition().x, b->GetPosition().y, b->GetAngle(),
                                  b->GetLinearVelocity().x, b->GetLinearVelocity().y,
                                  b->GetAngularVelocity()});
             };
             body(car.hull);
             for (const box2d::Wheel& w : car.wheels) {
               body(w.body);
               s.insert(s.end(),
                        {w.joint->GetJointAngle(), w.omega, w.phase, w.gas, w.brake, w.steer});
             }
             return s;
           })
      .def("track",
           [](const CarRacingSim& sim) {
             std::vector<std::array<double, 4>> t;
             for (const box2d::RoadPoint& p : sim.track().track)
               t.push_back({p.alpha, p.beta, p.x, p.y});
             return t;
           })
      .def("road_colors",
           [](const CarRacingSim& sim) {
             std::vector<std::array<double, 3>> c;
             for (const box2d::RoadPoly& p : sim.track().polys) c.push_back(p.color);
             return c;
           })
      .def("colors",
           [](const CarRacingSim& sim) {
             const box2d::CarColors& c = sim.colors();
             return std::make_tuple(c.road, c.bg, c.grass);
           })
      .def("mark_visited", &CarRacingSim::MarkVisited, py::arg("tiles"))
      .def_property_readonly("reward", &CarRacingSim::total_reward)
      .def_property_readonly("tile_visited_count", &CarRacingSim::tile_visited_count)
      .def_property_readonly("new_lap", &CarRacingSim::new_lap)
      .def_property_readonly("lap_finished", &CarRacingSim::lap_finished)
      .def_property_readonly("track_attempts", &CarRacingSim::track_attempts);
}

}  // namespace envpool_x
