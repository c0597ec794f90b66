// drawer-close-v3 (metaworld 3.1.1's SawyerDrawerCloseEnvV3, reward version
// v2): push the open drawer (0.15 out) shut, its handle within 0.065 of the
// goal. rand_vec: the drawer's position.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldDrawerClose : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldDrawerClose";
  static constexpr double kTargetRadius = 0.05;
  static constexpr double kMaxDist = 0.15;

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World.
    static const metaworld::TaskLayout layout{
        "drawer-close-v3",
        18,
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)},
        {-0.1, 0.9, 0.0},
        {0.1, 0.9, 0.0},
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5}};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldDrawerClose(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        drawer_(Id(mjOBJ_BODY, "drawer")),
        drawer_link_(Id(mjOBJ_BODY, "drawer_link")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    const double goal[3] = {rand_vec[0] + 0.0, rand_vec[1] + -0.16, rand_vec[2] + 0.09};
    SetModelBodyPos(drawer_, rand_vec);
    SetModelSitePos(goal_site_, goal);
  }

  void ResetTask(const double* rand_vec) override {
    PlaceInModel(rand_vec);
    target_ = {rand_vec[0] + 0.0, rand_vec[1] + -0.16, rand_vec[2] + 0.09};
    // _set_obj_xyz: the drawer's slide joint (qpos 9) pulled out; velocities kept.
    data_->qpos[9] = -kMaxDist;
    Forward();
    HandlePos(obj_init_.data());
  }

  void ObjectObs(double* objects) const override { HandlePos(objects); }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    const double* obj = obs + 4;
    const metaworld::Vec3 tcp = TcpCenter();
    const double target_to_obj = metaworld::Dist3(obj, target_.data());
    const double target_to_obj_init = metaworld::Dist3(obj_init_.data(), target_.data());
    const double in_place =
        Tolerance(target_to_obj, 0.0, kTargetRadius, std::abs(target_to_obj_init - kTargetRadius),
                  Sigmoid::kLongTail);
    constexpr double kHandleReachRadius = 0.005;
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double tcp_to_obj_init = metaworld::Dist3(obj_init_.data(), init_tcp_.data());
    const double reach =
        Tolerance(tcp_to_obj, 0.0, kHandleReachRadius,
                  std::abs(tcp_to_obj_init - kHandleReachRadius), Sigmoid::kGaussian);
    using metaworld::Py;
    // min(max(0, a), 1) with Python's int 1 above 1: as GripperClosed.
    const metaworld::NpNumber grasp =
        metaworld::HamacherProduct(Py(reach), metaworld::GripperClosed(action[3]));
    metaworld::NpNumber reward = metaworld::HamacherProduct(grasp, Py(in_place));
    const bool success = target_to_obj <= kTargetRadius + 0.015;
    if (success) reward = Py(1.0);
    reward = reward * Py(10);
    info->success = success ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.01 ? 1.0 : 0.0;
    info->grasp_success = 1.0;
    info->grasp_reward = grasp.value;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

 private:
  // The handle: the drawer link's position + (0, -0.16, 0.05); no quaternion.
  void HandlePos(double* pos) const {
    const double* link = BodyPos(drawer_link_);
    pos[0] = link[0] + 0.0;
    pos[1] = link[1] + -0.16;
    pos[2] = link[2] + 0.05;
  }

  int drawer_, drawer_link_, goal_site_;
};

}  // namespace envpool_x
