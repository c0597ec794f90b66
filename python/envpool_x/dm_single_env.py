"""One env of a batched dm_env pool as a plain ``dm_env.Environment``: unbatched
TimeSteps, as dm_env's own tools (its test mixin, acme's loops) expect."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import dm_env
import numpy as np

if TYPE_CHECKING:
    from envpool_x.dm_env_wrapper import DmEnvPool
    from envpool_x.gymnasium_env import GymnasiumEnvPool


class DmSingleEnv(dm_env.Environment):  # type: ignore[misc]
    """Env ``index`` of a :class:`~envpool_x.DmEnvPool`, one TimeStep at a time.

    Get one with ``make_dm(task_id, num_envs=1).single_env()`` (or
    ``single_env(i)`` of a bigger pool: each view steps only its own env).

    The batched pool returns reward 0 and discount 1 on FIRST rows (EnvPool's
    layout); here a FIRST step has ``reward`` and ``discount`` None, as
    ``dm_env.restart`` makes them. ``step_type`` is a ``dm_env.StepType``,
    ``reward`` / ``discount`` are float32 scalars and ``observation`` is the
    pool's namedtuple with the batch axis removed. ``close()`` closes the pool
    (and so every view of it).
    """

    def __init__(self, pool: DmEnvPool, index: int = 0) -> None:
        """``pool``: a :class:`~envpool_x.DmEnvPool` (not imported here: it
        imports this module); ``index``: the env of the pool to present."""
        if not pool.spec.backend.host_results:
            raise ValueError("single_env needs device='cpu' (it returns numpy values)")
        self._ids = view_ids(pool, index)
        self._pool = pool

    def reset(self) -> dm_env.TimeStep:
        """Start a new sequence of this env; returns its FIRST TimeStep."""
        return self._unbatch(self._pool.reset(self._ids))

    def step(self, action: Any) -> dm_env.TimeStep:
        """Step this env with one action (as ``action_spec()`` describes it); on
        a fresh env, or after LAST, this starts a new sequence instead."""
        return self._unbatch(self._pool.step(np.asarray(action)[None], self._ids))

    def _unbatch(self, step: dm_env.TimeStep) -> dm_env.TimeStep:
        step_type = dm_env.StepType(int(step.step_type[0]))
        observation = type(step.observation)(*(_first_row(f) for f in step.observation))
        if step_type is dm_env.StepType.FIRST:
            return dm_env.TimeStep(step_type, None, None, observation)
        reward = step.reward[0]  # float32: a scalar, or one per agent
        discount = np.float32(step.discount[0])
        return dm_env.TimeStep(step_type, reward, discount, observation)

    def observation_spec(self) -> Any:
        """The pool's per-env observation specs."""
        return self._pool.observation_spec()

    def action_spec(self) -> Any:
        """The pool's per-env action spec."""
        return self._pool.action_spec()

    def reward_spec(self) -> Any:
        """float32 scalar (one per agent for a multi-agent task)."""
        return self._pool.reward_spec()

    def discount_spec(self) -> Any:
        """float32 scalar in [0, 1]."""
        return self._pool.discount_spec()

    def close(self) -> None:
        """Close the pool behind this view (idempotent)."""
        self._pool.close()


def _first_row(field: Any) -> Any:
    """Row 0 of an observation field (of each value of a dict: ``params``)."""
    if isinstance(field, dict):
        return {name: np.asarray(v)[0] for name, v in field.items()}
    return np.asarray(field)[0]


def view_ids(pool: GymnasiumEnvPool | DmEnvPool, index: Any) -> np.ndarray:
    """The env-id array ``[index]`` of a one-env view of ``pool``, checked.

    Raises:
        ValueError: an async pool (its step would not return the env), or an
            index out of range. TypeError: an index that is not an int.
    """
    if pool.batch_size != pool.num_envs:
        raise ValueError(
            "single_env needs a pool whose step returns every env it names "
            f"(batch_size == num_envs), got batch_size={pool.batch_size} of "
            f"num_envs={pool.num_envs}"
        )
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
        raise TypeError(f"index must be an int, got {type(index).__name__}")
    if not 0 <= int(index) < pool.num_envs:
        raise ValueError(f"index {index} is out of range [0, {pool.num_envs})")
    return np.array([index], dtype=np.int32)
