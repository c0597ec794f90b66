// The Adroit hand pools (gymnasium-robotics' adroit_hand tasks), bound from
// BindRobotics; the model path (the installed gymnasium_robotics package's
// XML) is filled by Python.
#include "bindings/pool_binding.h"
#include "envs/robotics/adroit/door.h"
#include "envs/robotics/adroit/hammer.h"
#include "envs/robotics/adroit/pen.h"
#include "envs/robotics/adroit/relocate.h"
#include "envs/robotics/robot_params.h"

namespace envpool_x {

// Each with its per-env parameters (robot_params.h).
void BindRoboticsAdroit(py::module_& m) {
  BindEnv<WithRobotParams<AdroitHandDoor>>(m);
  BindEnv<WithRobotParams<AdroitHandHammer>>(m);
  BindEnv<WithRobotParams<AdroitHandPen>>(m);
  BindEnv<WithRobotParams<AdroitHandRelocate>>(m);
}

}  // namespace envpool_x
