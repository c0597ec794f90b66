// PointMaze and AntMaze pools (gymnasium-robotics' maze tasks); their
// models (the robot's XML with the maze's walls) are written by Python.
#include "bindings/pool_binding.h"
#include "envs/robotics/maze/ant_maze.h"
#include "envs/robotics/maze/point_maze.h"
#include "envs/robotics/robot_params.h"

namespace envpool_x {

// Each with its per-env parameters (robot_params.h).
void BindRoboticsMaze(py::module_& m) {
  BindEnv<WithRobotParams<PointMaze>>(m);
  BindEnv<WithRobotParams<AntMazeV3>>(m);
  BindEnv<WithRobotParams<AntMazeV4>>(m);
  BindEnv<WithRobotParams<AntMazeV5>>(m);
}

}  // namespace envpool_x
