// gymnasium-robotics pools (built with ENVPOOL_X_ROBOTICS and
// ENVPOOL_X_MUJOCO): one pool class per task; the model path (the installed
// gymnasium_robotics package's XML) is filled by Python.
#include "bindings/pool_binding.h"
#include "envs/robotics/fetch/pick_and_place.h"
#include "envs/robotics/fetch/push.h"
#include "envs/robotics/fetch/reach.h"
#include "envs/robotics/fetch/slide.h"

namespace envpool_x {

void BindRoboticsMaze(py::module_& m);  // robotics_maze.cpp

void BindRobotics(py::module_& m) {
  BindEnv<FetchReach>(m);
  BindEnv<FetchPush>(m);
  BindEnv<FetchSlide>(m);
  BindEnv<FetchPickAndPlace>(m);
  BindRoboticsMaze(m);
}

}  // namespace envpool_x
