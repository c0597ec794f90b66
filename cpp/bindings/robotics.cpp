// gymnasium-robotics pools (built with ENVPOOL_X_ROBOTICS and
// ENVPOOL_X_MUJOCO): one pool class per task; the model path (the installed
// gymnasium_robotics package's XML) is filled by Python; each with its per-env
// parameters (robot_params.h).
#include "bindings/pool_binding.h"
#include "envs/robotics/fetch/pick_and_place.h"
#include "envs/robotics/fetch/push.h"
#include "envs/robotics/fetch/reach.h"
#include "envs/robotics/fetch/slide.h"
#include "envs/robotics/robot_params.h"

namespace envpool_x {

void BindRoboticsAdroit(py::module_& m);   // robotics_adroit.cpp
void BindRoboticsHand(py::module_& m);     // robotics_hand.cpp
void BindRoboticsKitchen(py::module_& m);  // robotics_kitchen.cpp
void BindRoboticsMaze(py::module_& m);     // robotics_maze.cpp

void BindRobotics(py::module_& m) {
  BindEnv<WithRobotParams<FetchReach>>(m);
  BindEnv<WithRobotParams<FetchPush>>(m);
  BindEnv<WithRobotParams<FetchSlide>>(m);
  BindEnv<WithRobotParams<FetchPickAndPlace>>(m);
  BindRoboticsAdroit(m);
  BindRoboticsHand(m);
  BindRoboticsKitchen(m);
  BindRoboticsMaze(m);
}

}  // namespace envpool_x
