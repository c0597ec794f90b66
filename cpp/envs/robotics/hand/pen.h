// The HandManipulatePen ids (gymnasium-robotics 1.4.2's MujocoHandPenEnv and
// MujocoHandPenTouchSensorsEnv): a pen, whose initial rotation is not randomised, whose
// goal ignores the Euler z angle, within 0.05 of the goal position.
#pragma once

#include "envs/robotics/hand/manipulate_env.h"

namespace envpool_x {

class HandManipulatePen : public robotics::ManipulateEnv {
 public:
  static constexpr const char* kName = "HandManipulatePen";

  static const robotics::ManipulateLayout& Layout() {
    static const robotics::ManipulateLayout layout{/*touch=*/false,
                                                   /*randomize_initial_rotation=*/false,
                                                   /*ignore_z_target_rotation=*/true,
                                                   /*distance_threshold=*/0.05};
    return layout;
  }
  static Config DefaultConfig() { return robotics::ManipulateConfig(Layout()); }
  static EnvSpec Spec(const Config& config) { return robotics::ManipulateSpec(Layout(), config); }

  HandManipulatePen(const Config& config, const EnvSpec& spec)
      : ManipulateEnv(Layout(), config, spec) {}
};

// The same task on the model with 92 touch sensors (the _BooleanTouchSensors
// and _ContinuousTouchSensors ids: touch_get_obs boolean / sensordata).
class HandManipulatePenTouchSensors : public robotics::ManipulateEnv {
 public:
  static constexpr const char* kName = "HandManipulatePenTouchSensors";

  static const robotics::ManipulateLayout& Layout() {
    static const robotics::ManipulateLayout layout{/*touch=*/true,
                                                   /*randomize_initial_rotation=*/false,
                                                   /*ignore_z_target_rotation=*/true,
                                                   /*distance_threshold=*/0.05};
    return layout;
  }
  static Config DefaultConfig() { return robotics::ManipulateConfig(Layout()); }
  static EnvSpec Spec(const Config& config) { return robotics::ManipulateSpec(Layout(), config); }

  HandManipulatePenTouchSensors(const Config& config, const EnvSpec& spec)
      : ManipulateEnv(Layout(), config, spec) {}
};

}  // namespace envpool_x
