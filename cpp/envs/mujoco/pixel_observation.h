// WithPixels<Env, Camera>: a MuJoCo or DeepMind Control env whose observation
// is (or also holds) the frame MuJoCo's renderer draws after each reset and
// step, in the worker thread that stepped it (scene_renderer.h).
//
// Config keys (EnvPool's names; dm_control's pixel wrapper's pixels_only):
//   from_pixels    off by default: then the env is the state env, untouched
//   render_width, render_height, render_camera_id (-1: the task's free
//   camera), render_camera_name (a fixed camera by name), frame_stack, and
//   pixels_only (true: the frames are the whole observation, field "obs";
//   false: the state fields stay and the frames are field "pixels").
// A frame is uint8 (3 * frame_stack, height, width), channels first, the
// oldest frame first; a reset fills the stack with its frame. Info fields are
// the state env's.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/spec.h"
#include "core/step_output.h"
#include "envs/mujoco/scene_renderer.h"

namespace envpool_x {

namespace pixel_detail {

constexpr int kMaxSide = 8192;  // OSMesa's largest viewport is 16384
constexpr int kMaxFrameStack = 64;

struct PixelOptions {
  bool on = false;
  bool pixels_only = true;
  int width = 0;
  int height = 0;
  int camera_id = -1;
  int frame_stack = 1;

  int64_t FrameBytes() const { return int64_t{3} * width * height; }
};

inline int CheckedInt(const Config& config, const char* key, int64_t low, int64_t high) {
  const int64_t v = config.Int(key);
  if (v < low || v > high) {
    throw ValueError(std::string(key) + " must be in [" + std::to_string(low) + ", " +
                     std::to_string(high) + "], got " + std::to_string(v));
  }
  return static_cast<int>(v);
}

// The pixel keys of `config`, checked against `model`'s cameras.
inline PixelOptions ReadPixelOptions(const Config& config, const mjModel* model) {
  PixelOptions o;
  o.on = config.Bool("from_pixels");
  o.frame_stack = CheckedInt(config, "frame_stack", 1, kMaxFrameStack);
  if (!o.on) {
    if (o.frame_stack != 1) {
      throw ValueError("frame_stack stacks pixel observations: it needs from_pixels=True");
    }
    return o;
  }
  o.pixels_only = config.Bool("pixels_only");
  o.width = CheckedInt(config, "render_width", 1, kMaxSide);
  o.height = CheckedInt(config, "render_height", 1, kMaxSide);
  o.camera_id = CheckedInt(config, "render_camera_id", -1, INT32_MAX);
  if (o.camera_id >= model->ncam) {
    throw ValueError("render_camera_id=" + std::to_string(o.camera_id) + ": the model has " +
                     std::to_string(model->ncam) + " cameras (ids 0 to " +
                     std::to_string(model->ncam - 1) + "; -1 is the free camera)");
  }
  const std::string& name = config.String("render_camera_name");
  if (!name.empty()) {
    const int id = mj_name2id(model, mjOBJ_CAMERA, name.c_str());
    if (id < 0) throw ValueError("the model has no camera named '" + name + "'");
    if (o.camera_id != -1 && o.camera_id != id) {
      throw ValueError("render_camera_id=" + std::to_string(o.camera_id) +
                       " and render_camera_name='" + name + "' (camera " + std::to_string(id) +
                       ") name different cameras: give one");
    }
    o.camera_id = id;
  }
  return o;
}

// The state env's output row as the state env sees it: with pixels only, its
// observation fields go to the env's scratch buffers; info is shared as is.
inline StepOutput InnerOutput(const StepOutput& out,
                              const std::vector<std::vector<uint8_t>>& scratch) {
  return out.WithObservationsIn(scratch);
}

// The part shared by the Step and the stepped-in-parts forms below.
template <typename Env, typename Camera>
class PixelBase : public Env {
 public:
  static constexpr const char* kName = Env::kName;

  static Config DefaultConfig() {
    Config config = Env::DefaultConfig();
    config.Set("from_pixels", false);
    config.Set("pixels_only", true);
    config.Set("render_width", int64_t{84});
    config.Set("render_height", int64_t{84});
    config.Set("render_camera_id", int64_t{-1});
    config.Set("render_camera_name", std::string());
    config.Set("frame_stack", int64_t{1});
    Camera::AddDefaults(config);
    return config;
  }

  static EnvSpec Spec(const Config& config) {
    EnvSpec spec = Env::Spec(config);
    const PixelOptions o = ReadPixelOptions(config, Env::SpecModel(config).get());
    if (!o.on) return spec;
    Camera::Check(config);
    ArraySpec pixels{o.pixels_only ? "obs" : "pixels",
                     DType::kUInt8,
                     {int64_t{3} * o.frame_stack, o.height, o.width},
                     {0.0},
                     {255.0}};
    if (o.pixels_only) spec.obs.clear();
    spec.obs.push_back(pixels);
    return spec;
  }

