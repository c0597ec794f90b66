"""The make functions: a task id and a config in, a batched env out."""

from __future__ import annotations

from typing import Any

from envpool_x.dm_env_wrapper import DmEnvPool
from envpool_x.gymnasium_env import GymnasiumEnvPool
from envpool_x.spec import make_spec

ENV_TYPES = ("gymnasium", "gym", "dm")


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


def make_dm(task_id: str, **config: Any) -> DmEnvPool:
    """``make(task_id, env_type="dm", **config)``: the dm_env API."""
    return make(task_id, env_type="dm", **config)  # type: ignore[no-any-return]
