"""One env of a batched gymnasium pool as a plain ``gymnasium.Env``: unbatched
observations, rewards and flags, for tools that take a single env (gymnasium's
``RecordVideo``, ``check_env``-style wrappers)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np

from envpool_x.dm_single_env import view_ids

if TYPE_CHECKING:
    from envpool_x.gymnasium_env import GymnasiumEnvPool


class GymnasiumSingleEnv(gymnasium.Env):  # type: ignore[misc]
    """Env ``index`` of a :class:`~envpool_x.GymnasiumEnvPool` (a sync pool),
    stepping it alone: ``step(action)`` takes one action and returns
    ``(obs, reward, terminated, truncated, info)`` of that env.

    Make it with ``make_gymnasium(task, num_envs=1, render_mode="rgb_array").single_env()``.
    ``render()`` returns this env's frame ``(H, W, 3)``. After an episode ends,
    call ``reset()`` as with any gymnasium env (the pool's next_step autoreset
    would also restart it on the next step, with reward 0). ``close()`` closes
    the pool (and so every view of it).
    """

    def __init__(self, pool: GymnasiumEnvPool, index: int = 0) -> None:
        """``pool``: the pool to view (its module imports this one: the type
        is imported for type checkers only); ``index``: the env to present."""
        self._ids = view_ids(pool, index)
        self._pool = pool
        self.observation_space = pool.single_observation_space
        self.action_space = pool.single_action_space
        self.render_mode = pool.render_mode
        self.metadata = dict(pool.metadata)
        self.metadata["render_fps"] = 30
        self.spec = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        """Start a new episode of this env (``seed`` re-seeds it)."""
        if options:
            raise ValueError(f"a single env takes no reset options, got {sorted(options)}")
        obs, info = self._pool.reset(self._ids, seed=None if seed is None else [seed])
        return _row(obs), {k: _row(v) for k, v in info.items()}

    def step(self, action: Any) -> Any:
        """One step of this env with one action."""
        obs, reward, terminated, truncated, info = self._pool.step(
            np.asarray(action)[None], self._ids
        )
        return (
            _row(obs),
            float(reward[0]) if reward.ndim == 1 else reward[0],  # one per agent: an array
            bool(terminated[0]),
            bool(truncated[0]),
            {k: _row(v) for k, v in info.items()},
        )

    def render(self) -> Any:
        """This env's frame (H, W, 3) with render_mode 'rgb_array'."""
        frames = self._pool.render(self._ids)
        return None if frames is None else frames[0]

    def close(self) -> None:
        """Close the pool behind this view (idempotent)."""
        self._pool.close()


def _row(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _row(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_row(v) for v in value)
    return np.asarray(value)[0]
