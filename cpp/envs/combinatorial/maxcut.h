// MaxCut-v0: each env holds a 0/1 assignment of a registered graph's nodes
// (graph_registry.h); an action flips one node; the reward is the change of
// the cut. Observation: the assignment, every node's gain (the cut's change
// if it flipped) and the fraction of the episode gone; info: the cut and the
// best cut of the episode. The dynamics are maxcut_dynamics.h's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "envs/combinatorial/graph_registry.h"
#include "envs/combinatorial/maxcut_dynamics.h"

namespace envpool_x {

class MaxCut {
 public:
  static constexpr const char* kName = "MaxCut";
  static constexpr bool kCheap = true;

  // graph: what the user asked for (Python turns it into graph_keys, the
  // registry keys: one for the whole pool, or one per env); init: "random"
  // or "zeros".
  static Config DefaultConfig() {
    return Config{{"graph", std::string("")},
                  {"graph_keys", std::vector<std::string>{}},
                  {"init", std::string("random")}};
  }

  static EnvSpec Spec(const Config& config) {
    const std::vector<std::string>& keys = config.Strings("graph_keys");
    if (keys.empty()) {
      throw ValueError("MaxCut needs a graph: make it through envpool_x with graph=...");
    }
    const std::string& init = config.String("init");
    if (init != "random" && init != "zeros") {
      throw ValueError("MaxCut init must be 'random' or 'zeros', got '" + init + "'");
    }
    auto& registry = combinatorial::GraphRegistry::Get();
    const int64_t n = registry.Load(keys[0])->n;
    // Bounds of the cut: the sums of the negative and the positive weights.
    double low = 0.0;
    double high = 0.0;
    for (size_t i = 0; i < keys.size(); ++i) {
      std::shared_ptr<const combinatorial::Graph> g = registry.Load(keys[i]);
      low = std::min(low, static_cast<double>(g->negative_sum));
      high = std::max(high, static_cast<double>(g->positive_sum));
      const int64_t ni = g->n;
      if (ni != n) {
        throw ValueError("MaxCut graphs of one pool need the same node count: graph 0 has " +
                         std::to_string(n) + " nodes, graph " + std::to_string(i) + " has " +
                         std::to_string(ni));
      }
    }
    EnvSpec spec;
    ArraySpec assignment{"assignment", DType::kInt8, {n}, {0.0}, {1.0}};
    assignment.discrete = true;
    spec.obs.push_back(assignment);
    spec.obs.push_back(ArraySpec{"gain", DType::kFloat32, {n}, {}, {}});
    spec.obs.push_back(ArraySpec{"progress", DType::kFloat32, {}, {0.0}, {1.0}});
    spec.info.push_back(ArraySpec{"cut", DType::kInt64, {}, {low}, {high}});
    spec.info.push_back(ArraySpec{"best_cut", DType::kInt64, {}, {low}, {high}});
    spec.action.discrete = true;
    spec.action.n = n;
    return spec;
  }

  MaxCut(const Config& config, const EnvSpec& spec)
      : assignment_(ObsField<int8_t>(spec, "assignment")),
        gain_obs_(ObsField<float>(spec, "gain")),
        progress_(ObsField<float>(spec, "progress")),
        cut_info_(InfoField<int64_t>(spec, "cut")),
        best_info_(InfoField<int64_t>(spec, "best_cut")),
        keys_(&config.Strings("graph_keys")),
        zeros_(config.String("init") == "zeros") {
    UseGraph(combinatorial::GraphRegistry::Get().Load(keys_->front()));
  }

  // Env i of a pool with one graph per env takes graph i. Called while the
  // pool is built, when the config (keys_) is still alive.
  void SetEnvId(int env_id) {
    if (keys_ != nullptr && keys_->size() > 1) {
      if (static_cast<size_t>(env_id) >= keys_->size()) {
        throw ValueError("MaxCut: " + std::to_string(keys_->size()) +
                         " graphs for a pool with more envs (env " + std::to_string(env_id) +
                         " has none)");
      }
      UseGraph(combinatorial::GraphRegistry::Get().Load((*keys_)[env_id]));
    }
    keys_ = nullptr;
  }
  void SetMaxEpisodeSteps(int steps) { max_steps_ = steps; }

  // ep_ points into this env's own arrays: a copy would share them.
  MaxCut(const MaxCut&) = delete;
  MaxCut& operator=(const MaxCut&) = delete;
  MaxCut(MaxCut&&) = default;

  void Reset(Rng& rng, const StepOutput& out) {
    MaxCutReset(view_, rng, zeros_, ep_);
    Write(out);
  }

  void Step(const void* action, Rng& /*rng*/, const StepOutput& out) {
    const int64_t delta = MaxCutStep(view_, DiscreteAction(action), ep_);
    *out.reward = static_cast<float>(delta);
    *out.terminated = false;
    Write(out);
  }

  // The assignment, one 0/1 value per node.
  std::vector<double> GetState() const { return std::vector<double>(x_.begin(), x_.end()); }

  // Sets the assignment (n values, each 0 or 1) and recomputes cut and gains;
  // the episode's best cut becomes the new cut if larger.
  void SetState(const std::vector<double>& s) {
    if (s.size() != x_.size()) {
      throw ValueError("MaxCut state must have " + std::to_string(x_.size()) +
                       " values (one 0/1 per node), got " + std::to_string(s.size()));
    }
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] != 0.0 && s[i] != 1.0) {
        throw ValueError("MaxCut state value " + std::to_string(i) + " must be 0 or 1");
      }
    }
    for (size_t i = 0; i < s.size(); ++i) x_[i] = static_cast<int8_t>(s[i]);
    ep_.cut = MaxCutInit(view_, x_.data(), gain_.data(), gain_f32_.data());
    ep_.best = std::max(ep_.best, ep_.cut);
  }

 private:
  void UseGraph(std::shared_ptr<const combinatorial::Graph> g) {
    graph_ = std::move(g);
    view_ = MaxCutGraphView{graph_->n, graph_->offset.data(), graph_->nbr.data(),
                            graph_->weight.data()};
    x_.assign(graph_->n, 0);
    gain_.assign(graph_->n, 0);
    gain_f32_.assign(graph_->n, 0.0f);
    // The episode points into the vectors above (moving the env keeps them).
    ep_ = MaxCutEpisode{x_.data(), gain_.data(), gain_f32_.data(), 0, 0, 0};
  }

  void Write(const StepOutput& out) const {
    MaxCutWrite(view_.n, ep_, max_steps_,
                MaxCutRow{out[assignment_], out[gain_obs_], out[progress_], out[cut_info_],
                          out[best_info_]});
  }

  OutputField<int8_t> assignment_;
  OutputField<float> gain_obs_;
  OutputField<float> progress_;
  OutputField<int64_t> cut_info_;
  OutputField<int64_t> best_info_;
  const std::vector<std::string>* keys_;  // only while the pool is built
  bool zeros_;
  std::shared_ptr<const combinatorial::Graph> graph_;
  MaxCutGraphView view_{};
  std::vector<int8_t> x_;
  std::vector<int64_t> gain_;
  std::vector<float> gain_f32_;
  MaxCutEpisode ep_{};
  int32_t max_steps_ = 0;
};

}  // namespace envpool_x
