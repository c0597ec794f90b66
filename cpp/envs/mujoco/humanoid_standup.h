// HumanoidStandup-v4 / -v5, as gymnasium 1.4.0's humanoidstandup_v4.py /
// _v5.py. Never terminates; the reward is the torso height over the MuJoCo
// timestep (not dt) minus control and impact costs, plus 1.
// Differences between the versions:
// - v4 has no options (reset noise 0.01, weights 0.1 and 0.5e-6, impact cost
//   capped at 10) and observes every body's rows (world included); v5 has
//   the options and Humanoid-v5's observation layout (include_* keys).
// - gymnasium 1.4.0's v5 accepts uph_cost_weight but never uses it; so
//   doesn't this env, to stay gymnasium's twin.
// - v5's info adds positions and tendons; v4's has the reward terms only.
#pragma once

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "envs/mujoco/humanoid.h"
#include "envs/mujoco/mujoco_env.h"

namespace envpool_x {

template <int V>
class HumanoidStandup : public MujocoEnvBase {
  static_assert(V == 4 || V == 5);

 public:
  static constexpr const char* kName = V == 4 ? "HumanoidStandupV4" : "HumanoidStandupV5";

  static Config DefaultConfig() {
    const double inf = std::numeric_limits<double>::infinity();
    Config c{{"xml_file", std::string("humanoidstandup.xml")}, {"frame_skip", int64_t{5}}};
    if (V == 5) {
      c.Set("uph_cost_weight", 1.0);
      c.Set("ctrl_cost_weight", 0.1);
      c.Set("impact_cost_weight", 0.5e-6);
      c.Set("impact_cost_range", std::vector<double>{-inf, 10.0});
      c.Set("reset_noise_scale", 1e-2);
      c.Set("exclude_current_positions_from_observation", true);
      for (const char* key :
           {"include_cinert_in_observation", "include_cvel_in_observation",
            "include_qfrc_actuator_in_observation", "include_cfrc_ext_in_observation"}) {
        c.Set(key, true);
      }
    }
    return c;
  }

  // Name and length (0: a scalar) of each info field.
  static std::vector<std::pair<const char*, int>> InfoFields(const mjModel* m) {
    if (V == 4) return {{"reward_linup", 0}, {"reward_quadctrl", 0}, {"reward_impact", 0}};
    return {{"x_position", 0},
            {"y_position", 0},
            {"z_distance_from_origin", 0},
            {"tendon_length", m->ntendon},
            {"tendon_velocity", m->ntendon},
            {"reward_linup", 0},
            {"reward_quadctrl", 0},
            {"reward_impact", 0}};
  }

  static EnvSpec Spec(const Config& config) {
    auto model = mujoco_detail::LoadModel(config.String("xml_file"));
    if (V == 5) mujoco_detail::Range(config, "impact_cost_range");
    EnvSpec spec;
    spec.obs.push_back(mujoco_detail::UnboundedF64("obs", Parts(config).Size(model.get())));
    for (const auto& [name, n] : InfoFields(model.get())) {
      spec.info.push_back(n == 0 ? mujoco_detail::ScalarF64(name)
                                 : mujoco_detail::UnboundedF64(name, n));
    }
    spec.action = mujoco_detail::CtrlRangeAction(model.get());
    return spec;
  }

  HumanoidStandup(const Config& config, const EnvSpec& spec)
      : MujocoEnvBase(config.String("xml_file"), static_cast<int>(config.Int("frame_skip"))),
        ctrl_cost_weight_(V == 5 ? config.Double("ctrl_cost_weight") : 0.1),
        impact_cost_weight_(V == 5 ? config.Double("impact_cost_weight") : 0.5e-6),
        impact_cost_range_(V == 5 ? mujoco_detail::Range(config, "impact_cost_range")
                                  : mujoco_detail::OpenRange{0.0, 10.0}),
        reset_noise_scale_(V == 5 ? config.Double("reset_noise_scale") : 0.01),
        parts_(Parts(config)),
        obs_(ObsField<double>(spec, "obs")),
        info_(mujoco_detail::ResolveInfoF64(spec, InfoFields(model_.get()))),
        reward_linup_(InfoField<double>(spec, "reward_linup")),
        reward_quadctrl_(InfoField<double>(spec, "reward_quadctrl")),
        reward_impact_(InfoField<double>(spec, "reward_impact")),
        x_position_(mujoco_detail::InfoF64If(V == 5, spec, "x_position")),
        y_position_(mujoco_detail::InfoF64If(V == 5, spec, "y_position")),
        z_distance_from_origin_(mujoco_detail::InfoF64If(V == 5, spec, "z_distance_from_origin")),
        tendon_length_(mujoco_detail::InfoF64If(V == 5, spec, "tendon_length")),
        tendon_velocity_(mujoco_detail::InfoF64If(V == 5, spec, "tendon_velocity")) {}

