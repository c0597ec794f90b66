// CliffWalking-v1 / CliffWalkingSlippery-v1 (and EnvPool's CliffWalking-v0),
// matching gymnasium 1.4.0's CliffWalkingEnv (option is_slippery).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "envs/toy_text/grid.h"

namespace envpool_x {

// A 4 x 12 grid; the agent starts at the bottom-left corner (row 3, col 0),
// the goal is the bottom-right corner, and the cells between them on the
// bottom row are the cliff.
constexpr int32_t kCliffRows = 4;
constexpr int32_t kCliffCols = 12;
constexpr int32_t kCliffStart = (kCliffRows - 1) * kCliffCols;
constexpr int32_t kCliffGoal = kCliffRows * kCliffCols - 1;

// Actions: 0 up, 1 right, 2 down, 3 left; moves stop at the border. Walking
// into the cliff costs -100 and sends the agent back to the start (the
// episode goes on); every other move costs -1, and reaching the goal ends the
// episode. Slippery: the intended move or one of its two neighbours in the
// cyclic order, 1/3 each.
ENVPOOL_X_HD inline void CliffWalkingDynamics(int32_t* s, int action, bool slippery, Rng& rng,
                                              double* reward, bool* terminated, double* prob) {
  int dir = action;
  *prob = 1.0;
  if (slippery) dir = SlipDirection(action, 1.0 / 3.0, 1.0 / 3.0, rng, prob);
  int32_t row = *s / kCliffCols;
  int32_t col = *s % kCliffCols;
  if (dir == 0) {
    row = row > 0 ? row - 1 : 0;
  } else if (dir == 1) {
    col = col < kCliffCols - 1 ? col + 1 : kCliffCols - 1;
  } else if (dir == 2) {
    row = row < kCliffRows - 1 ? row + 1 : kCliffRows - 1;
  } else {
    col = col > 0 ? col - 1 : 0;
  }
  const bool cliff = row == kCliffRows - 1 && col > 0 && col < kCliffCols - 1;
  if (cliff) {
    *s = kCliffStart;
    *reward = -100.0;
    *terminated = false;
  } else {
    *s = row * kCliffCols + col;
    *reward = -1.0;
    *terminated = *s == kCliffGoal;
  }
}

class CliffWalking {
 public:
  static constexpr const char* kName = "CliffWalking";
  static constexpr bool kCheap = true;

  static Config DefaultConfig() { return Config{{"is_slippery", false}}; }

  static EnvSpec Spec(const Config&) {
    EnvSpec spec;
    spec.obs.push_back(DiscreteSpec("obs", kCliffRows * kCliffCols));
    spec.info.push_back(ArraySpec{"prob", DType::kFloat64, {}, {0.0}, {1.0}});
    spec.action.discrete = true;
    spec.action.n = 4;
    spec.reward_low = -100.0;
    spec.reward_high = -1.0;
    return spec;
  }

  CliffWalking(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<int64_t>(spec, "obs")),
        prob_(InfoField<double>(spec, "prob")),
        slippery_(config.Bool("is_slippery")) {}

  void Reset(Rng& /*rng*/, const StepOutput& out) {
    s_ = kCliffStart;
    *out[obs_] = s_;
    *out[prob_] = 1.0;
  }

  void Step(const void* action, Rng& rng, const StepOutput& out) {
    double reward = 0.0;
    CliffWalkingDynamics(&s_, DiscreteAction(action), slippery_, rng, &reward, out.terminated,
                         out[prob_]);
    *out.reward = static_cast<float>(reward);
    *out[obs_] = s_;
  }

  std::vector<double> GetState() const { return {static_cast<double>(s_)}; }

  void SetState(const std::vector<double>& s) {
    if (s.size() != 1) {
      throw ValueError("CliffWalking state must have 1 value [s], got " + std::to_string(s.size()));
    }
    s_ = static_cast<int32_t>(StateInt(s, 0, 0, kCliffGoal, "CliffWalking state s"));
  }

 private:
  OutputField<int64_t> obs_;
  OutputField<double> prob_;
  bool slippery_ = false;
  int32_t s_ = kCliffStart;
};

}  // namespace envpool_x
