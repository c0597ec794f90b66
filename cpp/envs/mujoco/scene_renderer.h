// MuJoCo's own renderer (mjv_updateScene, mjr_render, mjr_readPixels) run in
// the calling thread: one GL context per thread, and in it one mjrContext
// (the model's meshes, textures and heightfields on the GL side) and one
// mjvScene per model. Envs of one task share their thread's context; an env
// with a model of its own (DeepMind Control tasks that move a target) draws
// its geoms with the shared model's assets.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "core/planar_rgb.h"
#include "envs/mujoco/gl_context.h"

namespace envpool_x {

// What a frame is drawn from: the env's model and data, and the model whose
// assets its GL context holds (the shared one the env's model was copied from).
struct RenderSource {
  const std::shared_ptr<const mjModel>* assets;
  const mjModel* model;
  mjData* data;
  // Bumped by the env whenever its heightfields change (quadruped escape
  // draws new terrain each episode); the context uploads them again then.
  uint64_t heightfield_version = 0;
};

class SceneRenderer {
 public:
  // The renderer of the calling thread (made, with its GL context, at the
  // thread's first frame; freed when the thread ends).
  static SceneRenderer& ForThisThread() {
    thread_local SceneRenderer renderer;
    return renderer;
  }

  // Makes the context a frame of `width` x `height` of `assets` needs, so
  // that a missing GL library or a failing driver shows when an env is made.
  void Prepare(const std::shared_ptr<const mjModel>& assets, int width, int height) {
    ThreadGlContext::Current current(gl_);
    ContextFor(assets, width, height);
  }

  // Draws `source` from `camera`, with what `options` shows, into `chw`:
  // 3 x height x width bytes, channels first, the top row first (as the
  // frames of gymnasium and dm_control, transposed).
  void Render(const RenderSource& source, const mjvOption& options, mjvCamera& camera, int width,
              int height, uint8_t* chw) {
    // Python's renderers leave their own context current on the caller's
    // thread (or none, once they freed it): ours for this frame, theirs after.
    ThreadGlContext::Current current(gl_);
    ModelContext& mc = ContextFor(*source.assets, width, height);
    UploadHeightfields(mc, source);
    mjv_updateScene(source.model, source.data, &options, &perturb_, &camera, mjCAT_ALL, &mc.scene);
    const mjrRect viewport{0, 0, width, height};
    mjr_setBuffer(mjFB_OFFSCREEN, &mc.context);
    mjr_render(viewport, &mc.scene, &mc.context);
    rgb_.resize(static_cast<size_t>(3) * width * height);
    mjr_readPixels(rgb_.data(), nullptr, viewport, &mc.context);
    // mjr_readPixels gives rows bottom first, pixels as RGB triples.
    const size_t plane = static_cast<size_t>(width) * height;
    for (int y = 0; y < height; ++y) {
      const uint8_t* row = rgb_.data() + static_cast<size_t>(height - 1 - y) * width * 3;
      uint8_t* r = chw + static_cast<size_t>(y) * width;
      SplitRgbPlanes(row, static_cast<size_t>(width), r, r + plane, r + 2 * plane);
    }
  }

  // This thread's scratch mjData of `model` (made at the first use): where a
  // camera that needs the positions of the current state computes them, so
  // that the env's own mjData is never written by drawing.
  mjData* Scratch(const std::shared_ptr<const mjModel>& model) {
    Owned& owned = scratch_[model.get()];
    if (owned.data == nullptr) {
      owned.model = model;
      owned.data.reset(mj_makeData(model.get()));
      if (owned.data == nullptr) throw std::runtime_error("MuJoCo could not make a scratch mjData");
    }
    return owned.data.get();
  }

