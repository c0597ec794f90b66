// InvertedPendulum-v4 / -v5, as gymnasium 1.4.0's inverted_pendulum_v4.py /
// _v5.py. Both end the episode when the state is not finite or the pole's
// angle leaves (-0.2, 0.2); v4 still pays 1 on that step, v5 pays 0 and
// reports it as info["reward_survive"].
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "envs/mujoco/mujoco_env.h"

namespace envpool_x {

template <int V>
class InvertedPendulum : public MujocoEnvBase {
  static_assert(V == 4 || V == 5);

 public:
  static constexpr const char* kName = V == 4 ? "InvertedPendulumV4" : "InvertedPendulumV5";

  static Config DefaultConfig() {
    return Config{{"xml_file", std::string("inverted_pendulum.xml")},
                  {"frame_skip", int64_t{2}},
                  {"reset_noise_scale", 0.01}};
  }

  static EnvSpec Spec(const Config& config) {
    auto model = mujoco_detail::LoadModel(config.String("xml_file"));
    EnvSpec spec;
    spec.obs.push_back(mujoco_detail::UnboundedF64("obs", model->nq + model->nv));
    if (V == 5) spec.info.push_back(mujoco_detail::ScalarF64("reward_survive"));
    spec.action = mujoco_detail::CtrlRangeAction(model.get());
    return spec;
  }

  InvertedPendulum(const Config& config, const EnvSpec& spec)
      : MujocoEnvBase(config.String("xml_file"), static_cast<int>(config.Int("frame_skip"))),
        reset_noise_scale_(config.Double("reset_noise_scale")),
        obs_(ObsField<double>(spec, "obs")),
        reward_survive_(mujoco_detail::InfoF64If(V == 5, spec, "reward_survive")) {
    if (nq() < 2) throw ValueError("InvertedPendulum needs a model with at least 2 qpos");
  }

  void Reset(Rng& rng, const StepOutput& out) {
    ResetWithNoise(rng, reset_noise_scale_, /*normal_qvel=*/false);
    WriteObs(out);
    if (V == 5) *out[reward_survive_] = 0.0;
  }

  // Stepped in parts (see core/env.h): the physics between BeginStep and
  // EndStep is StepPart's.
  void BeginStep(const void* action) { StartSimulation(BoxAction(action)); }

  void EndStep(const StepOutput& out) {
    const double* obs = WriteObs(out);
    bool finite = true;
    for (int i = 0; i < nq() + nv(); ++i) finite = finite && std::isfinite(obs[i]);
    const bool terminated = !finite || std::abs(obs[1]) > 0.2;
    *out.terminated = terminated;
    if (V == 4) {
      *out.reward = 1.0f;
    } else {
      *out.reward = terminated ? 0.0f : 1.0f;
      *out[reward_survive_] = *out.reward;
    }
    EndEpisodeIfUnstable(out);
  }

 private:
  const double* WriteObs(const StepOutput& out) const {
    double* obs = out[obs_];
    for (int i = 0; i < nq(); ++i) obs[i] = data_->qpos[i];
    for (int i = 0; i < nv(); ++i) obs[nq() + i] = data_->qvel[i];
    return obs;
  }

  double reset_noise_scale_;
  OutputField<double> obs_;
  OutputField<double> reward_survive_;  // v5 only
};

}  // namespace envpool_x
