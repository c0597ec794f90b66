// WithInitialState<Env>: a MuJoCo or DeepMind Control env that can also report
// each episode's initial qpos / qvel as info fields "qpos0" / "qvel0" (EnvPool's
// names; its alignment tests and users matching another simulator read them).
// Off by default (config key initial_state_info): then the only cost is one
// predictable branch per step.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "core/env.h"
#include "core/spec.h"
#include "core/step_output.h"

namespace envpool_x {

namespace mujoco_detail {

// The part shared by the Step and the stepped-in-parts forms below.
template <typename Env>
class InitialStateBase : public Env {
 public:
  static constexpr const char* kName = Env::kName;
  static constexpr const char* kKey = "initial_state_info";

  static Config DefaultConfig() {
    Config config = Env::DefaultConfig();
    config.Set(kKey, false);
    return config;
  }

  static EnvSpec Spec(const Config& config) {
    EnvSpec spec = Env::Spec(config);
    if (config.Bool(kKey)) {
      std::shared_ptr<const mjModel> m = Env::SpecModel(config);
      spec.info.push_back(ArraySpec{"qpos0", DType::kFloat64, {m->nq}, {}, {}});
      spec.info.push_back(ArraySpec{"qvel0", DType::kFloat64, {m->nv}, {}, {}});
    }
    return spec;
  }

  InitialStateBase(const Config& config, const EnvSpec& spec)
      : Env(config, spec),
        qpos0_(OptionalInfoField<double>(spec, "qpos0")),
        qvel0_(OptionalInfoField<double>(spec, "qvel0")) {
    if (qpos0_.bound()) {
      initial_.resize(static_cast<size_t>(this->model_->nq + this->model_->nv));
    }
  }

  void Reset(Rng& rng, const StepOutput& out) {
    Env::Reset(rng, out);
    if (!qpos0_.bound()) return;
    const int nq = this->model_->nq;
    std::copy_n(this->data_->qpos, nq, initial_.data());
    std::copy_n(this->data_->qvel, this->model_->nv, initial_.data() + nq);
    Write(out);
  }

 protected:
  void Write(const StepOutput& out) const {
    if (!qpos0_.bound()) return;
    const int nq = this->model_->nq;
    std::copy_n(initial_.data(), nq, out[qpos0_]);
    std::copy_n(initial_.data() + nq, this->model_->nv, out[qvel0_]);
  }

 private:
  OutputField<double> qpos0_;
  OutputField<double> qvel0_;
  std::vector<double> initial_;  // qpos then qvel, as the episode began
};

}  // namespace mujoco_detail

template <typename Env, bool kInParts = SteppedInParts<Env>()>
class WithInitialState;

template <typename Env>
class WithInitialState<Env, true> : public mujoco_detail::InitialStateBase<Env> {
 public:
  using mujoco_detail::InitialStateBase<Env>::InitialStateBase;
  void EndStep(const StepOutput& out) {
    Env::EndStep(out);
    this->Write(out);
  }
};

template <typename Env>
class WithInitialState<Env, false> : public mujoco_detail::InitialStateBase<Env> {
 public:
  using mujoco_detail::InitialStateBase<Env>::InitialStateBase;
  void Step(const void* action, Rng& rng, const StepOutput& out) {
    Env::Step(action, rng, out);
    this->Write(out);
  }
};

}  // namespace envpool_x
