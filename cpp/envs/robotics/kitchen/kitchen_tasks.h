// The seven Franka Kitchen tasks (gymnasium-robotics 1.4.2's
// franka_kitchen/kitchen_env.py): which qpos entries each one watches and
// the values that complete it. A task is complete when the Euclidean
// distance of those entries to its goal is under kKitchenTaskThreshold.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace envpool_x {
namespace robotics {

struct KitchenTask {
  const char* name;  // gymnasium-robotics' key (also our field suffix)
  int first_qpos;    // the watched entries are qpos[first_qpos, first_qpos + size)
  std::vector<double> goal;
};

// In gymnasium-robotics' order (its default tasks_to_complete); a task's
// index here is its bit in the info masks.
inline const std::array<KitchenTask, 7>& KitchenTasks() {
  static const std::array<KitchenTask, 7> tasks = {{
      {"bottom burner", 11, {-0.88, -0.01}},
      {"top burner", 15, {-0.92, -0.01}},
      {"light switch", 17, {-0.69, -0.05}},
      {"slide cabinet", 19, {0.37}},
      {"hinge cabinet", 20, {0.0, 1.45}},
      {"microwave", 22, {-0.75}},
      {"kettle", 23, {-0.23, 0.75, 1.62, 0.99, 0.0, 0.0, -0.06}},
  }};
  return tasks;
}

constexpr double kKitchenTaskThreshold = 0.3;  // BONUS_THRESH

// The index of task `name`, or -1.
inline int KitchenTaskIndex(const std::string& name) {
  const auto& tasks = KitchenTasks();
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (name == tasks[i].name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace robotics
}  // namespace envpool_x
