// lever-pull-v3 (metaworld 3.1.1's SawyerLeverPullEnvV3, reward version v2):
// lift the lever to point straight up (success within pi/24 of vertical) by
// getting the arm's "shoulder" under it. rand_vec: the lever's base. Its
// reset_model moves the lever in the model without mj_forward, so the reset
// observation shows it as the hand's reset left it.
#pragma once

#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldLeverPull : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldLeverPull";
  static constexpr double kLeverRadius = 0.2;

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World; the goal space is the
    // mocap box.
    static const metaworld::TaskLayout layout{
        "lever-pull-v3",
        27,
        {-0.5, 0.40, -0.15},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.4f), static_cast<double>(0.2f)},
        {-0.1, 0.7, 0.0},
        {0.1, 0.8, 0.0},
        {-0.5, 0.40, -0.15},
        {0.5, 1, 0.5}};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldLeverPull(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        lever_(Id(mjOBJ_BODY, "lever")),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        lever_start_(Id(mjOBJ_SITE, "leverStart")),
        goal_site_(Id(mjOBJ_SITE, "goal")),
        lever_qpos_(model_->jnt_qposadr[Id(mjOBJ_JOINT, "LeverAxis")]) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    metaworld::Vec3 goal;
    Goal(rand_vec, goal.data());
    SetModelBodyPos(lever_, rand_vec);
    SetModelSitePos(goal_site_, goal.data());
  }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    Goal(rand_vec, target_.data());
    PlaceInModel(rand_vec);
  }

  void ObjectObs(double* objects) const override {
    std::copy(SitePos(lever_start_), SitePos(lever_start_) + 3, objects);
    MatrixToQuatXyzw(data_->geom_xmat + 9 * obj_geom_, objects + 3);
  }

  double Evaluate(const double* obs, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    const double* gripper = obs;
    const double* lever = obs + 4;
    const metaworld::Vec3 lever_init = LeverInit();
    // The arm's shoulder (the hand plus this offset) under the lever; y
    // counts a quarter.
    constexpr double kOffset[3] = {0.0, 0.055, 0.07};
    constexpr double kScale[3] = {4.0, 1.0, 4.0};
    double shoulder[3], shoulder_init[3];
    for (int k = 0; k < 3; ++k) {
      shoulder[k] = (gripper[k] + kOffset[k] - lever[k]) * kScale[k];
      shoulder_init[k] = (init_tcp_[k] + kOffset[k] - lever_init[k]) * kScale[k];
    }
    const double shoulder_to_lever = metaworld::Norm3(shoulder);
    const double ready_to_lift = Tolerance(shoulder_to_lever, 0.0, 0.02,
                                           metaworld::Norm3(shoulder_init), Sigmoid::kLongTail);
    const double lever_angle = -data_->qpos[lever_qpos_];
    const double lever_error = std::abs(lever_angle - M_PI / 2.0);
    const double engagement =
        Tolerance(lever_error, 0.0, M_PI / 48.0, (M_PI / 2.0) - (M_PI / 12.0), Sigmoid::kLongTail);
    const double obj_to_target = metaworld::Dist3(lever, target_.data());
    const double margin = metaworld::Dist3(lever_init.data(), target_.data());
    const double in_place = Tolerance(obj_to_target, 0.0, 0.04, margin, Sigmoid::kLongTail);
    const double reward = 10.0 * metaworld::HamacherProduct(ready_to_lift, in_place);
    info->success = lever_error <= M_PI / 24 ? 1.0 : 0.0;
    info->near_object = shoulder_to_lever < 0.03 ? 1.0 : 0.0;
    info->grasp_success = ready_to_lift > 0.9 ? 1.0 : 0.0;
    info->grasp_reward = ready_to_lift;
    info->in_place_reward = engagement;
    info->obj_to_target = shoulder_to_lever;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  // _target_pos: above the lever's tip when it points up.
  static void Goal(const double* rand_vec, double* goal) {
    goal[0] = rand_vec[0] + 0.12;
    goal[1] = rand_vec[1] + 0.0;
    goal[2] = rand_vec[2] + (0.25 + kLeverRadius);
  }
  // _lever_pos_init: the lever's tip at rest.
  metaworld::Vec3 LeverInit() const {
    return {obj_init_[0] + 0.12, obj_init_[1] + -kLeverRadius, obj_init_[2] + 0.25};
  }

  int lever_, obj_geom_, lever_start_, goal_site_, lever_qpos_;
};

}  // namespace envpool_x
