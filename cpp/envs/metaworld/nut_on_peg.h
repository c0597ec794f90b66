// What assembly-v3 and disassemble-v3 share (metaworld 3.1.1's
// SawyerNutAssemblyEnvV3 and SawyerNutDisassembleEnvV3, one model): the
// observed object is the wrench's handle end (site "RoundNut-8") with the nut
// body's quaternion as MuJoCo keeps it (w, x, y, z; not scipy's), the reward is
// scaled by how flat the wrench lies, and the caging reward is given the
// handle with its x snapped to the hand's (the handle is no sphere).
#pragma once

#include <algorithm>
#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {
namespace metaworld {

class NutOnPeg : public SawyerEnv {
 protected:
  NutOnPeg(const TaskLayout& layout, const Config& config, const EnvSpec& spec)
      : SawyerEnv(layout, config, spec),
        nut_(Id(mjOBJ_BODY, "RoundNut")),
        peg_(Id(mjOBJ_BODY, "peg")),
        peg_top_(Id(mjOBJ_SITE, "pegTop")),
        handle_end_(Id(mjOBJ_SITE, "RoundNut-8")),
        nut_center_(Id(mjOBJ_SITE, "RoundNut")) {}

  void ObjectObs(double* objects) const override {
    std::copy(SitePos(handle_end_), SitePos(handle_end_) + 3, objects);
    std::copy(data_->xquat + 4 * nut_, data_->xquat + 4 * nut_ + 4, objects + 3);
  }

  // _set_obj_xyz: the nut's free joint to `pos` (its orientation kept), its
  // velocity zeroed.
  void PlaceNut(const double* pos) {
    std::copy(pos, pos + 3, data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
  }

  // _reward_quat: 1 - |quat - (0.707, 0, 0, 0.707)| / 0.4, at least 0.
  static double FlatReward(const double* obs) {
    const double ideal[4] = {0.707, 0, 0, 0.707};
    double sum = 0;
    for (int k = 0; k < 4; ++k) sum += (obs[7 + k] - ideal[k]) * (obs[7 + k] - ideal[k]);
    return std::max(1.0 - std::sqrt(sum) / 0.4, 0.0);
  }

  // The caging reward of the handle, its x snapped to the hand's when within
  // half the handle's length (0.02 / 2).
  NpNumber GrabReward(const double* obs, float grip, bool medium_density) const {
    Vec3 handle{obs[4], obs[5], obs[6]};
    if (std::abs(obs[4] - obs[0]) < 0.02 / 2.0) handle[0] = obs[0];
    const Vec3 tcp = TcpCenter();
    CagingArgs caging{handle.data(),
                      obj_init_.data(),
                      BodyPos(left_pad_),
                      BodyPos(right_pad_),
                      tcp.data(),
                      init_tcp_.data(),
                      grip,
                      /*obj_radius=*/0.015,
                      /*pad_success_thresh=*/0.02,
                      /*object_reach_radius=*/0.01,
                      /*xz_thresh=*/0.01};
    caging.medium_density = medium_density;
    caging.high_density = !medium_density;
    return GripperCagingReward(caging);
  }

  // The info both report: near_object is the flatness, grasp_success the
  // caging reward at least 0.5, obj_to_target 0.
  static double Report(double reward, NpNumber grab, double flat, double in_place, bool success,
                       StepInfo* info) {
    info->success = success ? 1.0 : 0.0;
    info->near_object = flat;
    info->grasp_success = grab.value >= 0.5 ? 1.0 : 0.0;
    info->grasp_reward = grab.value;
    info->in_place_reward = in_place;
    info->obj_to_target = 0.0;
    info->unscaled_reward = reward;
    return reward;
  }

  int nut_, peg_, peg_top_, handle_end_, nut_center_;
};

}  // namespace metaworld
}  // namespace envpool_x
