// MuJoCo pools (built with ENVPOOL_X_MUJOCO): one pool class per env and
// gymnasium version, e.g. HalfCheetahV5; the model is the "xml_file" key.
#include "bindings/pool_binding.h"
#include "envs/mujoco/ant.h"
#include "envs/mujoco/half_cheetah.h"
#include "envs/mujoco/hopper.h"
#include "envs/mujoco/humanoid.h"
#include "envs/mujoco/humanoid_standup.h"
#include "envs/mujoco/inverted_double_pendulum.h"
#include "envs/mujoco/inverted_pendulum.h"
#include "envs/mujoco/pusher.h"
#include "envs/mujoco/reacher.h"
#include "envs/mujoco/swimmer.h"
#include "envs/mujoco/walker2d.h"

namespace envpool_x {

void BindMujoco(py::module_& m) {
  BindEnv<HalfCheetah<4>>(m, "HalfCheetahV4");
  BindEnv<HalfCheetah<5>>(m, "HalfCheetahV5");
  BindEnv<Hopper<4>>(m, "HopperV4");
  BindEnv<Hopper<5>>(m, "HopperV5");
  BindEnv<Ant<4>>(m, "AntV4");
  BindEnv<Ant<5>>(m, "AntV5");
  BindEnv<Humanoid<4>>(m, "HumanoidV4");
  BindEnv<Humanoid<5>>(m, "HumanoidV5");
  BindEnv<HumanoidStandup<4>>(m, "HumanoidStandupV4");
  BindEnv<HumanoidStandup<5>>(m, "HumanoidStandupV5");
  BindEnv<Walker2d<4>>(m, "Walker2dV4");
  BindEnv<Walker2d<5>>(m, "Walker2dV5");
  BindEnv<Swimmer<4>>(m, "SwimmerV4");
  BindEnv<Swimmer<5>>(m, "SwimmerV5");
  BindEnv<InvertedPendulum<4>>(m, "InvertedPendulumV4");
  BindEnv<InvertedPendulum<5>>(m, "InvertedPendulumV5");
  BindEnv<InvertedDoublePendulum<4>>(m, "InvertedDoublePendulumV4");
  BindEnv<InvertedDoublePendulum<5>>(m, "InvertedDoublePendulumV5");
  BindEnv<Reacher<4>>(m, "ReacherV4");
  BindEnv<Reacher<5>>(m, "ReacherV5");
  BindEnv<Pusher<4>>(m, "PusherV4");
  BindEnv<Pusher<5>>(m, "PusherV5");
  m.attr("mujoco_version") = mj_versionString();
  m.def("mujoco_adopt_default_timer", &mujoco_detail::AdoptDefaultTimer,
        "Treat the MuJoCo timer installed now (mjcb_time) as the mujoco package's default: "
        "drop it now and whenever it is installed again, before each MuJoCo env step.");
  m.def(
      "mujoco_timer", [] { return reinterpret_cast<uintptr_t>(mujoco_detail::TimerHook().load()); },
      "The address of MuJoCo's timer callback (mjcb_time), 0 when none is installed.");
}

}  // namespace envpool_x