  void Reset(Rng& rng, const StepOutput& out) {
    ResetWithNoise(rng, reset_noise_scale_, /*normal_qvel=*/false);
    parts_.Write(model_.get(), data_.get(), out[obs_]);
    mujoco_detail::ZeroInfo(out, info_);
    if (V == 5) WriteV5Positions(out);
  }

  // Stepped in parts (see core/env.h): the physics between BeginStep and
  // EndStep is StepPart's.
  void BeginStep(const void* action) { StartSimulation(BoxAction(action)); }

  void EndStep(const StepOutput& out) {
    const double uph_cost = data_->qpos[2] / model_->opt.timestep;
    // float64 sums of squares of data.ctrl and of the whole (nbody, 6) cfrc_ext.
    const double ctrl_cost = ctrl_cost_weight_ * mujoco_detail::SumSquaresF64(data_->ctrl, nu());
    double impact_cost =
        impact_cost_weight_ * mujoco_detail::SumSquaresF64(data_->cfrc_ext, 6 * model_->nbody);
    if (V == 4) {
      // Python's min(cost, 10): the cost unless 10 is smaller (NaN stays).
      if (10.0 < impact_cost) impact_cost = 10.0;
    } else {
      impact_cost =
          mujoco_detail::Clip(impact_cost, impact_cost_range_.low, impact_cost_range_.high);
    }
    *out.reward = static_cast<float>(uph_cost - ctrl_cost - impact_cost + 1.0);
    *out.terminated = false;
    parts_.Write(model_.get(), data_.get(), out[obs_]);
    if (V == 5) WriteV5Positions(out);
    *out[reward_linup_] = uph_cost;
    *out[reward_quadctrl_] = -ctrl_cost;
    *out[reward_impact_] = -impact_cost;
    EndEpisodeIfUnstable(out);
  }

 private:
  static mujoco_detail::HumanoidObsParts Parts(const Config& config) {
    return mujoco_detail::HumanoidObsParts::FromConfig(
        config, V == 5, V == 4 || config.Bool("exclude_current_positions_from_observation"));
  }

  // x_position, y_position, z_distance_from_origin and the tendons (v5).
  void WriteV5Positions(const StepOutput& out) const {
    *out[x_position_] = data_->qpos[0];
    *out[y_position_] = data_->qpos[1];
    *out[z_distance_from_origin_] = data_->qpos[2] - init_qpos_[2];
    double* length = out[tendon_length_];
    double* velocity = out[tendon_velocity_];
    for (int k = 0; k < model_->ntendon; ++k) {
      length[k] = data_->ten_length[k];
      velocity[k] = data_->ten_velocity[k];
    }
  }

  double ctrl_cost_weight_;
  double impact_cost_weight_;
  mujoco_detail::OpenRange impact_cost_range_;  // a clip range (v5)
  double reset_noise_scale_;
  mujoco_detail::HumanoidObsParts parts_;
  OutputField<double> obs_;
  std::vector<mujoco_detail::InfoF64> info_;  // all of InfoFields(), zeroed on reset
  OutputField<double> reward_linup_;
  OutputField<double> reward_quadctrl_;
  OutputField<double> reward_impact_;
  // v5 only:
  OutputField<double> x_position_;
  OutputField<double> y_position_;
  OutputField<double> z_distance_from_origin_;
  OutputField<double> tendon_length_;    // ntendon values
  OutputField<double> tendon_velocity_;  // ntendon values
};

}  // namespace envpool_x
