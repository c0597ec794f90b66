// Hopper-v4 / -v5, as gymnasium 1.4.0's hopper_v4.py / _v5.py: a planar
// walker (planar_walker.h) whose health also needs qpos[2:] and qvel inside
// healthy_state_range.
#pragma once

#include <limits>
#include <utility>
#include <vector>

#include "envs/mujoco/planar_walker.h"

namespace envpool_x {

struct HopperTraits {
  static constexpr const char* kNameV4 = "HopperV4";
  static constexpr const char* kNameV5 = "HopperV5";
  static constexpr bool kStateRange = true;
  static const char* Xml(int /*version*/) { return "hopper.xml"; }
  static std::vector<std::pair<const char*, std::vector<double>>> Ranges() {
    const double inf = std::numeric_limits<double>::infinity();
    return {{"healthy_state_range", {-100.0, 100.0}},
            {"healthy_z_range", {0.7, inf}},
            {"healthy_angle_range", {-0.2, 0.2}}};
  }
};

template <int V>
using Hopper = PlanarWalker<V, HopperTraits>;

}  // namespace envpool_x
