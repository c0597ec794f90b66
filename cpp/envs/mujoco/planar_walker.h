// The mechanics shared by gymnasium's two planar walkers, Hopper and
// Walker2d (v4 and v5): forward reward from the root's x velocity, a healthy
// reward, a control cost, termination when unhealthy, and obs = qpos (x
// optionally excluded) then qvel clipped to [-10, 10]. What differs (name,
// XML, default ranges, Hopper's extra state-range check) comes from Traits.
// Versions: v4 pays the healthy reward whenever terminate_when_unhealthy is
// set (v5 only while healthy); v5's info adds z_distance_from_origin and the
// reward terms.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "envs/mujoco/mujoco_env.h"

namespace envpool_x {

// Traits: kNameV4 / kNameV5, Xml(V), Ranges() (name and default of each
// healthy_*_range key), and kStateRange (check qpos[2:] and qvel against
// healthy_state_range, as Hopper does).
template <int V, typename Traits>
class PlanarWalker : public MujocoEnvBase {
  static_assert(V == 4 || V == 5);

 public:
  static constexpr const char* kName = V == 4 ? Traits::kNameV4 : Traits::kNameV5;

  static Config DefaultConfig() {
    Config config{{"xml_file", std::string(Traits::Xml(V))},
                  {"frame_skip", int64_t{4}},
                  {"forward_reward_weight", 1.0},
                  {"ctrl_cost_weight", 0.001},
                  {"healthy_reward", 1.0},
                  {"terminate_when_unhealthy", true},
                  {"reset_noise_scale", 0.005},
                  {"exclude_current_positions_from_observation", true}};
    for (const auto& [key, range] : Traits::Ranges()) config.Set(key, range);
    return config;
  }

  static std::vector<const char*> InfoNames() {
    if (V == 4) return {"x_position", "x_velocity"};
    return {"x_position",  "z_distance_from_origin", "x_velocity", "reward_forward",
            "reward_ctrl", "reward_survive"};
  }

  static EnvSpec Spec(const Config& config) {
    auto model = mujoco_detail::LoadModel(config.String("xml_file"));
    for (const auto& [key, range] : Traits::Ranges()) mujoco_detail::Range(config, key);
    const bool exclude = config.Bool("exclude_current_positions_from_observation");
    EnvSpec spec;
    spec.obs.push_back(mujoco_detail::UnboundedF64("obs", model->nq + model->nv - exclude));
    for (const char* name : InfoNames()) spec.info.push_back(mujoco_detail::ScalarF64(name));
    spec.action = mujoco_detail::CtrlRangeAction(model.get());
    return spec;
  }

  PlanarWalker(const Config& config, const EnvSpec& spec)
      : MujocoEnvBase(config.String("xml_file"), static_cast<int>(config.Int("frame_skip"))),
        forward_reward_weight_(config.Double("forward_reward_weight")),
        ctrl_cost_weight_(config.Double("ctrl_cost_weight")),
        healthy_reward_(config.Double("healthy_reward")),
        terminate_when_unhealthy_(config.Bool("terminate_when_unhealthy")),
        z_range_(mujoco_detail::Range(config, "healthy_z_range")),
        angle_range_(mujoco_detail::Range(config, "healthy_angle_range")),
        reset_noise_scale_(config.Double("reset_noise_scale")),
        exclude_(config.Bool("exclude_current_positions_from_observation")),
        obs_(ObsField<double>(spec, "obs")),
        info_(mujoco_detail::ResolveInfoF64(spec, InfoNames())),
        x_position_(InfoField<double>(spec, "x_position")),
        x_velocity_(InfoField<double>(spec, "x_velocity")),
        z_distance_from_origin_(mujoco_detail::InfoF64If(V == 5, spec, "z_distance_from_origin")),
        reward_forward_(mujoco_detail::InfoF64If(V == 5, spec, "reward_forward")),
        reward_ctrl_(mujoco_detail::InfoF64If(V == 5, spec, "reward_ctrl")),
        reward_survive_(mujoco_detail::InfoF64If(V == 5, spec, "reward_survive")) {
    if constexpr (Traits::kStateRange) {
      state_range_ = mujoco_detail::Range(config, "healthy_state_range");
    }
  }

