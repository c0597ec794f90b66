// soccer-v3 (metaworld 3.1.1's SawyerSoccerEnvV3, reward version v2): push
// the ball into the goal, within 0.07 (x counted thrice for the reward).
// rand_vec: the ball's x-y (its height is fixed) and the goal (3), redrawn
// while they are closer than 0.15 in x-y. Meta-World's in_place margin is
// the ball's scaled distance from its start now (not the goal's from the
// start); that is reproduced.
#pragma once

#include <algorithm>
#include <cmath>

#include "envs/metaworld/sawyer_env.h"
#include "envs/metaworld/sweep_caging.h"

namespace envpool_x {

class MetaWorldSoccer : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldSoccer";
  static constexpr double kTargetRadius = 0.07;
  static constexpr double kObjRadius = 0.013;

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"soccer-v3",
                                              37,
                                              {-0.5, 0.40, 0.05},
                                              {0.5, 1, 0.5},
                                              {0.0, 0.6, 0.2},
                                              {-0.1, 0.6, 0.03, -0.1, 0.8, 0.0},
                                              {0.1, 0.7, 0.03, 0.1, 0.9, 0.0},
                                              {-0.1, 0.8, 0.0},
                                              {0.1, 0.9, 0.0},
                                              /*redraw_close_goal=*/true};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldSoccer(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        ball_(Id(mjOBJ_BODY, "soccer_ball")),
        ball_geom_(Id(mjOBJ_GEOM, "objGeom")),
        goal_body_(Id(mjOBJ_BODY, "goal_whole")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override {
    SetModelBodyPos(goal_body_, rand_vec + 3);
    SetModelSitePos(goal_site_, rand_vec + 3);
  }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec + 3, rand_vec + 6, target_.begin());
    obj_init_ = {rand_vec[0], rand_vec[1], 0.03};
    PlaceInModel(rand_vec);
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
  }

  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(ball_), BodyPos(ball_) + 3, objects);
    MatrixToQuatXyzw(data_->xmat + 9 * ball_, objects + 3);
  }

  double Evaluate(const double* obs, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    const double* obj = obs + 4;
    const double tcp_opened = obs[3];
    const metaworld::Vec3 tcp = TcpCenter();
    const double tcp_to_obj = metaworld::Dist3(obj, tcp.data());
    auto scaled = [](const double* a, const double* b) {
      const double d[3] = {(a[0] - b[0]) * 3.0, (a[1] - b[1]) * 1.0, (a[2] - b[2]) * 1.0};
      return metaworld::Norm3(d);
    };
    const double target_to_obj = scaled(obj, target_.data());
    double in_place =
        metaworld::Tolerance(target_to_obj, 0.0, kTargetRadius, scaled(obj, obj_init_.data()),
                             metaworld::Sigmoid::kLongTail);
    // Past the goal line but beside the goal: less in_place the further.
    const double goal_line = target_[1] - 0.1;
    if (obj[1] > goal_line && std::abs(obj[0] - target_[0]) > 0.10) {
      in_place = std::clamp(in_place - 2 * ((obj[1] - goal_line) / (1 - goal_line)), 0.0, 1.0);
    }
    const double object_grasped = metaworld::SweepCagingReward(
        {obj, obj_init_.data(), BodyPos(left_pad_), BodyPos(right_pad_), tcp.data(),
         init_tcp_.data(), kObjRadius, /*grip_margin=*/0.01, /*xz_margin=*/0.005});
    double reward = (3 * object_grasped) + (6.5 * in_place);
    if (target_to_obj < kTargetRadius) reward = 10.0;
    const double obj_to_target = metaworld::Dist3(obj, target_.data());
    info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
    info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
    info->grasp_success =
        TouchingObject(ball_geom_) && tcp_opened > 0 && obj[2] - 0.02 > obj_init_[2] ? 1.0 : 0.0;
    info->grasp_reward = object_grasped;
    info->in_place_reward = in_place;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  int ball_, ball_geom_, goal_body_, goal_site_;
};

}  // namespace envpool_x
