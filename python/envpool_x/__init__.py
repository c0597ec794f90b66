"""envpool_x: many RL environments stepped in parallel by a C++ engine.

Quick start::

    import envpool_x
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=64)
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step(actions)
"""

from __future__ import annotations

from typing import Any

from envpool_x.render.gl import choose_default_backend

# MuJoCo's renderer reads MUJOCO_GL when mujoco is imported: pick EGL / OSMesa on
# a machine without a display before anything imports it (envpool_x.render.gl).
choose_default_backend()

from envpool_x import families  # noqa: F401, E402  (registers every task)
from envpool_x.array_specs import ArraySpec  # noqa: E402
from envpool_x.dm_env_wrapper import DmEnvPool  # noqa: E402
from envpool_x.dm_single_env import DmSingleEnv  # noqa: E402
from envpool_x.factory import make, make_dm, make_gym, make_gymnasium  # noqa: E402
from envpool_x.gymnasium_env import GymnasiumEnvPool  # noqa: E402
from envpool_x.gymnasium_registry import register_gymnasium_envs  # noqa: E402
from envpool_x.registration import list_all_envs, register  # noqa: E402
from envpool_x.spec import EnvSpec, make_spec  # noqa: E402
from envpool_x.user_envs import register_cpp_env, register_numba_env  # noqa: E402

__version__ = "0.1.0"

# EnvPool's public names for its env classes, so code written for EnvPool
# (isinstance checks, type hints) runs unchanged.
EnvPool = GymnasiumEnvPool
DMEnvPool = DmEnvPool

__all__ = [
    # EnvPool's public names, in its order (code checking envpool.__all__ runs unchanged).
    "register",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_spec",
    "list_all_envs",
    "EnvSpec",
    "EnvPool",
    "DMEnvPool",
    "GymnasiumEnvPool",
    # envpool_x's own.
    "ArraySpec",
    "DmEnvPool",
    "DmSingleEnv",
    "make_pettingzoo",
    "make_sb3",
    "register_cpp_env",
    "register_numba_env",
]

# Every task as ``envpool_x/<id>`` in gymnasium's registry (gymnasium.make_vec).
register_gymnasium_envs()


def make_sb3(task_id: str, **config: Any) -> Any:
    """A Stable-Baselines3 ``VecEnv`` (see :mod:`envpool_x.integrations.sb3`)."""
    from envpool_x.integrations.sb3 import make_sb3 as _make_sb3

    return _make_sb3(task_id, **config)


def make_pettingzoo(task_id: str, **config: Any) -> Any:
    """One env of a multi-agent task as a PettingZoo ``ParallelEnv`` (see
    :mod:`envpool_x.pettingzoo_env`)."""
    from envpool_x.pettingzoo_env import make_pettingzoo as _make_pettingzoo

    return _make_pettingzoo(task_id, **config)
