// Humanoid-v4 / -v5, as gymnasium 1.4.0's humanoid_v4.py / _v5.py, and the
// observation HumanoidStandup shares with it. Humanoid-v3 (EnvPool's, as gym's
// humanoid_v3.py) has v4's rules plus v5's contact cost, reported as
// reward_impact, and is stepped without mj_rnePostConstraint (legacy_ids.h):
// its cfrc_ext stay zero, in the observation and in that cost.
// Differences between the versions:
// - v4 observes cinert, cvel, qfrc_actuator and cfrc_ext of every body / dof;
//   v5 leaves out the world body's rows and the free joint's 6 dofs of
//   qfrc_actuator, and each part can be switched off (include_*).
// - v5 adds a contact cost (clipped to contact_cost_range).
// - v4 pays the healthy reward whenever terminate_when_unhealthy is set, v5
//   only while healthy.
// - v4's info positions are the center of mass, v5's are qpos[0:2] (plus the
//   tendon lengths and velocities).
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "envs/mujoco/mujoco_env.h"

namespace envpool_x {

namespace mujoco_detail {

// numpy's float64 sum of an array (pairwise with 8 partials from 8 elements
// on), as in SumSquaresF64.
inline double SumF64(const double* a, int n) {
  if (n < 8) {
    double s = 0.0;
    for (int i = 0; i < n; ++i) s += a[i];
    return s;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    int i = 8;
    for (; i + 8 <= n; i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += a[i + j];
    }
    double s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) s += a[i];
    return s;
  }
  int half = n / 2;
  half -= half % 8;
  return SumF64(a, half) + SumF64(a + half, n - half);
}

// gymnasium's mass_center: einsum("b,bj->j", body_mass, xipos) (a plain
// body-by-body sum, checked against numpy) over body_mass.sum(), read at each
// call as gymnasium does (body_mass_scale may change the masses).
struct XY {
  double x;
  double y;
};
inline XY MassCenter(const mjModel* m, const mjData* d) {
  const double total_mass = SumF64(m->body_mass, m->nbody);
  double x = 0.0;
  double y = 0.0;
  for (int b = 0; b < m->nbody; ++b) {
    x += m->body_mass[b] * d->xipos[3 * b];
    y += m->body_mass[b] * d->xipos[3 * b + 1];
  }
  return {x / total_mass, y / total_mass};
}

// Which parts of the humanoid observation are on (v5's include_* keys; v4
// has them all, world rows included).
struct HumanoidObsParts {
  bool v5;
  bool exclude_xy;
  bool cinert = true;
  bool cvel = true;
  bool qfrc_actuator = true;
  bool cfrc_ext = true;

  static HumanoidObsParts FromConfig(const Config& config, bool v5, bool exclude_xy) {
    HumanoidObsParts p{v5, exclude_xy};
    if (v5) {
      p.cinert = config.Bool("include_cinert_in_observation");
      p.cvel = config.Bool("include_cvel_in_observation");
      p.qfrc_actuator = config.Bool("include_qfrc_actuator_in_observation");
      p.cfrc_ext = config.Bool("include_cfrc_ext_in_observation");
    }
    return p;
  }

  int Size(const mjModel* m) const {
    const int bodies = v5 ? m->nbody - 1 : m->nbody;
    return m->nq - (exclude_xy ? 2 : 0) + m->nv + cinert * 10 * bodies + cvel * 6 * bodies +
           qfrc_actuator * (v5 ? m->nv - 6 : m->nv) + cfrc_ext * 6 * bodies;
  }

  // qpos (without x, y), qvel, cinert, cvel, qfrc_actuator, cfrc_ext.
  void Write(const mjModel* m, const mjData* d, double* obs) const {
    auto copy = [&obs](const double* from, int n) {
      for (int i = 0; i < n; ++i) *obs++ = from[i];
    };
    const int skip_bodies = v5 ? 1 : 0;
    const int bodies = m->nbody - skip_bodies;
    const int skip_xy = exclude_xy ? 2 : 0;
    copy(d->qpos + skip_xy, m->nq - skip_xy);
    copy(d->qvel, m->nv);
    if (cinert) copy(d->cinert + 10 * skip_bodies, 10 * bodies);
    if (cvel) copy(d->cvel + 6 * skip_bodies, 6 * bodies);
    if (qfrc_actuator) copy(d->qfrc_actuator + (v5 ? 6 : 0), v5 ? m->nv - 6 : m->nv);
    if (cfrc_ext) copy(d->cfrc_ext + 6 * skip_bodies, 6 * bodies);
  }
};

// np.clip(x, low, high) of a scalar; NaN stays NaN.
inline double Clip(double x, double low, double high) {
  return x < low ? low : (x > high ? high : x);
}

}  // namespace mujoco_detail

