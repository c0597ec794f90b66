// What the four Adroit hand tasks share (gymnasium-robotics 1.4.2's
// adroit_hand/*.py, each a gymnasium MujocoEnv with frame_skip 5): a plain
// Box observation, a 24- or 28-value action in [-1, 1] scaled to the
// actuators' control ranges, a dense or sparse reward and info["success"].
//
// - make: the wrist actuators' gain / bias become (10, 0, 0) / (0, -10, 0),
//   the finger actuators' (1, 0, 0) / (0, -1, 0) (the tasks' "actuator
//   sensitivity" edit); act_mean / act_rng are the control ranges' middles
//   and half widths.
// - reset: mj_resetData, the task's draws (they move a body or a site of the
//   model: each env keeps its own copy of the arrays it edits), the model's
//   initial qpos / qvel, mj_forward.
// - step: the action clipped to [-1, 1], ctrl = act_mean + a * act_rng, 5
//   mj_steps, mj_rnePostConstraint (gymnasium's do_simulation).
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "envs/mujoco/mujoco_env.h"
#include "envs/mujoco/numpy_ops.h"
#include "envs/robotics/robot_env.h"

namespace envpool_x {
namespace robotics {

constexpr int kAdroitFrameSkip = 5;

// reward_type is gymnasium-robotics' constructor keyword (dense by default).
inline Config AdroitConfig() {
  return Config{{"xml_file", std::string()}, {"reward_type", std::string("dense")}};
}

inline EnvSpec AdroitSpec(const Config& config, int obs_size) {
  IsSparse(config);
  auto model = mujoco_detail::LoadModel(config.String("xml_file"));
  EnvSpec spec;
  spec.obs.push_back(mujoco_detail::UnboundedF64("obs", obs_size));
  spec.info.push_back(ArraySpec{"success", DType::kBool, {}, {}, {}});
  spec.action.discrete = false;
  const int nu = model->nu;
  spec.action.box = ArraySpec{
      "action", DType::kFloat32, {nu}, std::vector<double>(nu, -1.0), std::vector<double>(nu, 1.0)};
  return spec;
}

class AdroitEnv : public MujocoEnvBase {
 public:
  AdroitEnv(const Config& config, const EnvSpec& spec)
      : MujocoEnvBase(config.String("xml_file"), kAdroitFrameSkip),
        sparse_(IsSparse(config)),
        obs_(ObsField<double>(spec, "obs")),
        success_(InfoField<bool>(spec, "success")) {
    // This env's model: the shared one's, with its own copies of the arrays
    // the task edits (the rest is the shared model's, never freed here).
    const mjModel* m = model_.get();
    own_ = std::make_unique<mjModel>(*m);
    gainprm_.assign(m->actuator_gainprm, m->actuator_gainprm + mjNGAIN * m->nu);
    biasprm_.assign(m->actuator_biasprm, m->actuator_biasprm + mjNBIAS * m->nu);
    body_pos_.assign(m->body_pos, m->body_pos + 3 * m->nbody);
    body_quat_.assign(m->body_quat, m->body_quat + 4 * m->nbody);
    site_pos_.assign(m->site_pos, m->site_pos + 3 * m->nsite);
    own_->actuator_gainprm = gainprm_.data();
    own_->actuator_biasprm = biasprm_.data();
    own_->body_pos = body_pos_.data();
    own_->body_quat = body_quat_.data();
    own_->site_pos = site_pos_.data();
    model_ = std::shared_ptr<const mjModel>(model_, own_.get());  // keeps the shared one alive
    SetSensitivity("A_WRJ1", "A_WRJ0", 10.0);
    SetSensitivity("A_FFJ3", "A_THJ0", 1.0);
    for (int i = 0; i < m->nu; ++i) {
      const double low = m->actuator_ctrlrange[2 * i], high = m->actuator_ctrlrange[2 * i + 1];
      act_mean_.push_back((low + high) / 2.0);
      act_rng_.push_back(0.5 * (high - low));
    }
  }
  virtual ~AdroitEnv() = default;

  void Reset(Rng& rng, const StepOutput& out) {
    mujoco_detail::DropDefaultTimer();
    mj_resetData(model_.get(), data_.get());
    Draw(rng);
    SetQposQvel(init_qpos_.data(), init_qvel_.data());
    AfterReset();
    WriteObs(out[obs_]);
    *out[success_] = false;
  }

