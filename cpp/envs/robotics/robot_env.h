// What every gymnasium-robotics task shares (its robot_env.py's
// MujocoRobotEnv and core.GoalEnv, gymnasium-robotics 1.4.2): a MuJoCo model
// read from the installed package's XML, n_substeps mj_steps per env step, a
// goal, and the goal-conditioned observation (three fields: achieved_goal,
// desired_goal, observation, in the order of gymnasium's sorted Dict).
//
// The family's tasks (Fetch now; the Shadow Hand, Adroit, mazes and Kitchen
// later) derive from RobotEnv and fill in the robot's part. The reward and
// success of a goal task are a distance between the achieved and the desired
// goal against a threshold (GoalDistance); the task says which.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/random.h"
#include "core/spec.h"
#include "envs/mujoco/mujoco_env.h"

namespace envpool_x {
namespace robotics {

// np.linalg.norm(a - b, axis=-1) of two goals (3-vectors, the mazes' 2):
// numpy sums the squares left to right (add.reduce), then takes the root.
inline double GoalDistance(const double* a, const double* b, size_t size = 3) {
  double sum = 0.0;
  for (size_t k = 0; k < size; ++k) {
    const double d = a[k] - b[k];
    sum += d * d;
  }
  return std::sqrt(sum);
}

// reward_type: "sparse" (default) or "dense"; anything else is an error.
inline bool IsSparse(const Config& config) {
  const std::string& type = config.String("reward_type");
  if (type != "sparse" && type != "dense") {
    throw ValueError("reward_type must be 'sparse' or 'dense', got '" + type + "'");
  }
  return type == "sparse";
}

// The goal-conditioned observation fields, and info["is_success"] (float32,
// as gymnasium-robotics' numpy float32).
inline void AddGoalFields(EnvSpec& spec, int64_t obs_size, int64_t goal_size) {
  spec.obs.push_back(mujoco_detail::UnboundedF64("achieved_goal", goal_size));
  spec.obs.push_back(mujoco_detail::UnboundedF64("desired_goal", goal_size));
  spec.obs.push_back(mujoco_detail::UnboundedF64("observation", obs_size));
  spec.info.push_back(ArraySpec{"is_success", DType::kFloat32, {}, {}, {}});
}

class RobotEnv {
 public:
  static constexpr bool kCheap = false;

  RobotEnv(const Config& config, const EnvSpec& spec, int n_substeps, int goal_size)
      : shared_(mujoco_detail::LoadModel(config.String("xml_file"))),
        model_(std::make_unique<mjModel>(*shared_)),
        n_substeps_(n_substeps),
        goal_(goal_size, 0.0),
        achieved_(ObsField<double>(spec, "achieved_goal")),
        desired_(ObsField<double>(spec, "desired_goal")),
        observation_(ObsField<double>(spec, "observation")),
        is_success_(InfoField<float>(spec, "is_success")) {
    // The env's own weld data (reset_mocap_welds edits it); the rest of this
    // shallow copy is the shared model's, never freed through it.
    const mjModel* m = shared_.get();
    eq_data_.assign(m->eq_data, m->eq_data + mjNEQDATA * m->neq);
    model_->eq_data = eq_data_.data();
    data_.reset(mj_makeData(model_.get()));
    if (!data_) throw std::runtime_error("MuJoCo could not allocate mjData");
    state_size_ = mj_stateSize(model_.get(), kStateSig);
    jac_.assign(3 * model_->nv, 0.0);
  }
  virtual ~RobotEnv() = default;
  RobotEnv(const RobotEnv&) = delete;
  RobotEnv& operator=(const RobotEnv&) = delete;

  // Test hook: mj_getState(mjSTATE_INTEGRATION), then the goal.
  std::vector<double> GetState() const {
    std::vector<double> s(state_size_ + goal_.size());
    mj_getState(model_.get(), data_.get(), s.data(), kStateSig);
    std::copy(goal_.begin(), goal_.end(), s.begin() + state_size_);
    return s;
  }

  // The physics state and the goal, then mj_forward (the next step reads the
  // bodies' poses, as after a reset).
  void SetState(const std::vector<double>& s) {
    const size_t want = state_size_ + goal_.size();
    if (s.size() != want) {
      throw ValueError("robotics state must have " + std::to_string(want) + " values, got " +
                       std::to_string(s.size()));
    }
    mj_setState(model_.get(), data_.get(), s.data(), kStateSig);
    std::copy(s.begin() + state_size_, s.end(), goal_.begin());
    mj_forward(model_.get(), data_.get());
  }

