// drawer-open-v3 (metaworld 3.1.1's SawyerDrawerOpenEnvV3, reward version
// v2): pull the drawer 0.2 out, its handle within 0.03 of the goal.
// rand_vec: the drawer's position. Its reset_model moves the drawer in the
// model only (no mj_forward after the hand's reset).
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldDrawerOpen : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldDrawerOpen";
  static constexpr double kMaxDist = 0.2;

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World.
    static const metaworld::TaskLayout layout{
        "drawer-open-v3",
        19,
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

  MetaWorldDrawerOpen(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        drawer_(Id(mjOBJ_BODY, "drawer")),
        drawer_link_(Id(mjOBJ_BODY, "drawer_link")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    metaworld::Vec3 goal;
    Goal(rand_vec, goal.data());
    SetModelBodyPos(drawer_, rand_vec);
    SetModelSitePos(goal_site_, goal.data());
  }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    PlaceInModel(rand_vec);
    Goal(rand_vec, target_.data());
  }

  void ObjectObs(double* objects) const override {
    const double* link = BodyPos(drawer_link_);
    objects[0] = link[0] + 0.0;
    objects[1] = link[1] + -0.16;
    objects[2] = link[2] + 0.0;
    std::copy(data_->xquat + 4 * drawer_link_, data_->xquat + 4 * drawer_link_ + 4, objects + 3);
  }

  double Evaluate(const double* obs, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    const double* gripper = obs;
    const double* handle = obs + 4;
    const double handle_error = metaworld::Dist3(handle, target_.data());
    const double opening = Tolerance(handle_error, 0.0, 0.02, kMaxDist, Sigmoid::kLongTail);
    const double handle_init[3] = {target_[0] + 0.0, target_[1] + kMaxDist, target_[2] + 0.0};
    constexpr double kScale[3] = {3.0, 3.0, 1.0};
    double error[3], error_init[3];
    for (int k = 0; k < 3; ++k) {
      error[k] = (handle[k] - gripper[k]) * kScale[k];
      error_init[k] = (handle_init[k] - init_tcp_[k]) * kScale[k];
    }
    const double caging = Tolerance(metaworld::Norm3(error), 0.0, 0.01,
                                    metaworld::Norm3(error_init), Sigmoid::kLongTail);
    const double reward = (caging + opening) * 5.0;
    info->success = handle_error <= 0.03 ? 1.0 : 0.0;
    info->near_object = metaworld::Dist3(handle, gripper) <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = obs[3] > 0 ? 1.0 : 0.0;
    info->grasp_reward = caging;
    info->in_place_reward = opening;
    info->obj_to_target = handle_error;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  // The goal: the drawer's position + (0, -0.16 - 0.2, 0.09).
  static void Goal(const double* rand_vec, double* goal) {
    goal[0] = rand_vec[0] + 0.0;
    goal[1] = rand_vec[1] + (-0.16 - kMaxDist);
    goal[2] = rand_vec[2] + 0.09;
  }

  int drawer_, drawer_link_, goal_site_;
};

}  // namespace envpool_x
