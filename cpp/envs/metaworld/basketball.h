// basketball-v3 (metaworld 3.1.1's SawyerBasketballEnvV3, reward version v2):
// pick the ball up and bring it within 0.08 of the point 0.3 above the hoop
// (the height error counted twice). rand_vec: the ball's x-y (its height is
// fixed) and the basket (3), redrawn while they are closer than 0.15 in x-y.
// The goal is the hoop's site as MuJoCo places it.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldBasketball : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldBasketball";
  static constexpr double kTargetRadius = 0.08;

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos and the ball's start are float32 arrays in Meta-World.
    static const metaworld::TaskLayout layout{
        "basketball-v3",
        1,
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)},
        {-0.1, 0.6, 0.0299, -0.1, 0.85, 0.0},
        {0.1, 0.7, 0.0301, 0.1, 0.9 + 1e-7, 0.0},
        {-0.1 + 0, 0.85 + -0.083, 0.0 + 0.2499},
        {0.1 + 0, 0.9 + 1e-7 + -0.083, 0.0 + 0.2501},
        /*redraw_close_goal=*/true};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldBasketball(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        ball_(Id(mjOBJ_BODY, "bsktball")),
        basket_(Id(mjOBJ_BODY, "basket_goal")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override { SetModelBodyPos(basket_, rand_vec + 3); }

  void ResetTask(const double* rand_vec) override {
    obj_init_ = {rand_vec[0], rand_vec[1], static_cast<double>(0.03f)};
    PlaceInModel(rand_vec);
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    // Meta-World keeps a view of the site's position, and writes it into the
    // site's model position, which MuJoCo ignores for a site in its body's
    // frame; the view stays where the hoop is.
    std::copy(SitePos(goal_site_), SitePos(goal_site_) + 3, target_.begin());
    SetModelSitePos(goal_site_, target_.data());
  }

  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(ball_), BodyPos(ball_) + 3, objects);
    std::copy(data_->xquat + 4 * ball_, data_->xquat + 4 * ball_ + 4, objects + 3);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Py;
    const double* obj = obs + 4;
    const double* goal = SitePos(goal_site_);
    const double target[3] = {goal[0], goal[1], 0.3};
    const double target_to_obj = ScaledDist(obj, target);
    const double target_to_obj_init = ScaledDist(obj_init_.data(), target);
    const double in_place = metaworld::Tolerance(target_to_obj, 0.0, kTargetRadius,
                                                 target_to_obj_init, metaworld::Sigmoid::kLongTail);
    const double tcp_opened = obs[3];
    const metaworld::Vec3 tcp = TcpCenter();
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    metaworld::CagingArgs caging{obj,
                                 obj_init_.data(),
                                 BodyPos(left_pad_),
                                 BodyPos(right_pad_),
                                 tcp.data(),
                                 init_tcp_.data(),
                                 action[3],
                                 /*obj_radius=*/0.025,
                                 /*pad_success_thresh=*/0.06,
                                 /*object_reach_radius=*/0.01,
                                 /*xz_thresh=*/0.005};
    caging.high_density = true;
    metaworld::NpNumber object_grasped = metaworld::GripperCagingReward(caging);
    const bool lifted = tcp_to_obj < 0.035 && tcp_opened > 0 && obj[2] - 0.01 > obj_init_[2];
    if (lifted) object_grasped = Py(1.0);
    metaworld::NpNumber reward = metaworld::HamacherProduct(object_grasped, Py(in_place));
    if (lifted) reward = reward + Py(1.0 + 5.0 * in_place);
    if (target_to_obj < kTargetRadius) reward = Py(10.0);
    info->success = target_to_obj <= kTargetRadius ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
    info->grasp_success = tcp_opened > 0 && obj[2] - 0.03 > obj_init_[2] ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.value;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

 private:
  // |(a - b) * (1, 1, 2)|: height counts twice.
  static double ScaledDist(const double* a, const double* b) {
    const double d[3] = {(a[0] - b[0]) * 1.0, (a[1] - b[1]) * 1.0, (a[2] - b[2]) * 2.0};
    return metaworld::Norm3(d);
  }

  int ball_, basket_, goal_site_;
};

}  // namespace envpool_x
