// door-open-v3 (metaworld 3.1.1's SawyerDoorEnvV3, reward version v2): pull
// the door open until its handle is within 0.08 (in x) of the goal.
// rand_vec: the door's position; the goal is 0.3 left of and 0.45 in front
// of it.
#pragma once

#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldDoorOpen : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldDoorOpen";

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"door-open-v3",     15,
                                              {-0.5, 0.40, 0.05}, {0.5, 1, 0.5},
                                              {0.0, 0.6, 0.2},    {0.0, 0.85, 0.15},
                                              {0.1, 0.95, 0.15},  {-0.3, 0.4, 0.1499},
                                              {-0.2, 0.5, 0.1501}};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldDoorOpen(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        door_(Id(mjOBJ_BODY, "door")),
        handle_(Id(mjOBJ_GEOM, "handle")),
        goal_site_(Id(mjOBJ_SITE, "goal")),
        door_qpos_(model_->jnt_qposadr[Id(mjOBJ_JOINT, "doorjoint")]),
        door_dof_(model_->jnt_dofadr[Id(mjOBJ_JOINT, "doorjoint")]) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    const double goal[3] = {rand_vec[0] - 0.3, rand_vec[1] - 0.45, rand_vec[2] + 0.0};
    SetModelBodyPos(door_, rand_vec);
    SetModelSitePos(goal_site_, goal);
  }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    target_ = {rand_vec[0] - 0.3, rand_vec[1] - 0.45, rand_vec[2] + 0.0};
    PlaceInModel(rand_vec);
    data_->qpos[door_qpos_] = 0.0;
    data_->qvel[door_dof_] = 0.0;
    Forward();
  }

  void ObjectObs(double* objects) const override {
    std::copy(GeomPos(handle_), GeomPos(handle_) + 3, objects);
    MatrixToQuatXyzw(data_->geom_xmat + 9 * handle_, objects + 3);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    const double theta = data_->qpos[door_qpos_];
    // numpy keeps the float32 action's type: (clip(a, -1, 1) + 1) / 2.
    const double grab = static_cast<double>((std::clamp(action[3], -1.0f, 1.0f) + 1.0f) / 2.0f);
    double ready = 0, opened = 0;
    RewardPos(obs, theta, &ready, &opened);
    double reward = 0.0 + 2.0 * metaworld::HamacherProduct(ready, grab) + 8.0 * opened;
    const bool success = std::abs(obs[4] - target_[0]) <= 0.08;
    if (success) reward = 10.0;
    info->success = success ? 1.0 : 0.0;
    info->near_object = ready;
    info->grasp_success = grab >= 0.5 ? 1.0 : 0.0;
    info->grasp_reward = grab;
    info->in_place_reward = opened;
    info->obj_to_target = 0.0;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  // _reward_pos: the hand above a funnel around the handle and between it
  // and the door, then the door's angle.
  static void RewardPos(const double* obs, double theta, double* ready, double* opened) {
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    const double* hand = obs;
    const double door[3] = {obs[4] + -0.05, obs[5] + 0.0, obs[6] + 0.0};
    constexpr double kThreshold = 0.12;
    const double dx = hand[0] - door[0], dy = hand[1] - door[1];
    const double radius = std::sqrt(dx * dx + dy * dy);
    const double floor = radius <= kThreshold ? 0.0 : 0.04 * std::log(radius - kThreshold) + 0.4;
    const double above_floor =
        hand[2] >= floor ? 1.0
                         : Tolerance(floor - hand[2], 0.0, 0.01, floor / 2.0, Sigmoid::kLongTail);
    const double offset[3] = {(hand[0] - door[0]) - 0.05, (hand[1] - door[1]) - 0.03,
                              (hand[2] - door[2]) - -0.01};
    const double in_place =
        Tolerance(metaworld::Norm3(offset), 0.0, kThreshold / 2.0, 0.5, Sigmoid::kLongTail);
    *ready = metaworld::HamacherProduct(above_floor, in_place);
    const double door_angle = -theta;
    *opened = 0.2 * (theta < -M_PI / 90.0 ? 1.0 : 0.0) +
              0.8 * Tolerance(M_PI / 2.0 + M_PI / 6 - door_angle, 0.0, 0.5, M_PI / 3.0,
                              Sigmoid::kLongTail);
  }

  int door_, handle_, goal_site_, door_qpos_, door_dof_;
};

}  // namespace envpool_x
