// What a Meta-World task declares (its constants from metaworld 3.1.1's task
// constructor), its goal variations and the spec every task shares.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/spec.h"
#include "envs/metaworld/numpy_random.h"
#include "envs/mujoco/model_params.h"
#include "envs/mujoco/mujoco_env.h"

namespace envpool_x {
namespace metaworld {

using Vec3 = std::array<double, 3>;

constexpr int kNumVariations = 50;  // Meta-World's _N_GOALS
constexpr int kMaxRandVec = 6;      // the longest _random_reset_space
constexpr int kFrameSkip = 5;
constexpr int kCurrentObs = 18;  // hand 3, gripper 1, objects 14
constexpr int kObsSize = 2 * kCurrentObs + 3;
constexpr double kActionScale = 1.0 / 100;

// Meta-World's _HAND_SPACE: the bounds of the observed hand position.
constexpr Vec3 kHandSpaceLow{-0.525, 0.348, -0.0525};
constexpr Vec3 kHandSpaceHigh{0.525, 1.025, 0.7};

// What a task fixes in its constructor.
struct TaskLayout {
  const char* name;  // Meta-World's, e.g. "reach-v3"
  int task_id;       // its place in EnvPool's list of the 50 tasks
  Vec3 mocap_low, mocap_high;
  Vec3 hand_init;
  std::vector<double> reset_low, reset_high;  // _random_reset_space
  Vec3 goal_low, goal_high;                   // goal_space
  // Reach, Push, PickPlace redraw rand_vec while its object and goal are
  // closer than 0.15 in x-y.
  bool redraw_close_goal = false;
  // A task's own redraw rule (reset_model's while loop), or null.
  bool (*redraw)(const double* rand_vec) = nullptr;
};

// The info keys of evaluate_state.
struct StepInfo {
  double success = 0, near_object = 0, grasp_success = 0, grasp_reward = 0, in_place_reward = 0,
         obj_to_target = 0, unscaled_reward = 0;
};

inline double Norm3(const double* a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }
inline double Dist3(const double* a, const double* b) {
  const double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return Norm3(d);
}

using Variations = std::vector<std::array<double, kMaxRandVec>>;

// A task's 50 rand_vecs drawn from `random` as Meta-World's _make_tasks draws
// them: for each one env.reset(), which draws in reset_model twice
// (SawyerXYZEnv.reset and MujocoEnv.reset both call it); the second draw is
// the variation. A benchmark of several tasks (MT10, ML10, ...) seeds once
// and draws its tasks' variations one task after the other, in its order.
inline Variations DrawTaskVariations(const TaskLayout& layout, NumpyLegacyRandom& random) {
  const int n = static_cast<int>(layout.reset_low.size());
  auto draw = [&](double* v) {
    while (true) {
      random.Uniform(layout.reset_low.data(), layout.reset_high.data(), n, v);
      if (layout.redraw != nullptr && layout.redraw(v)) continue;
      if (!layout.redraw_close_goal) return;
      const double dx = v[0] - v[3], dy = v[1] - v[4];
      if (!(std::sqrt(dx * dx + dy * dy) < 0.15)) return;
    }
  };
  Variations variations(kNumVariations);
  for (auto& v : variations) {
    v.fill(0.0);
    draw(v.data());
    draw(v.data());
  }
  return variations;
}

// MT1(task, seed)'s 50 rand_vecs: np.random.seed(seed), then the task's draws.
inline Variations DrawVariations(const TaskLayout& layout, uint32_t seed) {
  NumpyLegacyRandom random(seed);
  return DrawTaskVariations(layout, random);
}

// The per-env parameters of every task (docs/params.md): model_params.h's
// scales, the timestep's too, mid-episode as well (each step starts with
// mj_step, which reads the model afresh; no reward reads the timestep).
inline std::vector<ParamSpec> ParamSpecs() {
  return mujoco_detail::ModelParamSpecs(/*timestep=*/true, /*mid_episode=*/true);
}

// Config keys every task has (task_name is the id's own; xml_file is filled
// by Python from the installed metaworld package), the parameters' at 1.
inline Config BaseConfig(const char* task_name) {
  return mujoco_detail::WithModelParamKeys(Config{{"xml_file", std::string()},
                                                  {"task_name", std::string(task_name)},
                                                  {"task_seed", int64_t{0}},
                                                  {"task_index", int64_t{-1}},
                                                  {"partially_observable", true}},
                                           ParamSpecs());
}

// The observation and info fields and the action (Box(-1, 1, (4,)), float32).
inline EnvSpec SawyerSpec(const TaskLayout& layout, const Config& config) {
  if (config.String("task_name") != layout.name) {
    throw ValueError(std::string("task_name must be '") + layout.name + "' for this id, got '" +
                     config.String("task_name") + "'");
  }
  const int64_t index = config.Int("task_index");
  if (index < -1 || index >= kNumVariations) {
    throw ValueError("task_index must be -1 (one variation per reset) or in [0, 49], got " +
                     std::to_string(index));
  }
  const int64_t seed = config.Int("task_seed");
  if (seed < 0 || seed > 0xffffffffLL) {
    throw ValueError("task_seed must be in [0, 2**32 - 1], got " + std::to_string(seed));
  }
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> low, high;
  for (int frame = 0; frame < 2; ++frame) {
    low.insert(low.end(), kHandSpaceLow.begin(), kHandSpaceLow.end());
    high.insert(high.end(), kHandSpaceHigh.begin(), kHandSpaceHigh.end());
    low.push_back(-1.0);
    high.push_back(1.0);
    low.insert(low.end(), 14, -inf);
    high.insert(high.end(), 14, inf);
  }
  const bool hidden = config.Bool("partially_observable");
  for (int k = 0; k < 3; ++k) {
    low.push_back(hidden ? 0.0 : layout.goal_low[k]);
    high.push_back(hidden ? 0.0 : layout.goal_high[k]);
  }
  EnvSpec spec;
  spec.obs.push_back(ArraySpec{"obs", DType::kFloat64, {kObsSize}, low, high});
  for (const char* name : {"success", "near_object", "grasp_success", "grasp_reward",
                           "in_place_reward", "obj_to_target", "unscaled_reward"}) {
    spec.info.push_back(mujoco_detail::ScalarF64(name));
  }
  spec.info.push_back(ArraySpec{"task_id", DType::kInt32, {}, {}, {}});
  spec.info.push_back(ArraySpec{"task_index", DType::kInt32, {}, {}, {}});
  spec.action.discrete = false;
  spec.action.box = ArraySpec{"action", DType::kFloat32, {4}, {-1, -1, -1, -1}, {1, 1, 1, 1}};
  spec.reward_low = 0.0;
  spec.reward_high = 10.0;
  return spec;
}

}  // namespace metaworld
}  // namespace envpool_x
