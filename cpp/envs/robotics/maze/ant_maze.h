// AntMaze-v3, -v4 and -v5 (gymnasium-robotics 1.4.2's ant_maze_v3.py /
// _v4.py / _v5.py): gymnasium's Ant (ant_v4; ant_v5 for -v5; its own
// ant.xml) in a maze of 4-unit cells, walls 2 high, reset without noise at
// the start drawn; -v3 on maze.py's rules (maze_env.h).
//
// - step: ctrl = the action (MuJoCo clamps it to the ctrlrange), 5
//   mj_steps, mj_rnePostConstraint; the Ant's own reward and termination
//   are not the task's.
// - observation: the Ant's qpos and qvel after x-y (27; the achieved goal
//   is x-y); v5 adds cfrc_ext of the bodies after the world, each clipped
//   to [-1, 1] (78: 105 in all), as Ant-v5's default observation.
#pragma once

#include <algorithm>

#include "envs/robotics/maze/maze_env.h"

namespace envpool_x {

template <int V>
class AntMaze : public robotics::MazeEnv {
  static_assert(V == 3 || V == 4 || V == 5);
  static constexpr int kFrameSkip = 5;
  static constexpr int kAntQpos = 15, kAntQvel = 14, kAntBodies = 14;

 public:
  static constexpr const char* kName = V == 3 ? "AntMazeV3" : (V == 4 ? "AntMazeV4" : "AntMazeV5");
  static constexpr int kObsSize = kAntQpos + kAntQvel - 2 + (V == 5 ? 6 * (kAntBodies - 1) : 0);

  static Config DefaultConfig() {
    return robotics::MazeConfig("11111/10001/11101/10001/11111", 4.0, 0.5);
  }
  static EnvSpec Spec(const Config& config) { return robotics::MazeSpec(config, kObsSize, 8); }

  AntMaze(const Config& config, const EnvSpec& spec)
      : MazeEnv(config, spec, kFrameSkip, /*v3_rules=*/V == 3) {
    if (model_->nq != kAntQpos || model_->nv != kAntQvel || model_->nbody != kAntBodies ||
        model_->nu != 8) {
      throw ValueError("AntMaze needs gymnasium's ant.xml (15 qpos, 14 qvel, 14 bodies, 8 motors)");
    }
  }

  void Reset(Rng& rng, const StepOutput& out) {
    ResetMaze(rng);
    WriteObservation(out, false, rng);
  }

  void Step(const void* action, Rng& rng, const StepOutput& out) {
    mujoco_detail::DropDefaultTimer();
    Simulate(BoxAction(action));
    WriteObservation(out, true, rng);
  }

 private:
  void WriteObservation(const StepOutput& out, bool stepped, Rng& rng) {
    double* o = ObservationOut(out);
    o = std::copy(data_->qpos + 2, data_->qpos + kAntQpos, o);
    o = std::copy(data_->qvel, data_->qvel + kAntQvel, o);
    if (V == 5) {
      for (int i = 6; i < 6 * kAntBodies; ++i) *o++ = std::clamp(data_->cfrc_ext[i], -1.0, 1.0);
    }
    FinishStep(out, data_->qpos, stepped, rng);
  }
};

using AntMazeV3 = AntMaze<3>;
using AntMazeV4 = AntMaze<4>;
using AntMazeV5 = AntMaze<5>;

}  // namespace envpool_x
