// The full Craftax game's test hooks: a packed state (full/state_io.h) in, the
// same state after one part of Craftax's step out, so that the parity tests
// compare each part with Craftax's own function (tests/oracles/
// craftax_full_oracle.py). Each part's hooks are bound in its own file.
#include <pybind11/stl.h>

#include <memory>
#include <vector>

#include "bindings/conversions.h"
#include "envs/craftax/full/state_io.h"

namespace envpool_x {

// Each part's hooks (cpp/bindings/craftax_full_<part>.cpp).
void BindCraftaxFullSymbolic(py::module_& m);
void BindCraftaxFullMobs(py::module_& m);
void BindCraftaxFullPlayer(py::module_& m);
void BindCraftaxFullWorldgen(py::module_& m);
void BindCraftaxFullPixels(py::module_& m);
void BindCraftaxFullActions(py::module_& m);

void BindCraftaxFull(py::module_& m) {
  BindCraftaxFullSymbolic(m);
  BindCraftaxFullMobs(m);
  BindCraftaxFullPlayer(m);
  BindCraftaxFullWorldgen(m);
  BindCraftaxFullPixels(m);
  BindCraftaxFullActions(m);
  m.attr("craftax_full_state_size") = craftax::full::StateSize();
  m.def(
      "craftax_full_roundtrip",
      [](const std::vector<double>& values) {
        auto s = std::make_unique<craftax::full::FullState>();
        craftax::full::UnpackState(values, *s);
        return craftax::full::PackState(*s);
      },
      py::arg("state"), "Unpack a packed full Craftax state into ours and pack it again.");
}

}  // namespace envpool_x
