// pick-place-wall-v3 (metaworld 3.1.1's SawyerPickPlaceWallEnvV3, reward
// version v2): lift the puck over the wall to within 0.05 of the goal
// (success within 0.07), through a midpoint above the wall first. rand_vec:
// the puck (3) and the goal (3), redrawn while they are closer than 0.15 in
// x-y.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldPickPlaceWall : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldPickPlaceWall";
  static constexpr double kTargetRadius = 0.05;

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"pick-place-wall-v3",
                                              28,
                                              {-0.5, 0.40, 0.05},
                                              {0.5, 1, 0.5},
                                              {0.0, 0.6, 0.2},
                                              {-0.05, 0.6, 0.015, -0.05, 0.85, 0.05},
                                              {0.05, 0.65, 0.015, 0.05, 0.9, 0.3},
                                              {-0.05, 0.85, 0.05},
                                              {0.05, 0.9, 0.3},
                                              /*redraw_close_goal=*/true};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldPickPlaceWall(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override { SetModelSitePos(goal_site_, rand_vec + 3); }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec + 3, rand_vec + 6, target_.begin());
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    PlaceInModel(rand_vec);
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
    // Above the wall, in line with the goal; height counts thrice.
    const double midpoint[3] = {target_[0], 0.77, 0.25};
    auto to_midpoint = [&midpoint](const double* p) {
      const double d[3] = {(p[0] - midpoint[0]) * 1.0, (p[1] - midpoint[1]) * 1.0,
                           (p[2] - midpoint[2]) * 3.0};
      return metaworld::Norm3(d);
    };
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double obj_to_target = metaworld::Dist3(obj, target_.data());
    const double in_place_part1 = metaworld::Tolerance(
        to_midpoint(obj), 0.0, kTargetRadius, to_midpoint(obj_init_.data()), Sigmoid::kLongTail);
    const double in_place_part2 = metaworld::Tolerance(
        obj_to_target, 0.0, kTargetRadius, metaworld::Dist3(obj_init_.data(), target_.data()),
        Sigmoid::kLongTail);
    const metaworld::CagingArgs caging{obj,
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
    const metaworld::NpNumber object_grasped = metaworld::GripperCagingReward(caging);
    const metaworld::NpNumber both = metaworld::HamacherProduct(object_grasped, Py(in_place_part1));
    metaworld::NpNumber reward = both;
    if (tcp_to_obj < 0.02 && tcp_opened > 0 && obj[2] - 0.015 > obj_init_[2]) {
      reward = both + Py(1.0) + Py(4.0 * in_place_part1);
      if (obj[1] > 0.75) reward = both + Py(1.0) + Py(4.0) + Py(3.0 * in_place_part2);
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
