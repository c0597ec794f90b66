// The Adroit hand pools (gymnasium-robotics' adroit_hand tasks), bound from
// BindRobotics; the model path (the installed gymnasium_robotics package's
// XML) is filled by Python.
#include "bindings/pool_binding.h"
#include "envs/robotics/adroit/door.h"
#include "envs/robotics/adroit/hammer.h"
#include "envs/robotics/adroit/pen.h"
#include "envs/robotics/adroit/relocate.h"

namespace envpool_x {

void BindRoboticsAdroit(py::module_& m) {
  BindEnv<AdroitHandDoor>(m);
  BindEnv<AdroitHandHammer>(m);
  BindEnv<AdroitHandPen>(m);
  BindEnv<AdroitHandRelocate>(m);
}

}  // namespace envpool_x
