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

void BindCraftaxFullActions(py::module_& m);

void BindCraftaxFull(py::module_& m) {
  m.attr("craftax_full_state_size") = craftax::full::StateSize();
  m.def(
      "craftax_full_roundtrip",
      [](const std::vector<double>& values) {
        auto s = std::make_unique<craftax::full::FullState>();
        craftax::full::UnpackState(values, *s);
        return craftax::full::PackState(*s);
      },
      py::arg("state"), "Unpack a packed full Craftax state into ours and pack it again.");
  BindCraftaxFullActions(m);
}

}  // namespace envpool_x
