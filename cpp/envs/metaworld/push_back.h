// push-back-v3 (metaworld 3.1.1's SawyerPushBackEnvV3, reward version v2):
// pull the puck back towards the robot, within 0.05 of the goal (success
// within 0.07). rand_vec: the puck's x-y and the goal's x-y (their heights are
// the puck geom's after the hand's reset), redrawn while they are closer than
// 0.15 in x-y.
#pragma once

#include "envs/metaworld/sawyer_env.h"
#include "envs/metaworld/sweep_caging.h"

namespace envpool_x {

class MetaWorldPushBack : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldPushBack";
  static constexpr double kTargetRadius = 0.05;
  static constexpr double kObjRadius = 0.007;

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World.
    static const metaworld::TaskLayout layout{
        "push-back-v3",
        42,
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)},
        {-0.1, 0.8, 0.02, -0.1, 0.6, 0.0199},
        {0.1, 0.85, 0.02, 0.1, 0.7, 0.0201},
        {-0.1, 0.6, 0.0199},
        {0.1, 0.7, 0.0201},
        /*redraw_close_goal=*/true};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldPushBack(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* /*rand_vec*/) override {}

  void ResetTask(const double* rand_vec) override {
    const double height = GeomPos(obj_geom_)[2];
    target_ = {rand_vec[3], rand_vec[4], height};
    obj_init_ = {rand_vec[0], rand_vec[1], height};
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    SetModelSitePos(goal_site_, target_.data());
  }

  void ObjectObs(double* objects) const override {
    std::copy(GeomPos(obj_geom_), GeomPos(obj_geom_) + 3, objects);
    MatrixToQuatXyzw(data_->geom_xmat + 9 * obj_geom_, objects + 3);
  }

  double Evaluate(const double* obs, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    const double* obj = obs + 4;
    const double tcp_opened = obs[3];
    const metaworld::Vec3 tcp = TcpCenter();
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double target_to_obj = metaworld::Dist3(obj, target_.data());
    const double target_to_obj_init = metaworld::Dist3(obj_init_.data(), target_.data());
    const double in_place = metaworld::Tolerance(target_to_obj, 0.0, kTargetRadius,
                                                 target_to_obj_init, metaworld::Sigmoid::kLongTail);
    const double object_grasped = metaworld::SweepCagingReward(
        {obj, obj_init_.data(), BodyPos(left_pad_), BodyPos(right_pad_), tcp.data(),
         init_tcp_.data(), kObjRadius, /*grip_margin=*/0.003, /*xz_margin=*/0.01});
    double reward = metaworld::HamacherProduct(object_grasped, in_place);
    if (tcp_to_obj < 0.01 && 0 < tcp_opened && tcp_opened < 0.55 &&
        target_to_obj_init - target_to_obj > 0.01) {
      reward += 1.0 + 5.0 * in_place;
    }
    if (target_to_obj < kTargetRadius) reward = 10.0;
    info->success = target_to_obj <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success =
        TouchingObject(obj_geom_) && tcp_opened > 0 && obj[2] - 0.02 > obj_init_[2] ? 1.0 : 0.0;
    info->grasp_reward = object_grasped;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  int obj_geom_, goal_site_;
};

}  // namespace envpool_x
