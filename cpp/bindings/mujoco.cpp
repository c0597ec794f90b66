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
#include "envs/mujoco/mujoco_params.h"
#include "envs/mujoco/pixel_observation.h"
#include "envs/mujoco/pusher.h"
#include "envs/mujoco/reacher.h"
#include "envs/mujoco/render_camera.h"
#include "envs/mujoco/swimmer.h"
#include "envs/mujoco/walker2d.h"

namespace envpool_x {

// A pool class: the env with its per-env parameters, initial state info and
// pixel observations.
template <typename Env>
using GymPool = WithPixels<WithInitialState<WithMujocoParams<Env>>, GymCamera>;

void BindMujoco(py::module_& m) {
  BindEnv<GymPool<HalfCheetah<4>>>(m);
  BindEnv<GymPool<HalfCheetah<5>>>(m);
  BindEnv<GymPool<Hopper<4>>>(m);
  BindEnv<GymPool<Hopper<5>>>(m);
  BindEnv<GymPool<Ant<4>>>(m);
  BindEnv<GymPool<Ant<5>>>(m);
  BindEnv<GymPool<Humanoid<4>>>(m);
  BindEnv<GymPool<Humanoid<5>>>(m);
  BindEnv<GymPool<HumanoidStandup<4>>>(m);
  BindEnv<GymPool<HumanoidStandup<5>>>(m);
  BindEnv<GymPool<Walker2d<4>>>(m);
  BindEnv<GymPool<Walker2d<5>>>(m);
  BindEnv<GymPool<Swimmer<4>>>(m);
  BindEnv<GymPool<Swimmer<5>>>(m);
  BindEnv<GymPool<InvertedPendulum<4>>>(m);
  BindEnv<GymPool<InvertedPendulum<5>>>(m);
  BindEnv<GymPool<InvertedDoublePendulum<4>>>(m);
  BindEnv<GymPool<InvertedDoublePendulum<5>>>(m);
  BindEnv<GymPool<Reacher<4>>>(m);
  BindEnv<GymPool<Reacher<5>>>(m);
  BindEnv<GymPool<Pusher<4>>>(m);
  BindEnv<GymPool<Pusher<5>>>(m);
  // EnvPool's -v2 / -v3 ids (legacy_ids.h).
  using namespace mujoco_detail;  // NOLINT: the pool names
  BindEnv<GymPool<LegacyId<Ant<3>, kAntV3>>>(m);
  BindEnv<GymPool<LegacyId<HalfCheetah<4>, kHalfCheetahV3>>>(m);
  BindEnv<GymPool<LegacyId<Hopper<4>, kHopperV3>>>(m);
  BindEnv<GymPool<LegacyId<Humanoid<3>, kHumanoidV3>>>(m);
  BindEnv<GymPool<LegacyId<HumanoidStandup<4>, kHumanoidStandupV2>>>(m);
  BindEnv<GymPool<LegacyId<Walker2d<4>, kWalker2dV3>>>(m);
  BindEnv<GymPool<LegacyId<Swimmer<4>, kSwimmerV3>>>(m);
  BindEnv<GymPool<LegacyId<InvertedPendulum<4>, kInvertedPendulumV2>>>(m);
  BindEnv<GymPool<LegacyId<InvertedDoublePendulum<4>, kInvertedDoublePendulumV2>>>(m);
  BindEnv<GymPool<LegacyId<Reacher<4>, kReacherV2>>>(m);
  BindEnv<GymPool<LegacyId<Pusher<4>, kPusherV2>>>(m);
  m.attr("mujoco_version") = mj_versionString();
  m.def("mujoco_adopt_default_timer", &mujoco_detail::AdoptDefaultTimer,
        "Treat the MuJoCo timer installed now (mjcb_time) as the mujoco package's default: "
        "drop it now and whenever it is installed again, before each MuJoCo env step.");
  m.def(
      "mujoco_timer", [] { return reinterpret_cast<uintptr_t>(mujoco_detail::TimerHook().load()); },
      "The address of MuJoCo's timer callback (mjcb_time), 0 when none is installed.");
}

}  // namespace envpool_x
