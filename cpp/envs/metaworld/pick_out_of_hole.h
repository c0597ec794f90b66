// pick-out-of-hole-v3 (metaworld 3.1.1's SawyerPickOutOfHoleEnvV3, reward
// version v2): lift the peg out of the table's hole to within 0.05 of the
// goal (success within 0.07). rand_vec: the peg (fixed) and the goal (3),
// redrawn while they are closer than 0.15 in x-y. Meta-World's own
// _TARGET_RADIUS (0.02) is unused: the reward's radius is the base's 0.05.
#pragma once

#include <algorithm>
#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldPickOutOfHole : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldPickOutOfHole";
  static constexpr double kTargetRadius = 0.05;

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"pick-out-of-hole-v3",
                                              29,
                                              {-0.5, 0.40, -0.05},
                                              {0.5, 1, 0.5},
                                              {0.0, 0.6, 0.2},
                                              {0, 0.75, 0.02, -0.1, 0.5, 0.15},
                                              {0, 0.75, 0.02, 0.1, 0.6, 0.3},
                                              {-0.1, 0.5, 0.15},
                                              {0.1, 0.6, 0.3},
                                              /*redraw_close_goal=*/true};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldPickOutOfHole(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        obj_(Id(mjOBJ_BODY, "obj")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override { SetModelSitePos(goal_site_, rand_vec + 3); }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    std::copy(rand_vec + 3, rand_vec + 6, target_.begin());
    PlaceInModel(rand_vec);
  }

  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(obj_), BodyPos(obj_) + 3, objects);
    std::copy(data_->xquat + 4 * obj_, data_->xquat + 4 * obj_ + 4, objects + 3);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Py;
    using metaworld::Sigmoid;
    const double* obj = obs + 4;
    const metaworld::Vec3 gripper = TcpCenter();
    const double obj_to_target = metaworld::Dist3(obj, target_.data());
    const double tcp_to_obj = metaworld::Dist3(obj, gripper.data());
    const double in_place_margin = metaworld::Dist3(obj_init_.data(), target_.data());
    // A floor rising with the distance from the hole, which the gripper
    // should stay above.
    constexpr double kThreshold = 0.03;
    const double dx = gripper[0] - obj_init_[0], dy = gripper[1] - obj_init_[1];
    const double radius = std::sqrt(dx * dx + dy * dy);
    const double floor = radius <= kThreshold ? 0.0 : 0.015 * std::log(radius - kThreshold) + 0.15;
    const double above_floor = gripper[2] >= floor
                                   ? 1.0
                                   : metaworld::Tolerance(std::max(floor - gripper[2], 0.0), 0.0,
                                                          0.01, 0.02, Sigmoid::kLongTail);
    metaworld::CagingArgs caging{obj,
                                 obj_init_.data(),
                                 BodyPos(left_pad_),
                                 BodyPos(right_pad_),
                                 gripper.data(),
                                 init_tcp_.data(),
                                 action[3],
                                 /*obj_radius=*/0.015,
                                 /*pad_success_thresh=*/0.02,
                                 /*object_reach_radius=*/0.01,
                                 /*xz_thresh=*/0.03};
    caging.desired_gripper_effort = 0.1;
    caging.high_density = true;
    const metaworld::NpNumber object_grasped = metaworld::GripperCagingReward(caging);
    const double in_place =
        metaworld::Tolerance(obj_to_target, 0.0, 0.02, in_place_margin, Sigmoid::kLongTail);
    metaworld::NpNumber reward = metaworld::HamacherProduct(object_grasped, Py(in_place));
    const bool near_object = tcp_to_obj < 0.04;
    const bool pinched_without_obj = obs[3] < 0.33;
    const bool lifted = obj[2] - 0.02 > obj_init_[2];
    const bool grasp_success = near_object && lifted && !pinched_without_obj;
    if (grasp_success) {
      reward = reward + Py(1.0 + 5.0 * metaworld::HamacherProduct(in_place, above_floor));
    }
    if (obj_to_target < kTargetRadius) reward = Py(10.0);
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = grasp_success ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.value;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

 private:
  int obj_, goal_site_;
};

}  // namespace envpool_x
