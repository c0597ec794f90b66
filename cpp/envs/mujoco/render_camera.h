// Where the frames of pixel observations are seen from, with id -1 (the free
// camera) as each reference renderer has it; a fixed camera (id >= 0) is the
// model's own in both.
//   GymCamera: gymnasium's MuJoCo renderer. MuJoCo's default camera looking
//     at the median of the geoms' positions from the model's extent, then the
//     task's default_camera_config (Python passes it in the render_camera_*
//     keys). gymnasium takes the median once, when its viewer is made; we
//     take it at every frame, as a viewer made for that state would (and as
//     EnvPool does), so that a walker stays in view. After mj_step the
//     positions in mjData are those of the step's start (its kinematics run
//     before the integration), and the next step's reward reads them (a
//     walker's x before the step): View computes the state's positions, as
//     gymnasium's set_state (mj_forward) does, in a copy of the env's data,
//     so that stepping is the state env's to the bit.
//   DmcCamera: dm_control's Physics.render, mjv_defaultFreeCamera.
// Options: what the scene shows (gymnasium: mjv_defaultOption's; dm_control
// hides the rangefinders' rays, which the quadruped's would draw).
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/spec.h"

namespace envpool_x {

inline void AimFixed(int camera_id, mjvCamera& camera) {
  camera.type = mjCAMERA_FIXED;
  camera.fixedcamid = camera_id;
}

class GymCamera {
 public:
  static void AddDefaults(Config& config) {
    // 0: the model's extent (what gymnasium starts from).
    config.Set("render_camera_distance", 0.0);
    config.Set("render_camera_azimuth", 90.0);                  // mjv_defaultCamera's
    config.Set("render_camera_elevation", -45.0);               // mjv_defaultCamera's
    config.Set("render_camera_lookat", std::vector<double>{});  // empty: the median
  }

  static void Check(const Config& config) {
    const size_t n = config.Doubles("render_camera_lookat").size();
    if (n != 0 && n != 3) {
      throw ValueError("render_camera_lookat must be 3 numbers (or none: the geoms' median), got " +
                       std::to_string(n));
    }
    if (!(config.Double("render_camera_distance") >= 0.0)) {
      throw ValueError("render_camera_distance must be >= 0 (0: the model's extent)");
    }
  }

  // The data to draw `d` from: `scratch` (an mjData of `m`) holding `d` with
  // the positions, frames, lights and tendon paths of its qpos (what
  // mjv_updateScene reads). `d` is left as it is.
  static mjData* View(const mjModel* m, mjData* d, mjData* scratch) {
    mj_copyData(scratch, m, d);
    mj_kinematics(m, scratch);
    mj_comPos(m, scratch);
    mj_camlight(m, scratch);
    mj_tendon(m, scratch);
    return scratch;
  }
  static constexpr bool kNeedsScratch = true;

  static void Options(mjvOption& options) { mjv_defaultOption(&options); }

  explicit GymCamera(const Config& config)
      : distance_(config.Double("render_camera_distance")),
        azimuth_(config.Double("render_camera_azimuth")),
        elevation_(config.Double("render_camera_elevation")),
        lookat_(config.Doubles("render_camera_lookat")) {}

  void Aim(const mjModel* m, const mjData* d, int camera_id, mjvCamera& camera) {
    mjv_defaultCamera(&camera);
    if (camera_id >= 0) {
      AimFixed(camera_id, camera);
      return;
    }
    camera.type = mjCAMERA_FREE;
    camera.fixedcamid = -1;
    camera.distance = distance_ > 0.0 ? distance_ : m->stat.extent;
    camera.azimuth = azimuth_;
    camera.elevation = elevation_;
    for (int axis = 0; axis < 3; ++axis) {
      camera.lookat[axis] = lookat_.empty() ? MedianGeomPosition(m, d, axis) : lookat_[axis];
    }
  }

 private:
  // numpy's median of geom_xpos[:, axis] (the mean of the middle two of an
  // even count).
  double MedianGeomPosition(const mjModel* m, const mjData* d, int axis) {
    positions_.resize(m->ngeom);
    for (int g = 0; g < m->ngeom; ++g) positions_[g] = d->geom_xpos[3 * g + axis];
    if (positions_.empty()) return 0.0;
    const size_t mid = positions_.size() / 2;
    std::nth_element(positions_.begin(), positions_.begin() + mid, positions_.end());
    const double upper = positions_[mid];
    if (positions_.size() % 2 == 1) return upper;
    const double lower = *std::max_element(positions_.begin(), positions_.begin() + mid);
    return (lower + upper) / 2.0;
  }

  double distance_;
  double azimuth_;
  double elevation_;
  std::vector<double> lookat_;
  std::vector<double> positions_;  // scratch for the median
};

class DmcCamera {
 public:
  static void AddDefaults(Config& /*config*/) {}
  static void Check(const Config& /*config*/) {}
  explicit DmcCamera(const Config& /*config*/) {}
  static void Options(mjvOption& options) {
    mjv_defaultOption(&options);
    options.flags[mjVIS_RANGEFINDER] = 0;
  }
  // dm_control's step leaves the positions up to date (its physics does).
  static mjData* View(const mjModel* /*m*/, mjData* d, mjData* /*scratch*/) { return d; }
  static constexpr bool kNeedsScratch = false;

  void Aim(const mjModel* m, const mjData* /*d*/, int camera_id, mjvCamera& camera) const {
    mjv_defaultCamera(&camera);
    if (camera_id >= 0) {
      AimFixed(camera_id, camera);
      return;
    }
    camera.type = mjCAMERA_FREE;
    camera.fixedcamid = -1;
    mjv_defaultFreeCamera(m, &camera);
  }
};

}  // namespace envpool_x
