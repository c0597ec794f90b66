// door-close-v3 (metaworld 3.1.1's SawyerDoorCloseEnvV3, reward version v2):
// swing the open door (its hinge at -1.5708) shut, the handle within 0.08 of
// the goal (reward 10 within 0.05). rand_vec: the door's position; the goal
// is 0.2 right of and 0.2 in front of it.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldDoorClose : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldDoorClose";
  static constexpr double kTargetRadius = 0.05;

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World.
    static const metaworld::TaskLayout layout{
        "door-close-v3",
        13,
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5},
        {-0.5, static_cast<double>(0.6f), static_cast<double>(0.2f)},
        {0.0, 0.85, 0.15},
        {0.1, 0.95, 0.15},
        {0.2, 0.65, 0.1499},
        {0.3, 0.75, 0.1501}};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldDoorClose(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        door_(Id(mjOBJ_BODY, "door")),
        handle_(Id(mjOBJ_GEOM, "handle")),
        goal_site_(Id(mjOBJ_SITE, "goal")),
        door_qpos_(model_->jnt_qposadr[Id(mjOBJ_JOINT, "doorjoint")]),
        door_dof_(model_->jnt_dofadr[Id(mjOBJ_JOINT, "doorjoint")]) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    const double goal[3] = {rand_vec[0] + 0.2, rand_vec[1] + -0.2, rand_vec[2] + 0.0};
    SetModelBodyPos(door_, rand_vec);
    SetModelSitePos(goal_site_, goal);
  }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    target_ = {rand_vec[0] + 0.2, rand_vec[1] + -0.2, rand_vec[2] + 0.0};
    PlaceInModel(rand_vec);
    data_->qpos[door_qpos_] = -1.5708;
    data_->qvel[door_dof_] = 0.0;
    Forward();
  }

  void ObjectObs(double* objects) const override {
    std::copy(GeomPos(handle_), GeomPos(handle_) + 3, objects);
    MatrixToQuatXyzw(data_->geom_xmat + 9 * handle_, objects + 3);
  }

  double Evaluate(const double* obs, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    const double* obj = obs + 4;
    const metaworld::Vec3 tcp = TcpCenter();
    const double tcp_to_target = metaworld::Dist3(tcp.data(), target_.data());
    const double obj_to_target = metaworld::Dist3(obj, target_.data());
    const double in_place_margin = metaworld::Dist3(obj_init_.data(), target_.data());
    const double in_place =
        Tolerance(obj_to_target, 0.0, kTargetRadius, in_place_margin, Sigmoid::kGaussian);
    const double hand_margin = metaworld::Dist3(Layout().hand_init.data(), obj) + 0.1;
    const double hand_in_place =
        Tolerance(tcp_to_target, 0.0, 0.25 * kTargetRadius, hand_margin, Sigmoid::kGaussian);
    double reward = 3 * hand_in_place + 6 * in_place;
    if (obj_to_target < kTargetRadius) reward = 10;
    info->obj_to_target = obj_to_target;
    info->in_place_reward = hand_in_place;
    info->success = obj_to_target <= 0.08 ? 1.0 : 0.0;
    info->near_object = 0.0;
    info->grasp_success = 1.0;
    info->grasp_reward = 1.0;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  int door_, handle_, goal_site_, door_qpos_, door_dof_;
};

}  // namespace envpool_x
