// DeepMind Control suite pools (built with ENVPOOL_X_MUJOCO): one pool class
// per domain, the task chosen by the "task_name" key, the model by "model"
// (a key Python registers with dmc_add_model before making a pool).
#include "bindings/pool_binding.h"
#include "envs/dmc/acrobot.h"
#include "envs/dmc/ball_in_cup.h"
#include "envs/dmc/cartpole.h"
#include "envs/dmc/cheetah.h"
#include "envs/dmc/dmc_params.h"
#include "envs/dmc/dog.h"
#include "envs/dmc/finger.h"
#include "envs/dmc/hopper.h"
#include "envs/dmc/lqr.h"
#include "envs/dmc/pendulum.h"
#include "envs/dmc/point_mass.h"
#include "envs/dmc/reacher.h"
#include "envs/dmc/stacker.h"
#include "envs/dmc/terrain.h"
#include "envs/dmc/walker.h"
#include "envs/mujoco/initial_state_info.h"
#include "envs/mujoco/pixel_observation.h"
#include "envs/mujoco/render_camera.h"
// Domains with egocentric observations (a vector expressed in a body frame).
#include "envs/dmc/fish.h"
#include "envs/dmc/humanoid.h"
#include "envs/dmc/humanoid_cmu.h"
#include "envs/dmc/manipulator.h"
#include "envs/dmc/quadruped.h"
#include "envs/dmc/swimmer.h"

namespace envpool_x {

// A pool class: the domain with its per-env parameters, initial state info
// and pixel observations.
template <typename Env>
using DmcPool = WithPixels<WithInitialState<dmc::WithDmcParams<Env>>, DmcCamera>;

void BindDmc(py::module_& m) {
  m.def(
      "dmc_add_model",
      [](const std::string& key, const py::bytes& xml, std::vector<std::string> asset_names,
         const std::vector<py::bytes>& asset_data) {
        std::vector<std::string> data;
        data.reserve(asset_data.size());
        for (const py::bytes& b : asset_data) data.emplace_back(b);
        dmc::ModelRegistry::Get().Add(key, std::string(xml), std::move(asset_names),
                                      std::move(data));
      },
      py::arg("key"), py::arg("xml"), py::arg("asset_names"), py::arg("asset_data"),
      "Registers a dm_control model (XML and asset files) under `key` for the dmc pools.");
  m.def(
      "dmc_has_model", [](const std::string& key) { return dmc::ModelRegistry::Get().Has(key); },
      py::arg("key"));
  m.def(
      "dmc_render_sizes",
      [](const std::string& key) {
        const auto model = dmc::ModelRegistry::Get().Load(key).model;
        const mjVisual& vis = model->vis;
        return py::make_tuple(vis.quality.shadowsize, vis.quality.offsamples, model->ntexdata,
                              model->nmeshface, model->nhfielddata);
      },
      py::arg("key"),
      "(shadowsize, offsamples, ntexdata, nmeshface, nhfielddata) of a registered model: what "
      "sizes a pixel env's GL context (the memory check).");
  // Test hooks of quadruped escape's terrain (tests/families/test_dmc_quadruped_escape.py).
  using Grid = py::array_t<double, py::array::c_style | py::array::forcecast>;
  auto to_array = [](const std::vector<double>& values, int rows, int cols) {
    Grid out({rows, cols});
    std::copy(values.begin(), values.end(), out.mutable_data());
    return out;
  };
  m.def(
      "dmc_zoom_cubic",
      [to_array](const Grid& input, int out_rows, int out_cols) {
        if (input.ndim() != 2) throw ValueError("dmc_zoom_cubic: input must be 2-d");
        const int rows = static_cast<int>(input.shape(0));
        const int cols = static_cast<int>(input.shape(1));
        return to_array(dmc::ZoomCubic(input.data(), rows, cols, out_rows, out_cols), out_rows,
                        out_cols);
      },
      py::arg("input"), py::arg("out_rows"), py::arg("out_cols"),
      "scipy.ndimage.zoom(input, order=3, mode='constant') to (out_rows, out_cols), as the "
      "quadruped escape terrain computes it (test hook).");
  m.def(
      "dmc_escape_terrain",
      [to_array](const Grid& bumps, int res) {
        if (bumps.ndim() != 2 || bumps.shape(0) != bumps.shape(1)) {
          throw ValueError("dmc_escape_terrain: bumps must be square");
        }
        const int n = static_cast<int>(bumps.shape(0));
        return to_array(dmc::EscapeTerrain(bumps.data(), n, res), res, res);
      },
      py::arg("bumps"), py::arg("res"),
      "quadruped escape's res x res terrain (float64, before MuJoCo's float heightfield) from "
      "a square grid of bumps (test hook).");
  BindEnv<DmcPool<DmcCheetah>>(m);
  BindEnv<DmcPool<DmcWalker>>(m);
  BindEnv<DmcPool<DmcHopper>>(m);
  BindEnv<DmcPool<DmcCartpole>>(m);
  BindEnv<DmcPool<DmcPendulum>>(m);
  BindEnv<DmcPool<DmcAcrobot>>(m);
  BindEnv<DmcPool<DmcPointMass>>(m);
  BindEnv<DmcPool<DmcReacher>>(m);
  BindEnv<DmcPool<DmcBallInCup>>(m);
  BindEnv<DmcPool<DmcFinger>>(m);
  BindEnv<DmcPool<DmcLqr>>(m);
  BindEnv<DmcPool<DmcStacker>>(m);
  // Domains with egocentric observations (a vector expressed in a body frame).
  BindEnv<DmcPool<DmcHumanoid>>(m);
  BindEnv<DmcPool<DmcSwimmer>>(m);
  BindEnv<DmcPool<DmcFish>>(m);
  BindEnv<DmcPool<DmcQuadruped>>(m);
  BindEnv<DmcPool<DmcManipulator>>(m);
  BindEnv<DmcPool<DmcHumanoidCMU>>(m);
  BindEnv<DmcPool<DmcDog>>(m);
}

}  // namespace envpool_x
