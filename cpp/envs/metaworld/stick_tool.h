// What stick-push-v3 and stick-pull-v3 share (metaworld 3.1.1's
// SawyerStickPushEnvV3 and SawyerStickPullEnvV3, one model): two objects are
// observed, the stick (its position and scipy's quaternion of its body) and
// the thermos's insertion point (its quaternion zeros); the stick's start
// (stick_init_pos) is a task value beside the base's.
#pragma once

#include <algorithm>
#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace envpool_x {
namespace metaworld {

class StickTool : public SawyerEnv {
 protected:
  // `insertion_dy`: what Meta-World adds to the insertion site's y in the
  // observation.
  StickTool(const TaskLayout& layout, const Config& config, const EnvSpec& spec,
            double insertion_dy)
      : SawyerEnv(layout, config, spec),
        insertion_dy_(insertion_dy),
        stick_(Id(mjOBJ_BODY, "stick")),
        thermos_(Id(mjOBJ_BODY, "object")),
        stick_geom_(Id(mjOBJ_GEOM, "objGeom")),
        stick_end_(Id(mjOBJ_SITE, "stick_end")),
        insertion_(Id(mjOBJ_SITE, "insertion")),
        goal_site_(Id(mjOBJ_SITE, "goal")) {}

  void ObjectObs(double* objects) const override {
    std::copy(BodyPos(stick_), BodyPos(stick_) + 3, objects);
    MatrixToQuatXyzw(data_->xmat + 9 * stick_, objects + 3);
    const double* insertion = SitePos(insertion_);
    objects[7] = insertion[0] + 0.0;
    objects[8] = insertion[1] + insertion_dy_;
    objects[9] = insertion[2] + 0.0;
  }

  // reset_model after the stick's start and the goal are chosen: the stick's
  // free joint to its start (velocity zeroed), the thermos's two slide joints
  // to `thermos_qpos` (Meta-World zeroes qvel[16:18], which holds only the
  // second one's velocity), obj_init_pos the thermos's position, the goal
  // site at the goal.
  void PlaceStickAndThermos(const double* thermos_qpos) {
    std::copy(stick_init_.begin(), stick_init_.end(), data_->qpos + 9);
    std::fill(data_->qvel + 9, data_->qvel + 15, 0.0);
    Forward();
    std::copy(thermos_qpos, thermos_qpos + 2, data_->qpos + 16);
    std::fill(data_->qvel + 16, data_->qvel + std::min<mjtSize>(18, model_->nv), 0.0);
    Forward();
    std::copy(BodyPos(thermos_), BodyPos(thermos_) + 3, obj_init_.begin());
    SetModelSitePos(goal_site_, target_.data());
  }

  // The stick's start; setting it also puts the goal site at the goal (the
  // site is a model edit made from the goal, which may come from the data).
  int NumTaskValues() const override { return 3; }
  void GetTaskValues(double* out) const override {
    std::copy(stick_init_.begin(), stick_init_.end(), out);
  }
  void SetTaskValues(const double* in) override {
    std::copy(in, in + 3, stick_init_.begin());
    SetModelSitePos(goal_site_, target_.data());
  }

  // The caging reward of the stick (high density) from `start`, the object
  // position its margins are measured from.
  NpNumber GrabReward(const double* stick, const double* start, float grip,
                      double obj_radius) const {
    const Vec3 tcp = TcpCenter();
    CagingArgs caging{stick,
                      start,
                      BodyPos(left_pad_),
                      BodyPos(right_pad_),
                      tcp.data(),
                      init_tcp_.data(),
                      grip,
                      obj_radius,
                      /*pad_success_thresh=*/0.05,
                      /*object_reach_radius=*/0.01,
                      /*xz_thresh=*/0.01};
    caging.high_density = true;
    return GripperCagingReward(caging);
  }

  double insertion_dy_;
  int stick_, thermos_, stick_geom_, stick_end_, insertion_, goal_site_;
  Vec3 stick_init_{};  // stick_init_pos
};

// Both tasks redraw rand_vec while the stick and the goal are closer than
// 0.1 in x-y.
inline bool StickNearGoal(const double* v) {
  const double dx = v[0] - v[3], dy = v[1] - v[4];
  return std::sqrt(dx * dx + dy * dy) < 0.1;
}

}  // namespace metaworld
}  // namespace envpool_x
