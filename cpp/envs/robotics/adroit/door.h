// AdroitHandDoor-v1 / AdroitHandDoorSparse-v1 (gymnasium-robotics 1.4.2's
// AdroitHandDoorEnv): undo the latch and swing the door open.
//
// - reset: the door frame's body position drawn uniform in
//   [-0.3, -0.2] x [0.25, 0.35] x [0.252, 0.35].
// - observation (39): qpos[1:-2], the latch angle (the last qpos), the
//   hinge angle, the palm (S_grasp), the handle (S_handle), palm - handle,
//   1 if the hinge is past 1.0 else -1.
// - reward: sparse 10 when the hinge is at 1.35 or more, else -0.1; dense
//   0.1 * |palm - handle| (a plus, as in 1.4.2), -0.1 * (hinge - 1.57)^2,
//   -1e-5 * sum(qvel^2), and +2 / +8 / +10 past 0.2 / 1.0 / 1.35.
//   success: the hinge at 1.35 or more.
#pragma once

#include "envs/robotics/adroit/adroit_env.h"

namespace envpool_x {

class AdroitHandDoor : public robotics::AdroitEnv {
 public:
  static constexpr const char* kName = "AdroitHandDoor";
  static constexpr int kObsSize = 39;

  static Config DefaultConfig() { return robotics::AdroitConfig(); }
  static EnvSpec Spec(const Config& config) { return robotics::AdroitSpec(config, kObsSize); }

  AdroitHandDoor(const Config& config, const EnvSpec& spec) : AdroitEnv(config, spec) {
    // gymnasium-robotics indexes qpos with the hinge's dof address (equal
    // to its qpos address in this model).
    hinge_ = model_->jnt_dofadr[Id(mjOBJ_JOINT, "door_hinge")];
    grasp_ = Id(mjOBJ_SITE, "S_grasp");
    handle_ = Id(mjOBJ_SITE, "S_handle");
    door_ = Id(mjOBJ_BODY, "frame");
    AddExtra(BodyPos(door_), 3);
  }

 protected:
  void Draw(Rng& rng) override {
    double* pos = BodyPos(door_);
    pos[0] = rng.Uniform(-0.3, -0.2);
    pos[1] = rng.Uniform(0.25, 0.35);
    pos[2] = rng.Uniform(0.252, 0.35);
  }

  void WriteObs(double* obs) const override {
    const double* qpos = data_->qpos;
    const int nq = model_->nq;
    std::copy(qpos + 1, qpos + nq - 2, obs);
    double* o = obs + (nq - 3);
    o[0] = qpos[nq - 1];
    o[1] = qpos[hinge_];
    const double* palm = SiteXpos(grasp_);
    const double* handle = SiteXpos(handle_);
    std::copy(palm, palm + 3, o + 2);
    std::copy(handle, handle + 3, o + 5);
    Sub3(palm, handle, o + 8);
    o[11] = qpos[hinge_] > 1.0 ? 1.0 : -1.0;
  }

  double Reward(bool* success) const override {
    const double hinge = data_->qpos[hinge_];
    *success = hinge >= 1.35;
    if (sparse_) return *success ? 10.0 : -0.1;
    double reward = 0.1 * Distance(SiteXpos(grasp_), SiteXpos(handle_));
    reward += -0.1 * (hinge - 1.57) * (hinge - 1.57);
    reward += -1e-5 * mujoco_detail::SumSquaresF64(data_->qvel, model_->nv);
    if (hinge > 0.2) reward += 2;
    if (hinge > 1.0) reward += 8;
    if (hinge > 1.35) reward += 10;
    return reward;
  }

 private:
  int hinge_ = 0, grasp_ = 0, handle_ = 0, door_ = 0;
};

}  // namespace envpool_x
