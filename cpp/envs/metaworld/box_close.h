// box-close-v3 (metaworld 3.1.1's SawyerBoxCloseEnvV3, reward version v2):
// lift the lid and put it on the box (success within 0.08), the reward
// scaled by how level the lid is. rand_vec: the lid's x-y (its height is
// fixed) and the box (3), redrawn while they are closer than 0.25 in x-y.
// The reset moves the box, takes 5 raw mj_steps, then places the lid.
#pragma once

#include <algorithm>
#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldBoxClose : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldBoxClose";

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World.
    static const metaworld::TaskLayout layout{
        "box-close-v3",
        3,
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)},
        {-0.05, 0.5, 0.02, -0.1, 0.7, 0.133},
        {0.05, 0.55, 0.02, 0.1, 0.8, 0.133},
        {-0.1, 0.7, 0.133},
        {0.1, 0.8, 0.133},
        /*redraw_close_goal=*/false,
        &LidNearBox};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldBoxClose(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        box_(Id(mjOBJ_BODY, "boxbody")),
        lid_(Id(mjOBJ_BODY, "top_link")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  // The box keeps its height (a static body: its model position's).
  void PlaceInModel(const double* rand_vec) override {
    const double box[3] = {rand_vec[3], rand_vec[4], model_->body_pos[3 * box_ + 2]};
    SetModelBodyPos(box_, box);
    SetModelSitePos(goal_site_, rand_vec + 3);
  }

  void ResetTask(const double* rand_vec) override {
    const double box_height = BodyPos(box_)[2];
    // obj_init_pos's height is the float32 0.02 of Meta-World's init_config.
    obj_init_ = {rand_vec[0], rand_vec[1], static_cast<double>(0.02f)};
    std::copy(rand_vec + 3, rand_vec + 6, target_.begin());
    const double box[3] = {target_[0], target_[1], box_height};
    SetModelBodyPos(box_, box);
    for (int k = 0; k < metaworld::kFrameSkip; ++k) mj_step(model_.get(), data_.get());
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    SetModelSitePos(goal_site_, target_.data());
  }

  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(lid_), BodyPos(lid_) + 3, objects);
    std::copy(data_->xquat + 4 * lid_, data_->xquat + 4 * lid_ + 4, objects + 3);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    // _reward_grab_effort, in float32 as numpy computes it with the action.
    const float grab_f32 =
        std::clamp((std::clamp(action[3], -1.0f, 1.0f) + 1.0f) / 2.0f, 0.0f, 1.0f);
    const double reward_grab = static_cast<double>(grab_f32);
    // _reward_quat: how close the lid's quaternion is to level.
    const double ideal[4] = {0.707, 0, 0, 0.707};
    double sq = 0;
    for (int k = 0; k < 4; ++k) sq += (obs[7 + k] - ideal[k]) * (obs[7 + k] - ideal[k]);
    const double reward_quat = std::max(1.0 - std::sqrt(sq) / 0.2, 0.0);
    // _reward_pos: above a funnel round the lid's handle, near it, then the
    // lid on the box (height counted thrice).
    const double* hand = obs;
    const double lid[3] = {obs[4] + 0.0, obs[5] + 0.0, obs[6] + 0.02};
    constexpr double kThreshold = 0.02;
    const double dx = hand[0] - lid[0], dy = hand[1] - lid[1];
    const double radius = std::sqrt(dx * dx + dy * dy);
    const double floor = radius <= kThreshold ? 0.0 : 0.04 * std::log(radius - kThreshold) + 0.4;
    const double above_floor =
        hand[2] >= floor ? 1.0
                         : Tolerance(floor - hand[2], 0.0, 0.01, floor / 2.0, Sigmoid::kLongTail);
    const double in_place =
        Tolerance(metaworld::Dist3(hand, lid), 0.0, 0.02, 0.5, Sigmoid::kLongTail);
    const double ready_to_lift = metaworld::HamacherProduct(above_floor, in_place);
    const double error[3] = {(target_[0] - lid[0]) * 1.0, (target_[1] - lid[1]) * 1.0,
                             (target_[2] - lid[2]) * 3.0};
    const double lifted =
        0.2 * (lid[2] > 0.04 ? 1.0 : 0.0) +
        0.8 * Tolerance(metaworld::Norm3(error), 0.0, 0.05, 0.25, Sigmoid::kLongTail);
    double reward = 2.0 * metaworld::HamacherProduct(reward_grab, ready_to_lift) + 8.0 * lifted;
    const bool success = metaworld::Dist3(obs + 4, target_.data()) < 0.08;
    if (success) reward = 10.0;
    reward *= reward_quat;
    info->success = success ? 1.0 : 0.0;
    info->near_object = ready_to_lift;
    info->grasp_success = reward_grab >= 0.5 ? 1.0 : 0.0;
    info->grasp_reward = reward_grab;
    info->in_place_reward = lifted;
    info->obj_to_target = 0.0;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  static bool LidNearBox(const double* v) {
    const double dx = v[0] - v[3], dy = v[1] - v[4];
    return std::sqrt(dx * dx + dy * dy) < 0.25;
  }

  int box_, lid_, goal_site_;
};

}  // namespace envpool_x
