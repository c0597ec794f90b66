// handle-press-v3 and handle-press-side-v3 (metaworld 3.1.1's
// SawyerHandlePressEnvV3 and SawyerHandlePressSideEnvV3, reward version v2):
// press the handle down, its start within 0.02 of the goal in z. rand_vec:
// the handle's box (in front of the robot, or to its side).
#pragma once

#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

template <bool kSide>
class MetaWorldHandlePressTask : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = kSide ? "MetaWorldHandlePressSide" : "MetaWorldHandlePress";
  static constexpr double kTargetRadius = 0.02;
  static constexpr double kHandleRadius = 0.02;

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout front{"handle-press-v3",  24,
                                             {-0.5, 0.40, 0.05}, {0.5, 1.0, 0.5},
                                             {0.0, 0.6, 0.2},    {-0.1, 0.8, -0.001},
                                             {0.1, 0.9, 0.001},  {-0.1, 0.55, 0.04},
                                             {0.1, 0.70, 0.08}};
    // The side task's goal space is the mocap box.
    static const metaworld::TaskLayout side{"handle-press-side-v3", 23,
                                            {-0.5, 0.40, 0.05},     {0.5, 1.0, 0.5},
                                            {0.0, 0.6, 0.2},        {-0.35, 0.65, -0.001},
                                            {-0.25, 0.75, 0.001},   {-0.5, 0.40, 0.05},
                                            {0.5, 1.0, 0.5}};
    return kSide ? side : front;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldHandlePressTask(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        box_(Id(mjOBJ_BODY, "box")),
        handle_(Id(mjOBJ_SITE, "handleStart")),
        goal_(Id(mjOBJ_SITE, "goalPress")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override { SetModelBodyPos(box_, rand_vec); }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    PlaceInModel(rand_vec);
    data_->qpos[9] = -0.001;
    data_->qvel[9] = 0.0;
    Forward();
    std::copy(SitePos(goal_), SitePos(goal_) + 3, target_.begin());
    std::copy(SitePos(handle_), SitePos(handle_) + 3, handle_init_.begin());
  }

  // The handle's start; no quaternion (zeros).
  void ObjectObs(double* objects) const override {
    std::copy(SitePos(handle_), SitePos(handle_) + 3, objects);
  }

  double Evaluate(const double* /*obs*/, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    const double* obj = SitePos(handle_);
    const metaworld::Vec3 tcp = TcpCenter();
    // np.linalg.norm of one number: the square root of its square.
    auto norm1 = [](double x) { return std::sqrt(x * x); };
    const double target_to_obj = norm1(obj[2] - target_[2]);
    const double target_to_obj_init = norm1(handle_init_[2] - target_[2]);
    const double in_place =
        Tolerance(target_to_obj, 0.0, kTargetRadius, std::abs(target_to_obj_init - kTargetRadius),
                  Sigmoid::kLongTail);
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double tcp_to_obj_init = metaworld::Dist3(handle_init_.data(), init_tcp_.data());
    const double reach = Tolerance(tcp_to_obj, 0.0, kHandleRadius,
                                   std::abs(tcp_to_obj_init - kHandleRadius), Sigmoid::kLongTail);
    double reward = metaworld::HamacherProduct(reach, in_place);
    reward = target_to_obj <= kTargetRadius ? 1.0 : reward;
    reward *= 10;
    info->success = target_to_obj <= kTargetRadius ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
    info->grasp_success = 1.0;
    info->grasp_reward = reach;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward;
    return reward;
  }

  // _handle_init_pos.
  int NumTaskValues() const override { return 3; }
  void GetTaskValues(double* out) const override {
    std::copy(handle_init_.begin(), handle_init_.end(), out);
  }
  void SetTaskValues(const double* in) override { std::copy(in, in + 3, handle_init_.begin()); }

 private:
  int box_, handle_, goal_;
  metaworld::Vec3 handle_init_{};
};

using MetaWorldHandlePress = MetaWorldHandlePressTask<false>;
using MetaWorldHandlePressSide = MetaWorldHandlePressTask<true>;

}  // namespace envpool_x
