// Walker2d-v4 / -v5, as gymnasium 1.4.0's walker2d_v4.py / _v5.py: a planar
// walker (planar_walker.h) with no state-range check. v5 loads
// walker2d_v5.xml, where the left foot has the right foot's friction.
#pragma once

#include <utility>
#include <vector>

#include "envs/mujoco/planar_walker.h"

namespace envpool_x {

struct Walker2dTraits {
  static constexpr const char* kNameV4 = "Walker2dV4";
  static constexpr const char* kNameV5 = "Walker2dV5";
  static constexpr bool kStateRange = false;
  static const char* Xml(int version) { return version == 4 ? "walker2d.xml" : "walker2d_v5.xml"; }
  static std::vector<std::pair<const char*, std::vector<double>>> Ranges() {
    return {{"healthy_z_range", {0.8, 2.0}}, {"healthy_angle_range", {-1.0, 1.0}}};
  }
};

template <int V>
using Walker2d = PlanarWalker<V, Walker2dTraits>;

}  // namespace envpool_x
