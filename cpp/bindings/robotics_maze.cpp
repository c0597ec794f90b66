// PointMaze and AntMaze pools (gymnasium-robotics' maze tasks); their
// models (the robot's XML with the maze's walls) are written by Python.
#include "bindings/pool_binding.h"
#include "envs/robotics/maze/ant_maze.h"
#include "envs/robotics/maze/point_maze.h"

namespace envpool_x {

void BindRoboticsMaze(py::module_& m) {
  BindEnv<PointMaze>(m);
  BindEnv<AntMazeV3>(m);
  BindEnv<AntMazeV4>(m);
  BindEnv<AntMazeV5>(m);
}

}  // namespace envpool_x
