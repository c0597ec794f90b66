"""Stable-Baselines3: an envpool_x pool as a real ``VecEnv``.

SB3 expects same-step auto-reset: when an episode ends, the returned
observation is already the next episode's first one, and the terminal
observation travels in ``infos[i]["terminal_observation"]``;
``infos[i]["TimeLimit.truncated"]`` says the episode was cut by the time
limit (so SB3 bootstraps from it). The engine does this natively with
``autoreset_mode="same_step"``: no extra reset calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnv,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from envpool_x.factory import make_gymnasium
from envpool_x.gymnasium_env import GymnasiumEnvPool


class SB3VecEnv(VecEnv):  # type: ignore[misc]
    """Wraps a sync envpool_x gymnasium env made with ``autoreset_mode="same_step"``."""

    def __init__(self, env: GymnasiumEnvPool) -> None:
        if env.spec.config.autoreset_mode != "same_step":
            raise ValueError(
                "SB3 needs autoreset_mode='same_step' (terminal observations in infos); "
                f"this env uses {env.spec.config.autoreset_mode!r}: make it with "
                "envpool_x.make_sb3(...) or make_gymnasium(..., autoreset_mode='same_step')"
            )
        if env.batch_size != env.num_envs:
            raise ValueError("SB3 steps every env at once: batch_size must equal num_envs")
        self.env = env
        self._actions: np.ndarray | None = None
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    # ---- the VecEnv protocol ------------------------------------------
    def reset(self) -> VecEnvObs:
        """Reset every env; seeds given to :meth:`seed` apply here, once."""
        seeds: list[int] | None = None
        if any(s is not None for s in self._seeds):
            if any(s is None for s in self._seeds):
                raise ValueError("seed() must give every env a seed")
            seeds = [int(s) for s in self._seeds if s is not None]
        obs, info = self.env.reset(seed=seeds)
        self.reset_infos = self._per_env(info)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Remember the actions; :meth:`step_wait` steps them."""
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        """Step every env; returns obs, rewards, dones and one info dict per env."""
        obs, reward, terminated, truncated, info = self.env.step(self._actions)
        dones = terminated | truncated
        infos = self._per_env(info)
        if dones.any():
            final_obs = info["final_obs"]
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = _row(final_obs, i)
                # Cut by the time limit, not ended by the task: bootstrap.
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, reward, dones, infos

    def close(self) -> None:
        """Close the pool."""
        self.env.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The attribute of the pool, once per selected env (they share it)."""
        value = getattr(self.env, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute of the pool (shared by all envs)."""
        setattr(self.env, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """Call a method of the pool once per selected env."""
        method = getattr(self.env, method_name)
        return [method(*method_args, **method_kwargs) for _ in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        """The envs are C++ objects: never wrapped by a gymnasium wrapper."""
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        """Every env's frame (made with ``render_mode="rgb_array"``; SB3's
        ``render()`` tiles them, its ``VecVideoRecorder`` records them); None
        per env without a render_mode."""
        if self.env.render_mode is None:
            return [None for _ in range(self.num_envs)]
        return list(self.env._frames.frames(np.arange(self.num_envs)))

    # ---- helpers --------------------------------------------------------
    def _indices(self, indices: VecEnvIndices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return indices

    def _per_env(self, info: dict[str, Any]) -> list[dict[str, Any]]:
        """Batched info arrays -> one dict per env (scalar entries only)."""
        keys = [k for k, v in info.items() if isinstance(v, np.ndarray) and not k.startswith("_")]
        keys = [k for k in keys if k != "final_obs"]
        return [{k: info[k][i] for k in keys} for i in range(self.num_envs)]


def _row(obs: Any, i: int) -> Any:
    """Env ``i``'s observation of a batch: an array's row, or a Dict
    observation's rows (goal tasks, MiniGrid) as a dict."""
    if isinstance(obs, dict):
        return {key: value[i] for key, value in obs.items()}
    return obs[i]


def make_sb3(task_id: str, **config: Any) -> SB3VecEnv:
    """Create an SB3 ``VecEnv`` of ``task_id`` (same-step auto-reset, sync).

    Raises:
        ValueError: ``autoreset_mode`` other than "same_step", or batch_size
            smaller than num_envs.
    """
    config.setdefault("autoreset_mode", "same_step")
    return SB3VecEnv(make_gymnasium(task_id, **config))
