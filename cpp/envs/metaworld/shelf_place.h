// shelf-place-v3 (metaworld 3.1.1's SawyerShelfPlaceEnvV3, reward version
// v2): pick the block up and put it on the shelf, within 0.07 of the goal
// (reward 10 within 0.05). rand_vec: the block (3) and the goal (3), redrawn
// while they are closer than 0.1 in x-y; the shelf stands 0.3 below the goal
// and the goal is its site's model position plus the shelf's.
#pragma once

#include <algorithm>
#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldShelfPlace : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldShelfPlace";
  static constexpr double kTargetRadius = 0.05;

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World.
    static const metaworld::TaskLayout layout{
        "shelf-place-v3",
        45,
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)},
        {-0.1, 0.5, 0.019, -0.1, 0.8, 0.299},
        {0.1, 0.6, 0.021, 0.1, 0.9, 0.301},
        {-0.1, 0.8, 0.299},
        {0.1, 0.9, 0.301},
        /*redraw_close_goal=*/false,
        &BlockNearGoal};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldShelfPlace(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        obj_(Id(mjOBJ_BODY, "obj")),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        shelf_(Id(mjOBJ_BODY, "shelf")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    const double shelf[3] = {rand_vec[3] - 0, rand_vec[4] - 0, rand_vec[5] - 0.3};
    SetModelBodyPos(shelf_, shelf);
  }

  void ResetTask(const double* rand_vec) override {
    // The block's height is where the hand's reset left it.
    obj_init_ = {rand_vec[0] - 0, rand_vec[1] - 0, BodyPos(obj_)[2]};
    PlaceInModel(rand_vec);
    const double* site = model_->site_pos + 3 * goal_site_;
    const double* shelf = model_->body_pos + 3 * shelf_;
    target_ = {site[0] + shelf[0], site[1] + shelf[1], site[2] + shelf[2]};
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
  }

  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(obj_), BodyPos(obj_) + 3, objects);
    MatrixToQuatXyzw(data_->geom_xmat + 9 * obj_geom_, objects + 3);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Py;
    const double* obj = obs + 4;
    const double tcp_opened = obs[3];
    const double* target = target_.data();
    const metaworld::Vec3 tcp = TcpCenter();
    const double obj_to_target = metaworld::Dist3(obj, target);
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double margin = metaworld::Dist3(obj_init_.data(), target);
    double in_place = metaworld::Tolerance(obj_to_target, 0.0, kTargetRadius, margin,
                                           metaworld::Sigmoid::kLongTail);
    const metaworld::CagingArgs caging{obj,
                                       obj_init_.data(),
                                       BodyPos(left_pad_),
                                       BodyPos(right_pad_),
                                       tcp.data(),
                                       init_tcp_.data(),
                                       action[3],
                                       /*obj_radius=*/0.02,
                                       /*pad_success_thresh=*/0.05,
                                       /*object_reach_radius=*/0.01,
                                       /*xz_thresh=*/0.01};
    const metaworld::NpNumber object_grasped = metaworld::GripperCagingReward(caging);
    metaworld::NpNumber reward = metaworld::HamacherProduct(object_grasped, Py(in_place));
    // Below the shelf's top and in front of the goal: the closer to the
    // shelf's front and the lower, the more in_place is cut (np.clip makes it
    // a numpy float64, which then promotes a float32 reward to float64).
    const bool below_shelf =
        0.0 < obj[2] && obj[2] < 0.24 && target[0] - 0.15 < obj[0] && obj[0] < target[0] + 0.15;
    const double front = target[1] - 3 * kTargetRadius;
    bool in_place_is_numpy = false;
    if (below_shelf && front < obj[1] && obj[1] < target[1]) {
      const double z_scaling = (0.24 - obj[2]) / 0.24;
      const double y_scaling = (obj[1] - front) / (3 * kTargetRadius);
      const double bound_loss = metaworld::HamacherProduct(y_scaling, z_scaling);
      in_place = std::clamp(in_place - bound_loss, 0.0, 1.0);
      in_place_is_numpy = true;
    }
    if (below_shelf && obj[1] > target[1]) {
      in_place = 0.0;
      in_place_is_numpy = false;
    }
    if (tcp_to_obj < 0.025 && tcp_opened > 0 && obj[2] - 0.01 > obj_init_[2]) {
      const double bonus = 1.0 + 5.0 * in_place;
      reward = in_place_is_numpy ? Py(reward.value + bonus) : reward + Py(bonus);
    }
    if (obj_to_target < kTargetRadius) reward = Py(10.0);
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success =
        TouchingObject(obj_geom_) && tcp_opened > 0 && obj[2] - 0.02 > obj_init_[2] ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.value;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

 private:
  static bool BlockNearGoal(const double* v) {
    const double dx = v[0] - v[3], dy = v[1] - v[4];
    return std::sqrt(dx * dx + dy * dy) < 0.1;
  }

  int obj_, obj_geom_, shelf_, goal_site_;
};

}  // namespace envpool_x
