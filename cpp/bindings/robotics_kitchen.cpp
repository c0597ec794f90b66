// The Franka Kitchen pool (gymnasium-robotics' franka_kitchen), bound from
// BindRobotics; the model path and franka_config.xml's values (from the
// installed gymnasium_robotics package) are filled by Python.
#include "bindings/pool_binding.h"
#include "envs/robotics/kitchen/franka_kitchen.h"

namespace envpool_x {

void BindRoboticsKitchen(py::module_& m) { BindEnv<FrankaKitchen>(m); }

}  // namespace envpool_x
