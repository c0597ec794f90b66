// FetchSlide-v4 and FetchSlideDense-v4 (gymnasium-robotics 1.4.2's MujocoFetchSlideEnv): slide the
// puck to a goal on the table beyond the arm's reach, gripper shut.
#pragma once

#include "envs/robotics/fetch/fetch_env.h"

namespace envpool_x {

class FetchSlide : public robotics::FetchEnv {
 public:
  static constexpr const char* kName = "FetchSlide";

  static const robotics::FetchLayout& Layout() {
    static const robotics::FetchLayout layout{"slide.xml",
                                              /*has_object=*/true,
                                              /*block_gripper=*/true,
                                              /*target_in_the_air=*/false,
                                              /*gripper_extra_height=*/-0.02,
                                              /*target_offset=*/{0.4, 0.0, 0.0},
                                              /*obj_range=*/0.1,
                                              /*target_range=*/0.3,
                                              /*distance_threshold=*/0.05,
                                              /*slides=*/{0.05, 0.48, 0.0},
                                              /*object_qpos=*/{1.7, 1.1, 0.41, 1.0, 0.0, 0.0, 0.0}};
    return layout;
  }
  static Config DefaultConfig() { return robotics::FetchConfig(); }
  static EnvSpec Spec(const Config& config) { return robotics::FetchSpec(Layout(), config); }

  FetchSlide(const Config& config, const EnvSpec& spec) : FetchEnv(Layout(), config, spec) {}
};

}  // namespace envpool_x
