// What PointMaze and AntMaze share (gymnasium-robotics 1.4.2's maze_v4.py
// MazeEnv and Maze): the maze's cells, the goal and start draws, the
// reward, termination, success and the goal's update in continuing tasks.
// The model (the robot's XML with the walls added as boxes and a `target`
// site) is written by Python (families/robotics_maze.py) and read here.
//
// - maze_map: the rows joined by '/', a cell each: '1' wall, '0' free,
//   'r' start, 'g' goal, 'c' either. Without 'r' / 'g' / 'c' cells every
//   free cell can be either; without start ('r' / 'c') cells every free cell
//   can be a start, without goal cells every free cell a goal; 'c' cells
//   count as both.
// - a cell (i, j) is at x = (j + 0.5) s - width s / 2,
//   y = height s / 2 - (i + 0.5) s (s: maze_size_scaling).
// - reset: a goal cell, uniform; plus uniform(+-noise) * s on x then y; a
//   start cell redrawn while within 0.5 s of the goal; plus the same noise.
// - success (and the sparse reward 1.0): the goal within 0.45; dense reward
//   exp(-distance); terminated on success only if not continuing_task; with
//   continuing_task and reset_target a reached goal is redrawn (after the
//   step's outputs) until 0.45 or more away, if there are two goal cells.
// - AntMaze-v3's rules (maze.py, before gymnasium-robotics' v4 fixes): the
//   start is redrawn while within 0.5 of the goal (not 0.5 s); in a
//   continuing task a reached goal is drawn again once (reset_target or
//   not, if there are two goal cells) before the reward, which is then the
//   new goal's; the observation still shows the old goal.
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "envs/robotics/robot_env.h"

namespace envpool_x {
namespace robotics {

constexpr double kMazeGoalRadius = 0.45;

using MazePoint = std::array<double, 2>;

// The decoded maze_map: the cells goals and starts are drawn from.
struct MazeCells {
  std::vector<MazePoint> goals, starts;
  int rows = 0, cols = 0;
};

inline MazeCells ParseMaze(const std::string& map, double scaling) {
  std::vector<std::string> rows;
  size_t begin = 0;
  while (begin <= map.size()) {
    const size_t end = std::min(map.find('/', begin), map.size());
    rows.push_back(map.substr(begin, end - begin));
    begin = end + 1;
  }
  MazeCells cells;
  cells.rows = static_cast<int>(rows.size());
  cells.cols = static_cast<int>(rows[0].size());
  const double x_center = cells.cols / 2.0 * scaling;
  const double y_center = cells.rows / 2.0 * scaling;
  std::vector<MazePoint> goals, starts, both, free;
  for (int i = 0; i < cells.rows; ++i) {
    if (static_cast<int>(rows[i].size()) != cells.cols) {
      throw ValueError("maze_map rows must have the same length: '" + map + "'");
    }
    for (int j = 0; j < cells.cols; ++j) {
      const MazePoint xy{(j + 0.5) * scaling - x_center, y_center - (i + 0.5) * scaling};
      switch (rows[i][j]) {
        case '1':
          break;
        case '0':
          free.push_back(xy);
          break;
        case 'r':
          starts.push_back(xy);
          break;
        case 'g':
          goals.push_back(xy);
          break;
        case 'c':
          both.push_back(xy);
          break;
        default:
          throw ValueError(std::string("maze_map cell '") + rows[i][j] +
                           "': use 1 (wall), 0 (free), r (start), g (goal), c (both)");
      }
    }
  }
  if (goals.empty() && starts.empty() && both.empty()) {
    both = free;
  } else if (starts.empty() && both.empty()) {
    starts = free;
  } else if (goals.empty() && both.empty()) {
    goals = free;
  }
  goals.insert(goals.end(), both.begin(), both.end());
  starts.insert(starts.end(), both.begin(), both.end());
  if (goals.empty() || starts.empty()) throw ValueError("maze_map has no free cell: '" + map + "'");
  cells.goals = std::move(goals);
  cells.starts = std::move(starts);
  return cells;
}

inline Config MazeConfig(const char* map, double scaling, double height) {
  return Config{{"xml_file", std::string()},    {"reward_type", std::string("sparse")},
                {"maze_map", std::string(map)}, {"maze_size_scaling", scaling},
                {"maze_height", height},        {"position_noise_range", 0.25},
                {"continuing_task", true},      {"reset_target", false}};
}

// The goal fields, info["success"] (gymnasium-robotics' bool) beside
// is_success (float32, what SB3's HER logs), and the robot's action box.
inline EnvSpec MazeSpec(const Config& config, int64_t obs_size, int64_t action_size) {
  IsSparse(config);
  ParseMaze(config.String("maze_map"), config.Double("maze_size_scaling"));
  EnvSpec spec;
  AddGoalFields(spec, obs_size, 2);
  spec.info.push_back(ArraySpec{"success", DType::kBool, {}, {}, {}});
  spec.action.discrete = false;
  spec.action.box = ArraySpec{"action",
                              DType::kFloat32,
                              {action_size},
                              std::vector<double>(action_size, -1.0),
                              std::vector<double>(action_size, 1.0)};
  spec.reward_low = 0.0;
  spec.reward_high = 1.0;
  return spec;
}

class MazeEnv : public RobotEnv {
 public:
  MazeEnv(const Config& config, const EnvSpec& spec, int frame_skip, bool v3_rules = false)
      : RobotEnv(config, spec, frame_skip, 2),
        v3_rules_(v3_rules),
        cells_(ParseMaze(config.String("maze_map"), config.Double("maze_size_scaling"))),
        scaling_(config.Double("maze_size_scaling")),
        noise_(config.Double("position_noise_range")),
        sparse_(IsSparse(config)),
        continuing_(config.Bool("continuing_task")),
        reset_target_(config.Bool("reset_target")),
        success_(InfoField<bool>(spec, "success")) {
    init_qpos_.assign(data_->qpos, data_->qpos + model_->nq);
    init_qvel_.assign(data_->qvel, data_->qvel + model_->nv);
  }

