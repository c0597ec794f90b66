// What every MuJoCo env shares: the model (loaded once per process and read
// by every env), one mjData per env, gymnasium's MujocoEnv mechanics (reset to
// the model's initial state plus noise, `frame_skip` mj_steps per env step
// followed by mj_rnePostConstraint) and MuJoCo's error/warning hooks.
//
// The XML comes from the installed gymnasium package (Python resolves the
// path); the library and headers from the mujoco wheel.
#pragma once

#include <mujoco/mujoco.h>

#include <atomic>
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
#include "core/step_output.h"

namespace envpool_x {

namespace mujoco_detail {

// MuJoCo's default error handler calls exit(): turn errors into exceptions
// that reach recv() naming the env. Its default warning handler appends to
// MUJOCO_LOG.TXT in the working directory from whatever thread warns; warnings
// are still counted in mjData::warning, which is what the envs look at.
[[noreturn]] inline void ThrowMujocoError(const char* msg) {
  throw std::runtime_error(std::string("MuJoCo error: ") + msg);
}
inline void IgnoreMujocoWarning(const char* /*msg*/) {}

inline void InstallHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Only where nobody else installed one (the mujoco Python package doesn't).
    if (mju_user_error == nullptr) mju_user_error = ThrowMujocoError;
    if (mju_user_warning == nullptr) mju_user_warning = IgnoreMujocoWarning;
  });
}

// The mujoco Python package installs a default profiling timer (mjcb_time)
// when it is imported (gymnasium's MuJoCo envs and dm_control import it). The
// library is shared, so MuJoCo then reads the clock around every pipeline
// stage of every simulation in the process, ours included: ~30 clock reads
// per mj_step, a sizeable share of a cheap model's step. Python tells us
// which timer is that default (AdoptDefaultTimer); each step drops it if it
// is installed again. A timer the user sets (mujoco.set_mjcb_time) is another
// function and stays.
inline std::atomic<mjfTime>& DefaultTimer() {
  static std::atomic<mjfTime> timer{nullptr};
  return timer;
}

// mjcb_time is a plain global that Python may write while workers read it.
inline std::atomic_ref<mjfTime> TimerHook() { return std::atomic_ref<mjfTime>(mjcb_time); }

inline void DropDefaultTimer() {
  mjfTime timer = DefaultTimer().load(std::memory_order_relaxed);
  if (timer != nullptr && TimerHook().load(std::memory_order_relaxed) == timer) {
    TimerHook().compare_exchange_strong(timer, nullptr, std::memory_order_relaxed);
  }
}

// The timer installed now is the mujoco package's default: forget it now and
// whenever it comes back.
inline void AdoptDefaultTimer() {
  mjfTime timer = TimerHook().load(std::memory_order_relaxed);
  if (timer != nullptr) DefaultTimer().store(timer, std::memory_order_relaxed);
  DropDefaultTimer();
}

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};

// One model per XML path for the whole process: mjModel is read-only while
// simulating, so every env (and thread) shares it.
inline std::shared_ptr<const mjModel> LoadModel(const std::string& path) {
  InstallHandlers();
  static std::mutex mu;
  static std::map<std::string, std::weak_ptr<const mjModel>> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (auto model = cache[path].lock()) return model;
  if (path.empty()) throw ValueError("MuJoCo env: xml_file is empty");
  char error[1000] = "";
  mjModel* raw = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
  if (raw == nullptr) {
    throw ValueError("MuJoCo could not load the model '" + path + "': " + error);
  }
  std::shared_ptr<const mjModel> model(raw, ModelDeleter());
  cache[path] = model;
  return model;
}

// gymnasium's healthy ranges: (min, max), tested as min < x < max.
struct OpenRange {
  double low;
  double high;
  bool Contains(double x) const { return low < x && x < high; }
};

inline OpenRange Range(const Config& config, const std::string& key) {
  const std::vector<double>& v = config.Doubles(key);
  if (v.size() != 2 || !(v[0] <= v[1])) {
    throw ValueError(key + " must be a (min, max) pair with min <= max, got " +
                     std::to_string(v.size()) + " values");
  }
  return OpenRange{v[0], v[1]};
}

