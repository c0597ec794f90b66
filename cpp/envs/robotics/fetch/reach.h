// FetchReach-v4 and FetchReachDense-v4 (gymnasium-robotics 1.4.2's MujocoFetchReachEnv): move the
// gripper to a goal in the air (no object; the object_qpos is unused).
#pragma once

#include "envs/robotics/fetch/fetch_env.h"

namespace envpool_x {

class FetchReach : public robotics::FetchEnv {
 public:
  static constexpr const char* kName = "FetchReach";

  static const robotics::FetchLayout& Layout() {
    static const robotics::FetchLayout layout{"reach.xml",
                                              /*has_object=*/false,
                                              /*block_gripper=*/true,
                                              /*target_in_the_air=*/true,
                                              /*gripper_extra_height=*/0.2,
                                              /*target_offset=*/{0.0, 0.0, 0.0},
                                              /*obj_range=*/0.15,
                                              /*target_range=*/0.15,
                                              /*distance_threshold=*/0.05,
                                              /*slides=*/{0.4049, 0.48, 0.0},
                                              /*object_qpos=*/{0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0}};
    return layout;
  }
  static Config DefaultConfig() { return robotics::FetchConfig(); }
  static EnvSpec Spec(const Config& config) { return robotics::FetchSpec(Layout(), config); }

  FetchReach(const Config& config, const EnvSpec& spec) : FetchEnv(Layout(), config, spec) {}
};

}  // namespace envpool_x