 protected:
  // MazeEnv.reset's draws, then the robot's reset at the start drawn:
  // mj_resetData, qpos = init_qpos with x-y at the start, mj_forward.
  void ResetMaze(Rng& rng) {
    mujoco_detail::DropDefaultTimer();
    DrawGoal(rng);
    MazePoint start = {goal_[0], goal_[1]};
    const double away = v3_rules_ ? 0.5 : 0.5 * scaling_;
    while (Distance(start.data(), goal_.data()) <= away) {
      start = cells_.starts[rng.UniformInt(cells_.starts.size())];
    }
    AddNoise(rng, start.data());
    mj_resetData(model_.get(), data_.get());
    std::copy(init_qpos_.begin(), init_qpos_.end(), data_->qpos);
    data_->qpos[0] = start[0];
    data_->qpos[1] = start[1];
    // The Ant's reset adds zero noise: -0.0 becomes 0.0, as numpy's sum.
    for (int i = 0; i < model_->nq; ++i) data_->qpos[i] += 0.0;
    std::copy(init_qvel_.begin(), init_qvel_.end(), data_->qvel);
    for (int i = 0; i < model_->nv; ++i) data_->qvel[i] += 0.0;
    mj_forward(model_.get(), data_.get());
  }

  // gymnasium's do_simulation: ctrl, frame_skip mj_steps, then
  // mj_rnePostConstraint (cfrc_ext for the Ant's observation).
  void Simulate(const float* ctrl) {
    for (int i = 0; i < model_->nu; ++i) data_->ctrl[i] = ctrl[i];
    RobotEnv::Simulate();
    mj_rnePostConstraint(model_.get(), data_.get());
  }

  // The goal outputs, success, and (after a step) reward and termination;
  // then the goal's update of a continuing task.
  void FinishStep(const StepOutput& out, const double* achieved, bool stepped, Rng& rng) {
    const double distance = WriteGoals(out, achieved);
    const bool reached = distance <= kMazeGoalRadius;
    WriteSuccess(out, reached);
    *out[success_] = reached;
    if (!stepped) return;
    *out.terminated = !continuing_ && reached;
    if (v3_rules_) {
      if (continuing_ && reached && cells_.goals.size() > 1) DrawGoal(rng);
      const double now = GoalDistance(achieved, goal_.data(), 2);
      *out.reward =
          sparse_ ? (now <= kMazeGoalRadius ? 1.0f : 0.0f) : static_cast<float>(std::exp(-now));
      return;
    }
    *out.reward = sparse_ ? (reached ? 1.0f : 0.0f) : static_cast<float>(std::exp(-distance));
    if (continuing_ && reset_target_ && reached && cells_.goals.size() > 1) {
      while (Distance(achieved, goal_.data()) <= kMazeGoalRadius) DrawGoal(rng);
    }
  }

 private:
  void DrawGoal(Rng& rng) {
    const MazePoint& cell = cells_.goals[rng.UniformInt(cells_.goals.size())];
    goal_[0] = cell[0];
    goal_[1] = cell[1];
    AddNoise(rng, goal_.data());
  }

  void AddNoise(Rng& rng, double* xy) const {
    const double dx = rng.Uniform(-noise_, noise_) * scaling_;
    const double dy = rng.Uniform(-noise_, noise_) * scaling_;
    xy[0] += dx;
    xy[1] += dy;
  }

  static double Distance(const double* a, const double* b) {
    const double dx = a[0] - b[0], dy = a[1] - b[1];
    return std::sqrt(dx * dx + dy * dy);
  }

  bool v3_rules_;
  MazeCells cells_;
  double scaling_, noise_;
  bool sparse_, continuing_, reset_target_;
  OutputField<bool> success_;
  std::vector<double> init_qpos_, init_qvel_;
};

}  // namespace robotics
}  // namespace envpool_x
