// coffee-button-v3 (metaworld 3.1.1's SawyerCoffeeButtonEnvV3, reward version
// v2): press the coffee machine's button in by 0.03 (success within 0.02 of
// the goal in y). rand_vec: the machine's position. Meta-World's reset writes
// the mug's position into the first three qpos (the arm's first joints, not
// the mug's) and zeroes the mug's velocities; that is reproduced.
#pragma once

#include <algorithm>
#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldCoffeeButton : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldCoffeeButton";
  static constexpr double kMaxDist = 0.03;

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{
        "coffee-button-v3",
        8,
        {-0.5, 0.4, 0.05},
        {0.5, 1.0, 0.5},
        {0.0, 0.4, 0.2},
        {-0.1, 0.8, -0.001},
        {0.1, 0.9, +0.001},
        {-0.1 + -0.001, 0.8 + (-0.22 + kMaxDist), -0.001 + 0.299},
        {0.1 + +0.001, 0.9 + (-0.22 + kMaxDist), +0.001 + 0.301}};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldCoffeeButton(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        machine_(Id(mjOBJ_BODY, "coffee_machine")),
        button_(Id(mjOBJ_SITE, "buttonStart")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override { SetModelBodyPos(machine_, rand_vec); }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    PlaceInModel(rand_vec);
    data_->qpos[0] = rand_vec[0] + 0.0;
    data_->qpos[1] = rand_vec[1] + -0.22;
    data_->qpos[2] = rand_vec[2] + 0.0;
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    const double button[3] = {rand_vec[0] + 0.0, rand_vec[1] + -0.22, rand_vec[2] + 0.3};
    target_ = {button[0] + 0.0, button[1] + kMaxDist, button[2] + 0.0};
  }

  // The button's start; the quaternion is (1, 0, 0, 0).
  void ObjectObs(double* objects) const override {
    std::copy(SitePos(button_), SitePos(button_) + 3, objects);
    objects[3] = 1.0;
  }

  double Evaluate(const double* obs, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    const double* obj = obs + 4;
    const metaworld::Vec3 tcp = TcpCenter();
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double tcp_to_obj_init = metaworld::Dist3(obj, init_tcp_.data());
    const double obj_to_target = std::abs(target_[1] - obj[1]);
    const double tcp_closed = std::max(obs[3], 0.0);
    const double near_button =
        Tolerance(tcp_to_obj, 0.0, 0.05, tcp_to_obj_init, Sigmoid::kLongTail);
    const double pressed = Tolerance(obj_to_target, 0.0, 0.005, kMaxDist, Sigmoid::kLongTail);
    double reward = 2 * metaworld::HamacherProduct(tcp_closed, near_button);
    if (tcp_to_obj <= 0.05) reward += 8 * pressed;
    info->success = obj_to_target <= 0.02 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
    info->grasp_success = obs[3] > 0 ? 1.0 : 0.0;
    info->grasp_reward = near_button;
    info->in_place_reward = pressed;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  int machine_, button_;
};

}  // namespace envpool_x
