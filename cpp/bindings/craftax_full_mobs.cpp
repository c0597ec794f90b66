// The full Craftax game's mob test hook: a packed state and the draws in, the
// packed state after update_mobs or spawn_mobs and the draws taken out
// (tests/families/test_craftax_full_mobs*.py compares it with Craftax's own).
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "bindings/conversions.h"
#include "core/errors.h"
#include "envs/craftax/full/mobs.h"
#include "envs/craftax/full/state_io.h"

namespace envpool_x {

void BindCraftaxFullMobs(py::module_& m) {
  m.attr("craftax_full_update_mobs_draws") = craftax::full::kUpdateMobsDraws;
  m.attr("craftax_full_spawn_mobs_draws") = craftax::full::kSpawnMobsDraws;
  m.def(
      "craftax_full_mobs_phase",
      [](const std::string& name, const std::vector<double>& state,
         const std::vector<float>& draws) {
        auto s = std::make_unique<craftax::full::FullState>();
        craftax::full::UnpackState(state, *s);
        const craftax::full::FullParams params;
        craftax::full::GivenDraws given{draws.data(), static_cast<int>(draws.size())};
        if (name == "update_mobs") {
          craftax::full::UpdateMobs(*s, given, params);
        } else if (name == "spawn_mobs") {
          craftax::full::SpawnMobs(*s, given, params);
        } else {
          throw ValueError("craftax_full_mobs_phase: no phase '" + name +
                           "' (update_mobs or spawn_mobs)");
        }
        return py::make_tuple(craftax::full::PackState(*s), given.used);
      },
      py::arg("name"), py::arg("state"), py::arg("draws"),
      "Run Craftax's update_mobs or spawn_mobs on a packed full state with the given draws; "
      "return the packed state after it and the number of draws taken.");
}

}  // namespace envpool_x
