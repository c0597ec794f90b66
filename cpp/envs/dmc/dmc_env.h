// What every DeepMind Control suite task shares: the model registry (XML and
// assets handed over from Python, loaded once per process through a MuJoCo
// VFS), dm_control's Physics mechanics (reset with actuation disabled, the
// "legacy" step that leaves position/velocity-dependent data up to date,
// n_sub_steps from the control timestep, a new MuJoCo warning as a physics
// error), its reward tolerance functions and its joint randomiser.
//
// Behaviour follows dm_control 1.0.50 (rl/control.py, mujoco/engine.py,
// utils/rewards.py, suite/utils/randomizers.py), checked against it by
// tests/test_dmc.py. The random numbers are ours (dm_control draws from
// numpy's RandomState), so initial states have the same distribution, not the
// same values.
#pragma once

#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/random.h"
#include "core/spec.h"
#include "envs/mujoco/mujoco_env.h"

namespace envpool_x {
namespace dmc {

// ---- models -----------------------------------------------------------------

// The two read-only models of one registered XML: as compiled, and a twin
// with actuation disabled for dm_control's reset-time mj_forward (which
// toggles the flag on its own model; a model shared by threads can't be
// toggled).
struct SharedModel {
  std::shared_ptr<const mjModel> model;
  std::shared_ptr<const mjModel> no_actuation;
};

class ModelRegistry {
 public:
  static ModelRegistry& Get() {
    static ModelRegistry registry;
    return registry;
  }

