// FetchPickAndPlace-v4 and FetchPickAndPlaceDense-v4 (gymnasium-robotics 1.4.2's
// MujocoFetchPickAndPlaceEnv): pick the block up and place it at a goal on the table or in the
// air.
#pragma once

#include "envs/robotics/fetch/fetch_env.h"

namespace envpool_x {

class FetchPickAndPlace : public robotics::FetchEnv {
 public:
  static constexpr const char* kName = "FetchPickAndPlace";

  static const robotics::FetchLayout& Layout() {
    static const robotics::FetchLayout layout{
        "pick_and_place.xml",
        /*has_object=*/true,
        /*block_gripper=*/false,
        /*target_in_the_air=*/true,
        /*gripper_extra_height=*/0.2,
        /*target_offset=*/{0.0, 0.0, 0.0},
        /*obj_range=*/0.15,
        /*target_range=*/0.15,
        /*distance_threshold=*/0.05,
        /*slides=*/{0.405, 0.48, 0.0},
        /*object_qpos=*/{1.25, 0.53, 0.4, 1.0, 0.0, 0.0, 0.0}};
    return layout;
  }
  static Config DefaultConfig() { return robotics::FetchConfig(); }
  static EnvSpec Spec(const Config& config) { return robotics::FetchSpec(Layout(), config); }

  FetchPickAndPlace(const Config& config, const EnvSpec& spec) : FetchEnv(Layout(), config, spec) {}
};

}  // namespace envpool_x
