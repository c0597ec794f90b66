// coffee-push-v3 and coffee-pull-v3 (metaworld 3.1.1's SawyerCoffeePushEnvV3
// and SawyerCoffeePullEnvV3, reward version v2): slide the mug under the
// coffee machine (push) or out from under it (pull), within 0.07 of the goal
// (reward 10 within 0.05, x and y counted twice). rand_vec: the mug's start
// and goal, redrawn while they are closer than 0.15 in x-y; the machine
// stands 0.22 behind the goal (push) or the start (pull). As in coffee-button,
// Meta-World's reset writes the mug's start into the first three qpos (the
// arm's, not the mug's); that is reproduced.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

template <bool kPull>
class MetaWorldCoffeeMugTask : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = kPull ? "MetaWorldCoffeePull" : "MetaWorldCoffeePush";

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout push{"coffee-push-v3",
                                            10,
                                            {-0.5, 0.40, 0.05},
                                            {0.5, 1, 0.5},
                                            {0.0, 0.4, 0.2},
                                            {-0.1, 0.55, -0.001, -0.05, 0.7, -0.001},
                                            {0.1, 0.65, +0.001, 0.05, 0.75, +0.001},
                                            {-0.05, 0.7, -0.001},
                                            {0.05, 0.75, +0.001},
                                            /*redraw_close_goal=*/true};
    static const metaworld::TaskLayout pull{"coffee-pull-v3",
                                            9,
                                            {-0.5, 0.40, 0.05},
                                            {0.5, 1, 0.5},
                                            {0.0, 0.4, 0.2},
                                            {-0.05, 0.7, -0.001, -0.1, 0.55, -0.001},
                                            {0.05, 0.75, +0.001, 0.1, 0.65, +0.001},
                                            {-0.1, 0.55, -0.001},
                                            {0.1, 0.65, +0.001},
                                            /*redraw_close_goal=*/true};
    return kPull ? pull : push;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldCoffeeMugTask(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        mug_body_(Id(mjOBJ_BODY, "obj")),
        mug_(Id(mjOBJ_GEOM, "mug")),
        machine_(Id(mjOBJ_BODY, "coffee_machine")),
        goal_site_(Id(mjOBJ_SITE, "mug_goal")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    const double* anchor = kPull ? rand_vec : rand_vec + 3;
    const double machine[3] = {anchor[0] + 0.0, anchor[1] + 0.22, anchor[2] + 0.0};
    SetModelBodyPos(machine_, machine);
    SetModelSitePos(goal_site_, rand_vec + 3);
  }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, data_->qpos);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    std::copy(rand_vec + 3, rand_vec + 6, target_.begin());
    PlaceInModel(rand_vec);
  }

  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(mug_body_), BodyPos(mug_body_) + 3, objects);
    MatrixToQuatXyzw(data_->geom_xmat + 9 * mug_, objects + 3);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Py;
    const double* obj = obs + 4;
    // x and y count twice.
    auto scaled = [](const double* a, const double* b) {
      const double d[3] = {(a[0] - b[0]) * 2.0, (a[1] - b[1]) * 2.0, (a[2] - b[2]) * 1.0};
      return metaworld::Norm3(d);
    };
    const double target_to_obj = scaled(obj, target_.data());
    const double target_to_obj_init = scaled(obj_init_.data(), target_.data());
    const double in_place = metaworld::Tolerance(target_to_obj, 0.0, 0.05, target_to_obj_init,
                                                 metaworld::Sigmoid::kLongTail);
    const double tcp_opened = obs[3];
    const metaworld::Vec3 tcp = TcpCenter();
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    metaworld::CagingArgs caging{obj,
                                 obj_init_.data(),
                                 BodyPos(left_pad_),
                                 BodyPos(right_pad_),
                                 tcp.data(),
                                 init_tcp_.data(),
                                 action[3],
                                 /*obj_radius=*/0.02,
                                 /*pad_success_thresh=*/0.05,
                                 /*object_reach_radius=*/0.04,
                                 /*xz_thresh=*/0.05};
    caging.desired_gripper_effort = 0.7;
    caging.medium_density = true;
    const metaworld::NpNumber object_grasped = metaworld::GripperCagingReward(caging);
    metaworld::NpNumber reward = metaworld::HamacherProduct(object_grasped, Py(in_place));
    if (tcp_to_obj < 0.04 && tcp_opened > 0) reward = reward + Py(1.0 + 5.0 * in_place);
    if (target_to_obj < 0.05) reward = Py(10.0);
    const double obj_to_target = metaworld::Dist3(obj, target_.data());
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = TouchingObject(mug_) && tcp_opened > 0 ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.value;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

 private:
  int mug_body_, mug_, machine_, goal_site_;
};

using MetaWorldCoffeePush = MetaWorldCoffeeMugTask<false>;
using MetaWorldCoffeePull = MetaWorldCoffeeMugTask<true>;

}  // namespace envpool_x
