// Ant-v4 / -v5, as gymnasium 1.4.0's ant_v4.py / _v5.py, and Ant-v3 (EnvPool's,
// as gym's ant_v3.py): v4's rules with use_contact_forces on by default and
// gym v3's info (reward_ctrl is always -ctrl_cost, reward_contact is there),
// stepped without mj_rnePostConstraint (legacy_ids.h), so cfrc_ext stays zero.
// Differences between the versions:
// - v4 tracks the torso's xpos and pays no forward weight; v5 tracks
//   `main_body` (an id or a name) with forward_reward_weight.
// - v4 adds the contact cost and the clipped cfrc_ext of every body (world
//   included) to the observation only with use_contact_forces, and then
//   reports -contact_cost as reward_ctrl (as gymnasium does); v5 always pays
//   the contact cost and, with include_cfrc_ext_in_observation, observes the
//   clipped cfrc_ext of the bodies after the world.
// - v4 pays the healthy reward whenever terminate_when_unhealthy is set, v5
//   only while healthy.
// - v4's info positions are the torso's xpos, v5's are qpos[0:2].
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "envs/mujoco/mujoco_env.h"

namespace envpool_x {

namespace mujoco_detail {

// gymnasium's `data.body(main_body)`: an int is a body id, a str a name.
// Python passes an int as its decimal string, so a string of digits is an id.
inline int ResolveBody(const mjModel* m, const std::string& body) {
  const bool digits = !body.empty() && std::all_of(body.begin(), body.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
  if (digits) {
    const long id = std::stol(body);
    if (id >= m->nbody) {
      throw ValueError("main_body " + body + " is not a body id of the model (it has " +
                       std::to_string(m->nbody) + " bodies)");
    }
    return static_cast<int>(id);
  }
  const int id = mj_name2id(m, mjOBJ_BODY, body.c_str());
  if (id < 0) throw ValueError("MuJoCo model has no body '" + body + "' (main_body)");
  return id;
}

}  // namespace mujoco_detail

template <int V>
class Ant : public MujocoEnvBase {
  static_assert(V == 3 || V == 4 || V == 5);
  // v3 runs v4's rules; only its info differs.
  static constexpr bool kV4Rules = V != 5;

 public:
  static constexpr const char* kName = V == 3 ? "AntV3" : (V == 4 ? "AntV4" : "AntV5");

  static Config DefaultConfig() {
    Config c{{"xml_file", std::string("ant.xml")},
             {"frame_skip", int64_t{5}},
             {"ctrl_cost_weight", 0.5},
             {"contact_cost_weight", 5e-4},
             {"healthy_reward", 1.0},
             {"terminate_when_unhealthy", true},
             {"healthy_z_range", std::vector<double>{0.2, 1.0}},
             {"contact_force_range", std::vector<double>{-1.0, 1.0}},
             {"reset_noise_scale", 0.1},
             {"exclude_current_positions_from_observation", true}};
    if (kV4Rules) {
      c.Set("use_contact_forces", V == 3);  // gym's Ant-v3 always has them
    } else {
      c.Set("forward_reward_weight", 1.0);
      c.Set("main_body", std::string("1"));
      c.Set("include_cfrc_ext_in_observation", true);
    }
    return c;
  }

  static std::vector<const char*> InfoNames() {
    if (V == 3) {
      return {"reward_forward", "reward_ctrl",   "reward_contact",       "reward_survive",
              "x_position",     "y_position",    "distance_from_origin", "x_velocity",
              "y_velocity",     "forward_reward"};
    }
    if (V == 4) {
      return {"reward_forward", "reward_ctrl", "reward_survive",
              "x_position",     "y_position",  "distance_from_origin",
              "x_velocity",     "y_velocity",  "forward_reward"};
    }
    return {"x_position",     "y_position",  "distance_from_origin", "x_velocity",    "y_velocity",
            "reward_forward", "reward_ctrl", "reward_contact",       "reward_survive"};
  }

