// CarRacing-v3 (gymnasium 1.4.0) on the pool: the world is CarRacingSim, the
// 96x96x3 observation CarRacingRenderer; the track and the domain-randomized
// colours are drawn from the env's own stream (so the same seed gives another
// track than gymnasium's).
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/params.h"
#include "envs/box2d/car_racing_render.h"
#include "envs/box2d/car_racing_sim.h"

namespace envpool_x::box2d {

class CarRacing {
 public:
  static constexpr const char* kName = "CarRacing";
  static constexpr bool kCheap = false;  // a step (its frame) costs about 0.3 ms
  static constexpr int kRenderHeight = CarRacingRenderer::kObs;
  static constexpr int kRenderWidth = CarRacingRenderer::kObs;

  static Config DefaultConfig() {
    const CarConstants c;
    return Config{{"continuous", true},
                  {"lap_complete_percent", 0.95},
                  {"domain_randomize", false},
                  {"engine_power", c.engine_power},
                  {"wheel_moment_of_inertia", c.wheel_moment_of_inertia},
                  {"friction_limit", c.friction_limit},
                  {"brake_force", c.brake_force},
                  {"grass_friction", c.grass_friction},
                  {"road_friction", c.road_friction}};
  }

  // car_dynamics.py's constants in lower case (docs/params.md); the two
  // frictions are shares of friction_limit. The wheels' moment of inertia
  // divides, so it stays above 0. The car reads them all at each step.
  static std::vector<ParamSpec> ParamSpecs() {
    return {{"engine_power", 0.0, 1e7},    {"wheel_moment_of_inertia", 1e-3, 1e3},
            {"friction_limit", 0.0, 1e5},  {"brake_force", 0.0, 1e3},
            {"grass_friction", 0.0, 10.0}, {"road_friction", 0.0, 10.0}};
  }
  static void SetConstants(CarConstants& c, const double* values) {
    c.engine_power = values[0];
    c.wheel_moment_of_inertia = values[1];
    c.friction_limit = values[2];
    c.brake_force = values[3];
    c.grass_friction = values[4];
    c.road_friction = values[5];
  }
  void SetParams(const double* values) {
    SetConstants(params_.car, values);
    sim_->SetParams(params_.car);
  }

  static CarRacingParams Params(const Config& config) {
    CarRacingParams p;
    p.continuous = config.Bool("continuous");
    p.lap_complete_percent = config.Double("lap_complete_percent");
    p.domain_randomize = config.Bool("domain_randomize");
    SetConstants(p.car, ParamValuesOf(ParamSpecs(), config).data());
    if (!std::isfinite(p.lap_complete_percent)) {
      throw ValueError("CarRacing: lap_complete_percent must be finite");
    }
    return p;
  }

  static EnvSpec Spec(const Config& config) {
    const CarRacingParams p = Params(config);
    constexpr int n = CarRacingRenderer::kObs;
    EnvSpec spec;
    spec.obs.push_back(ArraySpec{"obs", DType::kUInt8, {n, n, 3}, {0.0}, {255.0}});
    // gymnasium's info["lap_finished"], as a column: True where the step ended
    // the episode by finishing the lap.
    spec.info.push_back(ArraySpec{"lap_finished", DType::kBool, {}, {}, {}});
    if (p.continuous) {
      spec.action.discrete = false;  // steer, gas, brake
      spec.action.box =
          ArraySpec{"action", DType::kFloat32, {3}, {-1.0, 0.0, 0.0}, {1.0, 1.0, 1.0}};
    } else {
      spec.action.discrete = true;  // nothing, right, left, gas, brake
      spec.action.n = 5;
    }
    return spec;
  }

  CarRacing(const Config& config, const EnvSpec& spec)
      : params_(Params(config)),
        sim_(std::make_unique<CarRacingSim>(params_)),
        obs_(ObsField<uint8_t>(spec, "obs")),
        lap_finished_(InfoField<bool>(spec, "lap_finished")) {}

  void Reset(Rng& rng, const StepOutput& out) {
    RngDraws draws(rng);
    sim_->Build(draws);
    double reward;
    bool terminated;
    sim_->Step(nullptr, &reward, &terminated);
    *out[lap_finished_] = false;
    CarRacingRenderer::Draw(*sim_, out[obs_]);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    float a[3] = {0.0f, 0.0f, 0.0f};
    if (params_.continuous) {
      for (int i = 0; i < 3; ++i) a[i] = BoxAction(action)[i];
    } else {
      a[0] = static_cast<float>(DiscreteAction(action));
    }
    double reward;
    sim_->Step(a, &reward, out.terminated);
    *out.reward = static_cast<float>(reward);
    *out[lap_finished_] = sim_->lap_finished();
    CarRacingRenderer::Draw(*sim_, out[obs_]);
  }

  // The current frame, the observation's size (render()).
  void Render(uint8_t* rgb) { CarRacingRenderer::Draw(*sim_, rgb); }

  // A Box2D world is more than a vector of numbers; the parity tests use
  // _core.CarRacingSim instead.
  std::vector<double> GetState() const {
    throw ValueError("CarRacing has no get_state: a Box2D world is not a vector of numbers");
  }
  void SetState(const std::vector<double>& /*s*/) {
    throw ValueError("CarRacing has no set_state: a Box2D world is not a vector of numbers");
  }

 private:
  CarRacingParams params_;
  // Box2D keeps a pointer to the sim (its contact listener): one address.
  std::unique_ptr<CarRacingSim> sim_;
  OutputField<uint8_t> obs_;
  OutputField<bool> lap_finished_;
};

}  // namespace envpool_x::box2d
