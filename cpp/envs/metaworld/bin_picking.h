// bin-picking-v3 (metaworld 3.1.1's SawyerBinPickingEnvV3, reward version
// v2): carry the block from one bin into the other, within 0.05 of the goal
// (the target bin's centre). rand_vec: the block's x-y (its height is where
// the hand's reset left it) and a goal the task ignores. The in_place margin
// is the block's distance from the goal at the episode's first step (NaN in
// the test hook until then).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldBinPicking : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldBinPicking";
  static constexpr double kTargetRadius = 0.05;

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"bin-picking-v3",
                                              2,
                                              {-0.5, 0.40, 0.07},
                                              {0.5, 1, 0.5},
                                              {0.0, 0.6, 0.2},
                                              {-0.21, 0.65, 0.02, 0.1199, 0.699, -0.001},
                                              {-0.03, 0.75, 0.02, 0.1201, 0.701, +0.001},
                                              {0.1199, 0.699, -0.001},
                                              {0.1201, 0.701, +0.001}};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldBinPicking(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        obj_(Id(mjOBJ_BODY, "obj")),
        bin_goal_(Id(mjOBJ_BODY, "bin_goal")) {}

 protected:
  void PlaceInModel(const double* /*rand_vec*/) override {}

  void ResetTask(const double* rand_vec) override {
    obj_init_ = {rand_vec[0], rand_vec[1], BodyPos(obj_)[2]};
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    std::copy(BodyPos(bin_goal_), BodyPos(bin_goal_) + 3, target_.begin());
    target_to_obj_init_ = std::numeric_limits<double>::quiet_NaN();
  }

  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(obj_), BodyPos(obj_) + 3, objects);
    std::copy(data_->xquat + 4 * obj_, data_->xquat + 4 * obj_ + 4, objects + 3);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Py;
    using metaworld::Sigmoid;
    const double* hand = obs;
    const double* obj = obs + 4;
    const double* target = BodyPos(bin_goal_);  // Meta-World's _target_pos is a live view
    const double target_to_obj = metaworld::Dist3(obj, target);
    if (std::isnan(target_to_obj_init_)) target_to_obj_init_ = target_to_obj;
    const double in_place = metaworld::Tolerance(target_to_obj, 0.0, kTargetRadius,
                                                 target_to_obj_init_, Sigmoid::kLongTail);
    // A floor rising with the distance from either bin's centre.
    constexpr double kThreshold = 0.03;
    auto floor_at = [&hand](const double* centre) {
      const double dx = hand[0] - centre[0], dy = hand[1] - centre[1];
      const double radius = std::sqrt(dx * dx + dy * dy);
      return radius > kThreshold ? 0.02 * std::log(radius - kThreshold) + 0.2 : 0.0;
    };
    const double floor = std::min(floor_at(obj_init_.data()), floor_at(target));
    const double above_floor = hand[2] >= floor
                                   ? 1.0
                                   : metaworld::Tolerance(std::max(floor - hand[2], 0.0), 0.0, 0.01,
                                                          0.05, Sigmoid::kLongTail);
    const metaworld::Vec3 tcp = TcpCenter();
    metaworld::CagingArgs caging{obj,
                                 obj_init_.data(),
                                 BodyPos(left_pad_),
                                 BodyPos(right_pad_),
                                 tcp.data(),
                                 init_tcp_.data(),
                                 action[3],
                                 /*obj_radius=*/0.015,
                                 /*pad_success_thresh=*/0.05,
                                 /*object_reach_radius=*/0.01,
                                 /*xz_thresh=*/0.01};
    caging.desired_gripper_effort = 0.7;
    caging.high_density = true;
    const metaworld::NpNumber object_grasped = metaworld::GripperCagingReward(caging);
    metaworld::NpNumber reward = metaworld::HamacherProduct(object_grasped, Py(in_place));
    const bool near_object = metaworld::Dist3(obj, hand) < 0.04;
    const bool pinched_without_obj = obs[3] < 0.43;
    const bool lifted = obj[2] - 0.02 > obj_init_[2];
    const bool grasp_success = near_object && lifted && !pinched_without_obj;
    if (grasp_success) {
      reward = reward + Py(1.0 + 5.0 * metaworld::HamacherProduct(above_floor, in_place));
    }
    if (target_to_obj < kTargetRadius) reward = Py(10.0);
    info->success = target_to_obj <= 0.05 ? 1.0 : 0.0;
    info->near_object = near_object ? 1.0 : 0.0;
    info->grasp_success = grasp_success ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.value;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

  // _target_to_obj_init (NaN: not set yet).
  int NumTaskValues() const override { return 1; }
  void GetTaskValues(double* out) const override { out[0] = target_to_obj_init_; }
  void SetTaskValues(const double* in) override { target_to_obj_init_ = in[0]; }

 private:
  int obj_, bin_goal_;
  // Set by the episode's first evaluation, as Meta-World's compute_reward does.
  mutable double target_to_obj_init_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace envpool_x
