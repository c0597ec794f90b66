"""The gymnasium-robotics oracle (1.4.2) for tests/families/test_robotics_*.py.

gymnasium-robotics 1.4.2's ``mujoco_utils.set_joint_qpos`` (and its qvel and
getter twins) test ``joint_type in (mjtJoint.mjJNT_HINGE, mjtJoint.mjJNT_SLIDE)``:
with our mujoco 3.17.0 an enum compared with a numpy integer from the left is
never equal, so the assert fails for every hinge and slide joint and no Fetch
env can be made. :func:`load_oracle` gives that module a view of ``mujoco``
whose ``mjtJoint`` values are plain ints (the same numbers), nothing else
changed.
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np

mujoco: Any = None
gym: Any = None


class _MujocoWithIntJointTypes(types.ModuleType):
    """``mujoco`` as gymnasium-robotics' utils see it: ``mjtJoint`` as ints."""

    def __getattr__(self, name: str) -> Any:
        return getattr(mujoco, name)


def load_oracle(mujoco_module: Any, gymnasium_module: Any, robotics_module: Any) -> None:
    """Keep the imported modules, register gymnasium-robotics' ids and patch
    its joint-type comparison (see the module docstring)."""
    global mujoco, gym
    mujoco, gym = mujoco_module, gymnasium_module
    from gymnasium_robotics.utils import mujoco_utils

    view = _MujocoWithIntJointTypes("mujoco")
    view.mjtJoint = types.SimpleNamespace(  # type: ignore[attr-defined]
        **{name: int(getattr(mujoco.mjtJoint, name)) for name in dir(mujoco.mjtJoint)
           if name.startswith("mjJNT_")}
    )  # fmt: skip
    mujoco_utils.mujoco = view
    gym.register_envs(robotics_module)


def make_oracle(task_id: str) -> Any:
    """gymnasium-robotics' env of ``task_id`` (with its 50-step TimeLimit)."""
    return gym.make(task_id)


def integration_size(env: Any) -> int:
    """mj_stateSize(mjSTATE_INTEGRATION) of the oracle's model."""
    return int(mujoco.mj_stateSize(env.unwrapped.model, mujoco.mjtState.mjSTATE_INTEGRATION))


def oracle_state(env: Any) -> np.ndarray:
    """The oracle's state as our get_state gives it: the integration state, the goal."""
    raw = env.unwrapped
    physics = np.empty(integration_size(env))
    mujoco.mj_getState(raw.model, raw.data, physics, mujoco.mjtState.mjSTATE_INTEGRATION)
    return np.concatenate([physics, raw.goal])


def set_oracle_state(env: Any, state: np.ndarray) -> None:
    """What our set_state does, on the oracle: the physics state and the
    goal, then mj_forward."""
    raw = env.unwrapped
    size = integration_size(env)
    mujoco.mj_setState(raw.model, raw.data, state[:size], mujoco.mjtState.mjSTATE_INTEGRATION)
    raw.goal = np.array(state[size:], dtype=np.float64)
    mujoco.mj_forward(raw.model, raw.data)


def object_xy_slice(env: Any) -> slice:
    """Where the object's x-y (``object0:joint``'s first two qpos) lie in the
    integration state (its first value is the time)."""
    raw = env.unwrapped
    address = int(raw.model.jnt_qposadr[raw.model.joint("object0:joint").id])
    return slice(1 + address, 1 + address + 2)


def assert_frames_are_oracle_frames(task_id: str, action_size: int) -> None:
    """render() of two of our envs, a few random steps after a reset, equals
    gymnasium-robotics' render() of the same states and goals (its state set
    through :func:`set_oracle_state`), pixel for pixel."""
    import envpool_x

    ours = envpool_x.make_gymnasium(task_id, num_envs=2, render_mode="rgb_array", seed=2)
    theirs = gym.make(task_id, render_mode="rgb_array")
    theirs.reset(seed=0)
    ours.reset()
    for _ in range(3):
        ours.step(np.random.default_rng(0).uniform(-1, 1, (2, action_size)).astype(np.float32))
    frames = ours.render(env_ids=[0, 1])
    for i in range(2):
        set_oracle_state(theirs, ours.get_state(i))
        want = theirs.render()
        assert frames[i].shape == want.shape == (480, 480, 3)
        assert np.array_equal(frames[i], want), f"env {i}: frames differ"
    assert not np.array_equal(frames[0], frames[1])  # two states, two frames
    ours.close()
    theirs.close()
