// What every DeepMind Control suite task shares: dm_control's Physics
// mechanics (reset with actuation disabled, the "legacy" step that leaves
// position/velocity-dependent data up to date, n_sub_steps from the control
// timestep, a new MuJoCo warning as a physics error) and its joint randomiser.
// The model registry is in model_registry.h, the reward shaping in rewards.h.
//
// Behaviour follows dm_control 1.0.50 (rl/control.py, mujoco/engine.py,
// utils/rewards.py, suite/utils/randomizers.py), checked against it by
// tests/families/test_dmc.py. The random numbers are ours (dm_control draws from
// numpy's RandomState), so initial states have the same distribution, not the
// same values.
#pragma once

#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/random.h"
#include "core/spec.h"
#include "envs/dmc/model_registry.h"
#include "envs/dmc/rewards.h"
#include "envs/mujoco/mujoco_env.h"

namespace envpool_x {
namespace dmc {

// ---- specs ----------------------------------------------------------------------

// An observation field of dm_control's OrderedDict: float64, unbounded.
inline ArraySpec ObsF64(const std::string& name, std::vector<int64_t> shape) {
  return ArraySpec{name, DType::kFloat64, std::move(shape), {}, {}};
}

// ---- the physics --------------------------------------------------------------

// dm_control's `control.compute_n_steps`.
inline int ComputeNSubSteps(double control_timestep, double physics_timestep) {
  if (control_timestep < physics_timestep) {
    throw ValueError("control timestep " + std::to_string(control_timestep) +
                     " is smaller than the physics timestep " + std::to_string(physics_timestep));
  }
  const double ratio = control_timestep / physics_timestep;
  if (std::abs(ratio - std::round(ratio)) > 1e-8) {
    throw ValueError("control timestep " + std::to_string(control_timestep) +
                     " is not a multiple of the physics timestep " +
                     std::to_string(physics_timestep));
  }
  return static_cast<int>(std::round(ratio));
}

// The config keys every dmc env has: the registered model and the task.
inline Config BaseConfig(const std::string& task_name) {
  return Config{{"model", std::string()}, {"task_name", task_name}};
}

// One env's physics: dm_control's `mujoco.Physics` plus the parts of
// `control.Environment.step` below the task (control, n_sub_steps).
class DmcEnvBase {
 public:
  static constexpr bool kCheap = false;

  // control_timestep <= 0: one physics step per env step (dm_control's
  // default when a task gives none). own_model: the task edits its model per
  // episode (target placement), so this env gets a private copy.
  // own_heightfields: the task redraws only the heightfields (quadruped
  // escape's terrain): the env's model is the shared one but for its own
  // copy of hfield_data (the rest, 12 MB of textures there, stays shared).
  DmcEnvBase(const Config& config, double control_timestep, bool own_model,
             bool own_heightfields = false)
      : shared_(ModelRegistry::Get().Load(config.String("model"))) {
    if (own_heightfields) {
      const mjModel* m = shared_.model.get();
      heightfields_.assign(m->hfield_data, m->hfield_data + m->nhfielddata);
      ShallowModel()->hfield_data = heightfields_.data();
    } else if (own_model) {
      own_.reset(mj_copyModel(nullptr, shared_.model.get()));
      if (!own_) throw std::runtime_error("MuJoCo could not copy the model");
      model_ = own_.get();
    } else {
      model_ = shared_.model.get();
    }
    data_.reset(mj_makeData(model_));
    if (!data_) throw std::runtime_error("MuJoCo could not allocate mjData");
    n_sub_steps_ =
        control_timestep > 0 ? ComputeNSubSteps(control_timestep, model_->opt.timestep) : 1;
    state_size_ = mj_stateSize(model_, kStateSig);
  }
  virtual ~DmcEnvBase() = default;
  DmcEnvBase(const DmcEnvBase&) = delete;
  DmcEnvBase& operator=(const DmcEnvBase&) = delete;

  // The model a config names (a spec is built before any env).
  static std::shared_ptr<const mjModel> SpecModel(const Config& config) {
    return ModelRegistry::Get().Load(config.String("model")).model;
  }

  int n_sub_steps() const { return n_sub_steps_; }

  // What pixel observations draw (pixel_observation.h): the shared model
  // (its meshes and textures are the env's) and the env's own.
  const std::shared_ptr<const mjModel>& RenderAssets() const { return shared_.model; }
  const mjModel* RenderModel() const { return model_; }

  // The state a test copies in and out: MuJoCo's integration state
  // (mj_getState with mjSTATE_INTEGRATION: time, qpos, qvel, act, warm start,
  // ctrl, applied forces, ...) then the task's own values (e.g. a target's
  // position, which dm_control keeps in the model).
  std::vector<double> GetState() const {
    std::vector<double> s(state_size_ + NumTaskState());
    mj_getState(model_, data_.get(), s.data(), kStateSig);
    GetTaskState(s.data() + state_size_);
    return s;
  }

