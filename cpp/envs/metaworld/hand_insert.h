// hand-insert-v3 (metaworld 3.1.1's SawyerHandInsertEnvV3, reward version
// v2): push the block into the table's hole, within 0.05 of the goal below
// the table top. rand_vec: the block's x-y (its height is fixed) and the goal
// (3), redrawn while they are closer than 0.15 in x-y.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldHandInsert : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldHandInsert";
  static constexpr double kTargetRadius = 0.05;

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World.
    static const metaworld::TaskLayout layout{
        "hand-insert-v3",
        17,
        {-0.5, 0.40, -0.15},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)},
        {-0.1, 0.6, 0.05, -0.04, 0.8, -0.0201},
        {0.1, 0.7, 0.05, 0.04, 0.88, -0.0199},
        {-0.04, 0.8, -0.0201},
        {0.04, 0.88, -0.0199},
        /*redraw_close_goal=*/true};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldHandInsert(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        obj_(Id(mjOBJ_BODY, "obj")),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override { SetModelSitePos(goal_site_, rand_vec + 3); }

  void ResetTask(const double* rand_vec) override {
    obj_init_ = {rand_vec[0], rand_vec[1], 0.05};
    std::copy(rand_vec + 3, rand_vec + 6, target_.begin());
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    PlaceInModel(rand_vec);
  }

  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(obj_), BodyPos(obj_) + 3, objects);
    std::copy(data_->xquat + 4 * obj_, data_->xquat + 4 * obj_ + 4, objects + 3);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Py;
    const double* obj = obs + 4;
    const double target_to_obj = metaworld::Dist3(obj, target_.data());
    const double target_to_obj_init = metaworld::Dist3(obj_init_.data(), target_.data());
    const double in_place = metaworld::Tolerance(target_to_obj, 0.0, kTargetRadius,
                                                 target_to_obj_init, metaworld::Sigmoid::kLongTail);
    const metaworld::Vec3 tcp = TcpCenter();
    metaworld::CagingArgs caging{obj,
                                 obj_init_.data(),
                                 BodyPos(left_pad_),
                                 BodyPos(right_pad_),
                                 tcp.data(),
                                 init_tcp_.data(),
                                 action[3],
                                 /*obj_radius=*/0.015,
                                 /*pad_success_thresh=*/0.05,
                                 /*object_reach_radius=*/0.01,
                                 /*xz_thresh=*/0.005};
    caging.high_density = true;
    const metaworld::NpNumber object_grasped = metaworld::GripperCagingReward(caging);
    metaworld::NpNumber reward = metaworld::HamacherProduct(object_grasped, Py(in_place));
    const double tcp_opened = obs[3];
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    if (tcp_to_obj < 0.02 && tcp_opened > 0) reward = reward + Py(1.0 + 7.0 * in_place);
    if (target_to_obj < kTargetRadius) reward = Py(10.0);
    info->success = target_to_obj <= 0.05 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success =
        TouchingObject(obj_geom_) && tcp_opened > 0 && obj[2] - 0.02 > obj_init_[2] ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.value;
    info->in_place_reward = in_place;
    info->obj_to_target = target_to_obj;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

 private:
  int obj_, obj_geom_, goal_site_;
};

}  // namespace envpool_x