inline ArraySpec UnboundedF64(const std::string& name, int64_t size) {
  return ArraySpec{name, DType::kFloat64, {size}, {}, {}};
}
inline ArraySpec ScalarF64(const std::string& name) {
  return ArraySpec{name, DType::kFloat64, {}, {}, {}};
}

// A float64 info field resolved by name, with its element count (1 for a
// scalar).
struct InfoF64 {
  OutputField<double> field;
  int size = 1;
};

// The scalar info fields `names` of `spec`, resolved by name.
inline std::vector<InfoF64> ResolveInfoF64(const EnvSpec& spec,
                                           const std::vector<const char*>& names) {
  std::vector<InfoF64> fields;
  for (const char* name : names) fields.push_back(InfoF64{InfoField<double>(spec, name), 1});
  return fields;
}

// As above, for (name, length) pairs where length 0 is a scalar.
inline std::vector<InfoF64> ResolveInfoF64(const EnvSpec& spec,
                                           const std::vector<std::pair<const char*, int>>& names) {
  std::vector<InfoF64> fields;
  for (const auto& [name, n] : names) {
    fields.push_back(InfoF64{InfoField<double>(spec, name), n == 0 ? 1 : n});
  }
  return fields;
}

// Zeroes every element of `fields` (Reset, before it writes its reset info).
inline void ZeroInfo(const StepOutput& out, const std::vector<InfoF64>& fields) {
  for (const InfoF64& f : fields) {
    double* p = out[f.field];
    for (int k = 0; k < f.size; ++k) p[k] = 0.0;
  }
}

// The info field `name` where this env's version declares it (`declared`:
// then it must be in `spec`), else an unbound handle.
inline OutputField<double> InfoF64If(bool declared, const EnvSpec& spec, const char* name) {
  return declared ? InfoField<double>(spec, name) : OutputField<double>();
}

// gymnasium's action space: Box(ctrlrange) in float32.
inline ActionSpec CtrlRangeAction(const mjModel* m) {
  ActionSpec a;
  a.discrete = false;
  a.box = ArraySpec{"action", DType::kFloat32, {m->nu}, {}, {}};
  for (int i = 0; i < m->nu; ++i) {
    a.box.low.push_back(static_cast<float>(m->actuator_ctrlrange[2 * i]));
    a.box.high.push_back(static_cast<float>(m->actuator_ctrlrange[2 * i + 1]));
  }
  return a;
}

// numpy's float32 `sum(square(action))` for the short action vectors of
// these envs (fewer than 8 elements: a plain left-to-right float sum; from 8
// on numpy sums 8 interleaved partials, as below).
inline float SumSquaresF32(const float* a, int n) {
  if (n < 8) {
    float s = 0.0f;
    for (int i = 0; i < n; ++i) s += a[i] * a[i];
    return s;
  }
  float r[8];
  for (int j = 0; j < 8; ++j) r[j] = a[j] * a[j];
  int i = 8;
  for (; i + 8 <= n; i += 8) {
    for (int j = 0; j < 8; ++j) r[j] += a[i + j] * a[i + j];
  }
  float s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
  for (; i < n; ++i) s += a[i] * a[i];
  return s;
}

// numpy's float64 sum of squares of an array (pairwise with 8 partials from
// 8 elements on; exact for what these envs sum).
inline double SumSquaresF64(const double* a, int n) {
  if (n < 8) {
    double s = 0.0;
    for (int i = 0; i < n; ++i) s += a[i] * a[i];
    return s;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j] * a[j];
    int i = 8;
    for (; i + 8 <= n; i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += a[i + j] * a[i + j];
    }
    double s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) s += a[i] * a[i];
    return s;
  }
  // numpy's pairwise recursion: split at a multiple of 8 below n/2.
  int half = n / 2;
  half -= half % 8;
  return SumSquaresF64(a, half) + SumSquaresF64(a + half, n - half);
}