  PixelBase(const Config& config, const EnvSpec& spec)
      : Env(config, Env::Spec(config)),
        options_(ReadPixelOptions(config, this->RenderAssets().get())),
        camera_(config) {
    if (!options_.on) return;
    Camera::Options(scene_options_);
    pixels_ = ObsField<uint8_t>(spec, options_.pixels_only ? "obs" : "pixels");
    if (options_.pixels_only) {
      for (const ArraySpec& field : Env::Spec(config).obs) scratch_.emplace_back(field.NumBytes());
    }
    if (options_.frame_stack > 1) {
      stack_.assign(static_cast<size_t>(options_.FrameBytes() * options_.frame_stack), 0);
    }
    // A missing GL library or a failing driver shows here, when the pool is made.
    SceneRenderer::ForThisThread().Prepare(this->RenderAssets(), options_.width, options_.height);
  }

  void Reset(Rng& rng, const StepOutput& out) {
    if (!options_.on) {
      Env::Reset(rng, out);
      return;
    }
    Env::Reset(rng, InnerOutput(out, scratch_));
    ++heightfield_version_;  // the heightfields may be new (quadruped escape)
    Draw(out, /*fill_stack=*/true);
  }

  // A state set from outside may hold other heightfields (escape's terrain is
  // part of its state): the next frame uploads them again.
  void SetState(const std::vector<double>& s) {
    Env::SetState(s);
    ++heightfield_version_;
  }

 protected:
  bool on() const { return options_.on; }

  // Draws the current state into the stack (a reset: every slot of it) and
  // copies the stack to the output row.
  void Draw(const StepOutput& out, bool fill_stack) {
    SceneRenderer& renderer = SceneRenderer::ForThisThread();
    const mjModel* model = this->RenderModel();
    mjData* scratch = nullptr;
    if constexpr (Camera::kNeedsScratch) scratch = renderer.Scratch(this->RenderAssets());
    mjData* view = Camera::View(model, this->data_.get(), scratch);
    mjvCamera camera;
    camera_.Aim(model, view, options_.camera_id, camera);
    const RenderSource source{&this->RenderAssets(), model, view, heightfield_version_};
    uint8_t* dst = out[pixels_];
    const size_t frame = static_cast<size_t>(options_.FrameBytes());
    if (stack_.empty()) {
      renderer.Render(source, scene_options_, camera, options_.width, options_.height, dst);
      return;
    }
    uint8_t* newest = stack_.data() + frame * (options_.frame_stack - 1);
    if (!fill_stack) std::memmove(stack_.data(), stack_.data() + frame, newest - stack_.data());
    renderer.Render(source, scene_options_, camera, options_.width, options_.height, newest);
    if (fill_stack) {
      for (uint8_t* p = stack_.data(); p != newest; p += frame) std::memcpy(p, newest, frame);
    }
    std::memcpy(dst, stack_.data(), stack_.size());
  }

  std::vector<std::vector<uint8_t>> scratch_;  // the state fields (pixels only)

 private:
  PixelOptions options_;
  Camera camera_;
  mjvOption scene_options_;  // what the frames show (the reference renderer's)
  OutputField<uint8_t> pixels_;
  std::vector<uint8_t> stack_;        // frame_stack frames, the oldest first
  uint64_t heightfield_version_ = 0;  // bumped when the heightfields may change
};

}  // namespace pixel_detail

template <typename Env, typename Camera, bool kInParts = SteppedInParts<Env>()>
class WithPixels;

template <typename Env, typename Camera>
class WithPixels<Env, Camera, true> : public pixel_detail::PixelBase<Env, Camera> {
  using Base = pixel_detail::PixelBase<Env, Camera>;

 public:
  using Base::Base;
  void EndStep(const StepOutput& out) {
    if (!this->on()) {
      Env::EndStep(out);
      return;
    }
    Env::EndStep(pixel_detail::InnerOutput(out, this->scratch_));
    this->Draw(out, /*fill_stack=*/false);
  }
};

template <typename Env, typename Camera>
class WithPixels<Env, Camera, false> : public pixel_detail::PixelBase<Env, Camera> {
  using Base = pixel_detail::PixelBase<Env, Camera>;

 public:
  using Base::Base;
  void Step(const void* action, Rng& rng, const StepOutput& out) {
    if (!this->on()) {
      Env::Step(action, rng, out);
      return;
    }
    Env::Step(action, rng, pixel_detail::InnerOutput(out, this->scratch_));
    this->Draw(out, /*fill_stack=*/false);
  }
};

}  // namespace envpool_x
