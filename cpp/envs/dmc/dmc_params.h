// The per-env parameters of the DeepMind Control tasks (docs/params.md): the
// scales of model_params.h, applied at a reset only. No timestep: a task's
// control timestep is a fixed multiple of its physics timestep. Not mid-episode:
// dm_control's legacy step ends with mj_step1, whose results (computed with
// the old values) the next step's mj_step2 would use.
#pragma once

#include <cstddef>
#include <vector>

#include "core/params.h"
#include "core/spec.h"
#include "envs/mujoco/model_params.h"

namespace envpool_x::dmc {

template <typename Env>
class WithDmcParams : public Env {
 public:
  static Config DefaultConfig() {
    return mujoco_detail::WithModelParamKeys(Env::DefaultConfig(), ParamSpecs());
  }

  static std::vector<ParamSpec> ParamSpecs() {
    return mujoco_detail::ModelParamSpecs(/*timestep=*/false, /*mid_episode=*/false);
  }

  // Bytes one env takes while its values differ from 1 (envpool_x.memory).
  static size_t ParamCopyBytes(const Config& config) {
    return mujoco_detail::ModelParamArrays::CopyBytes(Env::SpecModel(config).get());
  }

  // The base values are the model as the task left it (finger spin's hinge
  // damping, for one).
  WithDmcParams(const Config& config, const EnvSpec& spec) : Env(config, spec) {
    SetParams(ParamValuesOf(ParamSpecs(), config).data());
  }

  void SetParams(const double* values) {
    if (mujoco_detail::AllOnes(values, kCount)) {
      if (!scaled_) return;
      arrays_.Restore(this->ParamModel());
      this->DropUnusedShallowModel();
      scaled_ = false;
      return;
    }
    arrays_.Apply(this->ParamModel(), values, /*timestep=*/false);
    scaled_ = true;
  }

 private:
  static constexpr size_t kCount = mujoco_detail::kTimestepScale;

  mujoco_detail::ModelParamArrays arrays_;
  bool scaled_ = false;
};

}  // namespace envpool_x::dmc
