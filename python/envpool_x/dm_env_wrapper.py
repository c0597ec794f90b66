"""The dm_env front end: a ``dm_env.Environment`` with batched TimeSteps."""

from __future__ import annotations

from typing import Any

import dm_env
import numpy as np
from dm_env import specs

from envpool_x.pool import create_pool
from envpool_x.spec import EnvSpec, observation_tuple


class DmEnvPool(dm_env.Environment):  # type: ignore[misc]
    """A batch of envs with the dm_env API.

    Each TimeStep field has a leading batch dimension. ``observation`` is a
    namedtuple of the observation fields plus ``env_id`` and ``elapsed_step``.
    ``discount`` is 0 only where an episode terminated (not when truncated by
    the time limit). ``step_type`` is FIRST on the (auto-)reset step.
    """

    def __init__(self, spec: EnvSpec) -> None:
        if spec.config.autoreset_mode == "same_step":
            raise ValueError(
                "make_dm supports autoreset_mode 'next_step' and 'disabled': a dm_env "
                "TimeStep has no place for the final observation of 'same_step'"
            )
        self.spec = spec
        self.config: dict[str, Any] = spec.config_dict()
        self._pool = create_pool(spec)
        self.num_envs = spec.config.num_envs
        self.batch_size = spec.config.batch_size
        names = list(spec._desc and [o["name"] for o in spec._desc["obs"]])
        names += ["env_id", "elapsed_step"] + [i["name"] for i in spec._desc["info"]]
        self._obs_names = names
        self._obs_cls = observation_tuple(tuple(names))
        self._obs_spec = spec.observation_spec()
        self._action_spec = spec.action_spec()
        self._closed = False

    def __len__(self) -> int:
        return int(self.num_envs)

    def _timestep(self, result: tuple[Any, ...], xp: Any = np) -> dm_env.TimeStep:
        # xp: numpy, or jax.numpy when traced inside env.xla()'s functions.
        obs, reward, terminated, truncated, info = result
        fields = dict(obs) if isinstance(obs, dict) else {"obs": obs}
        fields.update(info)
        observation = self._obs_cls(*(fields[n] for n in self._obs_names))
        if hasattr(self._pool, "dm_parts"):  # the GPU path: tensors of its array_backend
            step_type, discount = self._pool.dm_parts(terminated, truncated, info["elapsed_step"])
            return dm_env.TimeStep(step_type, reward, discount, observation)
        step_type = xp.where(
            info["elapsed_step"] == 0,
            np.int32(dm_env.StepType.FIRST),
            xp.where(terminated | truncated, np.int32(dm_env.StepType.LAST), np.int32(1)),
        ).astype(np.int32)
        if "discount" in info:  # an env's own discount (Atari's zero_discount_on_life_loss)
            discount = xp.asarray(info["discount"], dtype=np.float32)
        else:
            discount = (~terminated).astype(np.float32)
        return dm_env.TimeStep(step_type, reward, discount, observation)

    def reset(self, env_id: Any = None, seed: Any = None) -> dm_env.TimeStep:
        """Reset all envs (or ``env_id``); returns a batched FIRST TimeStep."""
        return self._timestep(self._pool.reset(env_id, seed))

    def step(self, action: Any, env_id: Any = None) -> dm_env.TimeStep:
        """Step all envs (or ``env_id``) with ``action`` (one row per env)."""
        return self._timestep(self._pool.step(action, env_id))

    def async_reset(self, env_id: Any = None, seed: Any = None) -> None:
        """Send a reset without waiting; collect it with :meth:`recv`."""
        self._pool.send_reset(env_id, seed)

    def send(self, action: Any, env_id: Any = None) -> None:
        """Send actions without waiting."""
        self._pool.send_step(action, env_id)

    def recv(self) -> dm_env.TimeStep:
        """Wait for the next batch as a TimeStep."""
        return self._timestep(self._pool.recv())

    def xla(self) -> tuple[Any, Any, Any, Any]:
        """``(handle, recv, send, step)`` for ``jax.jit``; results are TimeSteps.

        See :mod:`envpool_x.xla`. Raises ImportError without JAX.
        """
        from envpool_x.xla import make_xla

        return make_xla(self, "dm")

    def observation_spec(self) -> Any:
        """Per-env observation specs (namedtuple of dm_env specs)."""
        return self._obs_spec

    def action_spec(self) -> Any:
        """Per-env action spec."""
        return self._action_spec

    def reward_spec(self) -> specs.Array:
        """Per-env reward spec (float32 scalar)."""
        return specs.Array((), np.float32, "reward")

    def discount_spec(self) -> specs.BoundedArray:
        """Per-env discount spec (float32 in [0, 1])."""
        return specs.BoundedArray((), np.float32, 0.0, 1.0, "discount")

    def close(self) -> None:
        """Stop the workers (idempotent)."""
        if not self._closed:
            self._pool.close()
            self._closed = True

    def __getstate__(self) -> Any:
        raise TypeError("envpool_x envs cannot be pickled; pickle the spec and re-make the env")