  static EnvSpec Spec(const Config& config) {
    auto model = mujoco_detail::LoadModel(config.String("xml_file"));
    mujoco_detail::Range(config, "healthy_z_range");
    mujoco_detail::Range(config, "contact_force_range");
    if (V == 5) mujoco_detail::ResolveBody(model.get(), config.String("main_body"));
    EnvSpec spec;
    spec.obs.push_back(mujoco_detail::UnboundedF64("obs", ObsSize(model.get(), config)));
    for (const char* name : InfoNames()) spec.info.push_back(mujoco_detail::ScalarF64(name));
    spec.action = mujoco_detail::CtrlRangeAction(model.get());
    return spec;
  }

  Ant(const Config& config, const EnvSpec& spec)
      : MujocoEnvBase(config.String("xml_file"), static_cast<int>(config.Int("frame_skip"))),
        forward_reward_weight_(V == 5 ? config.Double("forward_reward_weight") : 1.0),
        ctrl_cost_weight_(config.Double("ctrl_cost_weight")),
        contact_cost_weight_(config.Double("contact_cost_weight")),
        healthy_reward_(config.Double("healthy_reward")),
        terminate_when_unhealthy_(config.Bool("terminate_when_unhealthy")),
        z_range_(mujoco_detail::Range(config, "healthy_z_range")),
        force_range_(mujoco_detail::Range(config, "contact_force_range")),
        reset_noise_scale_(config.Double("reset_noise_scale")),
        exclude_(config.Bool("exclude_current_positions_from_observation")),
        contact_terms_(kV4Rules ? config.Bool("use_contact_forces")
                                : config.Bool("include_cfrc_ext_in_observation")),
        main_body_(kV4Rules ? BodyId("torso")
                            : mujoco_detail::ResolveBody(model_.get(), config.String("main_body"))),
        forces_(static_cast<size_t>(model_->nbody) * 6),
        obs_(ObsField<double>(spec, "obs")),
        info_(mujoco_detail::ResolveInfoF64(spec, InfoNames())),
        motion_(spec),
        reward_forward_(InfoField<double>(spec, "reward_forward")),
        reward_ctrl_(InfoField<double>(spec, "reward_ctrl")),
        reward_survive_(InfoField<double>(spec, "reward_survive")),
        forward_reward_(mujoco_detail::InfoF64If(kV4Rules, spec, "forward_reward")),
        reward_contact_(mujoco_detail::InfoF64If(V != 4, spec, "reward_contact")) {}

  void Reset(Rng& rng, const StepOutput& out) {
    ResetWithNoise(rng, reset_noise_scale_, /*normal_qvel=*/true);
    ClipContactForces();
    WriteObs(out);
    mujoco_detail::ZeroInfo(out, info_);
    // v5's reset info; v4 has none, we report the torso's position there.
    const double x = kV4Rules ? data_->xpos[3 * main_body_] : data_->qpos[0];
    const double y = kV4Rules ? data_->xpos[3 * main_body_ + 1] : data_->qpos[1];
    WritePositions(out, x, y);
  }

  // Stepped in parts (see core/env.h): the physics between BeginStep and
  // EndStep is StepPart's.
  void BeginStep(const void* action) {
    action_ = BoxAction(action);
    x_before_ = data_->xpos[3 * main_body_];
    y_before_ = data_->xpos[3 * main_body_ + 1];
    StartSimulation(action_);
  }

