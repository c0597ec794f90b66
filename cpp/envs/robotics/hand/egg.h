// The HandManipulateEgg ids (gymnasium-robotics 1.4.2's MujocoHandEggEnv and
// MujocoHandEggTouchSensorsEnv): an egg-shaped object.
#pragma once

#include "envs/robotics/hand/manipulate_env.h"

namespace envpool_x {

class HandManipulateEgg : public robotics::ManipulateEnv {
 public:
  static constexpr const char* kName = "HandManipulateEgg";

  static const robotics::ManipulateLayout& Layout() {
    static const robotics::ManipulateLayout layout{/*touch=*/false,
                                                   /*randomize_initial_rotation=*/true,
                                                   /*ignore_z_target_rotation=*/false,
                                                   /*distance_threshold=*/0.01};
    return layout;
  }
  static Config DefaultConfig() { return robotics::ManipulateConfig(Layout()); }
  static EnvSpec Spec(const Config& config) { return robotics::ManipulateSpec(Layout(), config); }

  HandManipulateEgg(const Config& config, const EnvSpec& spec)
      : ManipulateEnv(Layout(), config, spec) {}
};

// The same task on the model with 92 touch sensors (the _BooleanTouchSensors
// and _ContinuousTouchSensors ids: touch_get_obs boolean / sensordata).
class HandManipulateEggTouchSensors : public robotics::ManipulateEnv {
 public:
  static constexpr const char* kName = "HandManipulateEggTouchSensors";

  static const robotics::ManipulateLayout& Layout() {
    static const robotics::ManipulateLayout layout{/*touch=*/true,
                                                   /*randomize_initial_rotation=*/true,
                                                   /*ignore_z_target_rotation=*/false,
                                                   /*distance_threshold=*/0.01};
    return layout;
  }
  static Config DefaultConfig() { return robotics::ManipulateConfig(Layout()); }
  static EnvSpec Spec(const Config& config) { return robotics::ManipulateSpec(Layout(), config); }

  HandManipulateEggTouchSensors(const Config& config, const EnvSpec& spec)
      : ManipulateEnv(Layout(), config, spec) {}
};

}  // namespace envpool_x
