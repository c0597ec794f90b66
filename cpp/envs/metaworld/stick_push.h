// stick-push-v3 (metaworld 3.1.1's SawyerStickPushEnvV3, reward version v2):
// grasp the stick and push the thermos with it to the goal (success: the
// stick grasped and the thermos's insertion point within 0.12 of the goal).
// rand_vec: the stick's x-y (its height is 0.02) and the goal's x-y (its
// height is the insertion point's); redrawn while they are closer than 0.1.
#pragma once

#include "envs/metaworld/stick_tool.h"

namespace envpool_x {

class MetaWorldStickPush : public metaworld::StickTool {
 public:
  static constexpr const char* kName = "MetaWorldStickPush";
  static constexpr double kTargetRadius = 0.12;

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"stick-push-v3",
                                              38,
                                              {-0.5, 0.40, 0.05},
                                              {0.5, 1, 0.5},
                                              {0, 0.6, 0.2},
                                              {-0.08, 0.58, 0.000, 0.399, 0.55, 0.1319},
                                              {-0.03, 0.62, 0.001, 0.401, 0.6, 0.1321},
                                              {0.399, 0.55, 0.1319},
                                              {0.401, 0.6, 0.1321},
                                              /*redraw_close_goal=*/false,
                                              &metaworld::StickNearGoal};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldStickPush(const Config& config, const EnvSpec& spec)
      : StickTool(Layout(), config, spec, /*insertion_dy=*/0.09) {}

 protected:
  void PlaceInModel(const double* /*rand_vec*/) override {}

  void ResetTask(const double* rand_vec) override {
    stick_init_ = {rand_vec[0], rand_vec[1], 0.02};
    target_ = {rand_vec[3], rand_vec[4], SitePos(insertion_)[2]};
    const double thermos_qpos[2] = {0.0, 0.0};
    PlaceStickAndThermos(thermos_qpos);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Dist3;
    using metaworld::Py;
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    const metaworld::Vec3 tcp = TcpCenter();
    const double stick[3] = {obs[4] + 0.015, obs[5] + 0.0, obs[6] + 0.0};
    const double* container = obs + 11;
    const double tcp_opened = obs[3];
    const double tcp_to_stick = Dist3(stick, tcp.data());
    const double stick_to_target = Dist3(stick, target_.data());
    const double stick_margin = Dist3(stick_init_.data(), target_.data()) - kTargetRadius;
    const double stick_in_place =
        Tolerance(stick_to_target, 0.0, kTargetRadius, stick_margin, Sigmoid::kLongTail);
    const double container_to_target = Dist3(container, target_.data());
    const double container_margin = Dist3(obj_init_.data(), target_.data()) - kTargetRadius;
    const double container_in_place =
        Tolerance(container_to_target, 0.0, kTargetRadius, container_margin, Sigmoid::kLongTail);
    // This task's caging reward measures its margins from the stick's start.
    metaworld::NpNumber grasped = GrabReward(stick, stick_init_.data(), action[3], 0.04);
    metaworld::NpNumber reward = grasped;
    if (tcp_to_stick < 0.02 && tcp_opened > 0 && stick[2] - 0.01 > stick_init_[2]) {
      grasped = Py(1.0);
      reward = Py(2.0 + 5.0 * stick_in_place + 3.0 * container_in_place);
      if (container_to_target <= kTargetRadius) reward = Py(10.0);
    }
    // evaluate_state's own tests read the observed stick, not the shifted one.
    const double* observed_stick = obs + 4;
    const bool grasp_success =
        TouchingObject(stick_geom_) && tcp_opened > 0 && observed_stick[2] - 0.01 > stick_init_[2];
    const bool near_goal = Dist3(container, target_.data()) <= kTargetRadius;
    info->success = grasp_success && near_goal ? 1.0 : 0.0;
    info->near_object = tcp_to_stick <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = grasp_success ? 1.0 : 0.0;
    info->grasp_reward = grasped.value;
    info->in_place_reward = stick_in_place;
    info->obj_to_target = container_to_target;
    info->unscaled_reward = reward.value;
    return reward.value;
  }
};

}  // namespace envpool_x
