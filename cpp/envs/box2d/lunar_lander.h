// LunarLander-v3 and LunarLanderContinuous-v3 (gymnasium 1.4.0), on the pool:
// the physics is LunarLanderSim; this class draws its random numbers from the
// env's own stream (gymnasium draws the same quantities from numpy's, so the
// same seed gives a different terrain and push than gymnasium's).
#pragma once

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/params.h"
#include "envs/box2d/lunar_lander_render.h"
#include "envs/box2d/lunar_lander_sim.h"

namespace envpool_x::box2d {

class LunarLander {
 public:
  static constexpr const char* kName = "LunarLander";
  static constexpr bool kCheap = false;  // a step costs 10-30 us: one env a chunk, never inline
  static constexpr int kRenderHeight = LunarLanderRenderer::kH;
  static constexpr int kRenderWidth = LunarLanderRenderer::kW;

  static Config DefaultConfig() {
    return Config{{"continuous", false},
                  {"gravity", -10.0},
                  {"enable_wind", false},
                  {"wind_power", 15.0},
                  {"turbulence_power", 1.5},
                  {"main_engine_power", 13.0},
                  {"side_engine_power", 0.6},
                  // Set from render_mode (python/envpool_x/families/box2d.py):
                  // gymnasium makes exhaust particles only when it renders.
                  {"exhaust_particles", false}};
  }

  // gymnasium's names (MAIN_ENGINE_POWER and SIDE_ENGINE_POWER in lower
  // case); its gravity range is open: the ends are the doubles inside it.
  // The wind's act only with enable_wind=True.
  static std::vector<ParamSpec> ParamSpecs() {
    return {{"gravity", std::nextafter(-12.0, 0.0), std::nextafter(0.0, -1.0)},
            {"wind_power", 0.0, 1e6},
            {"turbulence_power", 0.0, 1e6},
            {"main_engine_power", 0.0, 1e3},
            {"side_engine_power", 0.0, 1e3}};
  }
  static void SetConstants(LunarLanderParams& p, const double* values) {
    p.gravity = values[0];
    p.wind_power = values[1];
    p.turbulence_power = values[2];
    p.main_engine_power = values[3];
    p.side_engine_power = values[4];
  }
  void SetParams(const double* values) {
    SetConstants(params_, values);
    sim_->SetParams(params_);
  }

  static LunarLanderParams Params(const Config& config) {
    LunarLanderParams p;
    p.continuous = config.Bool("continuous");
    p.enable_wind = config.Bool("enable_wind");
    SetConstants(p, ParamValuesOf(ParamSpecs(), config).data());
    p.particles = config.Bool("exhaust_particles");
    // gymnasium asserts this range (and only warns about the wind's).
    if (!(-12.0 < p.gravity && p.gravity < 0.0)) {
      throw ValueError("LunarLander: gravity must be between -12 and 0 (exclusive), got " +
                       std::to_string(p.gravity));
    }
    if (!std::isfinite(p.wind_power) || !std::isfinite(p.turbulence_power)) {
      throw ValueError("LunarLander: wind_power and turbulence_power must be finite");
    }
    return p;
  }

  static EnvSpec Spec(const Config& config) {
    const LunarLanderParams p = Params(config);
    const double two_pi = static_cast<float>(2 * M_PI);
    EnvSpec spec;
    spec.obs.push_back(ArraySpec{"obs",
                                 DType::kFloat32,
                                 {8},
                                 {-2.5, -2.5, -10.0, -10.0, -two_pi, -10.0, -0.0, -0.0},
                                 {2.5, 2.5, 10.0, 10.0, two_pi, 10.0, 1.0, 1.0}});
    if (p.continuous) {
      spec.action.discrete = false;
      spec.action.box = ArraySpec{"action", DType::kFloat32, {2}, {-1.0, -1.0}, {1.0, 1.0}};
    } else {
      spec.action.discrete = true;
      spec.action.n = 4;
    }
    return spec;
  }

  LunarLander(const Config& config, const EnvSpec& spec)
      : params_(Params(config)),
        sim_(std::make_unique<LunarLanderSim>(params_)),
        obs_(ObsField<float>(spec, "obs")) {}

  void Reset(Rng& rng, const StepOutput& out) {
    LunarLanderResetDraws d;
    const double h = LunarLanderSim::kViewportH / LunarLanderSim::kScale;
    for (double& v : d.heights) v = rng.Uniform(0.0, h / 2);
    d.force_x = rng.Uniform(-1000.0, 1000.0);
    d.force_y = rng.Uniform(-1000.0, 1000.0);
    if (params_.enable_wind) {  // numpy's integers(-9999, 9999): high excluded
      d.wind_idx = -9999 + static_cast<int64_t>(rng.UniformInt(19998));
      d.torque_idx = -9999 + static_cast<int64_t>(rng.UniformInt(19998));
    }
    sim_->Build(d);
    const float noop[2] = {0.0f, 0.0f};
    double reward;
    bool terminated;
    Advance(noop, rng, out, &reward, &terminated);
  }

  void Step(const void* action, Rng& rng, const StepOutput& out) {
    float a[2] = {0.0f, 0.0f};
    if (params_.continuous) {
      a[0] = BoxAction(action)[0];
      a[1] = BoxAction(action)[1];
    } else {
      a[0] = static_cast<float>(DiscreteAction(action));
    }
    double reward;
    Advance(a, rng, out, &reward, out.terminated);
    *out.reward = static_cast<float>(reward);
  }

  // gymnasium's rgb_array frame of the current state (render()).
  void Render(uint8_t* rgb) { LunarLanderRenderer::Draw(*sim_, rgb); }

  // A Box2D world (contacts, warm starts, the broad phase) is more than a
  // vector of numbers; the parity tests use _core.LunarLanderSim instead.
  std::vector<double> GetState() const {
    throw ValueError("LunarLander has no get_state: a Box2D world is not a vector of numbers");
  }
  void SetState(const std::vector<double>& /*s*/) {
    throw ValueError("LunarLander has no set_state: a Box2D world is not a vector of numbers");
  }

 private:
  void Advance(const float* a, Rng& rng, const StepOutput& out, double* reward, bool* done) {
    const double d0 = rng.Uniform(-1.0, 1.0);
    const double d1 = rng.Uniform(-1.0, 1.0);
    sim_->Step(a, d0, d1, out[obs_], reward, done);
  }

  LunarLanderParams params_;
  // Box2D's world keeps a pointer to the sim (its contact listener): the
  // sim stays at one address while the pool moves envs.
  std::unique_ptr<LunarLanderSim> sim_;
  OutputField<float> obs_;
};

}  // namespace envpool_x::box2d
