// BipedalWalker-v3 and BipedalWalkerHardcore-v3 (gymnasium 1.4.0) on the pool:
// the physics is BipedalWalkerSim, its draws from the env's own stream (so the
// same seed gives another terrain than gymnasium's).
#pragma once

#include <memory>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/params.h"
#include "envs/box2d/bipedal_walker_render.h"
#include "envs/box2d/bipedal_walker_sim.h"

namespace envpool_x::box2d {

class BipedalWalker {
 public:
  static constexpr const char* kName = "BipedalWalker";
  static constexpr bool kCheap = false;  // a step costs 10-30 us: one env a chunk, never inline
  static constexpr int kRenderHeight = BipedalWalkerRenderer::kH;
  static constexpr int kRenderWidth = BipedalWalkerRenderer::kW;

  static Config DefaultConfig() {
    return Config{{"hardcore", false},   {"gravity", -10.0},    {"motors_torque", 80.0},
                  {"speed_hip", 4.0},    {"speed_knee", 6.0},   {"terrain_friction", 2.5},
                  {"leg_friction", 0.2}, {"hull_density", 5.0}, {"leg_density", 1.0}};
  }

  // gymnasium's constants in lower case (docs/params.md). The joint speeds
  // also scale the observation (gymnasium divides by them), so they stay
  // above 0. Frictions and densities belong to fixtures made at the reset.
  static std::vector<ParamSpec> ParamSpecs() {
    return {{"gravity", -100.0, 0.0},
            {"motors_torque", 0.0, 1e4},
            {"speed_hip", 1e-3, 1e3},
            {"speed_knee", 1e-3, 1e3},
            {"terrain_friction", 0.0, 100.0, false},
            {"leg_friction", 0.0, 100.0, false},
            {"hull_density", 1e-3, 1e3, false},
            {"leg_density", 1e-3, 1e3, false}};
  }
  static void SetConstants(BipedalWalkerParams& p, const double* values) {
    p.gravity = values[0];
    p.motors_torque = values[1];
    p.speed_hip = values[2];
    p.speed_knee = values[3];
    p.terrain_friction = values[4];
    p.leg_friction = values[5];
    p.hull_density = values[6];
    p.leg_density = values[7];
  }
  void SetParams(const double* values) {
    SetConstants(params_, values);
    sim_->SetParams(params_);
  }

  static BipedalWalkerParams Params(const Config& config) {
    BipedalWalkerParams p;
    p.hardcore = config.Bool("hardcore");
    SetConstants(p, ParamValuesOf(ParamSpecs(), config).data());
    return p;
  }

  static EnvSpec Spec(const Config& config) {
    Params(config);  // refuses bad constants when the pool is made
    const double pi = static_cast<float>(M_PI);
    EnvSpec spec;
    std::vector<double> low = {-pi,  -5.0, -5.0, -5.0, -pi, -5.0, -pi,
                               -5.0, -0.0, -pi,  -5.0, -pi, -5.0, -0.0};
    std::vector<double> high = {pi, 5.0, 5.0, 5.0, pi, 5.0, pi, 5.0, 5.0, pi, 5.0, pi, 5.0, 5.0};
    low.resize(BipedalWalkerSim::kObsSize, -1.0);
    high.resize(BipedalWalkerSim::kObsSize, 1.0);
    spec.obs.push_back(ArraySpec{"obs", DType::kFloat32, {BipedalWalkerSim::kObsSize}, low, high});
    spec.action.discrete = false;
    spec.action.box = ArraySpec{"action", DType::kFloat32, {4}, {-1, -1, -1, -1}, {1, 1, 1, 1}};
    return spec;
  }

  BipedalWalker(const Config& config, const EnvSpec& spec)
      : params_(Params(config)),
        sim_(std::make_unique<BipedalWalkerSim>(params_)),
        obs_(ObsField<float>(spec, "obs")) {}

  void Reset(Rng& rng, const StepOutput& out) {
    RngDraws draws(rng);
    sim_->Build(draws);
    const float zero[4] = {0, 0, 0, 0};
    double reward;
    bool terminated;
    sim_->Step(zero, out[obs_], &reward, &terminated);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    double reward;
    sim_->Step(BoxAction(action), out[obs_], &reward, out.terminated);
    *out.reward = static_cast<float>(reward);
  }

  // gymnasium's rgb_array frame of the current state (render()).
  void Render(uint8_t* rgb) { BipedalWalkerRenderer::Draw(*sim_, rgb); }

  // A Box2D world (contacts, warm starts, the broad phase) is more than a
  // vector of numbers; the parity tests use _core.BipedalWalkerSim instead.
  std::vector<double> GetState() const {
    throw ValueError("BipedalWalker has no get_state: a Box2D world is not a vector of numbers");
  }
  void SetState(const std::vector<double>& /*s*/) {
    throw ValueError("BipedalWalker has no set_state: a Box2D world is not a vector of numbers");
  }

 private:
  BipedalWalkerParams params_;
  // Box2D keeps a pointer to the sim (its contact listener): one address.
  std::unique_ptr<BipedalWalkerSim> sim_;
  OutputField<float> obs_;
};

}  // namespace envpool_x::box2d
