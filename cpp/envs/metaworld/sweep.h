// sweep-v3 (metaworld 3.1.1's SawyerSweepEnvV3, reward version v2): sweep the
// puck off the table's right edge, within 0.05 of the goal below it.
// rand_vec: the puck (3); the goal is (0.5, the puck's y, 0.01).
#pragma once

#include "envs/metaworld/sawyer_env.h"
#include "envs/metaworld/sweep_caging.h"

namespace envpool_x {

class MetaWorldSweep : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldSweep";
  static constexpr double kTargetRadius = 0.05;
  static constexpr double kObjRadius = 0.02;

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"sweep-v3",         47,
                                              {-0.5, 0.40, 0.05}, {0.5, 1.0, 0.5},
                                              {0.0, 0.6, 0.2},    {-0.1, 0.6, 0.02},
                                              {0.1, 0.7, 0.02},   {0.49, 0.6, 0.00},
                                              {0.51, 0.7, 0.02}};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldSweep(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        obj_(Id(mjOBJ_BODY, "obj")),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    const metaworld::Vec3 goal{0.5, rand_vec[1], 0.01};
    SetModelSitePos(goal_site_, goal.data());
  }

  void ResetTask(const double* rand_vec) override {
    target_ = {0.5, rand_vec[1], 0.01};
    obj_init_ = {rand_vec[0], rand_vec[1], 0.02};
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    PlaceInModel(rand_vec);
  }

  // The body's position and MuJoCo's quaternion (w, x, y, z).
  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(obj_), BodyPos(obj_) + 3, objects);
    std::copy(data_->xquat + 4 * obj_, data_->xquat + 4 * obj_ + 4, objects + 3);
  }

  double Evaluate(const double* obs, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    const double* obj = obs + 4;
    const double tcp_opened = obs[3];
    const metaworld::Vec3 tcp = TcpCenter();
    const double obj_to_target = metaworld::Dist3(obj, target_.data());
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double margin = metaworld::Dist3(obj_init_.data(), target_.data());
    const double in_place = metaworld::Tolerance(obj_to_target, 0.0, kTargetRadius, margin,
                                                 metaworld::Sigmoid::kLongTail);
    const double object_grasped = metaworld::SweepCagingReward(
        {obj, obj_init_.data(), BodyPos(left_pad_), BodyPos(right_pad_), tcp.data(),
         init_tcp_.data(), kObjRadius, /*grip_margin=*/0.01, /*xz_margin=*/0.005});
    const double both = metaworld::HamacherProduct(object_grasped, in_place);
    double reward = 2 * object_grasped + 6 * both;
    if (obj_to_target < kTargetRadius) reward = 10.0;
    info->success = obj_to_target <= kTargetRadius ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = TouchingObject(obj_geom_) && tcp_opened > 0 ? 1.0 : 0.0;
    info->grasp_reward = object_grasped;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  int obj_, obj_geom_, goal_site_;
};

}  // namespace envpool_x
