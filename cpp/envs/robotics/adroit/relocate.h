// AdroitHandRelocate-v1 / AdroitHandRelocateSparse-v1 (gymnasium-robotics
// 1.4.2's AdroitHandRelocateEnv): carry the ball to the target.
//
// - reset: the ball's body x, y drawn uniform in [-0.15, 0.15] x
//   [-0.15, 0.3]; the target site's x, y, z in [-0.2, 0.2] x [-0.2, 0.2] x
//   [0.15, 0.35].
// - observation (39): qpos[:-6], palm - ball, palm - target, ball - target.
// - reward: d = |ball - target|; sparse 10 when d < 0.1, else -0.1; dense
//   0.1 * |palm - ball| (a plus, as in 1.4.2), with the ball above 0.04
//   +1 - 0.5 |palm - target| - 0.5 d, +10 (d < 0.1), +20 (d < 0.05).
//   success: d < 0.1.
#pragma once

#include <algorithm>

#include "envs/robotics/adroit/adroit_env.h"

namespace envpool_x {

class AdroitHandRelocate : public robotics::AdroitEnv {
 public:
  static constexpr const char* kName = "AdroitHandRelocate";
  static constexpr int kObsSize = 39;

  static Config DefaultConfig() { return robotics::AdroitConfig(); }
  static EnvSpec Spec(const Config& config) { return robotics::AdroitSpec(config, kObsSize); }

  AdroitHandRelocate(const Config& config, const EnvSpec& spec) : AdroitEnv(config, spec) {
    target_ = Id(mjOBJ_SITE, "target");
    grasp_ = Id(mjOBJ_SITE, "S_grasp");
    ball_ = Id(mjOBJ_BODY, "Object");
    AddExtra(BodyPos(ball_), 3);
    AddExtra(SitePos(target_), 3);
  }

 protected:
  void Draw(Rng& rng) override {
    double* ball = BodyPos(ball_);
    ball[0] = rng.Uniform(-0.15, 0.15);
    ball[1] = rng.Uniform(-0.15, 0.3);
    double* target = SitePos(target_);
    target[0] = rng.Uniform(-0.2, 0.2);
    target[1] = rng.Uniform(-0.2, 0.2);
    target[2] = rng.Uniform(0.15, 0.35);
  }

  void WriteObs(double* obs) const override {
    const int nq = model_->nq;
    std::copy(data_->qpos, data_->qpos + nq - 6, obs);
    double* o = obs + (nq - 6);
    const double* palm = SiteXpos(grasp_);
    const double* ball = BodyXpos(ball_);
    const double* target = SiteXpos(target_);
    Sub3(palm, ball, o);
    Sub3(palm, target, o + 3);
    Sub3(ball, target, o + 6);
  }

  double Reward(bool* success) const override {
    const double* palm = SiteXpos(grasp_);
    const double* ball = BodyXpos(ball_);
    const double* target = SiteXpos(target_);
    const double distance = Distance(ball, target);
    *success = distance < 0.1;
    if (sparse_) return *success ? 10.0 : -0.1;
    double reward = 0.1 * Distance(palm, ball);
    if (ball[2] > 0.04) {
      reward += 1.0;
      reward += -0.5 * Distance(palm, target);
      reward += -0.5 * distance;
    }
    if (distance < 0.1) reward += 10.0;
    if (distance < 0.05) reward += 20.0;
    return reward;
  }

 private:
  int target_ = 0, grasp_ = 0, ball_ = 0;
};

}  // namespace envpool_x
