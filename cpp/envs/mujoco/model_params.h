// Per-env parameters of the MuJoCo and DeepMind Control envs (docs/params.md):
// scale factors on the env's model's own values, so that one declaration fits
// every task and every model (a user's xml_file included). The scaled values
// are written as `model.body_mass[:] = base * s` would write them from Python:
// MuJoCo's derived constants (mj_setConst: body_subtreemass, dof_invweight0,
// ...) keep the model's values.
//
// An env whose values are all 1 runs on its task's model; the first other
// value gives it a shallow copy of that model (the mjModel struct, which
// holds opt.gravity and opt.timestep) whose scaled arrays are its own, and the
// rest stays shared.
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/params.h"
#include "core/spec.h"

namespace envpool_x::mujoco_detail {

// The parameters in declaration order; kTimestep only where the task allows.
enum ModelParam {
  kBodyMassScale,
  kBodyInertiaScale,
  kGeomFrictionScale,
  kDofDampingScale,
  kDofArmatureScale,
  kActuatorGearScale,
  kGravityScale,
  kTimestepScale,
};

// `timestep`: whether the task declares timestep_scale. `mid_episode`: whether
// the values may change while an episode runs.
inline std::vector<ParamSpec> ModelParamSpecs(bool timestep, bool mid_episode) {
  std::vector<ParamSpec> specs = {
      {"body_mass_scale", 0.01, 100.0, mid_episode},
      {"body_inertia_scale", 0.01, 100.0, mid_episode},
      {"geom_friction_scale", 0.0, 100.0, mid_episode},  // sliding friction
      {"dof_damping_scale", 0.0, 100.0, mid_episode},
      {"dof_armature_scale", 0.0, 100.0, mid_episode},
      {"actuator_gear_scale", 0.0, 100.0, mid_episode},
      {"gravity_scale", -10.0, 10.0, mid_episode},  // the whole opt.gravity vector
  };
  if (timestep) specs.push_back({"timestep_scale", 0.01, 10.0, mid_episode});
  return specs;
}

// `config` plus every parameter key at 1 (the model's own values).
inline Config WithModelParamKeys(Config config, const std::vector<ParamSpec>& specs) {
  for (const ParamSpec& spec : specs) config.Set(spec.name, 1.0);
  return config;
}

inline bool AllOnes(const double* values, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (values[i] != 1.0) return false;
  }
  return true;
}

// The model arrays the scales act on, and the env's own copies of them. The
// base values are the arrays the model pointed at when Apply first ran (the
// task's model, which nobody writes): Apply points the model at the copies,
// Restore back at the base.
class ModelParamArrays {
 public:
  static constexpr int kArrays = 6;  // the scaled arrays, in ModelParam order

  // The doubles an env's own copies of `m`'s scaled arrays hold.
  static size_t Doubles(const mjModel* m) {
    size_t n = 0;
    for (int k = 0; k < kArrays; ++k) n += Size(m, k);
    return n;
  }

  // Bytes one env takes while its values differ: a shallow mjModel and the
  // copies (the memory check's figure, envpool_x.memory).
  static size_t CopyBytes(const mjModel* m) {
    return sizeof(mjModel) + sizeof(mjtNum) * Doubles(m);
  }

  // Writes base * scale into the copies and points `m` at them; `values` has
  // kTimestepScale + 1 entries where `timestep`, else kTimestepScale.
  void Apply(mjModel* m, const double* values, bool timestep) {
    if (!captured_) Capture(*m);
    for (int k = 0; k < kArrays; ++k) {
      const size_t n = Size(m, k);
      const size_t stride = Stride(k);
      own_[k].assign(base_[k], base_[k] + n);
      for (size_t i = 0; i < n; i += stride) own_[k][i] = base_[k][i] * values[k];
      m->*Member(k) = own_[k].data();
    }
    for (int i = 0; i < 3; ++i) m->opt.gravity[i] = gravity_[i] * values[kGravityScale];
    m->opt.timestep = timestep ? timestep_ * values[kTimestepScale] : timestep_;
  }

  // Points `m` back at the base values and frees the copies.
  void Restore(mjModel* m) {
    if (!captured_) return;
    for (int k = 0; k < kArrays; ++k) {
      m->*Member(k) = const_cast<mjtNum*>(base_[k]);
      own_[k] = std::vector<mjtNum>();
    }
    for (int i = 0; i < 3; ++i) m->opt.gravity[i] = gravity_[i];
    m->opt.timestep = timestep_;
  }

 private:
  static mjtNum* mjModel::* Member(int k) {
    static constexpr mjtNum* mjModel::* kMembers[kArrays] = {
        &mjModel::body_mass,   &mjModel::body_inertia, &mjModel::geom_friction,
        &mjModel::dof_damping, &mjModel::dof_armature, &mjModel::actuator_gear};
    return kMembers[k];
  }
  static size_t Size(const mjModel* m, int k) {
    const int64_t rows[kArrays] = {m->nbody, m->nbody, m->ngeom, m->nv, m->nv, m->nu};
    const int64_t cols[kArrays] = {1, 3, 3, 1, 1, 6};
    return static_cast<size_t>(rows[k] * cols[k]);
  }
  // geom_friction is (sliding, torsional, rolling): only the sliding one scales.
  static size_t Stride(int k) { return k == kGeomFrictionScale ? 3 : 1; }

  void Capture(const mjModel& m) {
    for (int k = 0; k < kArrays; ++k) base_[k] = m.*Member(k);
    for (int i = 0; i < 3; ++i) gravity_[i] = m.opt.gravity[i];
    timestep_ = m.opt.timestep;
    captured_ = true;
  }

  bool captured_ = false;
  std::array<const mjtNum*, kArrays> base_{};
  std::array<std::vector<mjtNum>, kArrays> own_;
  mjtNum gravity_[3] = {0, 0, 0};
  mjtNum timestep_ = 0;
};

// For an env that already owns a shallow copy of its task's model (Meta-World's
// and gymnasium-robotics' envs edit a few arrays of their own): scales its
// arrays, or points them back at the shared model's when every value is 1.
inline void ScaleOwnModel(ModelParamArrays* arrays, mjModel* own, const double* values,
                          bool timestep) {
  if (AllOnes(values, timestep ? kTimestepScale + 1 : kTimestepScale)) {
    arrays->Restore(own);
  } else {
    arrays->Apply(own, values, timestep);
  }
}

// Bytes such an env adds while its values differ from 1: the scaled arrays.
inline size_t OwnModelCopyBytes(const mjModel* m) {
  return sizeof(mjtNum) * ModelParamArrays::Doubles(m);
}

}  // namespace envpool_x::mujoco_detail
