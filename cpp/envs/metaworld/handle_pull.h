// handle-pull-v3 and handle-pull-side-v3 (metaworld 3.1.1's
// SawyerHandlePullEnvV3 and SawyerHandlePullSideEnvV3, reward version v2):
// grip the handle and pull it up to the goal (front: within 0.05 in z; side:
// 0.05 for the reward, 0.08 for success, in xyz). rand_vec: the handle's box.
// Meta-World's obj_init_pos is the box (front; its lift bonus compares the
// handle's y with the box's z, kept as it is) or the handle's centre (side).
#pragma once

#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

template <bool kSide>
class MetaWorldHandlePullTask : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = kSide ? "MetaWorldHandlePullSide" : "MetaWorldHandlePull";
  static constexpr double kTargetRadius = 0.05;

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout front{"handle-pull-v3",   26,
                                             {-0.5, 0.40, 0.05}, {0.5, 1.0, 0.5},
                                             {0.0, 0.6, 0.2},    {-0.1, 0.8, -0.001},
                                             {0.1, 0.9, 0.001},  {-0.1, 0.55, 0.04},
                                             {0.1, 0.70, 0.18}};
    // The side task's goal space is the mocap box.
    static const metaworld::TaskLayout side{"handle-pull-side-v3", 25,
                                            {-0.5, 0.40, 0.05},    {0.5, 1.0, 0.5},
                                            {0.0, 0.6, 0.2},       {-0.35, 0.65, 0.0},
                                            {-0.25, 0.75, 0.0},    {-0.5, 0.40, 0.05},
                                            {0.5, 1.0, 0.5}};
    return kSide ? side : front;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldHandlePullTask(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        box_(Id(mjOBJ_BODY, "box")),
        handle_(Id(mjOBJ_SITE, kSide ? "handleCenter" : "handleRight")),
        goal_(Id(mjOBJ_SITE, "goalPull")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override { SetModelBodyPos(box_, rand_vec); }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    PlaceInModel(rand_vec);
    data_->qpos[9] = -0.1;
    data_->qvel[9] = 0.0;
    Forward();
    std::copy(SitePos(goal_), SitePos(goal_) + 3, target_.begin());
    if (kSide) std::copy(SitePos(handle_), SitePos(handle_) + 3, obj_init_.begin());
  }

  // The handle; no quaternion (zeros).
  void ObjectObs(double* objects) const override {
    std::copy(SitePos(handle_), SitePos(handle_) + 3, objects);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Py;
    const double* obj = obs + 4;
    double target_to_obj, target_to_obj_init;
    if (kSide) {
      target_to_obj = metaworld::Dist3(obj, target_.data());
      target_to_obj_init = metaworld::Dist3(obj_init_.data(), target_.data());
    } else {
      target_to_obj = std::abs(target_[2] - obj[2]);
      target_to_obj_init = std::abs(target_[2] - obj_init_[2]);
    }
    const double in_place = metaworld::Tolerance(target_to_obj, 0.0, kTargetRadius,
                                                 target_to_obj_init, metaworld::Sigmoid::kLongTail);
    const metaworld::Vec3 tcp = TcpCenter();
    metaworld::CagingArgs caging{obj,
                                 obj_init_.data(),
                                 BodyPos(left_pad_),
                                 BodyPos(right_pad_),
                                 tcp.data(),
                                 init_tcp_.data(),
                                 action[3],
                                 /*obj_radius=*/kSide ? 0.032 : 0.022,
                                 /*pad_success_thresh=*/kSide ? 0.06 : 0.05,
                                 /*object_reach_radius=*/0.01,
                                 /*xz_thresh=*/0.01};
    caging.high_density = true;
    const metaworld::NpNumber object_grasped = metaworld::GripperCagingReward(caging);
    metaworld::NpNumber reward = metaworld::HamacherProduct(object_grasped, Py(in_place));
    const double tcp_opened = obs[3];
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double lifted = kSide ? obj[2] : obj[1];
    if (tcp_to_obj < 0.035 && tcp_opened > 0 && lifted - 0.01 > obj_init_[2]) {
      reward = reward + Py(1.0 + 5.0 * in_place);
    }
    if (target_to_obj < kTargetRadius) reward = Py(10.0);
    info->success = target_to_obj <= (kSide ? 0.08 : kTargetRadius) ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
    info->grasp_success = tcp_opened > 0 && obj[2] - 0.03 > obj_init_[2] ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.value;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

 private:
  int box_, handle_, goal_;
};

using MetaWorldHandlePull = MetaWorldHandlePullTask<false>;
using MetaWorldHandlePullSide = MetaWorldHandlePullTask<true>;

}  // namespace envpool_x
