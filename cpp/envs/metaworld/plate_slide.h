// plate-slide-v3, plate-slide-side-v3, plate-slide-back-v3 and
// plate-slide-back-side-v3 (metaworld 3.1.1's SawyerPlateSlide*EnvV3,
// reward version v2): slide the puck into the goal, within 0.07 (reward 10
// within 0.05). rand_vec: the puck's start (fixed per task) and the goal.
// The puck's slide joints start at a per-task offset, set without zeroing
// their velocities (as Meta-World's _set_obj_xyz here); the back-side task
// moves the goal's body to the puck's start.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

enum class PlateSlide { kFront, kSide, kBack, kBackSide };

template <PlateSlide kVariant>
class MetaWorldPlateSlideTask : public metaworld::SawyerEnv {
 public:
  static constexpr bool kFront = kVariant == PlateSlide::kFront;
  static constexpr const char* kName = kFront                          ? "MetaWorldPlateSlide"
                                       : kVariant == PlateSlide::kSide ? "MetaWorldPlateSlideSide"
                                       : kVariant == PlateSlide::kBack
                                           ? "MetaWorldPlateSlideBack"
                                           : "MetaWorldPlateSlideBackSide";
  static constexpr double kTargetRadius = 0.05;

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World.
    static const metaworld::Vec3 hand{0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)};
    static const metaworld::Vec3 low{-0.5, 0.40, 0.05}, high{0.5, 1, 0.5};
    static const metaworld::TaskLayout front{"plate-slide-v3",
                                             31,
                                             low,
                                             high,
                                             hand,
                                             {0.0, 0.6, 0.0, -0.1, 0.85, 0.0},
                                             {0.0, 0.6, 0.0, 0.1, 0.9, 0.0},
                                             {-0.1, 0.85, 0.0},
                                             {0.1, 0.9, 0.0}};
    static const metaworld::TaskLayout side{"plate-slide-side-v3",
                                            32,
                                            low,
                                            high,
                                            hand,
                                            {0.0, 0.6, 0.0, -0.3, 0.54, 0.0},
                                            {0.0, 0.6, 0.0, -0.25, 0.66, 0.0},
                                            {-0.3, 0.54, 0.0},
                                            {-0.25, 0.66, 0.0}};
    static const metaworld::TaskLayout back{"plate-slide-back-v3",
                                            33,
                                            low,
                                            high,
                                            hand,
                                            {0.0, 0.85, 0.0, -0.1, 0.6, 0.015},
                                            {0.0, 0.85, 0.0, 0.1, 0.6, 0.015},
                                            {-0.1, 0.6, 0.015},
                                            {0.1, 0.6, 0.015}};
    static const metaworld::TaskLayout back_side{"plate-slide-back-side-v3",
                                                 34,
                                                 low,
                                                 high,
                                                 hand,
                                                 {-0.25, 0.6, 0.0, -0.05, 0.6, 0.015},
                                                 {-0.25, 0.6, 0.0, 0.15, 0.6, 0.015},
                                                 {-0.05, 0.6, 0.015},
                                                 {0.15, 0.6, 0.015}};
    switch (kVariant) {
      case PlateSlide::kFront:
        return front;
      case PlateSlide::kSide:
        return side;
      case PlateSlide::kBack:
        return back;
      default:
        return back_side;
    }
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldPlateSlideTask(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        puck_(Id(mjOBJ_GEOM, "puck")),
        puck_goal_(Id(mjOBJ_BODY, "puck_goal")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    // front: the goal's body at the goal; back-side: at the puck's start;
    // side and back write the body's position in mjData, which mj_forward
    // overwrites (no effect).
    if (kFront) SetModelBodyPos(puck_goal_, rand_vec + 3);
    if (kVariant == PlateSlide::kBackSide) SetModelBodyPos(puck_goal_, rand_vec);
    SetModelSitePos(goal_site_, rand_vec + 3);
  }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    std::copy(rand_vec + 3, rand_vec + 6, target_.begin());
    PlaceInModel(rand_vec);
    const double slide[2] = {0.0, kVariant == PlateSlide::kBack ? 0.15 : 0.0};
    data_->qpos[9] = kVariant == PlateSlide::kBackSide ? -0.15 : slide[0];
    data_->qpos[10] = slide[1];
    Forward();
  }

  void ObjectObs(double* objects) const override {
    std::copy(GeomPos(puck_), GeomPos(puck_) + 3, objects);
    MatrixToQuatXyzw(data_->geom_xmat + 9 * puck_, objects + 3);
  }

  double Evaluate(const double* obs, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    const double* obj = obs + 4;
    const metaworld::Vec3 tcp = TcpCenter();
    // The variants other than the front one start their margins at the radius.
    const double margin_offset = kFront ? 0.0 : kTargetRadius;
    const double obj_to_target = metaworld::Dist3(obj, target_.data());
    const double in_place_margin = metaworld::Dist3(obj_init_.data(), target_.data());
    const double in_place = Tolerance(obj_to_target, 0.0, kTargetRadius,
                                      in_place_margin - margin_offset, Sigmoid::kLongTail);
    const double tcp_to_obj = metaworld::Dist3(tcp.data(), obj);
    const double grasped_margin = metaworld::Dist3(init_tcp_.data(), obj_init_.data());
    const double object_grasped = Tolerance(tcp_to_obj, 0.0, kTargetRadius,
                                            grasped_margin - margin_offset, Sigmoid::kLongTail);
    double reward;
    if (kFront) {
      reward = 8 * metaworld::HamacherProduct(object_grasped, in_place);
    } else {
      reward = 1.5 * object_grasped;
      if (tcp[2] <= 0.03 && tcp_to_obj < 0.07) reward = 2.0 + (7.0 * in_place);
    }
    if (obj_to_target < kTargetRadius) reward = 10.0;
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = 0.0;
    info->grasp_reward = object_grasped;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  int puck_, puck_goal_, goal_site_;
};

using MetaWorldPlateSlide = MetaWorldPlateSlideTask<PlateSlide::kFront>;
using MetaWorldPlateSlideSide = MetaWorldPlateSlideTask<PlateSlide::kSide>;
using MetaWorldPlateSlideBack = MetaWorldPlateSlideTask<PlateSlide::kBack>;
using MetaWorldPlateSlideBackSide = MetaWorldPlateSlideTask<PlateSlide::kBackSide>;

}  // namespace envpool_x
