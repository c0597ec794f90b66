// stick-pull-v3 (metaworld 3.1.1's SawyerStickPullEnvV3, reward version v2):
// grasp the stick, put its end into the thermos's handle and pull the
// thermos to the goal (success: the stick inserted and the handle within
// 0.12 of the goal). rand_vec: the stick's x-y (its height is 0.02) and the
// goal's x-y (its height too); redrawn while they are closer than 0.1.
#pragma once

#include <cmath>

#include "envs/metaworld/stick_tool.h"

namespace envpool_x {

class MetaWorldStickPull : public metaworld::StickTool {
 public:
  static constexpr const char* kName = "MetaWorldStickPull";
  static constexpr double kTargetRadius = 0.05;

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"stick-pull-v3",
                                              39,
                                              {-0.5, 0.35, 0.05},
                                              {0.5, 1, 0.5},
                                              {0, 0.6, 0.2},
                                              {-0.1, 0.55, 0.000, 0.35, 0.45, 0.0199},
                                              {0.0, 0.65, 0.001, 0.45, 0.55, 0.0201},
                                              {0.35, 0.45, 0.0199},
                                              {0.45, 0.55, 0.0201},
                                              /*redraw_close_goal=*/false,
                                              &metaworld::StickNearGoal};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldStickPull(const Config& config, const EnvSpec& spec)
      : StickTool(Layout(), config, spec, /*insertion_dy=*/0.0) {}

 protected:
  void PlaceInModel(const double* /*rand_vec*/) override {}

  void ResetTask(const double* rand_vec) override {
    stick_init_ = {rand_vec[0], rand_vec[1], 0.02};
    target_ = {rand_vec[3], rand_vec[4], 0.02};
    const double thermos_qpos[2] = {0.0, 0.09};
    PlaceStickAndThermos(thermos_qpos);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Dist3;
    using metaworld::Py;
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    const metaworld::Vec3 tcp = TcpCenter();
    const double* stick = obs + 4;
    const double* handle = obs + 11;
    const double* stick_end = SitePos(stick_end_);
    const double container[3] = {handle[0] + 0.05, handle[1] + 0.0, handle[2] + 0.0};
    const double container_init[3] = {obj_init_[0] + 0.05, obj_init_[1] + 0.0, obj_init_[2] + 0.0};
    const double tcp_opened = obs[3];
    const double tcp_to_stick = Dist3(stick, tcp.data());
    const double handle_to_target = Dist3(handle, target_.data());
    // The stick's distance to the container, z weighted twice.
    const double stick_in_place =
        Tolerance(ScaledDist(stick, container), 0.0, kTargetRadius,
                  ScaledDist(stick_init_.data(), container_init), Sigmoid::kLongTail);
    const double stick_in_place_2 =
        Tolerance(Dist3(stick, target_.data()), 0.0, kTargetRadius,
                  Dist3(stick_init_.data(), target_.data()), Sigmoid::kLongTail);
    const double container_in_place =
        Tolerance(Dist3(container, target_.data()), 0.0, kTargetRadius,
                  Dist3(obj_init_.data(), target_.data()), Sigmoid::kLongTail);
    // The base's caging reward: its margins from obj_init_pos (the thermos).
    metaworld::NpNumber grasped = GrabReward(stick, obj_init_.data(), action[3], 0.014);
    const bool grasp_success =
        tcp_to_stick < 0.02 && tcp_opened > 0 && stick[2] - 0.01 > stick_init_[2];
    if (grasp_success) grasped = Py(1.0);
    const metaworld::NpNumber in_place_and_grasped =
        metaworld::HamacherProduct(grasped, Py(stick_in_place));
    const bool inserted = Inserted(handle, stick_end);
    metaworld::NpNumber reward = in_place_and_grasped;
    if (grasp_success) {
      reward = Py(1.0) + in_place_and_grasped + Py(5.0 * stick_in_place);
      if (inserted) {
        reward = Py(1.0) + in_place_and_grasped + Py(5.0) + Py(2.0 * stick_in_place_2) +
                 Py(1.0 * container_in_place);
        if (handle_to_target <= 0.12) reward = Py(10.0);
      }
    }
    info->success = handle_to_target <= 0.12 && inserted ? 1.0 : 0.0;
    info->near_object = tcp_to_stick <= 0.03 ? 1.0 : 0.0;
    info->grasp_success =
        TouchingObject(stick_geom_) && tcp_opened > 0 && stick[2] - 0.02 > obj_init_[2] ? 1.0 : 0.0;
    info->grasp_reward = grasped.value;
    info->in_place_reward = stick_in_place;
    info->obj_to_target = handle_to_target;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

 private:
  static double ScaledDist(const double* a, const double* b) {
    const double d[3] = {(a[0] - b[0]) * 1.0, (a[1] - b[1]) * 1.0, (a[2] - b[2]) * 2.0};
    return metaworld::Norm3(d);
  }
  // _stick_is_inserted: the stick's end past the handle in x, within 0.04 of
  // it in y and 0.06 in z.
  static bool Inserted(const double* handle, const double* stick_end) {
    return stick_end[0] >= handle[0] && std::abs(stick_end[1] - handle[1]) <= 0.040 &&
           std::abs(stick_end[2] - handle[2]) <= 0.060;
  }
};

}  // namespace envpool_x
