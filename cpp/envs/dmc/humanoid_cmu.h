// dm_control suite: humanoid_CMU (tasks: stand, walk, run), as dm_control
// 1.0.50's humanoid_CMU.py: humanoid's task (humanoid.h) on the CMU motion
// capture body, whose torso is the thorax and whose upright axis is its y.
#pragma once

#include <string>

#include "envs/dmc/humanoid.h"

namespace envpool_x {
namespace dmc {

struct HumanoidCmuNames {
  static constexpr const char* kName = "DmcHumanoidCMU";
  static constexpr const char* kDomain = "HumanoidCMU";
  static constexpr const char* kTorso = "thorax";
  static constexpr const char* kHead = "head";
  static constexpr const char* kExtremities[4] = {"lhand", "lfoot", "rhand", "rfoot"};
  static constexpr const char* kComVelocity = "thorax_subtreelinvel";
  static constexpr double kControlTimestep = 0.02;
  static constexpr int kUprightAxis = 7;  // xmat's zy

  static double MoveSpeed(const std::string& task) {
    if (task == "stand") return 0;
    if (task == "walk") return 1;
    if (task == "run") return 10;
    throw ValueError("humanoid_CMU has no task '" + task + "' (tasks: stand, walk, run)");
  }
  static bool PureState(const std::string& /*task*/) { return false; }
};

}  // namespace dmc

using DmcHumanoidCMU = dmc::HumanoidBody<dmc::HumanoidCmuNames>;

}  // namespace envpool_x
