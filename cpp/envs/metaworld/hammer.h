// hammer-v3 (metaworld 3.1.1's SawyerHammerEnvV3, reward version v2): pick
// the hammer up by its handle and drive the nail into the block (success: the
// nail's slide joint past 0.09; reward 10 only when the shaped reward is
// above 5 too). Two objects are observed, the hammer and the nail, each with
// its body's quaternion as MuJoCo keeps it (w, x, y, z). rand_vec: the
// hammer (3); the block is fixed, the goal is its site "goal".
#pragma once

#include <algorithm>
#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

class MetaWorldHammer : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = "MetaWorldHammer";

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout layout{"hammer-v3",
                                              22,
                                              {-0.5, 0.40, 0.05},
                                              {0.5, 1, 0.5},
                                              {0, 0.4, 0.2},
                                              {-0.1, 0.4, 0.0},
                                              {0.1, 0.5, 0.0},
                                              {0.2399, 0.7399, 0.109},
                                              {0.2401, 0.7401, 0.111}};
    return layout;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldHammer(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        hammer_(Id(mjOBJ_BODY, "hammer")),
        nail_(Id(mjOBJ_BODY, "nail_link")),
        block_(Id(mjOBJ_BODY, "box")),
        goal_site_(Id(mjOBJ_SITE, "goal")),
        nail_qpos_(model_->jnt_qposadr[Id(mjOBJ_JOINT, "NailSlideJoint")]) {}

 protected:
  // The block is put at its place on every reset (where the XML has it).
  void PlaceInModel(const double* /*rand_vec*/) override {
    const double block[3] = {0.24, 0.85, 0.0};
    SetModelBodyPos(block_, block);
  }

  // The goal is read after the hand's reset; the hammer's free joint is moved
  // (its orientation kept) and its velocity zeroed, the nail's left.
  void ResetTask(const double* rand_vec) override {
    PlaceInModel(rand_vec);
    std::copy(SitePos(goal_site_), SitePos(goal_site_) + 3, target_.begin());
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    std::copy(rand_vec, rand_vec + 3, data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
  }

  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(hammer_), BodyPos(hammer_) + 3, objects);
    std::copy(data_->xquat + 4 * hammer_, data_->xquat + 4 * hammer_ + 4, objects + 3);
    std::copy(BodyPos(nail_), BodyPos(nail_) + 3, objects + 7);
    std::copy(data_->xquat + 4 * nail_, data_->xquat + 4 * nail_ + 4, objects + 10);
  }

  double Evaluate(const double* obs, const float* action,
                  metaworld::StepInfo* info) const override {
    using metaworld::Py;
    const double* hand = obs;
    const double* hammer = obs + 4;
    const double head[3] = {hammer[0] + 0.16, hammer[1] + 0.06, hammer[2] + 0.0};
    // The handle is no sphere: its x is snapped to the hand's within half
    // the handle's length (0.14 / 2).
    metaworld::Vec3 handle{hammer[0], hammer[1], hammer[2]};
    if (std::abs(hammer[0] - hand[0]) < 0.14 / 2.0) handle[0] = hand[0];
    const double level = LevelReward(obs);
    const metaworld::Vec3 tcp = TcpCenter();
    metaworld::CagingArgs caging{handle.data(),
                                 obj_init_.data(),
                                 BodyPos(left_pad_),
                                 BodyPos(right_pad_),
                                 tcp.data(),
                                 init_tcp_.data(),
                                 action[3],
                                 /*obj_radius=*/0.015,
                                 /*pad_success_thresh=*/0.02,
                                 /*object_reach_radius=*/0.01,
                                 /*xz_thresh=*/0.01};
    caging.high_density = true;
    const metaworld::NpNumber grab = metaworld::GripperCagingReward(caging);
    const double to_goal[3] = {target_[0] - head[0], target_[1] - head[1], target_[2] - head[2]};
    const double in_place = 0.1 * (head[2] > 0.02 ? 1.0 : 0.0) +
                            0.9 * metaworld::Tolerance(metaworld::Norm3(to_goal), 0.0, 0.02, 0.2,
                                                       metaworld::Sigmoid::kLongTail);
    metaworld::NpNumber reward = (Py(2.0) * grab + Py(6.0 * in_place)) * Py(level);
    const bool success = data_->qpos[nail_qpos_] > 0.09;
    if (success && reward.value > 5.0) reward = Py(10.0);
    info->success = success ? 1.0 : 0.0;
    info->near_object = level;
    info->grasp_success = grab.value >= 0.5 ? 1.0 : 0.0;
    info->grasp_reward = grab.value;
    info->in_place_reward = in_place;
    info->obj_to_target = 0.0;
    info->unscaled_reward = reward.value;
    return reward.value;
  }

 private:
  // _reward_quat: 1 - |quat - (1, 0, 0, 0)| / 0.4, at least 0.
  static double LevelReward(const double* obs) {
    const double ideal[4] = {1.0, 0.0, 0.0, 0.0};
    double sum = 0;
    for (int k = 0; k < 4; ++k) sum += (obs[7 + k] - ideal[k]) * (obs[7 + k] - ideal[k]);
    return std::max(1.0 - std::sqrt(sum) / 0.4, 0.0);
  }

  int hammer_, nail_, block_, goal_site_, nail_qpos_;
};

}  // namespace envpool_x
