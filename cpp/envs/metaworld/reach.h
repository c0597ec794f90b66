// reach-v3 and reach-wall-v3 (metaworld 3.1.1's SawyerReachEnvV3 and
// SawyerReachWallEnvV3, reward version v2): bring the fingertips' centre
// within 0.05 of the goal (behind a wall in reach-wall). rand_vec: the puck's
// position (3) and the goal (3), redrawn while they are closer than 0.15 in
// x-y. The two differ in their ranges, model and three info keys.
#pragma once

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {

template <bool kWall>
class MetaWorldReachTask : public metaworld::SawyerEnv {
 public:
  static constexpr const char* kName = kWall ? "MetaWorldReachWall" : "MetaWorldReach";

  static const metaworld::TaskLayout& Layout() {
    static const metaworld::TaskLayout reach{"reach-v3",
                                             43,
                                             {-0.5, 0.40, 0.05},
                                             {0.5, 1, 0.5},
                                             {0.0, 0.6, 0.2},
                                             {-0.1, 0.6, 0.02, -0.1, 0.8, 0.05},
                                             {0.1, 0.7, 0.02, 0.1, 0.9, 0.3},
                                             {-0.1, 0.8, 0.05},
                                             {0.1, 0.9, 0.3},
                                             /*redraw_close_goal=*/true};
    static const metaworld::TaskLayout wall{"reach-wall-v3",
                                            44,
                                            {-0.5, 0.40, 0.05},
                                            {0.5, 1, 0.5},
                                            {0.0, 0.6, 0.2},
                                            {-0.05, 0.6, 0.015, -0.05, 0.85, 0.05},
                                            {0.05, 0.65, 0.015, 0.05, 0.9, 0.3},
                                            {-0.05, 0.85, 0.05},
                                            {0.05, 0.9, 0.3},
                                            /*redraw_close_goal=*/true};
    return kWall ? wall : reach;
  }
  static Config DefaultConfig() { return metaworld::BaseConfig(Layout().name); }
  static EnvSpec Spec(const Config& config) { return metaworld::SawyerSpec(Layout(), config); }

  MetaWorldReachTask(const Config& config, const EnvSpec& spec)
      : SawyerEnv(Layout(), config, spec),
        obj_(Id(mjOBJ_BODY, "obj")),
        obj_geom_(Id(mjOBJ_GEOM, "objGeom")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

 protected:
  void PlaceInModel(const double* rand_vec) override { SetModelSitePos(goal_site_, rand_vec + 3); }

  void ResetTask(const double* rand_vec) override {
    std::copy(rand_vec + 3, rand_vec + 6, target_.begin());
    std::copy(rand_vec, rand_vec + 3, obj_init_.begin());
    // _set_obj_xyz: the puck's free joint at obj_init_pos, at rest.
    std::copy(obj_init_.begin(), obj_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    PlaceInModel(rand_vec);
  }

  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(obj_), BodyPos(obj_) + 3, objects);
    MatrixToQuatXyzw(data_->geom_xmat + 9 * obj_geom_, objects + 3);
  }

  double Evaluate(const double* /*obs*/, const float* /*action*/,
                  metaworld::StepInfo* info) const override {
    const metaworld::Vec3 tcp = TcpCenter();
    const double tcp_to_target = metaworld::Dist3(tcp.data(), target_.data());
    const double margin = metaworld::Dist3(Layout().hand_init.data(), target_.data());
    const double in_place =
        metaworld::Tolerance(tcp_to_target, 0.0, 0.05, margin, metaworld::Sigmoid::kLongTail);
    const double reward = 10 * in_place;
    info->success = tcp_to_target <= 0.05 ? 1.0 : 0.0;
    info->near_object = kWall ? 0.0 : tcp_to_target;
    info->grasp_success = kWall ? 0.0 : 1.0;
    info->grasp_reward = kWall ? 0.0 : tcp_to_target;
    info->in_place_reward = in_place;
    info->obj_to_target = tcp_to_target;
    info->unscaled_reward = reward;
    return reward;
  }

 private:
  int obj_, obj_geom_, goal_site_;
};

using MetaWorldReach = MetaWorldReachTask<false>;
using MetaWorldReachWall = MetaWorldReachTask<true>;

}  // namespace envpool_x