  // As if dm_control's reset had ended in this state: the state is set, then
  // `after_reset` (mj_forward with actuation disabled).
  void SetState(const std::vector<double>& s) {
    const size_t want = static_cast<size_t>(state_size_ + NumTaskState());
    if (s.size() != want) {
      throw ValueError("dmc state must have " + std::to_string(want) +
                       " values (mj_getState(mjSTATE_INTEGRATION) then " +
                       std::to_string(NumTaskState()) + " task values), got " +
                       std::to_string(s.size()));
    }
    mj_setState(model_, data_.get(), s.data(), kStateSig);
    SetTaskState(s.data() + state_size_);
    AfterReset();
  }

 protected:
  static constexpr unsigned kStateSig = mjSTATE_INTEGRATION;

  // Task values beyond the physics state (see GetState).
  virtual int NumTaskState() const { return 0; }
  virtual void GetTaskState(double* /*out*/) const {}
  virtual void SetTaskState(const double* /*in*/) {}

  // Physics.reset(): mj_resetData, then mj_forward with actuation disabled
  // (dm_control's reset_context ignores a physics error there).
  void PhysicsReset() {
    mj_resetData(model_, data_.get());
    ForwardWithoutActuation();
  }

  // Physics.after_reset(): mj_forward with actuation disabled.
  void AfterReset() { ForwardWithoutActuation(); }

  // dm_control redraws a start until nothing penetrates, without a limit;
  // the tasks need a few redraws, so this many mean the draws can never
  // succeed, and the reset fails instead of looping forever.
  static constexpr int kMaxRedraws = 10000;
  static void CountRedraw(int* redraws, const char* env) {
    if (++*redraws > kMaxRedraws) {
      throw std::runtime_error(std::string(env) + ": no start without contacts in " +
                               std::to_string(kMaxRedraws) + " draws");
    }
  }

  // Physics.step(nstep) with legacy_step (dm_control's default): finish the
  // step begun by the last mj_step1/mj_forward with mj_step2, take the other
  // nstep - 1 steps, then mj_step1 so position/velocity-dependent data match
  // the new state (RK4: nstep mj_steps, then mj_step1). Returns false when
  // MuJoCo raised a new warning, which dm_control turns into a PhysicsError.
  bool PhysicsStep(int nstep) {
    mujoco_detail::DropDefaultTimer();  // see mujoco_env.h
    int before[mjNWARNING];
    for (int i = 0; i < mjNWARNING; ++i) before[i] = data_->warning[i].number;
    const mjModel* m = model_;
    mjData* d = data_.get();
    if (m->opt.integrator != mjINT_RK4) {
      mj_step2(m, d);
      for (int k = 1; k < nstep; ++k) mj_step(m, d);
    } else {
      for (int k = 0; k < nstep; ++k) mj_step(m, d);
    }
    mj_step1(m, d);
    for (int i = 0; i < mjNWARNING; ++i) {
      if (data_->warning[i].number > before[i]) return false;
    }
    return true;
  }

  // Task.before_step: ctrl = action (MuJoCo clamps to ctrlrange itself).
  void SetControl(const float* action) {
    for (int i = 0; i < model_->nu; ++i) data_->ctrl[i] = static_cast<double>(action[i]);
  }

  // One control step: the action, then n_sub_steps physics steps. False on a
  // physics error; the caller ends the episode (see EndOnPhysicsError).
  bool ControlStep(const void* action) {
    SetControl(BoxAction(action));
    return PhysicsStep(n_sub_steps_);
  }

  // dm_control raises PhysicsError out of env.step(); here the episode ends
  // instead (terminated, reward 0, discount 0) and the next step resets it.
  static void EndOnPhysicsError(const StepOutput& out) {
    *out.reward = 0.0f;
    *out.terminated = true;
  }

  // ---- dm_control's randomizers.randomize_limited_and_rotational_joints ----
  void RandomizeLimitedAndRotationalJoints(Rng& rng) {
    for (int j = 0; j < model_->njnt; ++j) {
      double* q = data_->qpos + model_->jnt_qposadr[j];
      const int type = model_->jnt_type[j];
      const double lo = model_->jnt_range[2 * j];
      const double hi = model_->jnt_range[2 * j + 1];
      if (model_->jnt_limited[j]) {
        if (type == mjJNT_HINGE || type == mjJNT_SLIDE) {
          q[0] = rng.Uniform(lo, hi);
        } else if (type == mjJNT_BALL) {
          RandomLimitedQuaternion(rng, hi, q);
        }
      } else if (type == mjJNT_HINGE) {
        q[0] = rng.Uniform(-M_PI, M_PI);
      } else if (type == mjJNT_BALL) {
        // Normal draws: uniform on the 3-sphere.
        double n2 = 0;
        for (int k = 0; k < 4; ++k) {
          q[k] = rng.Normal();
          n2 += q[k] * q[k];
        }
        const double n = std::sqrt(n2);
        for (int k = 0; k < 4; ++k) q[k] /= n;
      } else if (type == mjJNT_FREE) {
        // dm_control draws uniform [0, 1) components here (not normals).
        double n2 = 0;
        for (int k = 0; k < 4; ++k) {
          q[3 + k] = rng.Uniform();
          n2 += q[3 + k] * q[3 + k];
        }
        const double n = std::sqrt(n2);
        for (int k = 0; k < 4; ++k) q[3 + k] /= n;
      }
    }
  }

