// push-wall-v3 (metaworld 3.1.1's SawyerPushWallEnvV3, reward version v2):
// push the puck around the wall to within 0.05 of the goal (success within
// 0.07), past a midpoint beside the wall first. rand_vec: the puck's x-y and
// the goal's x-y (their heights are the puck geom's after the hand's reset),
// redrawn while they are closer than 0.15 in x-y.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldPushWall : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldPushWall";
  static constexpr double kTargetRadius = 0.05;

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"push-wall-v3",
                                              41,
                                              {-0.5, 0.40, 0.05},
                                              {0.5, 1, 0.5},
                                              {0.0, 0.6, 0.2},
                                              {-0.05, 0.6, 0.015, -0.05, 0.85, 0.01},
                                              {0.05, 0.65, 0.015, 0.05, 0.9, 0.02},
                                              {-0.05, 0.85, 0.01},
                                              {0.05, 0.9, 0.02},
                                              /*redraw_close_goal=*/true};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldPushWall(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* /*rand_vec*/) override {}

  void ResetTask(const double* rand_vec) override {
    const double height = GeomPos(obj_geom_)[2];
    target_ = {rand_vec[3], rand_vec[4], height};
    obj_init_ = {rand_vec[0], rand_vec[1], height};
    SetModelSitePos(goal_site_, target_.data());
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
  }

  void ObjectObs(double* objects) const override {
    std::copy(GeomPos(obj_geom_), GeomPos(obj_geom_) + 3, objects);
    MatrixToQuatXyzw(data_->geom_xmat + 9 * obj_geom_, objects + 3);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Py;
    using metaworld::Sigmoid;
    const double* obj = obs + 4;
    const double tcp_opened = obs[3];
    const metaworld::Vec3 tcp = TcpCenter();
    // The midpoint beside the wall, at the puck's height; x counts thrice.
    const double midpoint[3] = {-0.05, 0.77, obj[2]};
    auto to_midpoint = [&midpoint](const double* p) {
      const double d[3] = {(p[0] - midpoint[0]) * 3.0, (p[1] - midpoint[1]) * 1.0,
                           (p[2] - midpoint[2]) * 1.0};
      return metaworld::Norm3(d);
    };
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double obj_to_target = metaworld::Dist3(obj, target_.data());
    const double in_place_part1 = metaworld::Tolerance(
        to_midpoint(obj), 0.0, kTargetRadius, to_midpoint(obj_init_.data()), Sigmoid::kLongTail);
    const double in_place_part2 = metaworld::Tolerance(
        obj_to_target, 0.0, kTargetRadius, metaworld::Dist3(obj_init_.data(), target_.data()),
        Sigmoid::kLongTail);
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
    const metaworld::NpNumber object_grasped = metaworld::GripperCagingReward(caging);
    metaworld::NpNumber reward = Py(2) * object_grasped;
    if (tcp_to_obj < 0.02 && tcp_opened > 0) {
      reward = Py(2.0) * object_grasped + Py(1.0) + Py(4.0 * in_place_part1);
      if (obj[1] > 0.75) {
        reward = Py(2) * object_grasped + Py(1.0) + Py(4.0) + Py(3.0 * in_place_part2);
      }
    }
    if (obj_to_target < kTargetRadius) reward = Py(10.0);
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success =
        TouchingObject(obj_geom_) && tcp_opened > 0 && obj[2] - 0.02 > obj_init_[2] ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.value;
    info->in_place_reward = in_place_part2;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

 private:
  int obj_geom_, goal_site_;
};

}  // namespace envpool_x
