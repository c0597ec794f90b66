// door-lock-v3 and door-unlock-v3 (metaworld 3.1.1's SawyerDoorLockEnvV3 and
// SawyerDoorUnlockEnvV3, reward version v2): turn the door's lock down
// (unlock: sideways), within 0.02 of the goal. rand_vec: the door's position.
// Meta-World keeps obj_init_pos as a view of the lock's body position, so the
// rewards read the lock where it is now; door-lock's reset takes 5 raw
// mj_steps after moving the door, door-unlock's turns the lock open first.
#pragma once

#include <algorithm>
#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

template <bool kUnlock>
class MetaWorldDoorLockTask : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = kUnlock ? "MetaWorldDoorUnlock" : "MetaWorldDoorLock";
  static constexpr double kLockLength = 0.1;

  static const metaworld::TaskLayout& Layout() {
    // hand_init_pos is a float32 array in Meta-World; door-lock's goal space
    // is the mocap box.
    static const metaworld::TaskLayout lock{
        "door-lock-v3",
        14,
        {-0.5, 0.40, -0.15},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)},
        {-0.1, 0.8, 0.15},
        {0.1, 0.85, 0.15},
        {-0.5, 0.40, -0.15},
        {0.5, 1, 0.5}};
    static const metaworld::TaskLayout unlock{
        "door-unlock-v3",
        16,
        {-0.5, 0.40, -0.15},
        {0.5, 1, 0.5},
        {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)},
        {-0.1, 0.8, 0.15},
        {0.1, 0.85, 0.15},
        {0.0, 0.64, 0.2100},
        {0.2, 0.7, 0.2111}};
    return kUnlock ? unlock : lock;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldDoorLockTask(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        door_(Id(mjOBJ_BODY, "door")),
        door_link_(Id(mjOBJ_BODY, "door_link")),
        lock_link_(Id(mjOBJ_BODY, "lock_link")),
        lock_start_(Id(mjOBJ_SITE, kUnlock ? "lockStartUnlock" : "lockStartLock")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override { SetModelBodyPos(door_, rand_vec); }

  void ResetTask(const double* rand_vec) override {
    PlaceInModel(rand_vec);
    if (kUnlock) {
      data_->qpos[9] = 1.5708;
      data_->qvel[9] = 0.0;
      Forward();
    } else {
      for (int k = 0; k < metaworld::kFrameSkip; ++k) mj_step(model_.get(), data_.get());
    }
    const double* lock = BodyPos(lock_link_);
    std::copy(lock, lock + 3, obj_init_.begin());
    target_ = kUnlock ? metaworld::Vec3{lock[0] + 0.1, lock[1] + -0.04, lock[2] + 0.0}
                      : metaworld::Vec3{lock[0] + 0.0, lock[1] + -0.04, lock[2] + -0.1};
  }

  // The lock's start site and the door's quaternion (MuJoCo's w, x, y, z).
  void ObjectObs(double* objects) const override {
    std::copy(SitePos(lock_start_), SitePos(lock_start_) + 3, objects);
    std::copy(data_->xquat + 4 * door_link_, data_->xquat + 4 * door_link_ + 4, objects + 3);
  }

  double Evaluate(const double* obs, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    using metaworld::Sigmoid;
    using metaworld::Tolerance;
    const double* lock = obs + 4;
    constexpr double kScale[3] = {0.25, 1.0, 0.5};
    double reach_distance, reach, obj_to_target, reward;
    if (kUnlock) {
      // The arm's shoulder (the hand plus this offset) against the lock.
      constexpr double kOffset[3] = {0.0, 0.055, 0.07};
      const double* lock_now = BodyPos(lock_link_);  // obj_init_pos, a live view
      double shoulder[3], shoulder_init[3];
      for (int k = 0; k < 3; ++k) {
        shoulder[k] = (obs[k] + kOffset[k] - lock[k]) * kScale[k];
        shoulder_init[k] = (init_tcp_[k] + kOffset[k] - lock_now[k]) * kScale[k];
      }
      reach_distance = metaworld::Norm3(shoulder);
      reach =
          Tolerance(reach_distance, 0.0, 0.02, metaworld::Norm3(shoulder_init), Sigmoid::kLongTail);
      obj_to_target = std::abs(target_[0] - lock[0]);
      const double pushed = Tolerance(obj_to_target, 0.0, 0.005, kLockLength, Sigmoid::kLongTail);
      reward = 2 * reach + 8 * pushed;
      info->in_place_reward = pushed;
    } else {
      // The left pad against the lock; Meta-World's init_left_pad is a view
      // of the pad now, so the margin is the distance itself.
      const double* pad = BodyPos(left_pad_);
      double d[3];
      for (int k = 0; k < 3; ++k) d[k] = (lock[k] - pad[k]) * kScale[k];
      reach_distance = metaworld::Norm3(d);
      obj_to_target = std::abs(target_[2] - lock[2]);
      const double tcp_opened = std::max(obs[3], 0.0);
      reach = Tolerance(reach_distance, 0.0, 0.01, reach_distance, Sigmoid::kLongTail);
      const double pressed = Tolerance(obj_to_target, 0.0, 0.005, kLockLength, Sigmoid::kLongTail);
      reward = 2 * metaworld::HamacherProduct(tcp_opened, reach);
      reward += 8 * pressed;
      info->in_place_reward = pressed;
    }
    info->success = obj_to_target <= 0.02 ? 1.0 : 0.0;
    info->near_object = reach_distance <= 0.05 ? 1.0 : 0.0;
    info->grasp_success = obs[3] > 0 ? 1.0 : 0.0;
    info->grasp_reward = reach;
    info->obj_to_target = obj_to_target;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  int door_, door_link_, lock_link_, lock_start_;
};

using MetaWorldDoorLock = MetaWorldDoorLockTask<false>;
using MetaWorldDoorUnlock = MetaWorldDoorLockTask<true>;

}  // namespace envpool_x
