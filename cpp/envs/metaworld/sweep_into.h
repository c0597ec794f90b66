// sweep-into-v3 (metaworld 3.1.1's SawyerSweepIntoGoalEnvV3, reward version
// v2): sweep the puck into the table's hole, within 0.05 of it in x-y.
// rand_vec: the puck (3) and a goal (3) that the task ignores (its goal is
// fixed at (0, 0.84, 0.02)); redrawn while the puck is within 0.15 of the
// goal in x-y.
#pragma once

#include <cmath>

#include "envs/metaworld/sawyer_env.h"
#include "envs/metaworld/sweep_caging.h"

namespace envpool_x {

class MetaWorldSweepInto : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldSweepInto";
  static constexpr double kTargetRadius = 0.05;
  static constexpr double kObjRadius = 0.02;
  static constexpr metaworld::Vec3 kGoal{0.0, 0.84, 0.02};

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"sweep-into-v3",
                                              46,
                                              {-0.5, 0.40, 0.05},
                                              {0.5, 1, 0.5},
                                              {0.0, 0.6, 0.2},
                                              {-0.1, 0.6, 0.02, -0.001, 0.8399, 0.0199},
                                              {0.1, 0.7, 0.02, +0.001, 0.8401, 0.0201},
                                              {-0.001, 0.8399, 0.0199},
                                              {+0.001, 0.8401, 0.0201},
                                              /*redraw_close_goal=*/false,
                                              &PuckNearGoal};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldSweepInto(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        obj_(Id(mjOBJ_BODY, "obj")),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* /*rand_vec*/) override {
    SetModelSitePos(goal_site_, kGoal.data());
  }

  void ResetTask(const double* rand_vec) override {
    target_ = kGoal;
    // The puck's height is where the hand's reset left it.
    obj_init_ = {rand_vec[0], rand_vec[1], BodyPos(obj_)[2]};
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    PlaceInModel(rand_vec);
  }

  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(obj_), BodyPos(obj_) + 3, objects);
    MatrixToQuatXyzw(data_->geom_xmat + 9 * obj_geom_, objects + 3);
  }

  double Evaluate(const double* obs, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    const double* obj = obs + 4;
    const double tcp_opened = obs[3];
    const metaworld::Vec3 tcp = TcpCenter();
    // The goal at the puck's height: only x-y count.
    const metaworld::Vec3 target{target_[0], target_[1], obj[2]};
    const double obj_to_target = metaworld::Dist3(obj, target.data());
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double margin = metaworld::Dist3(obj_init_.data(), target.data());
    const double in_place = metaworld::Tolerance(obj_to_target, 0.0, kTargetRadius, margin,
                                                 metaworld::Sigmoid::kLongTail);
    const double object_grasped = metaworld::SweepCagingReward(
        {obj, obj_init_.data(), BodyPos(left_pad_), BodyPos(right_pad_), tcp.data(),
         init_tcp_.data(), kObjRadius, /*grip_margin=*/0.005, /*xz_margin=*/0.01});
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
  static bool PuckNearGoal(const double* v) {
    const double dx = v[0] - kGoal[0], dy = v[1] - kGoal[1];
    return std::sqrt(dx * dx + dy * dy) < 0.15;
  }

  int obj_, obj_geom_, goal_site_;
};

}  // namespace envpool_x
