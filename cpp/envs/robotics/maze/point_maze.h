// PointMaze (gymnasium-robotics 1.4.2's point_maze.py on point.py): a
// force-actuated ball in a maze of 1-unit cells, walls 0.4 high.
//
// - step: the action clipped to [-1, 1]; qvel clipped to [-5, 5] and set
//   back with gymnasium's set_state (mj_forward); one mj_step.
// - observation (4): qpos (x, y) and qvel; the achieved goal is qpos.
#pragma once

#include <algorithm>

#include "envs/robotics/maze/maze_env.h"

namespace envpool_x {

class PointMaze : public robotics::MazeEnv {
 public:
  static constexpr const char* kName = "PointMaze";
  static constexpr double kMaxSpeed = 5.0;

  static Config DefaultConfig() {
    return robotics::MazeConfig("11111/10001/11101/10001/11111", 1.0, 0.4);
  }
  static EnvSpec Spec(const Config& config) { return robotics::MazeSpec(config, 4, 2); }

  PointMaze(const Config& config, const EnvSpec& spec) : MazeEnv(config, spec, 1) {}

  void Reset(Rng& rng, const StepOutput& out) {
    ResetMaze(rng);
    WriteObservation(out, false, rng);
  }

  void Step(const void* action, Rng& rng, const StepOutput& out) {
    mujoco_detail::DropDefaultTimer();
    const float* a = BoxAction(action);
    const float clipped[2] = {std::clamp(a[0], -1.0f, 1.0f), std::clamp(a[1], -1.0f, 1.0f)};
    for (int i = 0; i < model_->nv; ++i) {
      data_->qvel[i] = std::clamp(data_->qvel[i], -kMaxSpeed, kMaxSpeed);
    }
    mj_forward(model_.get(), data_.get());
    Simulate(clipped);
    WriteObservation(out, true, rng);
  }

 private:
  void WriteObservation(const StepOutput& out, bool stepped, Rng& rng) {
    double* o = ObservationOut(out);
    std::copy(data_->qpos, data_->qpos + 2, o);
    std::copy(data_->qvel, data_->qvel + 2, o + 2);
    FinishStep(out, data_->qpos, stepped, rng);
  }
};

}  // namespace envpool_x