template <int V>
class Humanoid : public MujocoEnvBase {
  static_assert(V == 3 || V == 4 || V == 5);
  // v3 runs v4's rules, with v5's contact cost.
  static constexpr bool kV4Rules = V != 5;

 public:
  static constexpr const char* kName =
      V == 3 ? "HumanoidV3" : (V == 4 ? "HumanoidV4" : "HumanoidV5");

  static Config DefaultConfig() {
    const double inf = std::numeric_limits<double>::infinity();
    Config c{{"xml_file", std::string("humanoid.xml")},
             {"frame_skip", int64_t{5}},
             {"forward_reward_weight", 1.25},
             {"ctrl_cost_weight", 0.1},
             {"healthy_reward", 5.0},
             {"terminate_when_unhealthy", true},
             {"healthy_z_range", std::vector<double>{1.0, 2.0}},
             {"reset_noise_scale", 1e-2},
             {"exclude_current_positions_from_observation", true}};
    if (V != 4) {
      c.Set("contact_cost_weight", 5e-7);
      c.Set("contact_cost_range", std::vector<double>{-inf, 10.0});
    }
    if (V == 5) {
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
    if (V == 3) {
      return {{"reward_linvel", 0},        {"reward_quadctrl", 0}, {"reward_alive", 0},
              {"reward_impact", 0},        {"x_position", 0},      {"y_position", 0},
              {"distance_from_origin", 0}, {"x_velocity", 0},      {"y_velocity", 0},
              {"forward_reward", 0}};
    }
    if (V == 4) {
      return {{"reward_linvel", 0}, {"reward_quadctrl", 0}, {"reward_alive", 0},
              {"x_position", 0},    {"y_position", 0},      {"distance_from_origin", 0},
              {"x_velocity", 0},    {"y_velocity", 0},      {"forward_reward", 0}};
    }
    return {{"x_position", 0},
            {"y_position", 0},
            {"tendon_length", m->ntendon},
            {"tendon_velocity", m->ntendon},
            {"distance_from_origin", 0},
            {"x_velocity", 0},
            {"y_velocity", 0},
            {"reward_survive", 0},
            {"reward_forward", 0},
            {"reward_ctrl", 0},
            {"reward_contact", 0}};
  }

  static EnvSpec Spec(const Config& config) {
    auto model = mujoco_detail::LoadModel(config.String("xml_file"));
    mujoco_detail::Range(config, "healthy_z_range");
    if (V != 4) mujoco_detail::Range(config, "contact_cost_range");
    const auto parts = mujoco_detail::HumanoidObsParts::FromConfig(
        config, V == 5, config.Bool("exclude_current_positions_from_observation"));
    EnvSpec spec;
    spec.obs.push_back(mujoco_detail::UnboundedF64("obs", parts.Size(model.get())));
    for (const auto& [name, n] : InfoFields(model.get())) {
      spec.info.push_back(n == 0 ? mujoco_detail::ScalarF64(name)
                                 : mujoco_detail::UnboundedF64(name, n));
    }
    spec.action = mujoco_detail::CtrlRangeAction(model.get());
    return spec;
  }

  Humanoid(const Config& config, const EnvSpec& spec)
      : MujocoEnvBase(config.String("xml_file"), static_cast<int>(config.Int("frame_skip"))),
        forward_reward_weight_(config.Double("forward_reward_weight")),
        ctrl_cost_weight_(config.Double("ctrl_cost_weight")),
        contact_cost_weight_(V != 4 ? config.Double("contact_cost_weight") : 0.0),
        contact_cost_range_(V != 4 ? mujoco_detail::Range(config, "contact_cost_range")
                                   : mujoco_detail::OpenRange{0.0, 0.0}),
        healthy_reward_(config.Double("healthy_reward")),
        terminate_when_unhealthy_(config.Bool("terminate_when_unhealthy")),
        z_range_(mujoco_detail::Range(config, "healthy_z_range")),
        reset_noise_scale_(config.Double("reset_noise_scale")),
        parts_(mujoco_detail::HumanoidObsParts::FromConfig(
            config, V == 5, config.Bool("exclude_current_positions_from_observation"))),
        obs_(ObsField<double>(spec, "obs")),
        info_(mujoco_detail::ResolveInfoF64(spec, InfoFields(model_.get()))),
        motion_(spec),
        reward_forward_(InfoField<double>(spec, kV4Rules ? "reward_linvel" : "reward_forward")),
        reward_ctrl_(InfoField<double>(spec, kV4Rules ? "reward_quadctrl" : "reward_ctrl")),
        reward_survive_(InfoField<double>(spec, kV4Rules ? "reward_alive" : "reward_survive")),
        forward_reward_(mujoco_detail::InfoF64If(kV4Rules, spec, "forward_reward")),
        reward_contact_(
            mujoco_detail::InfoF64If(V != 4, spec, V == 3 ? "reward_impact" : "reward_contact")),
        tendon_length_(mujoco_detail::InfoF64If(V == 5, spec, "tendon_length")),
        tendon_velocity_(mujoco_detail::InfoF64If(V == 5, spec, "tendon_velocity")) {}

  void Reset(Rng& rng, const StepOutput& out) {
    ResetWithNoise(rng, reset_noise_scale_, /*normal_qvel=*/false);
    parts_.Write(model_.get(), data_.get(), out[obs_]);
    mujoco_detail::ZeroInfo(out, info_);
    if (kV4Rules) {
      // gymnasium's v4 has no reset info: the center of mass, as in step's.
      const auto com = mujoco_detail::MassCenter(model_.get(), data_.get());
      WritePositions(out, com.x, com.y);
    } else {
      WritePositions(out, data_->qpos[0], data_->qpos[1]);
    }
  }

  // Stepped in parts (see core/env.h): the physics between BeginStep and
  // EndStep is StepPart's.
  void BeginStep(const void* action) {
    before_ = mujoco_detail::MassCenter(model_.get(), data_.get());
    StartSimulation(BoxAction(action));
  }

  void EndStep(const StepOutput& out) {
    const mujoco_detail::XY before = before_;
    const auto after = mujoco_detail::MassCenter(model_.get(), data_.get());
    const double x_velocity = (after.x - before.x) / dt();
    const double y_velocity = (after.y - before.y) / dt();
    // float64: gymnasium squares data.ctrl, not the float32 action.
    const double ctrl_cost = ctrl_cost_weight_ * mujoco_detail::SumSquaresF64(data_->ctrl, nu());
    const double forward_reward = forward_reward_weight_ * x_velocity;
    const bool healthy = z_range_.Contains(data_->qpos[2]);
    const double healthy_reward =
        (kV4Rules ? (healthy || terminate_when_unhealthy_) : healthy) ? healthy_reward_ : 0.0;
    const double rewards = forward_reward + healthy_reward;
    *out.terminated = !healthy && terminate_when_unhealthy_;
    parts_.Write(model_.get(), data_.get(), out[obs_]);
    if (V == 4) {
      *out.reward = static_cast<float>(rewards - ctrl_cost);
    } else {
      const double contact_cost = mujoco_detail::Clip(
          contact_cost_weight_ * mujoco_detail::SumSquaresF64(data_->cfrc_ext, 6 * model_->nbody),
          contact_cost_range_.low, contact_cost_range_.high);
      *out.reward = static_cast<float>(rewards - (ctrl_cost + contact_cost));
      *out[reward_contact_] = -contact_cost;
    }
    if (kV4Rules) {
      WritePositions(out, after.x, after.y);
      *out[forward_reward_] = forward_reward;
    } else {
      WritePositions(out, data_->qpos[0], data_->qpos[1]);
    }
    motion_.WriteVelocity(out, x_velocity, y_velocity);
    *out[reward_forward_] = forward_reward;
    *out[reward_ctrl_] = -ctrl_cost;
    *out[reward_survive_] = healthy_reward;
    EndEpisodeIfUnstable(out);
  }

 private:
  // x_position, y_position, distance_from_origin (v4: of the center of
  // mass, v5: qpos[0:2]) and v5's tendon lengths and velocities.
  void WritePositions(const StepOutput& out, double x, double y) const {
    motion_.WritePosition(out, x, y, std::sqrt(x * x + y * y));
    if (V == 5) {
      double* length = out[tendon_length_];
      double* velocity = out[tendon_velocity_];
      for (int k = 0; k < model_->ntendon; ++k) {
        length[k] = data_->ten_length[k];
        velocity[k] = data_->ten_velocity[k];
      }
    }
  }

  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double contact_cost_weight_;
  mujoco_detail::OpenRange contact_cost_range_;  // a clip range here
  double healthy_reward_;
  bool terminate_when_unhealthy_;
  mujoco_detail::OpenRange z_range_;
  double reset_noise_scale_;
  mujoco_detail::HumanoidObsParts parts_;
  OutputField<double> obs_;
  std::vector<mujoco_detail::InfoF64> info_;  // all of InfoFields(), zeroed on reset
  mujoco_detail::PlanarMotionInfo motion_;
  OutputField<double> reward_forward_;   // v3, v4: reward_linvel
  OutputField<double> reward_ctrl_;      // v3, v4: reward_quadctrl
  OutputField<double> reward_survive_;   // v3, v4: reward_alive
  OutputField<double> forward_reward_;   // v3 and v4
  OutputField<double> reward_contact_;   // v5; v3: reward_impact
  OutputField<double> tendon_length_;    // v5 only, ntendon values
  OutputField<double> tendon_velocity_;  // v5 only, ntendon values
  // The step in progress (BeginStep to EndStep).
  mujoco_detail::XY before_{};  // centre of mass
};

}  // namespace envpool_x
