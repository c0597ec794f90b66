// The per-env parameters of gymnasium's MuJoCo tasks (docs/params.md): the
// scales of model_params.h and timestep_scale. gymnasium's dt is
// opt.timestep * frame_skip, read at each step, so a scaled timestep also
// scales dt in the rewards' velocities (HumanoidStandup's uph_cost divides by
// opt.timestep), as setting env.unwrapped.model.opt.timestep does there.
// Values may change mid-episode: each step starts with mj_step, which reads
// the model afresh.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "core/params.h"
#include "core/spec.h"
#include "envs/mujoco/model_params.h"

namespace envpool_x {

template <typename Env>
class WithMujocoParams : public Env {
 public:
  static Config DefaultConfig() {
    return mujoco_detail::WithModelParamKeys(Env::DefaultConfig(), ParamSpecs());
  }

  static std::vector<ParamSpec> ParamSpecs() {
    return mujoco_detail::ModelParamSpecs(/*timestep=*/true, /*mid_episode=*/true);
  }

  // Bytes one env takes while its values differ from 1 (envpool_x.memory).
  static size_t ParamCopyBytes(const Config& config) {
    return mujoco_detail::ModelParamArrays::CopyBytes(Env::SpecModel(config).get());
  }

  WithMujocoParams(const Config& config, const EnvSpec& spec)
      : Env(config, spec), shared_(this->model_) {
    SetParams(ParamValuesOf(ParamSpecs(), config).data());
  }

  void SetParams(const double* values) {
    if (mujoco_detail::AllOnes(values, kCount)) {
      this->model_ = shared_;
      scaled_.reset();
      return;
    }
    if (!scaled_) scaled_ = std::make_shared<ScaledModel>(*shared_);
    scaled_->arrays.Apply(&scaled_->model, values, /*timestep=*/true);
    this->model_ = std::shared_ptr<const mjModel>(scaled_, &scaled_->model);
  }

  // A GL context holds the shared model's assets (pixel_observation.h); the
  // scales change no asset.
  const std::shared_ptr<const mjModel>& RenderAssets() const { return shared_; }

 private:
  static constexpr size_t kCount = mujoco_detail::kTimestepScale + 1;

  // A shallow copy of the shared model whose scaled arrays are its own.
  struct ScaledModel {
    explicit ScaledModel(const mjModel& shared) : model(shared) {}
    mjModel model;
    mujoco_detail::ModelParamArrays arrays;
  };

  std::shared_ptr<const mjModel> shared_;  // the task's model, shared by the pool
  std::shared_ptr<ScaledModel> scaled_;    // while a value differs from 1
};

}  // namespace envpool_x