 protected:
  static constexpr unsigned kStateSig = mjSTATE_INTEGRATION;

  int Id(mjtObj type, const char* name) const {
    const int id = mj_name2id(model_.get(), type, name);
    if (id < 0) {
      throw ValueError(std::string("robotics model has no ") + mju_type2Str(type) + " '" + name +
                       "'");
    }
    return id;
  }

  // This env's own shallow model copy (robot_params.h scales its arrays).
  mjModel* ParamModel() { return model_.get(); }

  // MujocoRobotEnv._mujoco_step.
  void Simulate() {
    for (int k = 0; k < n_substeps_; ++k) mj_step(model_.get(), data_.get());
  }

  // The seconds of one env step (n_substeps * timestep, in that order).
  double Dt() const { return n_substeps_ * model_->opt.timestep; }

  // reset_mocap_welds' model edit: each weld's anchor and relative position
  // become 0 and its relative quaternion's first value 1 (its mj_forward is
  // the caller's).
  void ResetWeldData() {
    if (model_->nmocap > 0) {
      for (int i = 0; i < model_->neq; ++i) {
        if (model_->eq_type[i] != mjEQ_WELD) continue;
        double* e = eq_data_.data() + mjNEQDATA * i;
        std::fill(e, e + 6, 0.0);
        e[6] = 1.0;
      }
    }
  }

  // reset_mocap2body_xpos: each welded mocap body takes its body's pose.
  void ResetMocapToBodies() {
    for (int i = 0; i < model_->neq; ++i) {
      if (model_->eq_type[i] != mjEQ_WELD) continue;
      int mocap = model_->body_mocapid[model_->eq_obj1id[i]];
      int body = model_->eq_obj2id[i];
      if (mocap == -1) {
        mocap = model_->body_mocapid[model_->eq_obj2id[i]];
        body = model_->eq_obj1id[i];
      }
      if (mocap == -1) throw std::runtime_error("a weld without a mocap body");
      std::copy(data_->xpos + 3 * body, data_->xpos + 3 * body + 3, data_->mocap_pos + 3 * mocap);
      std::copy(data_->xquat + 4 * body, data_->xquat + 4 * body + 4,
                data_->mocap_quat + 4 * mocap);
    }
  }

  // get_site_xvelp / xvelr times dt: the site's Jacobian times qvel (numpy's
  // matmul may sum in another order: the last bits can differ).
  void SiteVelocity(int site, bool rotational, double* out) {
    if (rotational) {
      mj_jacSite(model_.get(), data_.get(), nullptr, jac_.data(), site);
    } else {
      mj_jacSite(model_.get(), data_.get(), jac_.data(), nullptr, site);
    }
    const double dt = Dt();
    for (int r = 0; r < 3; ++r) {
      double v = 0.0;
      for (int j = 0; j < model_->nv; ++j) v += jac_[r * model_->nv + j] * data_->qvel[j];
      out[r] = v * dt;
    }
  }

  // The goal outputs of a step or a reset.
  void WriteGoalFields(const StepOutput& out, const double* achieved) const {
    std::copy(achieved, achieved + goal_.size(), out[achieved_]);
    std::copy(goal_.begin(), goal_.end(), out[desired_]);
  }
  // The goal outputs; returns the (Euclidean) goal distance.
  double WriteGoals(const StepOutput& out, const double* achieved) const {
    WriteGoalFields(out, achieved);
    return GoalDistance(achieved, goal_.data(), goal_.size());
  }
  double* ObservationOut(const StepOutput& out) const { return out[observation_]; }
  void WriteSuccess(const StepOutput& out, bool success) const {
    *out[is_success_] = success ? 1.0f : 0.0f;
  }

  std::shared_ptr<const mjModel> shared_;
  std::unique_ptr<mjModel> model_;
  std::unique_ptr<mjData, mujoco_detail::DataDeleter> data_;
  int n_substeps_;
  std::vector<double> goal_;

 private:
  std::vector<double> eq_data_;
  std::vector<double> jac_;
  int state_size_ = 0;
  OutputField<double> achieved_, desired_, observation_;
  OutputField<float> is_success_;
};

}  // namespace robotics
}  // namespace envpool_x
