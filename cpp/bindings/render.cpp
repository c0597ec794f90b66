// render_classic: the classic-control frames (envs/classic_control/frames.h)
// as numpy uint8 arrays (H, W, 3), drawn from a state vector.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "bindings/conversions.h"
#include "core/errors.h"
#include "envs/classic_control/frames.h"

namespace envpool_x {

namespace {

py::array_t<uint8_t> RenderClassic(const std::string& pool_name, const std::vector<double>& state,
                                   const py::dict& config) {
  const ClassicFrameKind* kind = FindClassicFrameKind(pool_name);
  if (kind == nullptr) {
    throw ValueError("render_classic: no classic-control frame for pool '" + pool_name +
                     "' (CartPole, Pendulum, MountainCar, MountainCarContinuous, Acrobot)");
  }
  if (state.size() != kind->state_size) {
    throw ValueError("render_classic: a " + pool_name + " state has " +
                     std::to_string(kind->state_size) + " values " + kind->layout + ", got " +
                     std::to_string(state.size()));
  }
  double goal_position = std::numeric_limits<double>::quiet_NaN();
  if (config.contains("goal_position") && !config["goal_position"].is_none()) {
    goal_position = config["goal_position"].cast<double>();
  }
  raster::Canvas canvas(1, 1, raster::Rgb{0, 0, 0});
  {
    py::gil_scoped_release release;
    canvas = ClassicFrame(pool_name, state, goal_position);
  }
  py::array_t<uint8_t> out({canvas.height(), canvas.width(), 3});
  std::memcpy(out.mutable_data(), canvas.data(),
              static_cast<size_t>(canvas.height()) * canvas.width() * 3);
  return out;
}

}  // namespace

void BindRender(py::module_& m) {
  m.def("render_classic", &RenderClassic, py::arg("pool_name"), py::arg("state"),
        py::arg("config") = py::dict(),
        "The frame (uint8 (H, W, 3), gymnasium's size) of a classic-control pool's env in the "
        "state `state` (what the env's GetState() returns); `config` is the env's config.");
}

}  // namespace envpool_x
