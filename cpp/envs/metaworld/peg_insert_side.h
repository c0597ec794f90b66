// peg-insert-side-v3 (metaworld 3.1.1's SawyerPegInsertionSideEnvV3, reward
// version v2): pick the peg up and push its head into the box's hole (success
// within 0.07 of the goal, y and z weighted twice). rand_vec: the peg (3) and
// the box (3), redrawn while they are closer than 0.1 in x-y; the goal is the
// box's hole, (0.03, 0, 0.13) from the box.
#pragma once

#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldPegInsertSide : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldPegInsertSide";
  static constexpr double kTargetRadius = 0.07;

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"peg-insert-side-v3",
                                              35,
                                              {-0.5, 0.40, 0.05},
                                              {0.5, 1, 0.5},
                                              {0.0, 0.6, 0.2},
                                              {0.0, 0.5, 0.02, -0.35, 0.4, -0.001},
                                              {0.2, 0.7, 0.02, -0.25, 0.7, 0.001},
                                              {-0.35 + 0.03, 0.4 + 0.0, -0.001 + 0.13},
                                              {-0.25 + 0.03, 0.7 + 0.0, 0.001 + 0.13},
                                              /*redraw_close_goal=*/false,
                                              &PegNearBox};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldPegInsertSide(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        box_(Id(mjOBJ_BODY, "box")),
        goal_site_(Id(mjOBJ_SITE, "goal")),
        peg_grasp_(Id(mjOBJ_SITE, "pegGrasp")),
        peg_head_(Id(mjOBJ_SITE, "pegHead")),
        box1_low_(Id(mjOBJ_SITE, "bottom_right_corner_collision_box_1")),
        box1_high_(Id(mjOBJ_SITE, "top_left_corner_collision_box_1")),
        box2_low_(Id(mjOBJ_SITE, "bottom_right_corner_collision_box_2")),
        box2_high_(Id(mjOBJ_SITE, "top_left_corner_collision_box_2")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    metaworld::Vec3 goal;
    Goal(rand_vec, goal.data());
    SetModelBodyPos(box_, rand_vec + 3);
    SetModelSitePos(goal_site_, goal.data());
  }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    // Read before the peg is moved: where the hand's reset left its head.
    std::copy(SitePos(peg_head_), SitePos(peg_head_) + 3, peg_head_init_.begin());
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    Goal(rand_vec, target_.data());
    PlaceInModel(rand_vec);
  }

  void ObjectObs(double* objects) const override {
    std::copy(SitePos(peg_grasp_), SitePos(peg_grasp_) + 3, objects);
    MatrixToQuatXyzw(data_->site_xmat + 9 * peg_grasp_, objects + 3);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Py;
    const double* obj = obs + 4;
    const double* head = SitePos(peg_head_);
    const double tcp_opened = obs[3];
    const metaworld::Vec3 tcp = TcpCenter();
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    const double obj_to_target = ScaledDist(head, target_.data());
    const double margin = ScaledDist(peg_head_init_.data(), target_.data());
    double in_place = metaworld::Tolerance(obj_to_target, 0.0, kTargetRadius, margin,
                                           metaworld::Sigmoid::kLongTail);
    const double collision_boxes =
        metaworld::HamacherProduct(InPrism(head, SitePos(box2_low_), SitePos(box2_high_)),
                                   InPrism(head, SitePos(box1_low_), SitePos(box1_high_)));
    in_place = metaworld::HamacherProduct(in_place, collision_boxes);
    metaworld::CagingArgs caging{obj,
                                 obj_init_.data(),
                                 BodyPos(left_pad_),
                                 BodyPos(right_pad_),
                                 tcp.data(),
                                 init_tcp_.data(),
                                 action[3],
                                 /*obj_radius=*/0.0075,
                                 /*pad_success_thresh=*/0.03,
                                 /*object_reach_radius=*/0.01,
                                 /*xz_thresh=*/0.005};
    caging.high_density = true;
    metaworld::NpNumber object_grasped = metaworld::GripperCagingReward(caging);
    const bool lifted = tcp_to_obj < 0.08 && tcp_opened > 0 && obj[2] - 0.01 > obj_init_[2];
    if (lifted) object_grasped = Py(1.0);
    metaworld::NpNumber reward = metaworld::HamacherProduct(object_grasped, Py(in_place));
    if (lifted) reward = reward + Py(1.0 + 5 * in_place);
    if (obj_to_target <= kTargetRadius) reward = Py(10.0);
    info->success = obj_to_target <= kTargetRadius ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success =
        tcp_to_obj < 0.02 && tcp_opened > 0 && obj[2] - 0.01 > obj_init_[2] ? 1.0 : 0.0;
    info->grasp_reward = object_grasped.value;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

  // peg_head_pos_init.
  int NumTaskValues() const override { return 3; }
  void GetTaskValues(double* out) const override {
    std::copy(peg_head_init_.begin(), peg_head_init_.end(), out);
  }
  void SetTaskValues(const double* in) override { std::copy(in, in + 3, peg_head_init_.begin()); }

 private:
  static bool PegNearBox(const double* v) {
    const double dx = v[0] - v[3], dy = v[1] - v[4];
    return std::sqrt(dx * dx + dy * dy) < 0.1;
  }
  static void Goal(const double* rand_vec, double* goal) {
    goal[0] = rand_vec[3] + 0.03;
    goal[1] = rand_vec[4] + 0.0;
    goal[2] = rand_vec[5] + 0.13;
  }
  // |(a - b) * (1, 2, 2)|: the peg must go in level, not only near.
  static double ScaledDist(const double* a, const double* b) {
    const double d[3] = {(a[0] - b[0]) * 1.0, (a[1] - b[1]) * 2.0, (a[2] - b[2]) * 2.0};
    return metaworld::Norm3(d);
  }
  // rect_prism_tolerance(curr, zero, one): inside the box spanned by the two
  // corners, the product of the distances from `zero` in units of the box;
  // outside, 1.
  static double InPrism(const double* curr, const double* zero, const double* one) {
    auto in_range = [](double a, double b, double c) {
      return c >= b ? (b <= a && a <= c) : (c <= a && a <= b);
    };
    for (int k = 0; k < 3; ++k) {
      if (!in_range(curr[k], zero[k], one[k])) return 1.0;
    }
    const double x = (curr[0] - zero[0]) / (one[0] - zero[0]);
    const double y = (curr[1] - zero[1]) / (one[1] - zero[1]);
    const double z = (curr[2] - zero[2]) / (one[2] - zero[2]);
    return x * y * z;
  }

  int box_, goal_site_, peg_grasp_, peg_head_;
  int box1_low_, box1_high_, box2_low_, box2_high_;
  metaworld::Vec3 peg_head_init_{};
};

}  // namespace envpool_x
