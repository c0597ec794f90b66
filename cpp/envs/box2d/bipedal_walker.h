// BipedalWalker-v3 and BipedalWalkerHardcore-v3 (gymnasium 1.4.0) on the pool:
// the physics is BipedalWalkerSim, its draws from the env's own stream (so the
// same seed gives another terrain than gymnasium's).
#pragma once

#include <memory>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "envs/box2d/bipedal_walker_render.h"
#include "envs/box2d/bipedal_walker_sim.h"

namespace envpool_x::box2d {

class BipedalWalker {
 public:
  static constexpr const char* kName = "BipedalWalker";
  static constexpr bool kCheap = false;  // a step costs 10-30 us: one env a chunk, never inline
  static constexpr int kRenderHeight = BipedalWalkerRenderer::kH;
  static constexpr int kRenderWidth = BipedalWalkerRenderer::kW;

  static Config DefaultConfig() { return Config{{"hardcore", false}}; }

  static EnvSpec Spec(const Config& /*config*/) {
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
      : sim_(std::make_unique<BipedalWalkerSim>(config.Bool("hardcore"))),
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
  // Box2D keeps a pointer to the sim (its contact listener): one address.
  std::unique_ptr<BipedalWalkerSim> sim_;
  OutputField<float> obs_;
};

}  // namespace envpool_x::box2d