  // Python registers a model (dm_control's XML plus its asset files) under a
  // key that names its content; registering a key again is a no-op.
  void Add(const std::string& key, std::string xml, std::vector<std::string> asset_names,
           std::vector<std::string> asset_data) {
    if (asset_names.size() != asset_data.size()) {
      throw ValueError("dmc model '" + key + "': " + std::to_string(asset_names.size()) +
                       " asset names but " + std::to_string(asset_data.size()) + " contents");
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (sources_.count(key) != 0) return;
    sources_[key] = Source{std::move(xml), std::move(asset_names), std::move(asset_data)};
  }

  bool Has(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    return sources_.count(key) != 0;
  }

  SharedModel Load(const std::string& key) {
    mujoco_detail::InstallHandlers();
    std::lock_guard<std::mutex> lock(mu_);
    auto cached = models_.find(key);
    if (cached != models_.end()) {
      SharedModel m{cached->second.model.lock(), cached->second.no_actuation.lock()};
      if (m.model && m.no_actuation) return m;
    }
    auto src = sources_.find(key);
    if (src == sources_.end()) {
      throw ValueError("no DeepMind Control model '" + key +
                       "' is registered (envpool_x.dmc registers them when a task is made)");
    }
    mjModel* raw = Compile(key, src->second);
    mjModel* twin = mj_copyModel(nullptr, raw);
    twin->opt.disableflags |= mjDSBL_ACTUATION;
    SharedModel m{std::shared_ptr<const mjModel>(raw, mujoco_detail::ModelDeleter()),
                  std::shared_ptr<const mjModel>(twin, mujoco_detail::ModelDeleter())};
    models_[key] = Weak{m.model, m.no_actuation};
    return m;
  }

 private:
  struct Source {
    std::string xml;
    std::vector<std::string> asset_names;
    std::vector<std::string> asset_data;
  };
  struct Weak {
    std::weak_ptr<const mjModel> model;
    std::weak_ptr<const mjModel> no_actuation;
  };

  static mjModel* Compile(const std::string& key, const Source& src) {
    mjVFS vfs;
    mj_defaultVFS(&vfs);
    // The XML's includes name the assets relative to the model's folder, as
    // dm_control's `common.ASSETS` keys do.
    const std::string model_name = "envpool_x_dmc_model.xml";
    int rc =
        mj_addBufferVFS(&vfs, model_name.c_str(), src.xml.data(), static_cast<int>(src.xml.size()));
    for (size_t i = 0; rc == 0 && i < src.asset_names.size(); ++i) {
      rc = mj_addBufferVFS(&vfs, src.asset_names[i].c_str(), src.asset_data[i].data(),
                           static_cast<int>(src.asset_data[i].size()));
    }
    if (rc != 0) {
      mj_deleteVFS(&vfs);
      throw ValueError("dmc model '" + key + "': MuJoCo's VFS refused an asset (code " +
                       std::to_string(rc) + ")");
    }
    char error[1000] = "";
    mjModel* m = mj_loadXML(model_name.c_str(), &vfs, error, sizeof(error));
    mj_deleteVFS(&vfs);
    if (m == nullptr) {
      throw ValueError("MuJoCo could not compile the dm_control model '" + key + "': " + error);
    }
    return m;
  }

  std::mutex mu_;
  std::map<std::string, Source> sources_;
  std::map<std::string, Weak> models_;
};

// ---- rewards (dm_control.utils.rewards) --------------------------------------

enum class Sigmoid {
  kGaussian,
  kHyperbolic,
  kLongTail,
  kReciprocal,
  kCosine,
  kLinear,
  kQuadratic,
  kTanhSquared,
};

// dm_control's `_sigmoids(x, value_at_1, sigmoid)`: a function of x >= 0
// that is 1 at 0 and `value_at_1` at 1.
inline double SigmoidValue(double x, double value_at_1, Sigmoid sigmoid) {
  const bool zero_ok =
      sigmoid == Sigmoid::kCosine || sigmoid == Sigmoid::kLinear || sigmoid == Sigmoid::kQuadratic;
  if (zero_ok ? !(0.0 <= value_at_1 && value_at_1 < 1.0)
              : !(0.0 < value_at_1 && value_at_1 < 1.0)) {
    throw ValueError("tolerance: value_at_margin " + std::to_string(value_at_1) +
                     " is out of range for this sigmoid");
  }
  switch (sigmoid) {
    case Sigmoid::kGaussian: {
      const double scale = std::sqrt(-2.0 * std::log(value_at_1));
      const double s = x * scale;
      return std::exp(-0.5 * (s * s));
    }
    case Sigmoid::kHyperbolic: {
      const double scale = std::acosh(1.0 / value_at_1);
      return 1.0 / std::cosh(x * scale);
    }
    case Sigmoid::kLongTail: {
      const double scale = std::sqrt(1.0 / value_at_1 - 1.0);
      const double s = x * scale;
      return 1.0 / (s * s + 1.0);
    }
    case Sigmoid::kReciprocal: {
      const double scale = 1.0 / value_at_1 - 1.0;
      return 1.0 / (std::abs(x) * scale + 1.0);
    }
    case Sigmoid::kCosine: {
      const double scale = std::acos(2.0 * value_at_1 - 1.0) / M_PI;
      const double s = x * scale;
      return std::abs(s) < 1.0 ? (1.0 + std::cos(M_PI * s)) / 2.0 : 0.0;
    }
    case Sigmoid::kLinear: {
      const double s = x * (1.0 - value_at_1);
      return std::abs(s) < 1.0 ? 1.0 - s : 0.0;
    }
    case Sigmoid::kQuadratic: {
      const double s = x * std::sqrt(1.0 - value_at_1);
      return std::abs(s) < 1.0 ? 1.0 - s * s : 0.0;
    }
    case Sigmoid::kTanhSquared: {
      const double scale = std::atanh(std::sqrt(1.0 - value_at_1));
      const double t = std::tanh(x * scale);
      return 1.0 - t * t;
    }
  }
  return 0.0;
}

// dm_control's `rewards.tolerance`: 1 inside [lower, upper], falling off
// outside by `sigmoid` over `margin` (0 outside when margin is 0).
inline double Tolerance(double x, double lower, double upper, double margin = 0.0,
                        Sigmoid sigmoid = Sigmoid::kGaussian, double value_at_margin = 0.1) {
  if (lower > upper) throw ValueError("tolerance: lower bound must be <= upper bound");
  if (margin < 0) throw ValueError("tolerance: margin must be non-negative");
  const bool in_bounds = lower <= x && x <= upper;
  if (margin == 0) return in_bounds ? 1.0 : 0.0;
  if (in_bounds) return 1.0;
  const double d = (x < lower ? lower - x : x - upper) / margin;
  return SigmoidValue(d, value_at_margin, sigmoid);
}

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
  DmcEnvBase(const Config& config, double control_timestep, bool own_model)
      : shared_(ModelRegistry::Get().Load(config.String("model"))) {
    if (own_model) {
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

  int n_sub_steps() const { return n_sub_steps_; }

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

  // Model that the env may edit (own_model envs only).
  mjModel* mutable_model() {
    if (!own_) throw std::logic_error("this dmc env was built without its own model");
    return own_.get();
  }

  const mjModel* model_ = nullptr;
  std::unique_ptr<mjData, mujoco_detail::DataDeleter> data_;

 private:
  void ForwardWithoutActuation() {
    if (own_) {
      const int flags = own_->opt.disableflags;
      own_->opt.disableflags |= mjDSBL_ACTUATION;
      mj_forward(own_.get(), data_.get());
      own_->opt.disableflags = flags;
    } else {
      mj_forward(shared_.no_actuation.get(), data_.get());
    }
  }

  SharedModel shared_;
  std::unique_ptr<mjModel, mujoco_detail::ModelDeleter> own_;
  int n_sub_steps_ = 1;
  int state_size_ = 0;
};

}  // namespace dmc
}  // namespace envpool_x
