// MuJoCo pools (built with ENVPOOL_X_MUJOCO): one pool class per env and
// gymnasium version, e.g. HalfCheetahV5, and EnvPool's -v2 / -v3 ids (e.g.
// HalfCheetahV3); the model is the "xml_file" key.
#include "bindings/pool_binding.h"
#include "envs/mujoco/ant.h"
#include "envs/mujoco/half_cheetah.h"
#include "envs/mujoco/hopper.h"
#include "envs/mujoco/humanoid.h"
#include "envs/mujoco/humanoid_standup.h"
#include "envs/mujoco/initial_state_info.h"
#include "envs/mujoco/inverted_double_pendulum.h"
#include "envs/mujoco/inverted_pendulum.h"
#include "envs/mujoco/legacy_ids.h"
#include "envs/mujoco/pixel_observation.h"
#include "envs/mujoco/pusher.h"
#include "envs/mujoco/reacher.h"
#include "envs/mujoco/render_camera.h"
#include "envs/mujoco/swimmer.h"
#include "envs/mujoco/walker2d.h"

namespace envpool_x {

void BindMujoco(py::module_& m) {
  BindEnv<WithPixels<WithInitialState<HalfCheetah<4>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<HalfCheetah<5>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<Hopper<4>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<Hopper<5>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<Ant<4>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<Ant<5>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<Humanoid<4>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<Humanoid<5>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<HumanoidStandup<4>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<HumanoidStandup<5>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<Walker2d<4>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<Walker2d<5>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<Swimmer<4>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<Swimmer<5>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<InvertedPendulum<4>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<InvertedPendulum<5>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<InvertedDoublePendulum<4>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<InvertedDoublePendulum<5>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<Reacher<4>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<Reacher<5>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<Pusher<4>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<Pusher<5>>, GymCamera>>(m);
  // EnvPool's -v2 / -v3 ids (legacy_ids.h).
  using namespace mujoco_detail;  // NOLINT: the pool names
  BindEnv<WithPixels<WithInitialState<LegacyId<Ant<3>, kAntV3>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<LegacyId<HalfCheetah<4>, kHalfCheetahV3>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<LegacyId<Hopper<4>, kHopperV3>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<LegacyId<Humanoid<3>, kHumanoidV3>>, GymCamera>>(m);
  BindEnv<
      WithPixels<WithInitialState<LegacyId<HumanoidStandup<4>, kHumanoidStandupV2>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<LegacyId<Walker2d<4>, kWalker2dV3>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<LegacyId<Swimmer<4>, kSwimmerV3>>, GymCamera>>(m);
  BindEnv<
      WithPixels<WithInitialState<LegacyId<InvertedPendulum<4>, kInvertedPendulumV2>>, GymCamera>>(
      m);
  BindEnv<WithPixels<
      WithInitialState<LegacyId<InvertedDoublePendulum<4>, kInvertedDoublePendulumV2>>, GymCamera>>(
      m);
  BindEnv<WithPixels<WithInitialState<LegacyId<Reacher<4>, kReacherV2>>, GymCamera>>(m);
  BindEnv<WithPixels<WithInitialState<LegacyId<Pusher<4>, kPusherV2>>, GymCamera>>(m);
  m.attr("mujoco_version") = mj_versionString();
  m.def("mujoco_adopt_default_timer", &mujoco_detail::AdoptDefaultTimer,
        "Treat the MuJoCo timer installed now (mjcb_time) as the mujoco package's default: "
        "drop it now and whenever it is installed again, before each MuJoCo env step.");
  m.def(
      "mujoco_timer", [] { return reinterpret_cast<uintptr_t>(mujoco_detail::TimerHook().load()); },
      "The address of MuJoCo's timer callback (mjcb_time), 0 when none is installed.");
}

}  // namespace envpool_x
