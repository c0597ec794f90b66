// AdroitHandPen-v1 / AdroitHandPenSparse-v1 (gymnasium-robotics 1.4.2's
// AdroitHandPenEnv): turn the pen to the target's orientation.
//
// - reset: the target body's quaternion is euler2quat of (U(-1, 1),
//   U(-1, 1), 0); after the state is set, the pen's and the target's
//   lengths (top site minus bottom site) are measured again.
// - observation (45): qpos[:-6], the pen's position, the last 6 qvel, the
//   pen's and the target's orientations ((top - bottom) / length), pen -
//   eps_ball, pen orientation - target orientation.
// - reward: the distance d = |pen - eps_ball| and the similarity s (the dot
//   product of the orientations); sparse 10 when d < 0.075 and s > 0.95,
//   else -0.1; dense -d + s, +10 (d < 0.075, s > 0.9), +50 (d < 0.075,
//   s > 0.95), -5 with the pen below 0.075. success: d < 0.075, s > 0.95.
#pragma once

#include <algorithm>
#include <cmath>

#include "envs/robotics/adroit/adroit_env.h"

namespace envpool_x {

class AdroitHandPen : public robotics::AdroitEnv {
 public:
  static constexpr const char* kName = "AdroitHandPen";
  static constexpr int kObsSize = 45;

  static Config DefaultConfig() { return robotics::AdroitConfig(); }
  static EnvSpec Spec(const Config& config) { return robotics::AdroitSpec(config, kObsSize); }

  AdroitHandPen(const Config& config, const EnvSpec& spec) : AdroitEnv(config, spec) {
    target_ = Id(mjOBJ_BODY, "target");
    pen_ = Id(mjOBJ_BODY, "Object");
    eps_ball_ = Id(mjOBJ_SITE, "eps_ball");
    pen_top_ = Id(mjOBJ_SITE, "object_top");
    pen_bottom_ = Id(mjOBJ_SITE, "object_bottom");
    target_top_ = Id(mjOBJ_SITE, "target_top");
    target_bottom_ = Id(mjOBJ_SITE, "target_bottom");
    AddExtra(BodyQuat(target_), 4);
    AddExtra(lengths_, 2);
  }

 protected:
  void Draw(Rng& rng) override {
    const double euler[3] = {rng.Uniform(-1.0, 1.0), rng.Uniform(-1.0, 1.0), 0.0};
    EulerToQuat(euler, BodyQuat(target_));
  }

  void AfterReset() override {
    lengths_[0] = Distance(SiteXpos(pen_top_), SiteXpos(pen_bottom_));
    lengths_[1] = Distance(SiteXpos(target_top_), SiteXpos(target_bottom_));
  }

  void WriteObs(double* obs) const override {
    const int nq = model_->nq, nv = model_->nv;
    std::copy(data_->qpos, data_->qpos + nq - 6, obs);
    double* o = obs + (nq - 6);
    const double* pen = BodyXpos(pen_);
    std::copy(pen, pen + 3, o);
    std::copy(data_->qvel + nv - 6, data_->qvel + nv, o + 3);
    Orientations(o + 9, o + 12);
    Sub3(pen, SiteXpos(eps_ball_), o + 15);
    Sub3(o + 9, o + 12, o + 18);
  }

  double Reward(bool* success) const override {
    const double* pen = BodyXpos(pen_);
    double pen_dir[3], target_dir[3];
    Orientations(pen_dir, target_dir);
    const double distance = Distance(pen, SiteXpos(eps_ball_));
    // np.dot of two 3-vectors: BLAS ddot's fused multiply-adds (as NormF64).
    double similarity = 0.0;
    for (int k = 0; k < 3; ++k) similarity = std::fma(pen_dir[k], target_dir[k], similarity);
    *success = distance < 0.075 && similarity > 0.95;
    if (sparse_) return *success ? 10.0 : -0.1;
    double reward = -distance + similarity;
    if (distance < 0.075 && similarity > 0.9) reward += 10;
    if (distance < 0.075 && similarity > 0.95) reward += 50;
    if (pen[2] < 0.075) reward -= 5;
    return reward;
  }

 private:
  // (top - bottom) / length of the pen and of the target.
  void Orientations(double* pen_dir, double* target_dir) const {
    Sub3(SiteXpos(pen_top_), SiteXpos(pen_bottom_), pen_dir);
    Sub3(SiteXpos(target_top_), SiteXpos(target_bottom_), target_dir);
    for (int k = 0; k < 3; ++k) {
      pen_dir[k] /= lengths_[0];
      target_dir[k] /= lengths_[1];
    }
  }

  // rotations.euler2quat.
  static void EulerToQuat(const double* euler, double* quat) {
    const double ai = euler[2] / 2, aj = -euler[1] / 2, ak = euler[0] / 2;
    const double si = std::sin(ai), sj = std::sin(aj), sk = std::sin(ak);
    const double ci = std::cos(ai), cj = std::cos(aj), ck = std::cos(ak);
    const double cc = ci * ck, cs = ci * sk, sc = si * ck, ss = si * sk;
    quat[0] = cj * cc + sj * ss;
    quat[3] = cj * sc - sj * cs;
    quat[2] = -(cj * ss + sj * cc);
    quat[1] = cj * cs - sj * sc;
  }

  int target_ = 0, pen_ = 0, eps_ball_ = 0;
  int pen_top_ = 0, pen_bottom_ = 0, target_top_ = 0, target_bottom_ = 0;
  double lengths_[2] = {1.0, 1.0};  // pen_length, tar_length
};

}  // namespace envpool_x
