// Catch-v0 as EnvPool defines it (after bsuite's Catch): a ball falls one row
// a step from a random column of the top row; the paddle on the bottom row
// moves left (0), stays (1) or moves right (2). When the ball reaches the
// bottom row the episode ends with +1 if the paddle is under it, else -1.
// The observation is the height x width board, 1.0 at the ball and the paddle.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "envs/toy_text/grid.h"

namespace envpool_x {

struct CatchState {
  int32_t ball_row, ball_col, paddle;
};

ENVPOOL_X_HD inline void CatchDynamics(CatchState& s, int action, int32_t height, int32_t width,
                                       float* reward, bool* terminated) {
  s.paddle += action - 1;
  if (s.paddle < 0) s.paddle = 0;
  if (s.paddle > width - 1) s.paddle = width - 1;
  ++s.ball_row;
  *terminated = s.ball_row == height - 1;
  *reward = !*terminated ? 0.0f : s.ball_col == s.paddle ? 1.0f : -1.0f;
}

ENVPOOL_X_HD inline void CatchObservation(const CatchState& s, int32_t height, int32_t width,
                                          float* obs) {
  for (int32_t i = 0; i < height * width; ++i) obs[i] = 0.0f;
  obs[s.ball_row * width + s.ball_col] = 1.0f;
  obs[(height - 1) * width + s.paddle] = 1.0f;
}

class Catch {
 public:
  static constexpr const char* kName = "Catch";
  static constexpr bool kCheap = true;

  static Config DefaultConfig() { return Config{{"height", int64_t{10}}, {"width", int64_t{5}}}; }

  static EnvSpec Spec(const Config& config) {
    const int64_t height = config.Int("height");
    const int64_t width = config.Int("width");
    if (height < 2 || width < 1 || height * width > (int64_t{1} << 24)) {
      throw ValueError("Catch needs height >= 2, width >= 1 and height * width <= 2**24, got " +
                       std::to_string(height) + " x " + std::to_string(width));
    }
    EnvSpec spec;
    spec.obs.push_back(ArraySpec{"obs", DType::kFloat32, {height, width}, {0.0}, {1.0}});
    spec.action.discrete = true;
    spec.action.n = 3;
    spec.reward_low = -1.0;
    spec.reward_high = 1.0;
    return spec;
  }

  Catch(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<float>(spec, "obs")),
        height_(static_cast<int32_t>(config.Int("height"))),
        width_(static_cast<int32_t>(config.Int("width"))) {}

  void Reset(Rng& rng, const StepOutput& out) {
    s_ = CatchState{0, static_cast<int32_t>(rng.UniformInt(width_)), width_ / 2};
    CatchObservation(s_, height_, width_, out[obs_]);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    CatchDynamics(s_, DiscreteAction(action), height_, width_, out.reward, out.terminated);
    CatchObservation(s_, height_, width_, out[obs_]);
  }

  // [ball row, ball column, paddle column]
  std::vector<double> GetState() const {
    return {static_cast<double>(s_.ball_row), static_cast<double>(s_.ball_col),
            static_cast<double>(s_.paddle)};
  }

  void SetState(const std::vector<double>& s) {
    if (s.size() != 3) {
      throw ValueError("Catch state must have 3 values [ball_row, ball_col, paddle], got " +
                       std::to_string(s.size()));
    }
    // The ball is above the bottom row while the episode runs.
    s_.ball_row = static_cast<int32_t>(StateInt(s, 0, 0, height_ - 2, "Catch ball_row"));
    s_.ball_col = static_cast<int32_t>(StateInt(s, 1, 0, width_ - 1, "Catch ball_col"));
    s_.paddle = static_cast<int32_t>(StateInt(s, 2, 0, width_ - 1, "Catch paddle"));
  }

 private:
  OutputField<float> obs_;
  int32_t height_;
  int32_t width_;
  CatchState s_{0, 0, 0};
};

}  // namespace envpool_x
