// HalfCheetah-v4 / -v5, as gymnasium 1.4.0's half_cheetah_v4.py / _v5.py.
// The two versions step the same way; v5 adds the xml_file / frame_skip keys
// and names the forward term reward_forward (v4: reward_run).
#pragma once

#include <string>
#include <vector>

#include "envs/mujoco/mujoco_env.h"

namespace envpool_x {

template <int V>
class HalfCheetah : public MujocoEnvBase {
  static_assert(V == 4 || V == 5);

 public:
  static constexpr const char* kName = V == 4 ? "HalfCheetahV4" : "HalfCheetahV5";

  // The info name of the forward reward term.
  static constexpr const char* kForwardInfo = V == 4 ? "reward_run" : "reward_forward";

  static Config DefaultConfig() {
    return Config{{"xml_file", std::string("half_cheetah.xml")},
                  {"frame_skip", int64_t{5}},
                  {"forward_reward_weight", 1.0},
                  {"ctrl_cost_weight", 0.1},
                  {"reset_noise_scale", 0.1},
                  {"exclude_current_positions_from_observation", true}};
  }

  static EnvSpec Spec(const Config& config) {
    auto model = mujoco_detail::LoadModel(config.String("xml_file"));
    const bool exclude = config.Bool("exclude_current_positions_from_observation");
    EnvSpec spec;
    spec.obs.push_back(mujoco_detail::UnboundedF64("obs", model->nq + model->nv - exclude));
    for (const char* name : {"x_position", "x_velocity", kForwardInfo, "reward_ctrl"}) {
      spec.info.push_back(mujoco_detail::ScalarF64(name));
    }
    spec.action = mujoco_detail::CtrlRangeAction(model.get());
    return spec;
  }

  HalfCheetah(const Config& config, const EnvSpec& spec)
      : MujocoEnvBase(config.String("xml_file"), static_cast<int>(config.Int("frame_skip"))),
        forward_reward_weight_(config.Double("forward_reward_weight")),
        ctrl_cost_weight_(config.Double("ctrl_cost_weight")),
        reset_noise_scale_(config.Double("reset_noise_scale")),
        exclude_(config.Bool("exclude_current_positions_from_observation")),
        obs_(ObsField<double>(spec, "obs")),
        x_position_(InfoField<double>(spec, "x_position")),
        x_velocity_(InfoField<double>(spec, "x_velocity")),
        reward_forward_(InfoField<double>(spec, kForwardInfo)),
        reward_ctrl_(InfoField<double>(spec, "reward_ctrl")) {}

  void Reset(Rng& rng, const StepOutput& out) {
    ResetWithNoise(rng, reset_noise_scale_, /*normal_qvel=*/true);
    WriteObs(out);
    *out[x_position_] = data_->qpos[0];
    *out[x_velocity_] = *out[reward_forward_] = *out[reward_ctrl_] = 0.0;
  }

  // Stepped in parts (see core/env.h): the physics between BeginStep and
  // EndStep is StepPart's.
  void BeginStep(const void* action) {
    action_ = BoxAction(action);
    x_before_ = data_->qpos[0];
    StartSimulation(action_);
  }

  void EndStep(const StepOutput& out) {
    const double x_after = data_->qpos[0];
    const double x_velocity = (x_after - x_before_) / dt();
    const double forward_reward = forward_reward_weight_ * x_velocity;
    // float32, as numpy computes `weight * sum(square(float32 action))`.
    const float ctrl_cost =
        static_cast<float>(ctrl_cost_weight_) * mujoco_detail::SumSquaresF32(action_, nu());
    *out.reward = static_cast<float>(forward_reward - static_cast<double>(ctrl_cost));
    *out.terminated = false;
    WriteObs(out);
    *out[x_position_] = x_after;
    *out[x_velocity_] = x_velocity;
    *out[reward_forward_] = forward_reward;
    *out[reward_ctrl_] = -static_cast<double>(ctrl_cost);
    EndEpisodeIfUnstable(out);
  }

 private:
  void WriteObs(const StepOutput& out) const {
    double* obs = out[obs_];
    const int skip = exclude_ ? 1 : 0;
    for (int i = skip; i < nq(); ++i) *obs++ = data_->qpos[i];
    for (int i = 0; i < nv(); ++i) *obs++ = data_->qvel[i];
  }

  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double reset_noise_scale_;
  bool exclude_;
  OutputField<double> obs_;
  OutputField<double> x_position_;
  OutputField<double> x_velocity_;
  OutputField<double> reward_forward_;  // v4: reward_run
  OutputField<double> reward_ctrl_;
  // The step in progress (BeginStep to EndStep).
  const float* action_ = nullptr;
  double x_before_ = 0.0;
};

}  // namespace envpool_x