  void EndStep(const StepOutput& out) {
    const float* a = action_;
    const double x_after = data_->xpos[3 * main_body_];
    const double y_after = data_->xpos[3 * main_body_ + 1];
    const double x_velocity = (x_after - x_before_) / dt();
    const double y_velocity = (y_after - y_before_) / dt();
    const bool healthy = IsHealthy();
    const double forward_reward = kV4Rules ? x_velocity : x_velocity * forward_reward_weight_;
    const double healthy_reward =
        (kV4Rules ? (healthy || terminate_when_unhealthy_) : healthy) ? healthy_reward_ : 0.0;
    // float32, as numpy computes `weight * sum(square(float32 action))`.
    const float ctrl_cost =
        static_cast<float>(ctrl_cost_weight_) * mujoco_detail::SumSquaresF32(a, nu());
    ClipContactForces();
    // numpy: float64 sum of squares of the clipped (nbody, 6) array.
    const bool pay_contact = V == 5 || contact_terms_;
    const double contact_cost =
        pay_contact ? contact_cost_weight_ * mujoco_detail::SumSquaresF64(
                                                 forces_.data(), static_cast<int>(forces_.size()))
                    : 0.0;
    const double rewards = forward_reward + healthy_reward;
    // v4 without contact forces subtracts the float32 ctrl cost alone.
    const double costs = pay_contact ? static_cast<double>(ctrl_cost) + contact_cost
                                     : static_cast<double>(ctrl_cost);
    *out.reward = static_cast<float>(rewards - costs);
    *out.terminated = !healthy && terminate_when_unhealthy_;
    WriteObs(out);
    if (kV4Rules) {
      WritePositions(out, x_after, y_after);
    } else {
      WritePositions(out, data_->qpos[0], data_->qpos[1]);
    }
    motion_.WriteVelocity(out, x_velocity, y_velocity);
    *out[reward_forward_] = forward_reward;
    *out[reward_survive_] = healthy_reward;
    if (V == 3) {
      *out[reward_ctrl_] = -static_cast<double>(ctrl_cost);
      *out[reward_contact_] = -contact_cost;
      *out[forward_reward_] = forward_reward;
    } else if (V == 4) {
      *out[reward_ctrl_] = contact_terms_ ? -contact_cost : -static_cast<double>(ctrl_cost);
      *out[forward_reward_] = forward_reward;
    } else {
      *out[reward_ctrl_] = -static_cast<double>(ctrl_cost);
      *out[reward_contact_] = -contact_cost;
    }
    EndEpisodeIfUnstable(out);
  }

 private:
  static int ObsSize(const mjModel* m, const Config& config) {
    int size = m->nq + m->nv;
    if (config.Bool("exclude_current_positions_from_observation")) size -= 2;
    if (kV4Rules && config.Bool("use_contact_forces")) size += 6 * m->nbody;
    if (V == 5 && config.Bool("include_cfrc_ext_in_observation")) size += 6 * (m->nbody - 1);
    return size;
  }

  void WritePositions(const StepOutput& out, double x, double y) const {
    motion_.WritePosition(out, x, y, std::sqrt(x * x + y * y));
  }

  // gymnasium: the whole state finite and min <= z <= max (closed range).
  bool IsHealthy() const {
    return StateIsFinite() && z_range_.low <= data_->qpos[2] && data_->qpos[2] <= z_range_.high;
  }

  // np.clip(cfrc_ext, min, max); NaN stays NaN.
  void ClipContactForces() {
    const int n = static_cast<int>(forces_.size());
    for (int i = 0; i < n; ++i) {
      const double f = data_->cfrc_ext[i];
      forces_[i] =
          f < force_range_.low ? force_range_.low : (f > force_range_.high ? force_range_.high : f);
    }
  }

  void WriteObs(const StepOutput& out) const {
    double* obs = out[obs_];
    for (int i = exclude_ ? 2 : 0; i < nq(); ++i) *obs++ = data_->qpos[i];
    for (int i = 0; i < nv(); ++i) *obs++ = data_->qvel[i];
    if (contact_terms_) {
      // v4 observes the world body's row too, v5 starts at body 1.
      const size_t first = kV4Rules ? 0 : 6;
      for (size_t i = first; i < forces_.size(); ++i) *obs++ = forces_[i];
    }
  }

  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double contact_cost_weight_;
  double healthy_reward_;
  bool terminate_when_unhealthy_;
  mujoco_detail::OpenRange z_range_;  // used as a closed range here
  mujoco_detail::OpenRange force_range_;
  double reset_noise_scale_;
  bool exclude_;
  bool contact_terms_;  // v4: use_contact_forces; v5: include_cfrc_ext_in_observation
  int main_body_;
  std::vector<double> forces_;  // clipped cfrc_ext
  OutputField<double> obs_;
  std::vector<mujoco_detail::InfoF64> info_;  // all of InfoNames(), zeroed on reset
  mujoco_detail::PlanarMotionInfo motion_;
  OutputField<double> reward_forward_;
  OutputField<double> reward_ctrl_;  // v4: -contact_cost with use_contact_forces
  OutputField<double> reward_survive_;
  OutputField<double> forward_reward_;  // v3 and v4
  OutputField<double> reward_contact_;  // v3 and v5
  // The step in progress (BeginStep to EndStep).
  const float* action_ = nullptr;
  double x_before_ = 0.0;
  double y_before_ = 0.0;
};

}  // namespace envpool_x