  SceneRenderer(const SceneRenderer&) = delete;
  SceneRenderer& operator=(const SceneRenderer&) = delete;
  // Never throws: at process exit (the main thread's renderer) another
  // library may have terminated the process's EGL display first (mujoco.egl
  // and dm_control register eglTerminate with atexit). Our context went with
  // it, and so did the GL objects mjr_freeContext would delete.
  ~SceneRenderer() {
    ThreadGlContext::Current current(gl_, ThreadGlContext::Switch::kIfPossible);
    for (auto& [key, mc] : contexts_) {
      if (current.ours()) mjr_freeContext(&mc->context);
      mjv_freeScene(&mc->scene);
    }
  }

 private:
  SceneRenderer() { mjv_defaultPerturb(&perturb_); }

  // The scene holds up to this many geoms (dm_control's floor; gymnasium's
  // renderer holds 1000): none of the tasks draws more.
  static constexpr int kMaxGeoms = 10000;

  struct ModelContext {
    std::shared_ptr<const mjModel> assets;  // keeps the key's address unique
    mjrContext context;
    mjvScene scene;
    int width = 0;
    int height = 0;
    const float* heightfields = nullptr;  // the heightfield data uploaded last
    uint64_t heightfield_version = 0;
  };

  ModelContext& ContextFor(const std::shared_ptr<const mjModel>& assets, int width, int height) {
    std::unique_ptr<ModelContext>& mc = contexts_[assets.get()];
    if (mc && mc->width >= width && mc->height >= height) return *mc;
    if (mc) {  // a larger frame than the context was made for: make it again
      width = std::max(width, mc->width);
      height = std::max(height, mc->height);
      mjr_freeContext(&mc->context);
      mjv_freeScene(&mc->scene);
      mc.reset();
    }
    auto made = std::make_unique<ModelContext>();
    made->assets = assets;
    // mjr_makeContext sizes the offscreen buffer from the model's visual
    // settings: a shallow copy of the model asks for the frame's size. Not the
    // model's (640 x 480 mostly): each frame clears the whole buffer, and the
    // pixels of a viewport do not depend on the buffer around it. The samples
    // stay the model's, as dm_control and gymnasium draw with them.
    mjModel sized = *assets;
    sized.vis.global.offwidth = width;
    sized.vis.global.offheight = height;
    mjv_defaultScene(&made->scene);
    mjr_defaultContext(&made->context);
    {
      // MuJoCo loads GL's function pointers into process-wide variables in
      // mjr_makeContext: one thread at a time.
      static std::mutex make_mutex;
      std::lock_guard<std::mutex> lock(make_mutex);
      mjv_makeScene(assets.get(), &made->scene, kMaxGeoms);
      mjr_makeContext(&sized, &made->context, mjFONTSCALE_150);
    }
    if (made->context.offWidth < width || made->context.offHeight < height) {
      mjr_freeContext(&made->context);
      mjv_freeScene(&made->scene);
      throw std::runtime_error("the GL driver made an offscreen buffer smaller than the frame");
    }
    made->width = width;
    made->height = height;
    made->heightfields = assets->hfield_data;
    mc = std::move(made);
    return *mc;
  }

  static void UploadHeightfields(ModelContext& mc, const RenderSource& source) {
    const mjModel* m = source.model;
    if (m->nhfield == 0) return;
    if (mc.heightfields == m->hfield_data && mc.heightfield_version == source.heightfield_version) {
      return;
    }
    for (int i = 0; i < m->nhfield; ++i) mjr_uploadHField(m, &mc.context, i);
    mc.heightfields = m->hfield_data;
    mc.heightfield_version = source.heightfield_version;
  }

  struct DataDeleter {
    void operator()(mjData* d) const { mj_deleteData(d); }
  };
  struct Owned {
    std::shared_ptr<const mjModel> model;  // keeps the key's address unique
    std::unique_ptr<mjData, DataDeleter> data;
  };

  ThreadGlContext gl_;  // first: made before the contexts, freed after them
  mjvPerturb perturb_;
  std::map<const mjModel*, std::unique_ptr<ModelContext>> contexts_;
  std::map<const mjModel*, Owned> scratch_;
  std::vector<uint8_t> rgb_;
};

}  // namespace envpool_x
