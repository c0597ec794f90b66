// The full Craftax game's world generator as test hooks: a new world from a
// seed (packed as full/state_io.h packs a state) and its cost per world.
#include <pybind11/stl.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "bindings/conversions.h"
#include "core/errors.h"
#include "envs/craftax/full/state_io.h"
#include "envs/craftax/full/worldgen.h"

namespace envpool_x {

namespace {

craftax::full::FullParams WorldgenParams(const py::dict& options) {
  craftax::full::FullParams p;
  for (const auto& item : options) {
    const std::string key = py::cast<std::string>(item.first);
    if (key == "always_diamond") {
      p.always_diamond = py::cast<bool>(item.second);
    } else if (key == "god_mode") {
      p.god_mode = py::cast<bool>(item.second);
    } else {
      throw ValueError("craftax_full_new_world: unknown option '" + key +
                       "' (always_diamond, god_mode)");
    }
  }
  return p;
}

}  // namespace

void BindCraftaxFullWorldgen(py::module_& m) {
  m.def(
      "craftax_full_new_world",
      [](uint64_t seed, const py::dict& options) {
        const craftax::full::FullParams p = WorldgenParams(options);
        auto s = std::make_unique<craftax::full::FullState>();
        Rng rng(seed);
        craftax::full::GenerateFullWorld(rng, p, *s);
        return craftax::full::PackState(*s);
      },
      py::arg("seed"), py::arg("options") = py::dict(),
      "A new full Craftax game from our generator (seeded stream `seed`), packed.");
  m.def(
      "craftax_full_worldgen_microseconds",
      [](int count, uint64_t seed) {
        auto s = std::make_unique<craftax::full::FullState>();
        craftax::full::FullParams p;
        Rng rng(seed);
        py::gil_scoped_release release;
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < count; ++i) craftax::full::GenerateFullWorld(rng, p, *s);
        const std::chrono::duration<double, std::micro> took =
            std::chrono::steady_clock::now() - start;
        return took.count() / (count > 0 ? count : 1);
      },
      py::arg("count") = 1000, py::arg("seed") = 0,
      "Microseconds per new world of our generator, over `count` worlds in a row.");
}

}  // namespace envpool_x
