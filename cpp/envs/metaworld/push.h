// push-v3 (metaworld 3.1.1's SawyerPushEnvV3, reward version v2): push the
// puck within 0.05 of the goal. rand_vec: the puck's x-y and the goal's x-y
// (their heights are the puck's after the hand's reset), redrawn while they
// are closer than 0.15 in x-y.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldPush : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldPush";
  static constexpr double kTargetRadius = 0.05;

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"push-v3",
                                              40,
                                              {-0.5, 0.40, 0.05},
                                              {0.5, 1, 0.5},
                                              {0.0, 0.6, 0.2},
                                              {-0.1, 0.6, 0.02, -0.1, 0.8, 0.01},
                                              {0.1, 0.7, 0.02, 0.1, 0.9, 0.02},
                                              {-0.1, 0.8, 0.01},
                                              {0.1, 0.9, 0.02},
                                              /*redraw_close_goal=*/true};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldPush(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        obj_(Id(mjOBJ_BODY, "obj")),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* /*rand_vec*/) override {}

  void ResetTask(const double* rand_vec) override {
    const double height = BodyPos(obj_)[2];
    target_ = {rand_vec[3], rand_vec[4], height};
    obj_init_ = {rand_vec[0], rand_vec[1], height};
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    SetModelSitePos(goal_site_, target_.data());
  }

  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(obj_), BodyPos(obj_) + 3, objects);
    MatrixToQuatXyzw(data_->geom_xmat + 9 * obj_geom_, objects + 3);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    const double* obj = obs + 4;
    const double tcp_opened = obs[3];
    const metaworld::Vec3 tcp = TcpCenter();
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double target_to_obj = metaworld::Dist3(obj, target_.data());
    const double target_to_obj_init = metaworld::Dist3(obj_init_.data(), target_.data());
    const double in_place = metaworld::Tolerance(target_to_obj, 0.0, kTargetRadius,
                                                 target_to_obj_init, metaworld::Sigmoid::kLongTail);
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
                                 /*xz_thresh=*/0.005};
    caging.high_density = true;
    using metaworld::Py;
    const metaworld::NpNumber object_grasped = metaworld::GripperCagingReward(caging);
    metaworld::NpNumber reward = Py(2) * object_grasped;
    if (tcp_to_obj < 0.02 && tcp_opened > 0) {
      reward = reward + ((Py(1.0) + reward) + Py(5.0 * in_place));
    }
    if (target_to_obj < kTargetRadius) reward = Py(10.0);
    info->success = target_to_obj <= kTargetRadius ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success =
        TouchingObject(obj_geom_) && tcp_opened > 0 && obj[2] - 0.02 > obj_init_[2] ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.value;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

 private:
  int obj_, obj_geom_, goal_site_;
};

}  // namespace envpool_x
