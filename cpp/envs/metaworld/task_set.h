// MetaWorldTaskSet: one pool over several Meta-World tasks (a benchmark's set:
// MT10, MT50, ML10 / ML45 train or test, or the user's own list), every env in
// the same batch and step. Env i runs task i % n of the set (Meta-World's MT
// vector envs give env k the set's k-th task), with:
// - the goal variations Meta-World's benchmark draws: np.random.seed(task_seed)
//   once, then each task's 50 in the set's order (MT10(seed).train_tasks,
//   ML10(seed).train_tasks / test_tasks, ...); task_index picks one for every
//   env, -1 draws one per reset from the env's seed stream;
// - the task's one-hot id (its place in the set) after the 39 values, as
//   Meta-World's OneHotWrapper (use_one_hot), and info["task_id"] = that place.
// Each env holds its task's env behind a pointer: Reset and Step cost one
// indirect call more than a single task's pool; the task itself is stepped by
// the same code.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "core/spec.h"
#include "envs/metaworld/task_registry.h"

namespace envpool_x {

class MetaWorldTaskSet {
 public:
  static constexpr const char* kName = "MetaWorldTaskSet";
  static constexpr bool kCheap = false;

  static Config DefaultConfig() {
    return mujoco_detail::WithModelParamKeys(Config{{"tasks", std::vector<std::string>{}},
                                                    {"xml_files", std::vector<std::string>{}},
                                                    {"task_seed", int64_t{0}},
                                                    {"task_index", int64_t{-1}},
                                                    {"partially_observable", false},
                                                    {"use_one_hot", true}},
                                             ParamSpecs());
  }

  // Every task's parameters (the same for all), passed on to the env's task.
  static std::vector<ParamSpec> ParamSpecs() { return metaworld::ParamSpecs(); }
  void SetParams(const double* values) { env_->SetParams(values); }
  // The largest of the set's tasks' scaled arrays.
  static size_t ParamCopyBytes(const Config& config) {
    size_t most = 0;
    for (const std::string& xml : config.Strings("xml_files")) {
      most = std::max(most, mujoco_detail::OwnModelCopyBytes(mujoco_detail::LoadModel(xml).get()));
    }
    return most;
  }

  // The tasks' spec with the widest goal bounds, and the one-hot id after it.
  static EnvSpec Spec(const Config& config) {
    const std::vector<std::string> tasks = CheckedTasks(config);
    EnvSpec spec;
    for (size_t k = 0; k < tasks.size(); ++k) {
      const metaworld::TaskMaker& maker = metaworld::FindTask(tasks[k]);
      EnvSpec one = metaworld::SawyerSpec(maker.layout(), TaskConfig(config, k));
      if (k == 0) {
        spec = std::move(one);
        continue;
      }
      ArraySpec& obs = spec.obs[0];
      for (size_t j = 0; j < obs.low.size(); ++j) {
        obs.low[j] = std::min(obs.low[j], one.obs[0].low[j]);
        obs.high[j] = std::max(obs.high[j], one.obs[0].high[j]);
      }
    }
    if (config.Bool("use_one_hot")) {
      ArraySpec& obs = spec.obs[0];
      obs.shape[0] += static_cast<int64_t>(tasks.size());
      obs.low.insert(obs.low.end(), tasks.size(), 0.0);
      obs.high.insert(obs.high.end(), tasks.size(), 1.0);
    }
    return spec;
  }

  // The env is made in SetEnvId, once the pool says which task it runs.
  MetaWorldTaskSet(const Config& config, const EnvSpec& spec)
      : config_(config), spec_(spec), one_hot_(config.Bool("use_one_hot")) {}

  void SetEnvId(int env_id) {
    const std::vector<std::string> tasks = CheckedTasks(config_);
    const size_t n = tasks.size();
    task_ = static_cast<int>(static_cast<size_t>(env_id) % n);
    num_tasks_ = static_cast<int>(n);
    // The set's variations: one generator through the tasks before this one.
    metaworld::NumpyLegacyRandom random(static_cast<uint32_t>(config_.Int("task_seed")));
    metaworld::Variations variations;
    for (int k = 0; k <= task_; ++k) {
      variations = metaworld::DrawTaskVariations(metaworld::FindTask(tasks[k]).layout(), random);
    }
    const metaworld::TaskMaker& maker = metaworld::FindTask(tasks[task_]);
    env_ = maker.make(TaskConfig(config_, task_), spec_);
    env_->UseVariations(std::move(variations));
    env_->ReportTaskIdAs(task_);
    obs_ = ObsField<double>(spec_, "obs");
    spec_ = EnvSpec();  // only needed to make the env
  }

  void Reset(Rng& rng, const StepOutput& out) {
    env_->Reset(rng, out);
    WriteOneHot(out);
  }
  void Step(const void* action, Rng& rng, const StepOutput& out) {
    env_->Step(action, rng, out);
    WriteOneHot(out);
  }

  std::vector<double> GetState() const { return env_->GetState(); }
  void SetState(const std::vector<double>& s) { env_->SetState(s); }
  std::array<int, 2> RenderSize() const { return env_->RenderSize(); }
  void Render(uint8_t* rgb) { env_->Render(rgb); }

 private:
  static std::vector<std::string> CheckedTasks(const Config& config) {
    const std::vector<std::string>& tasks = config.Strings("tasks");
    if (tasks.empty()) throw ValueError("tasks must name at least one Meta-World task");
    const std::set<std::string> unique(tasks.begin(), tasks.end());
    if (unique.size() != tasks.size()) {
      throw ValueError("tasks must not name a task twice (each task is one place of the set)");
    }
    if (config.Strings("xml_files").size() != tasks.size()) {
      throw ValueError("xml_files must hold one model per task (filled by Python)");
    }
    return tasks;
  }

  // The config of the set's k-th task.
  static Config TaskConfig(const Config& config, size_t k) {
    const metaworld::TaskMaker& maker = metaworld::FindTask(config.Strings("tasks")[k]);
    Config task = maker.default_config();
    task.Set("xml_file", config.Strings("xml_files")[k]);
    task.Set("task_seed", config.Int("task_seed"));
    task.Set("task_index", config.Int("task_index"));
    task.Set("partially_observable", config.Bool("partially_observable"));
    for (const ParamSpec& p : ParamSpecs()) task.Set(p.name, config.Double(p.name));
    return task;
  }

  void WriteOneHot(const StepOutput& out) const {
    if (!one_hot_) return;
    double* one_hot = out[obs_] + metaworld::kObsSize;
    std::fill(one_hot, one_hot + num_tasks_, 0.0);
    one_hot[task_] = 1.0;
  }

  Config config_;
  EnvSpec spec_;
  bool one_hot_;
  int task_ = 0;
  int num_tasks_ = 1;
  OutputField<double> obs_;
  std::unique_ptr<metaworld::SawyerEnv> env_;
};

}  // namespace envpool_x
