// disassemble-v3 (metaworld 3.1.1's SawyerNutDisassembleEnvV3, reward version
// v2): lift the wrench's ring off the peg it starts on (success: the handle
// end above the goal, 0.15 over the wrench's start). rand_vec: the wrench
// (3; the peg under it) and 3 values used only by the redraw rule (redrawn
// while their x-y is within 0.1 of the wrench's).
#pragma once

#include <cmath>

#include "envs/metaworld/nut_on_peg.h"

namespace envpool_x {

class MetaWorldDisassemble : public metaworld::NutOnPeg {
 public:
  static constexpr const char* kName = "MetaWorldDisassemble";

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World; the goal space is the
    // goal range raised by 0.005.
    static const metaworld::TaskLayout layout{
        "disassemble-v3",
        12,
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.4f), static_cast<double>(0.2f)},
        {0.0, 0.6, 0.025, -0.1, 0.6, 0.1699},
        {0.1, 0.75, 0.02501, 0.1, 0.75, 0.1701},
        {-0.1 + 0.0, 0.6 + 0.0, 0.1699 + 0.005},
        {0.1 + 0.0, 0.75 + 0.0, 0.1701 + 0.005},
        /*redraw_close_goal=*/false,
        &WrenchNearOther};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldDisassemble(const Config& config, const EnvSpec& spec)
      : NutOnPeg(Layout(), config, spec) {}

 protected:
  // The peg 0.03 above the wrench's start, its top site 0.08 above it.
  void PlaceInModel(const double* rand_vec) override {
    const double peg[3] = {rand_vec[0] + 0.0, rand_vec[1] + 0.0, rand_vec[2] + 0.03};
    const double top[3] = {rand_vec[0] + 0.0, rand_vec[1] + 0.0, rand_vec[2] + 0.08};
    SetModelBodyPos(peg_, peg);
    SetModelSitePos(peg_top_, top);
  }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    target_ = {rand_vec[0] + 0.0, rand_vec[1] + 0.0, rand_vec[2] + 0.15};
    PlaceInModel(rand_vec);
    Forward();
    PlaceNut(obj_init_.data());
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Py;
    const double flat = FlatReward(obs);
    const metaworld::NpNumber grab = GrabReward(obs, action[3], /*medium_density=*/false);
    const double in_place = LiftReward(SitePos(nut_center_));
    metaworld::NpNumber reward = (Py(2.0) * grab + Py(6.0 * in_place)) * Py(flat);
    const bool success = obs[6] > target_[2];
    if (success) reward = Py(10.0);
    return Report(reward.value, grab, flat, in_place, success, info);
  }

 private:
  static bool WrenchNearOther(const double* v) {
    const double dx = v[0] - v[3], dy = v[1] - v[4];
    return std::sqrt(dx * dx + dy * dy) < 0.1;
  }

  // _reward_pos: the ring's centre near a point 0.1 over the goal, 0.1 for
  // lifting the wrench at all.
  double LiftReward(const double* center) const {
    const double error[3] = {(target_[0] + 0.0) - center[0], (target_[1] + 0.0) - center[1],
                             (target_[2] + 0.1) - center[2]};
    const bool lifted = center[2] > 0.02;
    return 0.1 * (lifted ? 1.0 : 0.0) + 0.9 * metaworld::Tolerance(metaworld::Norm3(error), 0.0,
                                                                   0.02, 0.2,
                                                                   metaworld::Sigmoid::kLongTail);
  }
};

}  // namespace envpool_x
