// A full Craftax state as a flat list of numbers: the test hook that loads a
// Craftax JAX state, and the envs' GetState / SetState. The order is Craftax's
// own, `jax.tree_util.tree_leaves(state)` with each leaf flattened row-major
// (tests/oracles/craftax_full_oracle.py packs a JAX state the same way).
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "core/errors.h"
#include "envs/craftax/full/state.h"

namespace envpool_x {
namespace craftax {
namespace full {

// Calls visit(x) on every scalar of `v`, a scalar or a (nested) array, in
// row-major order.
template <class T, class Visit>
void VisitEach(T& v, Visit& visit) {
  if constexpr (std::is_array_v<T>) {
    for (auto& item : v) VisitEach(item, visit);
  } else {
    visit(v);
  }
}

template <int N, class Visit>
void VisitMobs(Mobs<N>& m, Visit& visit) {
  VisitEach(m.position, visit);
  VisitEach(m.health, visit);
  VisitEach(m.mask, visit);
  VisitEach(m.attack_cooldown, visit);
  VisitEach(m.type_id, visit);
}

template <class Visit>
void VisitStateFields(FullState& s, Visit&& visit) {
  VisitEach(s.map, visit);
  VisitEach(s.item_map, visit);
  VisitEach(s.mob_map, visit);
  VisitEach(s.light_map, visit);
  VisitEach(s.down_ladders, visit);
  VisitEach(s.up_ladders, visit);
  VisitEach(s.chests_opened, visit);
  VisitEach(s.monsters_killed, visit);
  VisitEach(s.player_position, visit);
  for (auto* v : {&s.player_level, &s.player_direction}) visit(*v);
  visit(s.player_health);
  for (auto* v : {&s.player_food, &s.player_drink, &s.player_energy, &s.player_mana}) visit(*v);
  visit(s.is_sleeping);
  visit(s.is_resting);
  for (auto* v : {&s.player_recover, &s.player_hunger, &s.player_thirst, &s.player_fatigue,
                  &s.player_recover_mana}) {
    visit(*v);
  }
  for (auto* v : {&s.player_xp, &s.player_dexterity, &s.player_strength, &s.player_intelligence}) {
    visit(*v);
  }
  Inventory& inv = s.inventory;
  for (auto* v : {&inv.wood, &inv.stone, &inv.coal, &inv.iron, &inv.diamond, &inv.sapling,
                  &inv.pickaxe, &inv.sword, &inv.bow, &inv.arrows}) {
    visit(*v);
  }
  VisitEach(inv.armour, visit);
  for (auto* v : {&inv.torches, &inv.ruby, &inv.sapphire}) visit(*v);
  VisitEach(inv.potions, visit);
  visit(inv.books);
  VisitMobs(s.melee_mobs, visit);
  VisitMobs(s.passive_mobs, visit);
  VisitMobs(s.ranged_mobs, visit);
  VisitMobs(s.mob_projectiles, visit);
  VisitEach(s.mob_projectile_directions, visit);
  VisitMobs(s.player_projectiles, visit);
  VisitEach(s.player_projectile_directions, visit);
  VisitEach(s.growing_plants_positions, visit);
  VisitEach(s.growing_plants_age, visit);
  VisitEach(s.growing_plants_mask, visit);
  VisitEach(s.potion_mapping, visit);
  VisitEach(s.learned_spells, visit);
  visit(s.sword_enchantment);
  visit(s.bow_enchantment);
  VisitEach(s.armour_enchantments, visit);
  visit(s.boss_progress);
  visit(s.boss_timesteps_to_spawn_this_round);
  visit(s.light_level);
  VisitEach(s.achievements, visit);
  VisitEach(s.state_rng, visit);
  visit(s.timestep);
}

inline size_t StateSize() {
  static FullState probe;
  size_t n = 0;
  VisitStateFields(probe, [&](auto&) { ++n; });
  return n;
}

inline std::vector<double> PackState(const FullState& s) {
  std::vector<double> out;
  out.reserve(StateSize());
  VisitStateFields(const_cast<FullState&>(s),
                   [&](auto& v) { out.push_back(static_cast<double>(v)); });
  return out;
}

inline void UnpackState(const std::vector<double>& values, FullState& s) {
  if (values.size() != StateSize()) {
    throw ValueError("a Craftax state has " + std::to_string(StateSize()) + " numbers, got " +
                     std::to_string(values.size()));
  }
  size_t i = 0;
  VisitStateFields(s, [&](auto& v) {
    using T = std::remove_reference_t<decltype(v)>;
    v = static_cast<T>(values[i++]);
  });
  s.floors_made = kAllFloorsMade;  // a packed state holds every floor
}

}  // namespace full
}  // namespace craftax
}  // namespace envpool_x
