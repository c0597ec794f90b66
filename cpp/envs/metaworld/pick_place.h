// pick-place-v3 (metaworld 3.1.1's SawyerPickPlaceEnvV3, reward version v2):
// pick the puck up and bring it within 0.07 of the goal (reward 10 within
// 0.05). rand_vec: the puck (3) and the goal (3), redrawn while they are
// closer than 0.15 in x-y.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldPickPlace : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldPickPlace";
  static constexpr double kTargetRadius = 0.05;

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"pick-place-v3",
                                              30,
                                              {-0.5, 0.40, 0.05},
                                              {0.5, 1, 0.5},
                                              {0.0, 0.6, 0.2},
                                              {-0.1, 0.6, 0.02, -0.1, 0.8, 0.05},
                                              {0.1, 0.7, 0.02, 0.1, 0.9, 0.3},
                                              {-0.1, 0.8, 0.05},
                                              {0.1, 0.9, 0.3},
                                              /*redraw_close_goal=*/true};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldPickPlace(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        obj_(Id(mjOBJ_BODY, "obj")),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override { SetModelSitePos(goal_site_, rand_vec + 3); }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec + 3, rand_vec + 6, target_.begin());
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    init_tcp_ = TcpCenter();
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    PlaceInModel(rand_vec);
  }

  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(obj_), BodyPos(obj_) + 3, objects);
    MatrixToQuatXyzw(data_->geom_xmat + 9 * obj_geom_, objects + 3);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    const double* obj = obs + 4;
    const double tcp_opened = obs[3];
    const metaworld::Vec3 tcp = TcpCenter();
    const double obj_to_target = metaworld::Dist3(obj, target_.data());
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double margin = metaworld::Dist3(obj_init_.data(), target_.data());
    const double in_place = metaworld::Tolerance(obj_to_target, 0.0, kTargetRadius, margin,
                                                 metaworld::Sigmoid::kLongTail);
    using metaworld::Py;
    const metaworld::NpNumber object_grasped = Caging(obj, tcp.data(), action[3]);
    metaworld::NpNumber reward = metaworld::HamacherProduct(object_grasped, Py(in_place));
    if (tcp_to_obj < 0.02 && tcp_opened > 0 && obj[2] - 0.01 > obj_init_[2]) {
      reward = reward + Py(1.0 + 5.0 * in_place);
    }
    if (obj_to_target < kTargetRadius) reward = Py(10.0);
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success =
        TouchingObject(obj_geom_) && tcp_opened > 0 && obj[2] - 0.02 > obj_init_[2] ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.value;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

 private:
  // This task's own _gripper_caging_reward. Its init_left_pad / init_right_pad
  // are views of MuJoCo's live body positions in Meta-World, so the caging
  // margins use the pads' current positions.
  metaworld::NpNumber Caging(const double* obj, const double* tcp, float grip) const {
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    constexpr double kPadSuccessMargin = 0.05, kXzSuccessMargin = 0.005, kObjRadius = 0.015;
    const double* left_pad = BodyPos(left_pad_);
    const double* right_pad = BodyPos(right_pad_);
    const double delta_left = left_pad[1] - obj[1];
    const double delta_right = obj[1] - right_pad[1];
    const double right_margin = std::abs(std::abs(obj[1] - right_pad[1]) - kPadSuccessMargin);
    const double left_margin = std::abs(std::abs(obj[1] - left_pad[1]) - kPadSuccessMargin);
    const double right_caging =
        Tolerance(delta_right, kObjRadius, kPadSuccessMargin, right_margin, Sigmoid::kLongTail);
    const double left_caging =
        Tolerance(delta_left, kObjRadius, kPadSuccessMargin, left_margin, Sigmoid::kLongTail);
    const double y_caging = metaworld::HamacherProduct(left_caging, right_caging);
    auto xz_norm = [](const double* a, const double* b) {
      const double dx = a[0] - b[0], dz = a[2] - b[2];
      return std::sqrt(dx * dx + dz * dz);
    };
    const double xz_margin = xz_norm(obj_init_.data(), init_tcp_.data()) - kXzSuccessMargin;
    const double xz_caging =
        Tolerance(xz_norm(tcp, obj), 0.0, kXzSuccessMargin, xz_margin, Sigmoid::kLongTail);
    using metaworld::Py;
    const metaworld::NpNumber closed = metaworld::GripperClosed(grip);
    const double caging = metaworld::HamacherProduct(y_caging, xz_caging);
    const metaworld::NpNumber gripping = caging > 0.97 ? closed : Py(0.0);
    const metaworld::NpNumber caging_and_gripping =
        metaworld::HamacherProduct(Py(caging), gripping);
    return (caging_and_gripping + Py(caging)) / Py(2);
  }

  int obj_, obj_geom_, goal_site_;
};

}  // namespace envpool_x
