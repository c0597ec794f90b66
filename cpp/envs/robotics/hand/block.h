// The HandManipulateBlock ids (gymnasium-robotics 1.4.2's MujocoHandBlockEnv and
// MujocoHandBlockTouchSensorsEnv): a cube; every target mode (the ids' Full, RotateZ,
// RotateParallel, RotateXYZ suffixes pick target_position / target_rotation).
#pragma once

#include "envs/robotics/hand/manipulate_env.h"

namespace envpool_x {

class HandManipulateBlock : public robotics::ManipulateEnv {
 public:
  static constexpr const char* kName = "HandManipulateBlock";

  static const robotics::ManipulateLayout& Layout() {
    static const robotics::ManipulateLayout layout{/*touch=*/false,
                                                   /*randomize_initial_rotation=*/true,
                                                   /*ignore_z_target_rotation=*/false,
                                                   /*distance_threshold=*/0.01};
    return layout;
  }
  static Config DefaultConfig() { return robotics::ManipulateConfig(Layout()); }
  static EnvSpec Spec(const Config& config) { return robotics::ManipulateSpec(Layout(), config); }

  HandManipulateBlock(const Config& config, const EnvSpec& spec)
      : ManipulateEnv(Layout(), config, spec) {}
};

// The same task on the model with 92 touch sensors (the _BooleanTouchSensors
// and _ContinuousTouchSensors ids: touch_get_obs boolean / sensordata).
class HandManipulateBlockTouchSensors : public robotics::ManipulateEnv {
 public:
  static constexpr const char* kName = "HandManipulateBlockTouchSensors";

  static const robotics::ManipulateLayout& Layout() {
    static const robotics::ManipulateLayout layout{/*touch=*/true,
                                                   /*randomize_initial_rotation=*/true,
                                                   /*ignore_z_target_rotation=*/false,
                                                   /*distance_threshold=*/0.01};
    return layout;
  }
  static Config DefaultConfig() { return robotics::ManipulateConfig(Layout()); }
  static EnvSpec Spec(const Config& config) { return robotics::ManipulateSpec(Layout(), config); }

  HandManipulateBlockTouchSensors(const Config& config, const EnvSpec& spec)
      : ManipulateEnv(Layout(), config, spec) {}
};

}  // namespace envpool_x
