// The Meta-World tasks of this build by Meta-World's name ("reach-v3"), so
// that a benchmark's task set (task_set.h) makes its tasks from their names:
// each task pool bound in bindings/metaworld.cpp registers itself here, so a
// task added later joins the sets with no change beyond its binding line.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "core/errors.h"
#include "core/spec.h"
#include "envs/metaworld/sawyer_env.h"
#include "envs/metaworld/task_layout.h"

namespace envpool_x {
namespace metaworld {

struct TaskMaker {
  const TaskLayout& (*layout)();
  Config (*default_config)();
  std::unique_ptr<SawyerEnv> (*make)(const Config&, const EnvSpec&);
};

// Filled while the module is imported (one thread), read-only afterwards.
inline std::map<std::string, TaskMaker>& TaskMakers() {
  static std::map<std::string, TaskMaker> makers;
  return makers;
}

template <typename Task>
void RegisterTask() {
  TaskMakers()[Task::Layout().name] =
      TaskMaker{&Task::Layout, &Task::DefaultConfig,
                [](const Config& config, const EnvSpec& spec) -> std::unique_ptr<SawyerEnv> {
                  return std::make_unique<Task>(config, spec);
                }};
}

// The maker of a task by Meta-World's name, or a ValueError naming the ones built.
inline const TaskMaker& FindTask(const std::string& name) {
  const auto& makers = TaskMakers();
  auto it = makers.find(name);
  if (it != makers.end()) return it->second;
  std::string known;
  for (const auto& [task, maker] : makers) known += (known.empty() ? "" : ", ") + task;
  throw ValueError("Meta-World task '" + name + "' is not in this build (built: " + known + ")");
}

}  // namespace metaworld
}  // namespace envpool_x
