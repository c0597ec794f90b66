// A Craftax-Classic state as a flat list of numbers (the envs' GetState /
// SetState, and the test hook that loads a Craftax JAX state). Order: map,
// mob map (64x64 each, row-major), player x, y, direction, health, food,
// drink, energy, sleeping, recover, hunger, thirst, fatigue, inventory (12),
// zombies, cows, skeletons, arrows (each: x[], y[], health[], cooldown[],
// mask[]), arrow dx[], dy[], plant x[], y[], age[], mask[], light level,
// achievements (22), timestep, state_rng (2 words).
#pragma once

#include <string>
#include <vector>

#include "core/errors.h"
#include "envs/craftax/classic_state.h"

namespace envpool_x {
namespace craftax {

template <class Visit>
void VisitStateFields(ClassicState& s, Visit&& visit) {
  for (auto& row : s.map) {
    for (auto& v : row) visit(v);
  }
  // The mob map a bool a cell, as Craftax holds it (a bit a cell here).
  for (int x = 0; x < kMapSize; ++x) {
    for (int y = 0; y < kMapSize; ++y) {
      const bool was = MobAt(s, x, y);
      bool v = was;
      visit(v);
      if (v != was) SetMob(s, x, y, v);
    }
  }
  visit(s.player_x);
  visit(s.player_y);
  visit(s.player_direction);
  visit(s.health);
  visit(s.food);
  visit(s.drink);
  visit(s.energy);
  visit(s.is_sleeping);
  visit(s.recover);
  visit(s.hunger);
  visit(s.thirst);
  visit(s.fatigue);
  for (auto& v : s.inventory) visit(v);
  auto mobs = [&](auto& m) {
    for (auto& v : m.x) visit(v);
    for (auto& v : m.y) visit(v);
    for (auto& v : m.health) visit(v);
    for (auto& v : m.cooldown) visit(v);
    for (auto& v : m.mask) visit(v);
  };
  mobs(s.zombies);
  mobs(s.cows);
  mobs(s.skeletons);
  mobs(s.arrows);
  for (auto& v : s.arrow_dx) visit(v);
  for (auto& v : s.arrow_dy) visit(v);
  for (auto& v : s.plant_x) visit(v);
  for (auto& v : s.plant_y) visit(v);
  for (auto& v : s.plant_age) visit(v);
  for (auto& v : s.plant_mask) visit(v);
  visit(s.light_level);
  for (auto& v : s.achievements) visit(v);
  visit(s.timestep);
  for (auto& v : s.state_rng) visit(v);
}

inline size_t StateSize() {
  static ClassicState probe;
  size_t n = 0;
  VisitStateFields(probe, [&](auto&) { ++n; });
  return n;
}

inline std::vector<double> PackState(const ClassicState& s) {
  std::vector<double> out;
  out.reserve(StateSize());
  VisitStateFields(const_cast<ClassicState&>(s),
                   [&](auto& v) { out.push_back(static_cast<double>(v)); });
  return out;
}

inline void UnpackState(const std::vector<double>& values, ClassicState& s) {
  if (values.size() != StateSize()) {
    throw ValueError("a Craftax-Classic state has " + std::to_string(StateSize()) +
                     " numbers, got " + std::to_string(values.size()));
  }
  size_t i = 0;
  VisitStateFields(s, [&](auto& v) {
    using T = std::remove_reference_t<decltype(v)>;
    v = static_cast<T>(values[i++]);
  });
}

}  // namespace craftax
}  // namespace envpool_x
