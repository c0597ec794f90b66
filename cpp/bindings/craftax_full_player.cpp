// Test hooks for the full Craftax game's player actions: one of Craftax's
// functions (by its name in game_logic.py) applied to a packed state
// (full/state_io.h), so that the parity tests compare it with Craftax's own.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "bindings/conversions.h"
#include "envs/craftax/full/player_craft.h"
#include "envs/craftax/full/player_move.h"
#include "envs/craftax/full/player_place.h"
#include "envs/craftax/full/player_upkeep.h"
#include "envs/craftax/full/state_io.h"
#include "envs/craftax/full/utils.h"

namespace envpool_x {

namespace {

using craftax::full::FullParams;
using craftax::full::FullState;

// FullParams from keyword options named as Craftax's EnvParams fields.
FullParams ParamsFromDict(const py::dict& options) {
  FullParams p;
  for (auto item : options) {
    const std::string key = py::str(item.first);
    const py::handle v = item.second;
    if (key == "max_timesteps") {
      p.max_timesteps = v.cast<int32_t>();
    } else if (key == "day_length") {
      p.day_length = v.cast<int32_t>();
    } else if (key == "always_diamond") {
      p.always_diamond = v.cast<bool>();
    } else if (key == "mob_despawn_distance") {
      p.mob_despawn_distance = v.cast<int32_t>();
    } else if (key == "max_attribute") {
      p.max_attribute = v.cast<int32_t>();
    } else if (key == "god_mode") {
      p.god_mode = v.cast<bool>();
    } else {
      throw ValueError("unknown Craftax parameter: " + key);
    }
  }
  return p;
}

using Phase = void (*)(FullState&, int32_t, const FullParams&);

// Craftax's name of each function to ours (each takes what it needs).
Phase FindPhase(const std::string& name) {
  namespace f = craftax::full;
  struct Entry {
    const char* name;
    Phase phase;
  };
  static const Entry kPhases[] = {
      {"change_floor",
       [](FullState& s, int32_t a, const FullParams& p) { f::ChangeFloor(s, a, p); }},
      {"do_crafting", [](FullState& s, int32_t a, const FullParams&) { f::DoCrafting(s, a); }},
      {"place_block", [](FullState& s, int32_t a, const FullParams&) { f::PlaceBlock(s, a); }},
      {"drink_potion", [](FullState& s, int32_t a, const FullParams&) { f::DrinkPotion(s, a); }},
      {"boss_logic", [](FullState& s, int32_t, const FullParams&) { f::BossLogic(s); }},
      {"level_up_attributes",
       [](FullState& s, int32_t a, const FullParams& p) { f::LevelUpAttributes(s, a, p); }},
      {"move_player", [](FullState& s, int32_t a, const FullParams& p) { f::MovePlayer(s, a, p); }},
      {"update_plants", [](FullState& s, int32_t, const FullParams&) { f::UpdatePlants(s); }},
      {"update_player_intrinsics",
       [](FullState& s, int32_t a, const FullParams&) { f::UpdatePlayerIntrinsics(s, a); }},
      {"calculate_inventory_achievements",
       [](FullState& s, int32_t, const FullParams&) { f::CalculateInventoryAchievements(s); }},
      {"clip_inventory_and_intrinsics",
       [](FullState& s, int32_t, const FullParams& p) { f::ClipInventoryAndIntrinsics(s, p); }},
  };
  for (const Entry& e : kPhases) {
    if (name == e.name) return e.phase;
  }
  throw ValueError("no full Craftax player function named '" + name + "'");
}

}  // namespace

void BindCraftaxFullPlayer(py::module_& m) {
  m.def(
      "craftax_full_player_phase",
      [](const std::string& name, const std::vector<double>& state, int32_t action,
         const py::dict& params) {
        const Phase phase = FindPhase(name);
        const FullParams p = ParamsFromDict(params);
        auto s = std::make_unique<FullState>();
        craftax::full::UnpackState(state, *s);
        phase(*s, action, p);
        return craftax::full::PackState(*s);
      },
      py::arg("name"), py::arg("state"), py::arg("action"), py::arg("params") = py::dict(),
      "Apply Craftax's game_logic function `name` (ours) to a packed full Craftax state with "
      "`action`; params: EnvParams fields (default Craftax's).");
  m.def(
      "craftax_full_player_phases",
      [](const std::string& name,
         py::array_t<double, py::array::c_style | py::array::forcecast> states,
         py::array_t<int32_t, py::array::c_style | py::array::forcecast> actions,
         const py::dict& params) {
        const Phase phase = FindPhase(name);
        const FullParams p = ParamsFromDict(params);
        const size_t size = craftax::full::StateSize();
        if (states.ndim() != 2 || static_cast<size_t>(states.shape(1)) != size ||
            actions.ndim() != 1 || actions.shape(0) != states.shape(0)) {
          throw ValueError("states must be (n, " + std::to_string(size) + ") and actions (n,)");
        }
        const py::ssize_t n = states.shape(0);
        py::array_t<double> out({n, static_cast<py::ssize_t>(size)});
        auto s = std::make_unique<FullState>();
        std::vector<double> values(size);
        for (py::ssize_t i = 0; i < n; ++i) {
          const double* row = states.data(i, 0);
          values.assign(row, row + size);
          craftax::full::UnpackState(values, *s);
          phase(*s, actions.at(i), p);
          const std::vector<double> packed = craftax::full::PackState(*s);
          std::copy(packed.begin(), packed.end(), out.mutable_data(i, 0));
        }
        return out;
      },
      py::arg("name"), py::arg("states"), py::arg("actions"), py::arg("params") = py::dict(),
      "craftax_full_player_phase on each row of `states` with its action (a sweep's batch).");
  m.def(
      "craftax_full_is_game_over",
      [](const std::vector<double>& state, const py::dict& params) {
        auto s = std::make_unique<FullState>();
        craftax::full::UnpackState(state, *s);
        return craftax::full::IsGameOver(*s, ParamsFromDict(params));
      },
      py::arg("state"), py::arg("params") = py::dict(),
      "Craftax's is_game_over of a packed full Craftax state.");
}

}  // namespace envpool_x
