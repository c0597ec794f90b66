// The ids of gym's mujoco-py era that EnvPool keeps (Ant-v3 ... Walker2d-v3,
// HumanoidStandup-v2, InvertedPendulum-v2, InvertedDoublePendulum-v2,
// Pusher-v2, Reacher-v2): each is its -v4 env (Ant-v3 and Humanoid-v3 with
// gym v3's contact terms: ant.h, humanoid.h) stepped without
// mj_rnePostConstraint. mujoco-py 2 never called it, and EnvPool registers
// these ids with post_constraint=False, so cfrc_ext stays zero: the contact
// forces Ant-v3, Humanoid-v3 and HumanoidStandup-v2 observe and pay for are
// zeros, as in both.
#pragma once

#include "core/spec.h"

namespace envpool_x {

template <typename Env, const char* kLegacyName>
class LegacyId : public Env {
 public:
  static constexpr const char* kName = kLegacyName;

  LegacyId(const Config& config, const EnvSpec& spec) : Env(config, spec) {
    this->post_constraint_ = false;
  }
};

namespace mujoco_detail {
inline constexpr char kAntV3[] = "AntV3";
inline constexpr char kHalfCheetahV3[] = "HalfCheetahV3";
inline constexpr char kHopperV3[] = "HopperV3";
inline constexpr char kHumanoidV3[] = "HumanoidV3";
inline constexpr char kHumanoidStandupV2[] = "HumanoidStandupV2";
inline constexpr char kWalker2dV3[] = "Walker2dV3";
inline constexpr char kSwimmerV3[] = "SwimmerV3";
inline constexpr char kInvertedPendulumV2[] = "InvertedPendulumV2";
inline constexpr char kInvertedDoublePendulumV2[] = "InvertedDoublePendulumV2";
inline constexpr char kReacherV2[] = "ReacherV2";
inline constexpr char kPusherV2[] = "PusherV2";
}  // namespace mujoco_detail

}  // namespace envpool_x
