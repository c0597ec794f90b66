"""The classic gym API (gym < 0.26) behind ``env_type="gym"``.

CleanRL's envpool scripts pin gym 0.23.1 and were written against EnvPool
0.6-0.8, whose ``env_type="gym"`` followed the installed gym: with a gym older
than 0.26, ``reset()`` returns the observation only, ``step()`` returns
``(obs, reward, done, info)`` with ``info["TimeLimit.truncated"]``, and the
spaces are ``gym.spaces``. We keep that rule: :func:`classic_gym_version`
decides, and anything else (a newer gym, or none) gets the gymnasium API.
"""

from __future__ import annotations

import importlib.metadata
import re
from typing import Any

import numpy as np
from gymnasium import spaces

from envpool_x.gymnasium_env import GymnasiumEnvPool
from envpool_x.spec import EnvSpec

# gym 0.26 moved to the 5-tuple step and (obs, info) reset.
CLASSIC_API_BEFORE = (0, 26)


def classic_gym_version() -> str | None:
    """The installed gym's version when it is older than 0.26 (the classic
    4-tuple API), else None (no gym, or gym >= 0.26)."""
    try:
        version = importlib.metadata.version("gym")
    except importlib.metadata.PackageNotFoundError:
        return None
    match = re.match(r"(\d+)\.(\d+)", version)
    if match is None:
        return None
    if (int(match.group(1)), int(match.group(2))) < CLASSIC_API_BEFORE:
        return version
    return None


def to_gym_space(space: spaces.Space[Any]) -> Any:
    """The ``gym.spaces`` twin of a gymnasium space (Box, Discrete,
    MultiDiscrete, Tuple, Dict).

    Raises:
        TypeError: a space kind old gym has no twin for.
        ValueError: a MultiDiscrete with a nonzero start (old gym has none).
    """
    import gym  # only called when classic_gym_version() found one

    if isinstance(space, spaces.Box):
        return gym.spaces.Box(space.low, space.high, space.shape, space.dtype)
    if isinstance(space, spaces.Discrete):
        if int(space.start) == 0:
            return gym.spaces.Discrete(int(space.n))
        return gym.spaces.Discrete(int(space.n), start=int(space.start))
    if isinstance(space, spaces.MultiDiscrete):
        if np.any(space.start != 0):
            raise ValueError("gym's MultiDiscrete has no start: this task needs gymnasium")
        return gym.spaces.MultiDiscrete(space.nvec, dtype=space.dtype)
    if isinstance(space, spaces.Tuple):
        return gym.spaces.Tuple(tuple(to_gym_space(s) for s in space.spaces))
    if isinstance(space, spaces.Dict):
        return gym.spaces.Dict({k: to_gym_space(s) for k, s in space.spaces.items()})
    raise TypeError(f"no gym space for {type(space).__name__}")


class ClassicGymEnvPool(GymnasiumEnvPool):
    """The pool with gym's pre-0.26 API (as EnvPool 0.6-0.8 with old gym).

    ``reset()`` returns ``obs`` (``(obs, info)`` when made with
    ``gym_reset_return_info=True`` or called with ``return_info=True``);
    ``step()`` / ``recv()`` return ``(obs, reward, done, info)`` where
    ``done = terminated | truncated`` and ``info["TimeLimit.truncated"]`` is
    True where the time limit cut an episode that had not terminated (so
    bootstrapping is right). Spaces are ``gym.spaces``. Auto-reset, async
    ``send`` / ``recv`` and ``env_id`` work as in :class:`GymnasiumEnvPool`.
    """

    # env.xla() returns gym's 4-tuple with info["TimeLimit.truncated"] too.
    _classic_gym_api = True

    def __init__(self, spec: EnvSpec) -> None:
        super().__init__(spec)
        self.single_observation_space = to_gym_space(spec.observation_space)
        self.single_action_space = to_gym_space(spec.action_space)
        self.observation_space = self.single_observation_space
        self.action_space = self.single_action_space
        self.reward_range = (-float("inf"), float("inf"))

    def reset(  # type: ignore[override]
        self,
        env_id: Any = None,
        *,
        seed: int | list[int] | None = None,
        return_info: bool | None = None,
        options: dict[str, Any] | None = None,
    ) -> Any:
        """Reset all envs, or those in ``env_id``.

        Returns:
            ``obs``, or ``(obs, info)`` when ``return_info`` (default: the
            ``gym_reset_return_info`` config key) is true.
        """
        want_info = self._return_info if return_info is None else bool(return_info)
        saved, self._return_info = self._return_info, True
        try:
            obs, info = super().reset(seed=seed, options=options, env_id=env_id)
        finally:
            self._return_info = saved
        return (obs, info) if want_info else obs

    def step(self, actions: Any, env_id: Any = None) -> Any:
        """Step all envs (or those in ``env_id``).

        Returns:
            ``(obs, reward, done, info)``; see the class docstring.
        """
        return _classic(super().step(actions, env_id))

    def recv(self) -> Any:
        """Wait for the next batch; returns ``(obs, reward, done, info)``."""
        return _classic(super().recv())

    def __repr__(self) -> str:
        return f"ClassicGymEnvPool({self.spec.id}, num_envs={self.num_envs})"


def _classic(result: Any) -> Any:
    obs, reward, terminated, truncated, info = result
    info["TimeLimit.truncated"] = truncated & ~terminated
    return obs, reward, terminated | truncated, info
