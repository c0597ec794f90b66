// dial-turn-v3 (metaworld 3.1.1's SawyerDialTurnEnvV3, reward version v2):
// turn the dial until the point on its rim is within 0.07 of the goal, with
// the gripper closed. rand_vec: the dial's position; the goal is 0.03 behind
// and above it. The observed object is that rim point: the dial's centre
// plus 0.05 (sin a, -cos a, 0) for the knob's angle a.
#pragma once

#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldDialTurn : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldDialTurn";
  static constexpr double kTargetRadius = 0.07;
  static constexpr double kReachRadius = 0.005;

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World.
    static const metaworld::TaskLayout layout{
        "dial-turn-v3",
        11,
        {-0.5, 0.40, 0.05},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)},
        {-0.1, 0.7, 0.0},
        {0.1, 0.8, 0.0},
        {-0.1, 0.73, 0.0299},
        {0.1, 0.83, 0.0301}};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldDialTurn(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        dial_(Id(mjOBJ_BODY, "dial")),
        goal_site_(Id(mjOBJ_SITE, "goal")),
        knob_qpos_(model_->jnt_qposadr[Id(mjOBJ_JOINT, "knob_Joint_1")]) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    metaworld::Vec3 goal;
    Goal(rand_vec, goal.data());
    SetModelBodyPos(dial_, rand_vec);
    SetModelSitePos(goal_site_, goal.data());
  }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    Goal(rand_vec, target_.data());
    PlaceInModel(rand_vec);
    push_init_ = PushPosition(RimPoint());
  }

  void ObjectObs(double* objects) const override {
    const metaworld::Vec3 rim = RimPoint();
    std::copy(rim.begin(), rim.end(), objects);
    std::copy(data_->xquat + 4 * dial_, data_->xquat + 4 * dial_ + 4, objects + 3);
  }

  double Evaluate(const double* /*obs*/, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Py;
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    const metaworld::Vec3 obj = RimPoint();
    const metaworld::Vec3 push = PushPosition(obj);
    const metaworld::Vec3 tcp = TcpCenter();
    const double target_to_obj = metaworld::Dist3(obj.data(), target_.data());
    const double target_to_obj_init = metaworld::Dist3(push_init_.data(), target_.data());
    const double in_place =
        Tolerance(target_to_obj, 0.0, kTargetRadius, std::abs(target_to_obj_init - kTargetRadius),
                  Sigmoid::kLongTail);
    const double tcp_to_obj = metaworld::Dist3(push.data(), tcp.data());
    const double tcp_to_obj_init = metaworld::Dist3(push_init_.data(), init_tcp_.data());
    const double reach_only =
        Tolerance(tcp_to_obj, 0.0, kReachRadius, std::abs(tcp_to_obj_init - kReachRadius),
                  Sigmoid::kGaussian);
    const metaworld::NpNumber reach =
        metaworld::HamacherProduct(Py(reach_only), metaworld::GripperClosed(action[3]));
    const metaworld::NpNumber reward = Py(10) * metaworld::HamacherProduct(reach, Py(in_place));
    info->success = target_to_obj <= kTargetRadius ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.01 ? 1.0 : 0.0;
    info->grasp_success = 1.0;
    info->grasp_reward = reach.value;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

  // dial_push_position.
  int NumTaskValues() const override { return 3; }
  void GetTaskValues(double* out) const override {
    std::copy(push_init_.begin(), push_init_.end(), out);
  }
  void SetTaskValues(const double* in) override { std::copy(in, in + 3, push_init_.begin()); }

 private:
  static void Goal(const double* rand_vec, double* goal) {
    goal[0] = rand_vec[0] + 0.0;
    goal[1] = rand_vec[1] + 0.03;
    goal[2] = rand_vec[2] + 0.03;
  }
  // _get_pos_objects: the rim point the knob's angle points to.
  metaworld::Vec3 RimPoint() const {
    const double* centre = BodyPos(dial_);
    const double angle = data_->qpos[knob_qpos_];
    const double offset[3] = {std::sin(angle) * 0.05, -std::cos(angle) * 0.05, 0.0 * 0.05};
    return {centre[0] + offset[0], centre[1] + offset[1], centre[2] + offset[2]};
  }
  // Where the fingers push the rim from.
  static metaworld::Vec3 PushPosition(const metaworld::Vec3& rim) {
    return {rim[0] + 0.05, rim[1] + 0.02, rim[2] + 0.09};
  }

  int dial_, goal_site_, knob_qpos_;
  metaworld::Vec3 push_init_{};
};

}  // namespace envpool_x
