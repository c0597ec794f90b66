// Test-support pools (always built; see envs/testing) and test hooks of
// shared helpers.
#include <pybind11/numpy.h>

#include "bindings/pool_binding.h"
#include "core/planar_rgb.h"
#include "envs/testing/fault_injection.h"

namespace envpool_x {

void BindTesting(py::module_& m) {
  BindEnv<FaultInjection>(m);
  m.def(
      "_split_rgb_planes",
      [](const py::array_t<uint8_t, py::array::c_style | py::array::forcecast>& rgb,
         bool portable) {
        if (rgb.ndim() != 2 || rgb.shape(1) != 3) {
          throw std::invalid_argument("rgb must have the shape (pixels, 3)");
        }
        const auto pixels = static_cast<size_t>(rgb.shape(0));
        py::array_t<uint8_t> planes({py::ssize_t{3}, static_cast<py::ssize_t>(pixels)});
        uint8_t* out = planes.mutable_data();
        SplitRgbPlanes(rgb.data(), pixels, out, out + pixels, out + 2 * pixels, portable);
        return planes;
      },
      py::arg("rgb"), py::arg("portable") = false,
      "core/planar_rgb.h on `rgb` (pixels, 3): the (3, pixels) planes; `portable`: the SSE2 "
      "loop even where the CPU has SSSE3.");
}

}  // namespace envpool_x
