"""envpool_x tasks in gymnasium's registry, under the ``envpool_x/`` namespace.

Every task id of :func:`envpool_x.list_all_envs` is registered (on ``import
envpool_x``) as ``envpool_x/<id>`` with a *vector* entry point, so that::

    gymnasium.make_vec("envpool_x/Pong-v5", num_envs=64,
                       vectorization_mode="vector_entry_point", **config)

returns an envpool_x pool. gymnasium 1.x has no plugin entry-point group any
more, so the ids exist once ``envpool_x`` is imported; ``"envpool_x:envpool_x/Pong-v5"``
(gymnasium's ``module:id`` form) imports it on the way, which is what a fresh
process such as a Ray worker needs.

A pool made through gymnasium follows gymnasium's vector conventions, which
differ from EnvPool's in one place: ``observation_space`` / ``action_space`` are
the *batched* spaces (``single_*`` are one env's), as for any gymnasium
``VectorEnv``. ``env.spec`` stays envpool_x's :class:`~envpool_x.spec.EnvSpec`;
gymnasium's registry spec is in ``env.gymnasium_spec``.

``gymnasium.make("envpool_x/...")`` (one env) raises an error pointing to
``make_vec``: an envpool_x pool is a vector env, and wrapping one env in a
thread pool would only be a slower single env.
"""

from __future__ import annotations

from typing import Any

import gymnasium
from gymnasium.envs.registration import EnvSpec as GymnasiumSpec
from gymnasium.vector.utils import batch_space

from envpool_x.gymnasium_env import GymnasiumEnvPool
from envpool_x.registration import _LISTENERS, NO_TIME_LIMIT, TaskEntry, list_all_envs, lookup
from envpool_x.spec import EnvSpec, make_spec

NAMESPACE = "envpool_x"


class GymnasiumVectorEnvPool(GymnasiumEnvPool):
    """The pool that ``gymnasium.make_vec("envpool_x/<id>", ...)`` returns.

    The same engine and methods as :class:`GymnasiumEnvPool`, with gymnasium's
    batched ``observation_space`` / ``action_space`` (``num_envs`` rows), so
    that code written for gymnasium's vector envs (RLlib's env runners, for
    one) sees the spaces it expects.
    """

    def __init__(self, spec: EnvSpec) -> None:
        super().__init__(spec)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    # gymnasium's make_vec assigns its registry spec to ``env.unwrapped.spec``;
    # the pool reads its own config from ``spec``, so the two are kept apart.
    @property  # type: ignore[override]
    def spec(self) -> EnvSpec:
        """envpool_x's spec of this pool (id, config, spaces)."""
        return self._envpool_spec

    @spec.setter
    def spec(self, value: Any) -> None:
        if isinstance(value, GymnasiumSpec):
            self.gymnasium_spec: GymnasiumSpec | None = value
        else:
            self._envpool_spec: EnvSpec = value

    def __repr__(self) -> str:
        return f"GymnasiumVectorEnvPool({NAMESPACE}/{self.spec.id}, num_envs={self.num_envs})"


def make_vector_env(task_id: str, num_envs: int = 1, **config: Any) -> GymnasiumVectorEnvPool:
    """gymnasium's vector entry point of every ``envpool_x/<id>``.

    Args:
        task_id: the envpool_x id (without the namespace), filled in by the
            registry entry.
        num_envs: number of envs of the pool (``make_vec``'s ``num_envs``).
        **config: any envpool_x config key (``num_threads``, ``seed``,
            ``batch_size``, ``autoreset_mode``, env keys, ...).

    Returns:
        A :class:`GymnasiumVectorEnvPool`.

    Raises:
        KeyError / ValueError / TypeError: as :func:`envpool_x.make_spec`.
    """
    return GymnasiumVectorEnvPool(make_spec(task_id, num_envs=num_envs, **config))


def make_single_env(task_id: str, **config: Any) -> Any:
    """The single-env entry point: always raises, naming what to call instead.

    Raises:
        gymnasium.error.Error: envpool_x tasks are vector envs only.
    """
    raise gymnasium.error.Error(
        f"{NAMESPACE}/{task_id} is a vectorized envpool_x task: use "
        f'gymnasium.make_vec("{NAMESPACE}/{task_id}", num_envs=N, '
        'vectorization_mode="vector_entry_point", **config) (num_envs=1 for one env), '
        f'or envpool_x.make_gymnasium("{task_id}", num_envs=N)'
    )


def _register_one(entry: TaskEntry) -> None:
    # No limit, or one that depends on the instance (set when the env is made).
    steps = None if entry.max_episode_steps == NO_TIME_LIMIT else entry.max_episode_steps
    gymnasium.register(
        id=f"{NAMESPACE}/{entry.task_id}",
        entry_point="envpool_x.gymnasium_registry:make_single_env",
        vector_entry_point="envpool_x.gymnasium_registry:make_vector_env",
        reward_threshold=entry.reward_threshold,
        max_episode_steps=steps,
        # make_vec passes the spec's kwargs to the entry point: this names the task.
        kwargs={"task_id": entry.task_id},
        disable_env_checker=True,
    )


def register_gymnasium_envs() -> list[str]:
    """Register every envpool_x task in gymnasium's registry (idempotent);
    tasks added later with :func:`envpool_x.register` follow.

    Returns:
        The registered gymnasium ids (``envpool_x/<id>``).
    """
    ids = []
    for task_id in list_all_envs():
        gym_id = f"{NAMESPACE}/{task_id}"
        if gym_id not in gymnasium.registry:
            _register_one(lookup(task_id))
        ids.append(gym_id)
    if _register_one not in _LISTENERS:
        _LISTENERS.append(_register_one)
    return ids
