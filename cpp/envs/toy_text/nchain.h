// NChain-v0 as EnvPool defines it (gym 0.20's NChainEnv): a chain of n
// states. Action 0 moves forward (reward 0; at the last state it stays and
// earns `large`), action 1 goes back to state 0 and earns `small`; with
// probability `slip` the other action happens. There is no terminal state:
// episodes end by the time limit (1000 steps). gym's options n, slip, small
// and large are config keys (EnvPool's values are the defaults).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "envs/toy_text/grid.h"

namespace envpool_x {

struct NChainParams {
  int32_t n = 5;
  double slip = 0.2;
  double small = 2.0;
  double large = 10.0;
};

ENVPOOL_X_HD inline void NChainDynamics(int32_t* s, int action, const NChainParams& p, Rng& rng,
                                        double* reward) {
  if (rng.Uniform() < p.slip) action = 1 - action;
  if (action == 1) {
    *reward = p.small;
    *s = 0;
  } else if (*s < p.n - 1) {
    *reward = 0.0;
    ++*s;
  } else {
    *reward = p.large;
  }
}

class NChain {
 public:
  static constexpr const char* kName = "NChain";
  static constexpr bool kCheap = true;

  static Config DefaultConfig() {
    return Config{{"n", int64_t{5}}, {"slip", 0.2}, {"small", 2.0}, {"large", 10.0}};
  }

  static EnvSpec Spec(const Config& config) {
    const NChainParams p = Params(config);
    EnvSpec spec;
    spec.obs.push_back(DiscreteSpec("obs", p.n));
    spec.action.discrete = true;
    spec.action.n = 2;
    spec.reward_low = std::min({0.0, p.small, p.large});
    spec.reward_high = std::max({0.0, p.small, p.large});
    return spec;
  }

  NChain(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<int64_t>(spec, "obs")), p_(Params(config)) {}

  void Reset(Rng& /*rng*/, const StepOutput& out) {
    s_ = 0;
    *out[obs_] = s_;
  }

  void Step(const void* action, Rng& rng, const StepOutput& out) {
    double reward = 0.0;
    NChainDynamics(&s_, DiscreteAction(action), p_, rng, &reward);
    *out.reward = static_cast<float>(reward);
    *out.terminated = false;
    *out[obs_] = s_;
  }

  std::vector<double> GetState() const { return {static_cast<double>(s_)}; }

  void SetState(const std::vector<double>& s) {
    if (s.size() != 1) {
      throw ValueError("NChain state must have 1 value [s], got " + std::to_string(s.size()));
    }
    s_ = static_cast<int32_t>(StateInt(s, 0, 0, p_.n - 1, "NChain state s"));
  }

 private:
  static NChainParams Params(const Config& config) {
    NChainParams p;
    const int64_t n = config.Int("n");
    if (n < 1 || n > (int64_t{1} << 30)) {
      throw ValueError("NChain n must be in [1, 2**30], got " + std::to_string(n));
    }
    p.n = static_cast<int32_t>(n);
    p.slip = config.Double("slip");
    if (!(p.slip >= 0.0 && p.slip <= 1.0)) {
      throw ValueError("NChain slip must be in [0, 1], got " + std::to_string(p.slip));
    }
    p.small = config.Double("small");
    p.large = config.Double("large");
    return p;
  }

  OutputField<int64_t> obs_;
  NChainParams p_;
  int32_t s_ = 0;
};

}  // namespace envpool_x
