// BipedalWalker's terrain: gymnasium 1.4.0's _generate_terrain, state for
// state (grass; with hardcore also stumps, stairs and pits), with its draws in
// its order and its float64 arithmetic.
#pragma once

#include "envs/box2d/bipedal_walker_sim.h"

namespace envpool_x::box2d {

inline void BipedalWalkerSim::GenerateTerrain(Draws& draws) {
  enum { kGrass = 0, kStump = 1, kStairs = 2, kPit = 3, kStates = 4 };
  constexpr double ts = kTerrainStep;
  int64_t state = kGrass;
  double velocity = 0.0;
  double y = kTerrainHeight;
  int64_t counter = kTerrainStartpad;
  bool oneshot = false;
  int64_t stair_steps = 0, stair_width = 0, stair_height = 0;
  double original_y = 0;
  for (int i = 0; i < kTerrainLength; ++i) {
    const double x = i * ts;
    terrain_x_[i] = x;
    if (state == kGrass && !oneshot) {
      const double d = kTerrainHeight - y;
      velocity = 0.8 * velocity + 0.01 * (d > 0 ? 1.0 : (d < 0 ? -1.0 : 0.0));
      if (i > kTerrainStartpad) velocity += draws.Uniform(-1, 1) / kScale;
      y += velocity;
    } else if (state == kPit && oneshot) {
      counter = draws.Integers(3, 5);
      const double poly[4][2] = {{x, y}, {x + ts, y}, {x + ts, y - 4 * ts}, {x, y - 4 * ts}};
      Polygon(poly);
      double shifted[4][2];
      for (int k = 0; k < 4; ++k) {
        shifted[k][0] = poly[k][0] + ts * static_cast<double>(counter);
        shifted[k][1] = poly[k][1];
      }
      Polygon(shifted);
      counter += 2;
      original_y = y;
    } else if (state == kPit && !oneshot) {
      y = original_y;
      if (counter > 1) y -= 4 * ts;
    } else if (state == kStump && oneshot) {
      counter = draws.Integers(1, 3);
      const double c = static_cast<double>(counter);
      const double poly[4][2] = {
          {x, y}, {x + c * ts, y}, {x + c * ts, y + c * ts}, {x, y + c * ts}};
      Polygon(poly);
    } else if (state == kStairs && oneshot) {
      stair_height = draws.Random() > 0.5 ? +1 : -1;
      stair_width = draws.Integers(4, 5);
      stair_steps = draws.Integers(3, 5);
      original_y = y;
      for (int64_t s = 0; s < stair_steps; ++s) {
        const double x0 = x + static_cast<double>(s * stair_width) * ts;
        const double x1 = x + static_cast<double>((1 + s) * stair_width) * ts;
        const double y0 = y + static_cast<double>(s * stair_height) * ts;
        const double y1 = y + static_cast<double>(-1 + s * stair_height) * ts;
        const double poly[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
        Polygon(poly);
      }
      counter = stair_steps * stair_width;
    } else if (state == kStairs && !oneshot) {
      const int64_t s = stair_steps * stair_width - counter - stair_height;
      const double n = static_cast<double>(s) / static_cast<double>(stair_width);
      y = original_y + (n * static_cast<double>(stair_height)) * ts;
    }
    oneshot = false;
    terrain_y_[i] = y;
    counter -= 1;
    if (counter == 0) {
      counter = draws.Integers(kTerrainGrass / 2, kTerrainGrass);
      if (state == kGrass && p_.hardcore) {
        state = draws.Integers(1, kStates);  // numpy: integers(1, _STATES_), 1..3
      } else {
        state = kGrass;
      }
      oneshot = true;
    }
  }
  for (int i = 0; i < kTerrainLength - 1; ++i) {
    b2EdgeShape edge;
    edge.Set(Vec(terrain_x_[i], terrain_y_[i]), Vec(terrain_x_[i + 1], terrain_y_[i + 1]));
    Static(edge);  // category 1 (the ground), friction terrain_friction
  }
}

}  // namespace envpool_x::box2d
