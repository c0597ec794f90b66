// Test hook for the full Craftax game's player actions (part "actions"):
// one of Craftax's action functions applied to a packed state, with the
// caller's draws, so that the parity tests compare it with Craftax's own.
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bindings/conversions.h"
#include "core/errors.h"
#include "envs/craftax/full/action_chest.h"
#include "envs/craftax/full/action_do.h"
#include "envs/craftax/full/action_magic.h"
#include "envs/craftax/full/draws.h"
#include "envs/craftax/full/state_io.h"

namespace envpool_x {

namespace {

namespace full = craftax::full;

// Runs Craftax's function `name` on `s`. "update_plants_with_eat" resets the
// growing plant at the cell the player faces; "add_items_from_chest" loots a
// chest into the player's inventory when `action` is nonzero (is_opening_chest).
void RunActionPhase(const std::string& name, full::FullState& s, int32_t action,
                    craftax::GivenDraws& draws) {
  if (name == "do_action") {
    full::DoAction(s, action, draws);
  } else if (name == "update_plants_with_eat") {
    int32_t x, y;
    full::FacingCell(s, &x, &y);
    full::UpdatePlantsWithEat(s, x, y);
  } else if (name == "add_items_from_chest") {
    full::AddItemsFromChest(s, s.inventory, action != 0, draws);
  } else if (name == "shoot_projectile") {
    full::ShootProjectile(s, action);
  } else if (name == "cast_spell") {
    full::CastSpell(s, action);
  } else if (name == "read_book") {
    full::ReadBook(s, action, draws);
  } else if (name == "enchant") {
    full::Enchant(s, action, draws);
  } else {
    throw ValueError("no Craftax action function named '" + name + "'");
  }
}

}  // namespace

void BindCraftaxFullActions(py::module_& m) {
  m.attr("craftax_full_do_action_draws") = full::kDoActionDraws;
  m.def(
      "craftax_full_action_phase",
      [](const std::string& name, const std::vector<double>& state, int32_t action,
         const std::vector<float>& draws) {
        auto s = std::make_unique<full::FullState>();
        full::UnpackState(state, *s);
        craftax::GivenDraws given{draws.data(), static_cast<int>(draws.size())};
        RunActionPhase(name, *s, action, given);
        return std::make_pair(full::PackState(*s), given.used);
      },
      py::arg("name"), py::arg("state"), py::arg("action"), py::arg("draws"),
      "A packed full Craftax state after Craftax's action function `name` (do_action, "
      "update_plants_with_eat, add_items_from_chest, shoot_projectile, cast_spell, read_book, "
      "enchant), and the number of draws it took.");
}

}  // namespace envpool_x
