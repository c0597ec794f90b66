// The per-env parameters of gymnasium-robotics' tasks (docs/params.md):
// model_params.h's scales on the env's own shallow model copy (Env::ParamModel:
// RobotEnv's for Fetch and the Shadow Hand, AdroitEnv's), the timestep's
// too, mid-episode as well (each step starts with mj_step, which reads the model
// afresh; Dt() reads the timestep, as gymnasium-robotics' dt does). Applied
// after the task's constructor, so that its warm-up (_env_setup, cached per
// model) stays the task's own, as setting the model's arrays after
// gymnasium.make would leave it there.
#pragma once

#include <cstddef>
#include <vector>

#include "core/params.h"
#include "core/spec.h"
#include "envs/mujoco/model_params.h"
#include "envs/mujoco/mujoco_env.h"

namespace envpool_x {

template <typename Env>
class WithRobotParams : public Env {
 public:
  static Config DefaultConfig() {
    return mujoco_detail::WithModelParamKeys(Env::DefaultConfig(), ParamSpecs());
  }

  static std::vector<ParamSpec> ParamSpecs() {
    return mujoco_detail::ModelParamSpecs(/*timestep=*/true, /*mid_episode=*/true);
  }

  // Bytes one env adds while its values differ from 1 (envpool_x.memory).
  static size_t ParamCopyBytes(const Config& config) {
    return mujoco_detail::OwnModelCopyBytes(
        mujoco_detail::LoadModel(config.String("xml_file")).get());
  }

  WithRobotParams(const Config& config, const EnvSpec& spec) : Env(config, spec) {
    SetParams(ParamValuesOf(ParamSpecs(), config).data());
  }

  void SetParams(const double* values) {
    mujoco_detail::ScaleOwnModel(&arrays_, this->ParamModel(), values, /*timestep=*/true);
  }

 private:
  mujoco_detail::ModelParamArrays arrays_;
};

}  // namespace envpool_x
