// faucet-open-v3 and faucet-close-v3 (metaworld 3.1.1's SawyerFaucetOpenEnvV3
// and SawyerFaucetCloseEnvV3, reward version v2): turn the faucet's handle
// until it is within 0.07 of the goal (0.175 to the right, open, or left,
// close, and 0.125 above the base). rand_vec: the faucet's base. Open's
// reset has no mj_forward after moving the base, close's has one.
#pragma once

#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

template <bool kClose>
class MetaWorldFaucetTask : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = kClose ? "MetaWorldFaucetClose" : "MetaWorldFaucetOpen";
  static constexpr double kHandleLength = 0.175;
  static constexpr double kTargetRadius = 0.07;
  static constexpr double kReachRadius = 0.01;

  static const metaworld::TaskLayout& Layout() {
    // The goal space is the mocap box.
    static const metaworld::TaskLayout open{"faucet-open-v3",    20,
                                            {-0.5, 0.40, -0.15}, {0.5, 1, 0.5},
                                            {0.0, 0.4, 0.2},     {-0.05, 0.8, 0.0},
                                            {0.05, 0.85, 0.0},   {-0.5, 0.40, -0.15},
                                            {0.5, 1, 0.5}};
    static const metaworld::TaskLayout close{"faucet-close-v3",   21,
                                             {-0.5, 0.40, -0.15}, {0.5, 1, 0.5},
                                             {0.0, 0.4, 0.2},     {-0.1, 0.8, 0.0},
                                             {0.1, 0.85, 0.0},    {-0.5, 0.40, -0.15},
                                             {0.5, 1, 0.5}};
    return kClose ? close : open;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldFaucetTask(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        base_(Id(mjOBJ_BODY, "faucetBase")),
        handle_(Id(mjOBJ_SITE, kClose ? "handleStartClose" : "handleStartOpen")),
        goal_site_(Id(mjOBJ_SITE, kClose ? "goal_close" : "goal_open")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    metaworld::Vec3 goal;
    Goal(rand_vec, goal.data());
    SetModelBodyPos(base_, rand_vec);
    SetModelSitePos(goal_site_, goal.data());
  }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    Goal(rand_vec, target_.data());
    SetModelBodyPos(base_, rand_vec);
    if (kClose) Forward();
    PlaceInModel(rand_vec);
  }

  // The handle's start, 0.01 lower, and the base's quaternion (w, x, y, z).
  void ObjectObs(double* objects) const override {
    const double* h = SitePos(handle_);
    objects[0] = h[0] + 0.0;
    objects[1] = h[1] + 0.0;
    objects[2] = h[2] + -0.01;
    std::copy(data_->xquat + 4 * base_, data_->xquat + 4 * base_ + 4, objects + 3);
  }

  double Evaluate(const double* obs, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    // open: the handle's end, (-0.04, 0, 0.03) from the observed point.
    const double obj[3] = {obs[4] + (kClose ? 0.0 : -0.04), obs[5] + 0.0,
                           obs[6] + (kClose ? 0.0 : 0.03)};
    const metaworld::Vec3 tcp = TcpCenter();
    const double target_to_obj = metaworld::Dist3(obj, target_.data());
    const double target_to_obj_init = metaworld::Dist3(obj_init_.data(), target_.data());
    const double in_place =
        Tolerance(target_to_obj, 0.0, kTargetRadius, std::abs(target_to_obj_init - kTargetRadius),
                  Sigmoid::kLongTail);
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double tcp_to_obj_init = metaworld::Dist3(obj_init_.data(), init_tcp_.data());
    const double reach = Tolerance(tcp_to_obj, 0.0, kReachRadius,
                                   std::abs(tcp_to_obj_init - kReachRadius), Sigmoid::kGaussian);
    double reward = 2 * reach + 3 * in_place;
    reward *= 2;
    reward = target_to_obj <= kTargetRadius ? 10 : reward;
    info->success = target_to_obj <= kTargetRadius ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.01 ? 1.0 : 0.0;
    info->grasp_success = 1.0;
    info->grasp_reward = reach;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  static void Goal(const double* rand_vec, double* goal) {
    goal[0] = rand_vec[0] + (kClose ? -kHandleLength : +kHandleLength);
    goal[1] = rand_vec[1] + 0.0;
    goal[2] = rand_vec[2] + 0.125;
  }

  int base_, handle_, goal_site_;
};

using MetaWorldFaucetOpen = MetaWorldFaucetTask<false>;
using MetaWorldFaucetClose = MetaWorldFaucetTask<true>;

}  // namespace envpool_x