// The info fields of the tasks that move in the plane (Ant, Humanoid,
// Swimmer): position, distance from the origin and velocity.
struct PlanarMotionInfo {
  explicit PlanarMotionInfo(const EnvSpec& spec)
      : x_position(InfoField<double>(spec, "x_position")),
        y_position(InfoField<double>(spec, "y_position")),
        distance_from_origin(InfoField<double>(spec, "distance_from_origin")),
        x_velocity(InfoField<double>(spec, "x_velocity")),
        y_velocity(InfoField<double>(spec, "y_velocity")) {}

  void WritePosition(const StepOutput& out, double x, double y, double distance) const {
    *out[x_position] = x;
    *out[y_position] = y;
    *out[distance_from_origin] = distance;
  }
  void WriteVelocity(const StepOutput& out, double vx, double vy) const {
    *out[x_velocity] = vx;
    *out[y_velocity] = vy;
  }

  OutputField<double> x_position, y_position, distance_from_origin, x_velocity, y_velocity;
};

}  // namespace mujoco_detail

// The part of gymnasium's MujocoEnv the envs build on. Derived envs call
// ResetWithNoise in Reset, StartSimulation in BeginStep and
// EndEpisodeIfUnstable at the end of EndStep, and read model_/data_.
class MujocoEnvBase {
 public:
  static constexpr bool kCheap = false;

  MujocoEnvBase(const std::string& xml_file, int frame_skip)
      : model_(mujoco_detail::LoadModel(xml_file)), frame_skip_(frame_skip) {
    if (frame_skip < 1) {
      throw ValueError("frame_skip must be >= 1, got " + std::to_string(frame_skip));
    }
    data_.reset(mj_makeData(model_.get()));
    if (!data_) throw std::runtime_error("MuJoCo could not allocate mjData");
    // mj_makeData leaves the model's initial state (qpos0, zero qvel) in
    // data, which is what gymnasium records as init_qpos / init_qvel.
    init_qpos_.assign(data_->qpos, data_->qpos + model_->nq);
    init_qvel_.assign(data_->qvel, data_->qvel + model_->nv);
    qpos_buf_.resize(model_->nq);
    qvel_buf_.resize(model_->nv);
  }

  // The model a config names (a spec is built before any env).
  static std::shared_ptr<const mjModel> SpecModel(const Config& config) {
    return mujoco_detail::LoadModel(config.String("xml_file"));
  }

  int nq() const { return model_->nq; }
  int nv() const { return model_->nv; }

  // What pixel observations draw (pixel_observation.h): the model whose
  // assets a GL context holds, and the one the env simulates (the same here).
  const std::shared_ptr<const mjModel>& RenderAssets() const { return model_; }
  const mjModel* RenderModel() const { return model_.get(); }
  int nu() const { return model_->nu; }
  double dt() const { return model_->opt.timestep * frame_skip_; }

  // The state a test or a user can copy in and out: qpos then qvel.
  std::vector<double> GetState() const {
    std::vector<double> s(data_->qpos, data_->qpos + model_->nq);
    s.insert(s.end(), data_->qvel, data_->qvel + model_->nv);
    return s;
  }

  // As gymnasium's reset followed by set_state(qpos, qvel): mj_resetData,
  // then the state, then mj_forward.
  void SetState(const std::vector<double>& s) {
    const size_t want = static_cast<size_t>(model_->nq + model_->nv);
    if (s.size() != want) {
      throw ValueError("MuJoCo state must have nq + nv = " + std::to_string(want) +
                       " values (qpos then qvel), got " + std::to_string(s.size()));
    }
    mj_resetData(model_.get(), data_.get());
    SetQposQvel(s.data(), s.data() + model_->nq);
  }

 protected:
  // gymnasium's set_state: copy qpos/qvel in and run mj_forward.
  void SetQposQvel(const double* qpos, const double* qvel) {
    std::memcpy(data_->qpos, qpos, sizeof(double) * model_->nq);
    std::memcpy(data_->qvel, qvel, sizeof(double) * model_->nv);
    mj_forward(model_.get(), data_.get());
  }

