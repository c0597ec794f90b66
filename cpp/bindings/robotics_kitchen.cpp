// The Franka Kitchen pool (gymnasium-robotics' franka_kitchen), bound from
// BindRobotics; the model path and franka_config.xml's values (from the
// installed gymnasium_robotics package) are filled by Python.
#include "bindings/pool_binding.h"
#include "envs/mujoco/mujoco_params.h"
#include "envs/robotics/kitchen/franka_kitchen.h"

namespace envpool_x {

// With the MuJoCo tasks' per-env parameters (mujoco_params.h): the env runs on
// its task's shared model, as they do.
void BindRoboticsKitchen(py::module_& m) { BindEnv<WithMujocoParams<FrankaKitchen>>(m); }

}  // namespace envpool_x
