// The Shadow Hand pools of gymnasium-robotics (built with the robotics
// family): reach, and block / egg / pen with and without touch sensors.
#include "bindings/pool_binding.h"
#include "envs/robotics/hand/block.h"
#include "envs/robotics/hand/egg.h"
#include "envs/robotics/hand/pen.h"
#include "envs/robotics/hand/reach.h"

namespace envpool_x {

void BindRoboticsHand(py::module_& m) {
  BindEnv<HandReach>(m);
  BindEnv<HandManipulateBlock>(m);
  BindEnv<HandManipulateBlockTouchSensors>(m);
  BindEnv<HandManipulateEgg>(m);
  BindEnv<HandManipulateEggTouchSensors>(m);
  BindEnv<HandManipulatePen>(m);
  BindEnv<HandManipulatePenTouchSensors>(m);
}

}  // namespace envpool_x
