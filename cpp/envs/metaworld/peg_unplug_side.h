// peg-unplug-side-v3 (metaworld 3.1.1's SawyerPegUnplugSideEnvV3, reward
// version v2): pull the plug out of the box sideways, its end within 0.05 of
// the goal (success within 0.07). rand_vec: the box; the plug starts in it,
// (0.044, 0, 0.131) from the box, and the goal is 0.15 further in x.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldPegUnplugSide : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldPegUnplugSide";

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"peg-unplug-side-v3",
                                              36,
                                              {-0.5, 0.40, 0.05},
                                              {0.5, 1, 0.5},
                                              {0.0, 0.6, 0.2},
                                              {-0.25, 0.6, -0.001},
                                              {-0.15, 0.8, 0.001},
                                              {-0.25 + 0.194, 0.6 + 0.0, -0.001 + 0.131},
                                              {-0.15 + 0.194, 0.8 + 0.0, 0.001 + 0.131}};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldPegUnplugSide(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        box_(Id(mjOBJ_BODY, "box")),
        plug_(Id(mjOBJ_BODY, "plug1")),
        peg_end_(Id(mjOBJ_SITE, "pegEnd")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    metaworld::Vec3 plug, goal;
    Plug(rand_vec, plug.data());
    goal = {plug[0] + 0.15, plug[1] + 0.0, plug[2] + 0.0};
    SetModelBodyPos(box_, rand_vec);
    SetModelSitePos(goal_site_, goal.data());
  }

  void ResetTask(const double* rand_vec) override {
    SetModelBodyPos(box_, rand_vec);
    metaworld::Vec3 plug;
    Plug(rand_vec, plug.data());
    std::copy(plug.begin(), plug.end(), data_->qpos + 9);
    data_->qpos[12] = 1.0;
    data_->qpos[13] = data_->qpos[14] = data_->qpos[15] = 0.0;
    std::fill(data_->qvel + 9, data_->qvel + 12, 0.0);
    Forward();
    std::copy(SitePos(peg_end_), SitePos(peg_end_) + 3, obj_init_.begin());
    target_ = {plug[0] + 0.15, plug[1] + 0.0, plug[2] + 0.0};
    PlaceInModel(rand_vec);
  }

  // The plug's end and the plug's quaternion (MuJoCo's w, x, y, z).
  void ObjectObs(double* objects) const override {
    std::copy(SitePos(peg_end_), SitePos(peg_end_) + 3, objects);
    std::copy(data_->xquat + 4 * plug_, data_->xquat + 4 * plug_ + 4, objects + 3);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Py;
    const metaworld::Vec3 tcp = TcpCenter();
    const double* obj = obs + 4;
    const double tcp_opened = obs[3];
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double obj_to_target = metaworld::Dist3(obj, target_.data());
    metaworld::CagingArgs caging{obj,
                                 obj_init_.data(),
                                 BodyPos(left_pad_),
                                 BodyPos(right_pad_),
                                 tcp.data(),
                                 init_tcp_.data(),
                                 action[3],
                                 /*obj_radius=*/0.025,
                                 /*pad_success_thresh=*/0.05,
                                 /*object_reach_radius=*/0.01,
                                 /*xz_thresh=*/0.005};
    caging.desired_gripper_effort = 0.8;
    caging.high_density = true;
    const metaworld::NpNumber object_grasped = metaworld::GripperCagingReward(caging);
    const double in_place_margin = metaworld::Dist3(obj_init_.data(), target_.data());
    const double in_place = metaworld::Tolerance(obj_to_target, 0.0, 0.05, in_place_margin,
                                                 metaworld::Sigmoid::kLongTail);
    const bool grasp_success = tcp_opened > 0.5 && obj[0] - obj_init_[0] > 0.015;
    metaworld::NpNumber reward = Py(2) * object_grasped;
    if (grasp_success && tcp_to_obj < 0.035) {
      reward = Py(1) + Py(2) * object_grasped + Py(5 * in_place);
    }
    if (obj_to_target <= 0.05) reward = Py(10.0);
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = grasp_success ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.value;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

 private:
  static void Plug(const double* rand_vec, double* plug) {
    plug[0] = rand_vec[0] + 0.044;
    plug[1] = rand_vec[1] + 0.0;
    plug[2] = rand_vec[2] + 0.131;
  }

  int box_, plug_, peg_end_, goal_site_;
};

}  // namespace envpool_x
