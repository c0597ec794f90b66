// Meta-World's render_mode="rgb_array" frame: metaworld 3.1.1 renders through
// gymnasium's MuJoCo renderer with no camera named, i.e. 480 x 480, the free
// camera looking at the geoms' median from the model's extent with MuJoCo's
// default azimuth and elevation (GymCamera's defaults) and MuJoCo's default
// scene options. Drawn by MuJoCo's renderer in the calling thread
// (scene_renderer.h), from a scratch copy of the env's data.
#pragma once

#include <mujoco/mujoco.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "core/spec.h"
#include "envs/mujoco/render_camera.h"
#include "envs/mujoco/scene_renderer.h"

namespace envpool_x {
namespace metaworld {

// Draws `data` of `model` (a copy of `assets` with the task's own body and
// site positions) into `rgb`: side x side x 3, the top row first.
inline void DrawFrame(const std::shared_ptr<const mjModel>& assets, const mjModel* model,
                      mjData* data, int side, uint8_t* rgb) {
  SceneRenderer& renderer = SceneRenderer::ForThisThread();
  mjData* view = GymCamera::View(model, data, renderer.Scratch(assets));
  Config defaults;
  GymCamera::AddDefaults(defaults);
  GymCamera aim(defaults);
  mjvCamera camera;
  aim.Aim(model, view, -1, camera);
  mjvOption options;
  GymCamera::Options(options);
  const RenderSource source{&assets, model, view};
  const size_t plane = static_cast<size_t>(side) * side;
  std::vector<uint8_t> chw(3 * plane);
  renderer.Render(source, options, camera, side, side, chw.data());
  for (size_t p = 0; p < plane; ++p) {
    for (size_t c = 0; c < 3; ++c) rgb[3 * p + c] = chw[c * plane + p];
  }
}

}  // namespace metaworld
}  // namespace envpool_x