  // dm_control's random_limited_quaternion: a random axis, an angle uniform
  // in [0, limit).
  static void RandomLimitedQuaternion(Rng& rng, double limit, double* quat) {
    double axis[3];
    double n2 = 0;
    for (double& a : axis) {
      a = rng.Normal();
      n2 += a * a;
    }
    const double n = std::sqrt(n2);
    for (double& a : axis) a /= n;
    mju_axisAngle2Quat(quat, axis, rng.Uniform() * limit);
  }

  // ---- lookups by name (throw naming what is missing) ----
  int Id(mjtObj type, const char* name) const {
    const int id = mj_name2id(model_, type, name);
    if (id < 0) {
      throw ValueError(std::string("dm_control model has no ") + mju_type2Str(type) + " '" + name +
                       "'");
    }
    return id;
  }
  // Index of a named sensor's first value in sensordata.
  int SensorAdr(const char* name) const { return model_->sensor_adr[Id(mjOBJ_SENSOR, name)]; }
  // Index of a named joint's first value in qpos / qvel.
  int JointQpos(const char* name) const { return model_->jnt_qposadr[Id(mjOBJ_JOINT, name)]; }
  int JointDof(const char* name) const { return model_->jnt_dofadr[Id(mjOBJ_JOINT, name)]; }

  // dm_control hides some of a task's geoms and sites by giving them alpha 0
  // in the model at each episode (fish upright's target, finger spin's target
  // and tip): the env's model hides them too, so that its frames are
  // dm_control's. Alpha is drawing only: the physics is the same either way.
  void HideGeom(int id) { OwnRgba(&mjModel::geom_rgba, geom_rgba_, model_->ngeom)[4 * id + 3] = 0; }
  void HideSite(int id) { OwnRgba(&mjModel::site_rgba, site_rgba_, model_->nsite)[4 * id + 3] = 0; }

  // Model that the env may edit (own_model envs only; own_heightfields
  // envs: its hfield_data only).
  mjModel* mutable_model() {
    if (shallow_model_) return shallow_model_.get();
    if (!own_) throw std::logic_error("this dmc env was built without its own model");
    return own_.get();
  }

  // The model the per-env parameters write (dmc_params.h): the env's own, or
  // its shallow copy of the shared one.
  mjModel* ParamModel() { return own_ ? own_.get() : ShallowModel(); }

  // Back on the shared model once the shallow copy holds nothing of the env's.
  void DropUnusedShallowModel() {
    if (own_ || !shallow_model_ || !heightfields_.empty() || !geom_rgba_.empty() ||
        !site_rgba_.empty()) {
      return;
    }
    shallow_model_.reset();
    model_ = shared_.model.get();
  }

  const mjModel* model_ = nullptr;
  std::unique_ptr<mjData, mujoco_detail::DataDeleter> data_;

 private:
  // The env's shallow copy of the shared model (made at the first call): it
  // shares the shared model's arrays but those the env points at its own.
  mjModel* ShallowModel() {
    if (!shallow_model_) {
      shallow_model_ = std::make_unique<mjModel>(*shared_.model);
      model_ = shallow_model_.get();
    }
    return shallow_model_.get();
  }

  // The env's own copy of the rgba array `array` (of `count` rows): in its own
  // model, or made for its shallow copy of the shared one.
  float* OwnRgba(float* mjModel::* array, std::vector<float>& copy, int count) {
    if (own_) return own_.get()->*array;
    mjModel* m = ShallowModel();
    if (copy.empty()) {
      copy.assign(m->*array, m->*array + 4 * static_cast<size_t>(count));
      m->*array = copy.data();
    }
    return m->*array;
  }

  void ForwardWithoutActuation() {
    mjModel* own = own_ ? own_.get() : shallow_model_.get();
    if (own) {
      const int flags = own->opt.disableflags;
      own->opt.disableflags |= mjDSBL_ACTUATION;
      mj_forward(own, data_.get());
      own->opt.disableflags = flags;
    } else {
      mj_forward(shared_.no_actuation.get(), data_.get());
    }
  }

  SharedModel shared_;
  std::unique_ptr<mjModel, mujoco_detail::ModelDeleter> own_;
  // A shallow copy of the shared model (never passed to mj_deleteModel: its
  // arrays are the shared model's, which shared_ keeps alive, or the vectors
  // below): own_heightfields envs and envs that hide geoms or sites.
  std::unique_ptr<mjModel> shallow_model_;
  std::vector<float> heightfields_;
  std::vector<float> geom_rgba_;
  std::vector<float> site_rgba_;
  int n_sub_steps_ = 1;
  int state_size_ = 0;
};

}  // namespace dmc
}  // namespace envpool_x
