// Swimmer-v4 / -v5, as gymnasium 1.4.0's swimmer_v4.py / _v5.py.
// The two versions step the same way; they differ in info keys (v4 names the
// forward term reward_fwd and forward_reward, v5 reward_forward).
#pragma once

#include <string>
#include <vector>

#include "envs/mujoco/mujoco_env.h"
#include "envs/mujoco/numpy_ops.h"

namespace envpool_x {

template <int V>
class Swimmer : public MujocoEnvBase {
  static_assert(V == 4 || V == 5);

 public:
  static constexpr const char* kName = V == 4 ? "SwimmerV4" : "SwimmerV5";

  static Config DefaultConfig() {
    return Config{{"xml_file", std::string("swimmer.xml")},
                  {"frame_skip", int64_t{4}},
                  {"forward_reward_weight", 1.0},
                  {"ctrl_cost_weight", 1e-4},
                  {"reset_noise_scale", 0.1},
                  {"exclude_current_positions_from_observation", true}};
  }

  // Reset writes the positions (v5's reset info has them) and zeroes the rest.
  static std::vector<const char*> InfoNames() {
    if (V == 4) {
      return {"x_position", "y_position", "distance_from_origin", "x_velocity",
              "y_velocity", "reward_fwd", "reward_ctrl",          "forward_reward"};
    }
    return {"x_position", "y_position",     "distance_from_origin", "x_velocity",
            "y_velocity", "reward_forward", "reward_ctrl"};
  }

  static EnvSpec Spec(const Config& config) {
    auto model = mujoco_detail::LoadModel(config.String("xml_file"));
    const bool exclude = config.Bool("exclude_current_positions_from_observation");
    EnvSpec spec;
    spec.obs.push_back(mujoco_detail::UnboundedF64("obs", model->nq + model->nv - 2 * exclude));
    for (const char* name : InfoNames()) spec.info.push_back(mujoco_detail::ScalarF64(name));
    spec.action = mujoco_detail::CtrlRangeAction(model.get());
    return spec;
  }

  Swimmer(const Config& config, const EnvSpec& spec)
      : MujocoEnvBase(config.String("xml_file"), static_cast<int>(config.Int("frame_skip"))),
        forward_reward_weight_(config.Double("forward_reward_weight")),
        ctrl_cost_weight_(config.Double("ctrl_cost_weight")),
        reset_noise_scale_(config.Double("reset_noise_scale")),
        exclude_(config.Bool("exclude_current_positions_from_observation")),
        obs_(ObsField<double>(spec, "obs")),
        info_(mujoco_detail::ResolveInfoF64(spec, InfoNames())),
        motion_(spec),
        reward_forward_(InfoField<double>(spec, V == 4 ? "reward_fwd" : "reward_forward")),
        reward_ctrl_(InfoField<double>(spec, "reward_ctrl")),
        forward_reward_(mujoco_detail::InfoF64If(V == 4, spec, "forward_reward")) {}

  void Reset(Rng& rng, const StepOutput& out) {
    ResetWithNoise(rng, reset_noise_scale_, /*normal_qvel=*/false);
    WriteObs(out);
    mujoco_detail::ZeroInfo(out, info_);
    WritePositions(out);
  }

  // Stepped in parts (see core/env.h): the physics between BeginStep and
  // EndStep is StepPart's.
  void BeginStep(const void* action) {
    action_ = BoxAction(action);
    x_before_ = data_->qpos[0];
    y_before_ = data_->qpos[1];
    StartSimulation(action_);
  }

  void EndStep(const StepOutput& out) {
    const float* a = action_;
    const double x_velocity = (data_->qpos[0] - x_before_) / dt();
    const double y_velocity = (data_->qpos[1] - y_before_) / dt();
    const double forward_reward = forward_reward_weight_ * x_velocity;
    const float ctrl_cost =
        static_cast<float>(ctrl_cost_weight_) * mujoco_detail::SumSquaresF32(a, nu());
    *out.reward = static_cast<float>(forward_reward - static_cast<double>(ctrl_cost));
    *out.terminated = false;
    WriteObs(out);
    WritePositions(out);
    motion_.WriteVelocity(out, x_velocity, y_velocity);
    *out[reward_forward_] = forward_reward;
    *out[reward_ctrl_] = -static_cast<double>(ctrl_cost);
    if (V == 4) *out[forward_reward_] = forward_reward;
    EndEpisodeIfUnstable(out);
  }

 private:
  void WritePositions(const StepOutput& out) const {
    motion_.WritePosition(out, data_->qpos[0], data_->qpos[1],
                          mujoco_detail::NormF64(data_->qpos, 2));
  }

  void WriteObs(const StepOutput& out) const {
    double* obs = out[obs_];
    for (int i = exclude_ ? 2 : 0; i < nq(); ++i) *obs++ = data_->qpos[i];
    for (int i = 0; i < nv(); ++i) *obs++ = data_->qvel[i];
  }

  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double reset_noise_scale_;
  bool exclude_;
  OutputField<double> obs_;
  std::vector<mujoco_detail::InfoF64> info_;  // all of InfoNames(), zeroed on reset
  mujoco_detail::PlanarMotionInfo motion_;
  OutputField<double> reward_forward_;  // v4: reward_fwd
  OutputField<double> reward_ctrl_;
  OutputField<double> forward_reward_;  // v4 only
  // The step in progress (BeginStep to EndStep).
  const float* action_ = nullptr;
  double x_before_ = 0.0;
  double y_before_ = 0.0;
};

}  // namespace envpool_x
