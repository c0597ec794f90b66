"""envpool_x: many RL environments stepped in parallel by a C++ engine.

Quick start::

    import envpool_x
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=64)
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step(actions)
"""

from __future__ import annotations

from typing import Any

from envpool_x.dm_env_wrapper import DmEnvPool
from envpool_x.gymnasium_env import GymnasiumEnvPool
from envpool_x.gymnasium_registry import register_gymnasium_envs
from envpool_x.registration import list_all_envs, register
from envpool_x.spec import EnvSpec, make_spec

__version__ = "0.1.0"

__all__ = [
    "DmEnvPool",
    "EnvSpec",
    "GymnasiumEnvPool",
    "list_all_envs",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_sb3",
    "make_spec",
    "register",
]

ENV_TYPES = ("gymnasium", "gym", "dm")

# Every task as ``envpool_x/<id>`` in gymnasium's registry (gymnasium.make_vec).
register_gymnasium_envs()


def make(task_id: str, env_type: str = "gymnasium", **config: Any) -> Any:
    """Create a pool of ``config["num_envs"]`` envs of ``task_id``.

    Args:
        task_id: a registered id (``list_all_envs()``), e.g. ``"CartPole-v1"``.
        env_type: ``"gymnasium"`` (gymnasium vector API), ``"dm"`` (dm_env
            API) or ``"gym"``: the classic gym API (``reset`` returns obs,
            ``step`` a 4-tuple, ``gym.spaces``) when a gym older than 0.26 is
            installed, as EnvPool 0.6-0.8 and CleanRL expect; otherwise the
            gymnasium API, as EnvPool 1.x.
        **config: num_envs, batch_size, num_threads, seed (int or one per
            env), max_episode_steps, thread_affinity_offset, autoreset_mode
            ("next_step", "same_step", "disabled") and the env's own keys.

    Returns:
        A :class:`GymnasiumEnvPool` (a ``ClassicGymEnvPool`` for the classic
        gym API) or :class:`DmEnvPool`.

    Raises:
        KeyError: unknown task id or config key.
        ValueError / TypeError: bad config values or env_type.
    """
    if env_type not in ENV_TYPES:
        raise ValueError(f"env_type must be one of {ENV_TYPES}, got {env_type!r}")
    if env_type == "gym":
        from envpool_x.integrations.classic_gym import ClassicGymEnvPool, classic_gym_version

        if classic_gym_version() is not None:
            # Old gym's reset returns the observation only (EnvPool 0.6's default).
            config.setdefault("gym_reset_return_info", False)
            return ClassicGymEnvPool(make_spec(task_id, **config))
    spec = make_spec(task_id, **config)
    if env_type == "dm":
        return DmEnvPool(spec)
    return GymnasiumEnvPool(spec)


def make_gymnasium(task_id: str, **config: Any) -> GymnasiumEnvPool:
    """``make(task_id, env_type="gymnasium", **config)``."""
    return make(task_id, env_type="gymnasium", **config)  # type: ignore[no-any-return]


def make_gym(task_id: str, **config: Any) -> GymnasiumEnvPool:
    """``make(task_id, env_type="gym", **config)``: the classic gym API when a
    gym older than 0.26 is installed, else the gymnasium API (see :func:`make`)."""
    return make(task_id, env_type="gym", **config)  # type: ignore[no-any-return]


def make_sb3(task_id: str, **config: Any) -> Any:
    """A Stable-Baselines3 ``VecEnv`` (see :mod:`envpool_x.integrations.sb3`)."""
    from envpool_x.integrations.sb3 import make_sb3 as _make_sb3

    return _make_sb3(task_id, **config)


def make_dm(task_id: str, **config: Any) -> DmEnvPool:
    """``make(task_id, env_type="dm", **config)``: the dm_env API."""
    return make(task_id, env_type="dm", **config)  # type: ignore[no-any-return]