  // Stepped in parts (core/env.h): BeginStep sets the controls, StepPart
  // (MujocoEnvBase's) runs the 5 mj_steps and mj_rnePostConstraint.
  void BeginStep(const void* action) {
    mujoco_detail::DropDefaultTimer();
    const float* a = BoxAction(action);
    for (int w : kInstabilityWarnings) data_->warning[w].number = 0;
    for (int i = 0; i < nu(); ++i) {
      // np.clip keeps float32; float32 times the float64 act_rng is float64.
      const double clipped = static_cast<double>(std::clamp(a[i], -1.0f, 1.0f));
      data_->ctrl[i] = act_mean_[i] + clipped * act_rng_[i];
    }
    parts_left_ = frame_skip_;
  }

  void EndStep(const StepOutput& out) {
    WriteObs(out[obs_]);
    bool success = false;
    const double reward = Reward(&success);
    *out.reward = static_cast<float>(reward);
    *out.terminated = false;
    *out[success_] = success;
    EndEpisodeIfUnstable(out);
  }

  // Test hook: mj_getState(mjSTATE_INTEGRATION), then what the task's resets
  // draw into the model (Extras).
  std::vector<double> GetState() const {
    const int size = mj_stateSize(model_.get(), kStateSig);
    std::vector<double> s(size);
    mj_getState(model_.get(), data_.get(), s.data(), kStateSig);
    for (const auto& [values, n] : extras_) s.insert(s.end(), values, values + n);
    return s;
  }

  // The physics state and the drawn model values, then mj_forward.
  void SetState(const std::vector<double>& s) {
    const size_t size = mj_stateSize(model_.get(), kStateSig);
    size_t want = size;
    for (const auto& extra : extras_) want += extra.second;
    if (s.size() != want) {
      throw ValueError("Adroit state must have " + std::to_string(want) + " values, got " +
                       std::to_string(s.size()));
    }
    mj_setState(model_.get(), data_.get(), s.data(), kStateSig);
    const double* from = s.data() + size;
    for (const auto& [values, n] : extras_) {
      std::copy(from, from + n, values);
      from += n;
    }
    mj_forward(model_.get(), data_.get());
  }

 protected:
  // This env's own shallow model copy (robot_params.h scales its arrays).
  mjModel* ParamModel() { return own_.get(); }

  static constexpr unsigned kStateSig = mjSTATE_INTEGRATION;

  // reset_model's draws (they edit this env's model).
  virtual void Draw(Rng& rng) = 0;
  // What reset_model computes after set_state (the Pen's lengths).
  virtual void AfterReset() {}
  virtual void WriteObs(double* obs) const = 0;
  // The step's reward; `success` is info["success"].
  virtual double Reward(bool* success) const = 0;

  // A value the resets draw, saved and restored with the state.
  void AddExtra(double* values, int n) { extras_.emplace_back(values, n); }

  int Id(mjtObj type, const char* name) const {
    const int id = mj_name2id(model_.get(), type, name);
    if (id < 0) {
      throw ValueError(std::string("Adroit model has no ") + mju_type2Str(type) + " '" + name +
                       "'");
    }
    return id;
  }
  double* BodyPos(int body) { return body_pos_.data() + 3 * body; }
  double* BodyQuat(int body) { return body_quat_.data() + 4 * body; }
  double* SitePos(int site) { return site_pos_.data() + 3 * site; }
  const double* SiteXpos(int site) const { return data_->site_xpos + 3 * site; }
  const double* BodyXpos(int body) const { return data_->xpos + 3 * body; }

  // a - b of two 3-vectors into `out`.
  static void Sub3(const double* a, const double* b, double* out) {
    for (int k = 0; k < 3; ++k) out[k] = a[k] - b[k];
  }
  // np.linalg.norm(a - b) of two 3-vectors.
  static double Distance(const double* a, const double* b) {
    double d[3];
    Sub3(a, b, d);
    return mujoco_detail::NormF64(d, 3);
  }

  bool sparse_;

 private:
  // The actuators first..last (by id) get gain (g, 0, 0) and bias (0, -g, 0).
  void SetSensitivity(const char* first, const char* last, double g) {
    const int from = Id(mjOBJ_ACTUATOR, first), to = Id(mjOBJ_ACTUATOR, last);
    for (int i = from; i <= to; ++i) {
      double* gain = gainprm_.data() + mjNGAIN * i;
      double* bias = biasprm_.data() + mjNBIAS * i;
      gain[0] = g;
      gain[1] = gain[2] = 0.0;
      bias[0] = bias[2] = 0.0;
      bias[1] = -g;
    }
  }

  std::unique_ptr<mjModel> own_;
  std::vector<double> gainprm_, biasprm_, body_pos_, body_quat_, site_pos_;
  std::vector<double> act_mean_, act_rng_;
  std::vector<std::pair<double*, int>> extras_;
  OutputField<double> obs_;
  OutputField<bool> success_;
};

}  // namespace robotics
}  // namespace envpool_x
