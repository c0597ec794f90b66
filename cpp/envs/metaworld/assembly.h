// assembly-v3 (metaworld 3.1.1's SawyerNutAssemblyEnvV3, reward version v2):
// pick the wrench up by its handle and drop its ring over the peg (success:
// the ring's centre within 0.02 of the peg in x-y and below its top).
// rand_vec: the wrench (fixed) and the peg's top (3), redrawn while they are
// closer than 0.1 in x-y (never, with these ranges); the peg stands 0.05
// below its top.
#pragma once

#include <cmath>

#include "envs/metaworld/nut_on_peg.h"

namespace envpool_x {

class MetaWorldAssembly : public metaworld::NutOnPeg {
 public:
  static constexpr const char* kName = "MetaWorldAssembly";

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World.
    static const metaworld::TaskLayout layout{
        "assembly-v3",
        0,
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)},
        {0, 0.6, 0.02, -0.1, 0.75, 0.1},
        {0, 0.6, 0.02, 0.1, 0.85, 0.1},
        {-0.1, 0.75, 0.1},
        {0.1, 0.85, 0.1},
        /*redraw_close_goal=*/false,
        &WrenchNearPeg};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldAssembly(const Config& config, const EnvSpec& spec) : NutOnPeg(Layout(), config, spec) {}

 protected:
  // The peg 0.05 below the goal; the peg's top site is given the goal's
  // world position as its offset (as Meta-World does).
  void PlaceInModel(const double* rand_vec) override {
    const double peg[3] = {rand_vec[3] - 0.0, rand_vec[4] - 0.0, rand_vec[5] - 0.05};
    SetModelBodyPos(peg_, peg);
    SetModelSitePos(peg_top_, rand_vec + 3);
  }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    std::copy(rand_vec + 3, rand_vec + 6, target_.begin());
    PlaceNut(obj_init_.data());
    PlaceInModel(rand_vec);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Py;
    const double flat = FlatReward(obs);
    const metaworld::NpNumber grab = GrabReward(obs, action[3], /*medium_density=*/true);
    bool success = false;
    const double in_place = PlaceReward(SitePos(nut_center_), &success);
    metaworld::NpNumber reward = (Py(2.0) * grab + Py(6.0 * in_place)) * Py(flat);
    if (success) reward = Py(10.0);
    return Report(reward.value, grab, flat, in_place, success, info);
  }

 private:
  static bool WrenchNearPeg(const double* v) {
    const double dx = v[0] - v[3], dy = v[1] - v[4];
    return std::sqrt(dx * dx + dy * dy) < 0.1;
  }

  // _reward_pos: a funnel of target heights around the peg (lower nearer
  // it), 0.1 for lifting the wrench at all.
  double PlaceReward(const double* center, bool* success) const {
    double error[3] = {target_[0] - center[0], target_[1] - center[1], target_[2] - center[2]};
    const double radius = std::sqrt(error[0] * error[0] + error[1] * error[1]);
    *success = radius < 0.02 && error[2] > 0.0;
    const double threshold = *success ? 0.02 : 0.01;
    double target_height = 0.0;
    if (radius > threshold) target_height = 0.02 * std::log(radius - threshold) + 0.2;
    error[2] = (target_height - center[2]) * 3.0;
    const bool lifted = center[2] > 0.02 || radius < threshold;
    return 0.1 * (lifted ? 1.0 : 0.0) + 0.9 * metaworld::Tolerance(metaworld::Norm3(error), 0.0,
                                                                   0.02, 0.4,
                                                                   metaworld::Sigmoid::kLongTail);
  }
};

}  // namespace envpool_x
