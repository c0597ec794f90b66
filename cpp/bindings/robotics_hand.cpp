// The Shadow Hand pools of gymnasium-robotics (built with the robotics
// family): reach, and block / egg / pen with and without touch sensors.
#include "bindings/pool_binding.h"
#include "envs/robotics/hand/block.h"
#include "envs/robotics/hand/egg.h"
#include "envs/robotics/hand/pen.h"
#include "envs/robotics/hand/reach.h"
#include "envs/robotics/robot_params.h"

namespace envpool_x {

// Each with its per-env parameters (robot_params.h).
void BindRoboticsHand(py::module_& m) {
  BindEnv<WithRobotParams<HandReach>>(m);
  BindEnv<WithRobotParams<HandManipulateBlock>>(m);
  BindEnv<WithRobotParams<HandManipulateBlockTouchSensors>>(m);
  BindEnv<WithRobotParams<HandManipulateEgg>>(m);
  BindEnv<WithRobotParams<HandManipulateEggTouchSensors>>(m);
  BindEnv<WithRobotParams<HandManipulatePen>>(m);
  BindEnv<WithRobotParams<HandManipulatePenTouchSensors>>(m);
}

}  // namespace envpool_x