  void Reset(Rng& rng, const StepOutput& out) {
    ResetWithNoise(rng, reset_noise_scale_, /*normal_qvel=*/false);
    WriteObs(out);
    mujoco_detail::ZeroInfo(out, info_);
    *out[x_position_] = data_->qpos[0];
    if (V == 5) *out[z_distance_from_origin_] = data_->qpos[1] - init_qpos_[1];
  }

  // Stepped in parts (see core/env.h): the physics between BeginStep and
  // EndStep is StepPart's.
  void BeginStep(const void* action) {
    action_ = BoxAction(action);
    x_before_ = data_->qpos[0];
    StartSimulation(action_);
  }

  void EndStep(const StepOutput& out) {
    const float* a = action_;
    const double x_after = data_->qpos[0];
    const double x_velocity = (x_after - x_before_) / dt();
    const bool healthy = IsHealthy();
    const double forward_reward = forward_reward_weight_ * x_velocity;
    const double healthy_reward =
        (V == 4 ? (healthy || terminate_when_unhealthy_) : healthy) ? healthy_reward_ : 0.0;
    const float ctrl_cost =
        static_cast<float>(ctrl_cost_weight_) * mujoco_detail::SumSquaresF32(a, nu());
    *out.reward =
        static_cast<float>((forward_reward + healthy_reward) - static_cast<double>(ctrl_cost));
    *out.terminated = !healthy && terminate_when_unhealthy_;
    WriteObs(out);
    *out[x_position_] = x_after;
    *out[x_velocity_] = x_velocity;
    if (V == 5) {
      *out[z_distance_from_origin_] = data_->qpos[1] - init_qpos_[1];
      *out[reward_forward_] = forward_reward;
      *out[reward_ctrl_] = -static_cast<double>(ctrl_cost);
      *out[reward_survive_] = healthy_reward;
    }
    EndEpisodeIfUnstable(out);
  }

 private:
  // gymnasium: z = qpos[1] and angle = qpos[2] strictly inside their ranges
  // (Hopper: also all of qpos[2:] and qvel inside the state range). NaN
  // fails every check.
  bool IsHealthy() const {
    if constexpr (Traits::kStateRange) {
      for (int i = 2; i < nq(); ++i) {
        if (!state_range_.Contains(data_->qpos[i])) return false;
      }
      for (int i = 0; i < nv(); ++i) {
        if (!state_range_.Contains(data_->qvel[i])) return false;
      }
    }
    return z_range_.Contains(data_->qpos[1]) && angle_range_.Contains(data_->qpos[2]);
  }

  void WriteObs(const StepOutput& out) const {
    double* obs = out[obs_];
    for (int i = exclude_ ? 1 : 0; i < nq(); ++i) *obs++ = data_->qpos[i];
    for (int i = 0; i < nv(); ++i) *obs++ = std::clamp(data_->qvel[i], -10.0, 10.0);
  }

  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double healthy_reward_;
  bool terminate_when_unhealthy_;
  mujoco_detail::OpenRange state_range_{};  // Traits::kStateRange only
  mujoco_detail::OpenRange z_range_;
  mujoco_detail::OpenRange angle_range_;
  double reset_noise_scale_;
  bool exclude_;
  OutputField<double> obs_;
  std::vector<mujoco_detail::InfoF64> info_;  // all of InfoNames(), zeroed on reset
  OutputField<double> x_position_;
  OutputField<double> x_velocity_;
  // v5 only:
  OutputField<double> z_distance_from_origin_;
  OutputField<double> reward_forward_;
  OutputField<double> reward_ctrl_;
  OutputField<double> reward_survive_;
  // The step in progress (BeginStep to EndStep).
  const float* action_ = nullptr;
  double x_before_ = 0.0;
};

}  // namespace envpool_x