  // gymnasium's reset_model for the common noise kinds: qpos uniform in
  // +-scale, qvel uniform (`normal_qvel` false) or scale * standard normal.
  void ResetWithNoise(Rng& rng, double scale, bool normal_qvel) {
    mj_resetData(model_.get(), data_.get());
    for (int i = 0; i < model_->nq; ++i) qpos_buf_[i] = init_qpos_[i] + rng.Uniform(-scale, scale);
    for (int i = 0; i < model_->nv; ++i) {
      qvel_buf_[i] =
          init_qvel_[i] + (normal_qvel ? scale * rng.Normal() : rng.Uniform(-scale, scale));
    }
    SetQposQvel(qpos_buf_.data(), qvel_buf_.data());
  }

  // gymnasium's do_simulation, in parts (envs are stepped in parts: see
  // core/env.h): StartSimulation sets ctrl = action (no clipping: MuJoCo
  // clamps to ctrlrange where the model says so); then StepPart, once per
  // mj_step of frame_skip, until it returns true; the last also runs
  // mj_rnePostConstraint so cfrc_ext / cacc are up to date (not for the ids
  // of gym's mujoco-py era: legacy_ids.h).
  void StartSimulation(const float* action) {
    mujoco_detail::DropDefaultTimer();  // see DefaultTimer
    // Count this step's instability warnings only (see EndEpisodeIfUnstable).
    for (int w : kInstabilityWarnings) data_->warning[w].number = 0;
    for (int i = 0; i < model_->nu; ++i) data_->ctrl[i] = action[i];
    parts_left_ = frame_skip_;
  }

 public:
  // One mj_step of the simulation StartSimulation began; true after the last.
  bool StepPart() {
    mj_step(model_.get(), data_.get());
    if (--parts_left_ > 0) return false;
    if (post_constraint_) mj_rnePostConstraint(model_.get(), data_.get());
    return true;
  }

 protected:
  // True when the simulation state holds a NaN or inf (MuJoCo resets on a
  // bad qacc by itself, but a diverging state may still surface here).
  bool StateIsFinite() const {
    for (int i = 0; i < model_->nq; ++i) {
      if (!std::isfinite(data_->qpos[i])) return false;
    }
    for (int i = 0; i < model_->nv; ++i) {
      if (!std::isfinite(data_->qvel[i])) return false;
    }
    return true;
  }

  // Where gymnasium carries on, we end the episode (truncated) after a step
  // in which the simulation went unstable: MuJoCo found a NaN, inf or huge
  // value in qpos, qvel or qacc (it warns, then resets mjData to the model's
  // initial state in the middle of the step), or the step left a non-finite
  // qpos/qvel that MuJoCo would catch on the next one. The step's observation
  // and reward are still gymnasium's; what follows would be a teleported
  // episode, so an agent should not learn from it. An episode that the task
  // already terminates (Ant's non-finite state) stays terminated only.
  // Derived envs call this at the end of EndStep.
  void EndEpisodeIfUnstable(const StepOutput& out) const {
    if (out.truncated == nullptr || *out.terminated) return;
    bool unstable = !StateIsFinite();
    for (int w : kInstabilityWarnings) unstable = unstable || data_->warning[w].number > 0;
    if (unstable) *out.truncated = true;
  }

  int BodyId(const char* name) const {
    const int id = mj_name2id(model_.get(), mjOBJ_BODY, name);
    if (id < 0) throw ValueError(std::string("MuJoCo model has no body '") + name + "'");
    return id;
  }

  // MuJoCo's warnings for a diverged simulation (it resets mjData on them).
  static constexpr int kInstabilityWarnings[] = {mjWARN_BADQPOS, mjWARN_BADQVEL, mjWARN_BADQACC};

  std::shared_ptr<const mjModel> model_;
  std::unique_ptr<mjData, mujoco_detail::DataDeleter> data_;
  int frame_skip_;
  int parts_left_ = 0;           // mj_steps left in the step StartSimulation began
  bool post_constraint_ = true;  // run mj_rnePostConstraint after each step
  std::vector<double> init_qpos_;
  std::vector<double> init_qvel_;
  std::vector<double> qpos_buf_;
  std::vector<double> qvel_buf_;
};

}  // namespace envpool_x
