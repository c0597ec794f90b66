"""Pools on many machines: N Ray actors, each owning one envpool_x pool.

For users without RLlib who need more cores than one machine has::

    import ray
    from envpool_x.distributed import DistributedEnvPool

    ray.init(address="auto")
    env = DistributedEnvPool("Pong-v5", num_actors=8, envs_per_actor=64, seed=0)
    obs, info = env.reset()                  # obs: (512, 4, 84, 84)
    obs, rew, term, trunc, info = env.step(actions)  # 512 actions, global env order
    env.close()

Actor ``k`` owns the global env ids ``k * envs_per_actor ... (k + 1) * envs_per_actor - 1``
and steps them with ``num_threads = num_cpus_per_actor`` worker threads. Env ``g`` is
seeded exactly as env ``g`` of one pool of ``num_actors * envs_per_actor`` envs with the
same seed, so the same actions give the same trajectories as that single pool.

Sync mode (:meth:`DistributedEnvPool.step`) steps every actor in parallel and
gathers one batch in global env order. Async mode (:meth:`send` / :meth:`recv`)
works per actor: ``recv`` returns the batches of whichever actors are ready,
concatenated, with global ids in ``info["env_id"]``; send their actions back with
``send(actions, info["env_id"])``.

If an actor dies (its node lost, its process killed), the call that notices raises
:class:`ActorDiedError` naming the actor and its env ids; the other actors are
closed and killed first, so no pool is left running.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool_x import _core
from envpool_x.actor_results import as_step_result, concat_results
from envpool_x.factory import make_gymnasium
from envpool_x.spec import make_spec


class ActorDiedError(RuntimeError):
    """An actor of a :class:`DistributedEnvPool` died; the others were closed."""


class _PoolActor:
    """One pool inside a Ray actor (made a Ray actor class by :func:`_actor_class`)."""

    def __init__(self, task_id: str, config: dict[str, Any]) -> None:
        self._env = make_gymnasium(task_id, **config)

    def step(self, actions: Any, env_id: Any) -> Any:
        return self._env.step(actions, env_id)

    def reset(self, env_id: Any, seed: Any) -> Any:
        return self._env.reset(env_id=env_id, seed=seed)

    def location(self) -> tuple[str, int]:
        """(Ray node id, process id) of this actor."""
        import os

        import ray

        return ray.get_runtime_context().get_node_id(), os.getpid()

    def close(self) -> None:
        self._env.close()


_ACTOR_CLASS: Any = None


def _actor_class() -> Any:
    global _ACTOR_CLASS
    if _ACTOR_CLASS is None:
        import ray

        _ACTOR_CLASS = ray.remote(_PoolActor)
    return _ACTOR_CLASS


class DistributedEnvPool:
    """``num_actors`` Ray actors, each stepping a pool of ``envs_per_actor`` envs.

    Args:
        task_id: an envpool_x task id.
        num_actors: number of actors (pools); Ray places them on the cluster's nodes
            (spread over nodes by default, see ``actor_options``).
        envs_per_actor: envs in each actor's pool.
        seed: the seed of the whole set: env ``g`` (global id) gets the seed env ``g``
            of a single pool with this seed would get. An int only.
        num_cpus_per_actor: CPUs reserved for each actor; its pool gets as many
            worker threads (unless ``config`` sets ``num_threads``).
        actor_options: more ``.options(...)`` for the actors (``resources``,
            ``scheduling_strategy``, ...). Default scheduling: ``"SPREAD"``.
        close_timeout_s: how long :meth:`close` waits for each actor to close its
            pool before killing it.
        start_timeout_s: how long to wait for every actor to start and make its
            pool (the cluster may lack the CPUs asked for).
        **config: envpool_x config keys for every pool (``autoreset_mode``,
            ``max_episode_steps``, env keys, ...); not ``num_envs``, ``batch_size``
            or ``seed`` lists.

    Raises:
        ImportError: Ray is not installed (``pip install "envpool-x[ray]"``).
        RuntimeError: Ray is not initialised (call ``ray.init(...)`` first), or
            the actors did not all start within ``start_timeout_s`` (then none is
            left running).
        KeyError / ValueError / TypeError: bad task id or config (checked here,
            before any actor starts).
    """

    def __init__(
        self,
        task_id: str,
        num_actors: int,
        envs_per_actor: int,
        *,
        seed: int = 42,
        num_cpus_per_actor: float = 1,
        actor_options: dict[str, Any] | None = None,
        close_timeout_s: float = 30.0,
        start_timeout_s: float = 120.0,
        **config: Any,
    ) -> None:
        try:
            import ray
        except ImportError as e:
            raise ImportError(
                'envpool_x.distributed needs Ray: pip install "envpool-x[ray]"'
            ) from e
        if not ray.is_initialized():
            raise RuntimeError("envpool_x.distributed needs a Ray cluster: call ray.init() first")
        if num_actors < 1 or envs_per_actor < 1:
            raise ValueError(
                f"num_actors and envs_per_actor must be >= 1, got {num_actors}, {envs_per_actor}"
            )
        for key in ("num_envs", "batch_size", "env_seed"):
            if key in config:
                raise ValueError(f"{key!r} is set by DistributedEnvPool, not per pool")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"seed must be an int, got {type(seed).__name__}")
        self.task_id = task_id
        self.num_actors = int(num_actors)
        self.envs_per_actor = int(envs_per_actor)
        self.num_envs = self.num_actors * self.envs_per_actor
        self.close_timeout_s = close_timeout_s
        config.setdefault("num_threads", max(1, int(num_cpus_per_actor)))
        # Validates the config here, before any actor starts, and gives the spaces.
        spec = make_spec(task_id, num_envs=self.envs_per_actor, seed=int(seed), **config)
        self.single_observation_space = spec.observation_space
        self.single_action_space = spec.action_space
        self._seed = int(seed)
        self._derive = _core.derive_env_seed
        options: dict[str, Any] = {"num_cpus": num_cpus_per_actor, "scheduling_strategy": "SPREAD"}
        options.update(actor_options or {})
        cls = _actor_class()
        self._actors: list[Any] = []
        for k in range(self.num_actors):
            pool_config = dict(
                config, num_envs=self.envs_per_actor, seed=self._seeds(k, self._seed)
            )
            self._actors.append(cls.options(**options).remote(task_id, pool_config))
        # Per actor: the ObjectRef of its batch in flight (async mode), else None.
        self._pending: list[Any] = [None] * self.num_actors
        self._closed = False
        #: Actors whose pool closed without error at close() (the rest were only killed).
        self.closed_cleanly: list[int] = []
        started = [a.location.remote() for a in self._actors]
        ready, _ = ray.wait(started, num_returns=len(started), timeout=start_timeout_s)
        if len(ready) < len(started):
            self._closed = True
            for actor in self._actors:
                ray.kill(actor)
            raise RuntimeError(
                f"only {len(ready)} of {self.num_actors} actors started within "
                f"{start_timeout_s} s; each asks for {options} (cluster resources: "
                f"{ray.cluster_resources()})"
            )
        self._gather(started, list(range(self.num_actors)))  # a pool that failed to build

    @property
    def actors(self) -> list[Any]:
        """The Ray actor handles, actor k owning envs ``k*envs_per_actor`` onwards."""
        return list(self._actors)

    def _seeds(self, k: int, seed: int) -> list[int]:
        base = k * self.envs_per_actor
        return [self._derive(seed, base + i) for i in range(self.envs_per_actor)]

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("DistributedEnvPool is closed")

    def _gather(self, refs: list[Any], actor_ids: list[int]) -> list[Any]:
        """``ray.get`` of the actors' results; a dead actor closes everything."""
        import ray

        try:
            return list(ray.get(refs))
        except ray.exceptions.RayActorError as e:
            dead = self._find_dead(refs, actor_ids)
            self._shutdown(skip=dead)
            lo = dead * self.envs_per_actor
            raise ActorDiedError(
                f"actor {dead} of {self.num_actors} (envs {lo}..{lo + self.envs_per_actor - 1} "
                f"of {self.task_id}) died: {type(e).__name__}; the other actors were closed"
            ) from e

    def _find_dead(self, refs: list[Any], actor_ids: list[int]) -> int:
        import ray

        for ref, k in zip(refs, actor_ids, strict=True):
            try:
                ray.get(ref)
            except ray.exceptions.RayActorError:
                return k
        return actor_ids[0]

    def _results(self, parts: list[Any], actor_ids: list[int]) -> Any:
        """One batch from per-actor results, with global env ids."""
        for part, k in zip(parts, actor_ids, strict=True):
            info = part[-1]
            info["env_id"] = np.asarray(info["env_id"]) + k * self.envs_per_actor
        rows = [len(part[-1]["env_id"]) for part in parts]
        return tuple(concat_results([p[i] for p in parts], rows) for i in range(len(parts[0])))

    def _split_ids(self, env_id: Any) -> dict[int, np.ndarray]:
        """Global ids -> {actor: positions in env_id}, checking the range."""
        ids = np.asarray(env_id, dtype=np.int64).reshape(-1)
        if ids.size and (ids.min() < 0 or ids.max() >= self.num_envs):
            raise ValueError(f"env_id out of range [0, {self.num_envs}): {env_id}")
        owner = ids // self.envs_per_actor
        return {int(k): np.flatnonzero(owner == k) for k in np.unique(owner)}

    def reset(self, *, seed: int | None = None) -> tuple[Any, dict[str, Any]]:
        """Reset every env (``seed``: re-seed as a single pool's ``reset(seed=...)``).

        Returns:
            ``(obs, info)`` of all ``num_envs`` envs in global order.

        Raises:
            RuntimeError: the pool is closed or has batches in flight.
            ActorDiedError: an actor died (the others are then closed).
        """
        self._check_open()
        if any(p is not None for p in self._pending):
            raise RuntimeError("reset() with batches in flight: recv() them first")
        refs = [
            a.reset.remote(None, None if seed is None else self._seeds(k, int(seed)))
            for k, a in enumerate(self._actors)
        ]
        ids = list(range(self.num_actors))
        obs, info = self._results(self._gather(refs, ids), ids)
        return obs, info

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Step every env with one action each (rows in global env order); the actors
        step in parallel.

        Returns:
            ``(obs, reward, terminated, truncated, info)`` of all envs, global order.

        Raises:
            ValueError: ``actions`` does not have ``num_envs`` rows.
            RuntimeError: the pool is closed or has batches in flight.
            ActorDiedError: an actor died (the others are then closed).
        """
        self._check_open()
        if any(p is not None for p in self._pending):
            raise RuntimeError("step() with batches in flight: recv() them first")
        actions = np.asarray(actions)
        if actions.shape[:1] != (self.num_envs,):
            raise ValueError(
                f"actions must have {self.num_envs} rows (one per env), got shape {actions.shape}"
            )
        n = self.envs_per_actor
        refs = [
            a.step.remote(actions[k * n : (k + 1) * n], None) for k, a in enumerate(self._actors)
        ]
        ids = list(range(self.num_actors))
        return self._results(self._gather(refs, ids), ids)  # type: ignore[no-any-return]

    def async_reset(self) -> None:
        """Send a reset to every actor; results come by :meth:`recv`.

        Raises:
            RuntimeError: the pool is closed or has batches in flight.
        """
        self._check_open()
        if any(p is not None for p in self._pending):
            raise RuntimeError("async_reset() with batches in flight: recv() them first")
        self._pending = [a.reset.remote(None, None) for a in self._actors]

    def send(self, actions: Any, env_id: Any) -> None:
        """Send actions to the envs ``env_id`` (global ids; each actor's envs that
        get an action step together as that actor's next batch).

        Raises:
            ValueError: ids out of range, or actions and ids of different lengths.
            RuntimeError: an actor addressed still has a batch in flight, or closed.
        """
        self._check_open()
        actions = np.asarray(actions)
        ids = np.asarray(env_id, dtype=np.int64).reshape(-1)
        if actions.shape[:1] != ids.shape:
            raise ValueError(f"{len(ids)} env ids but actions of shape {actions.shape}")
        groups = self._split_ids(ids)
        busy = [k for k in groups if self._pending[k] is not None]
        if busy:
            raise RuntimeError(f"actors {busy} still have a batch in flight: recv() it first")
        for k, positions in groups.items():
            local = (ids[positions] - k * self.envs_per_actor).astype(np.int32)
            self._pending[k] = self._actors[k].step.remote(actions[positions], local)

    def recv(self, timeout_s: float | None = None) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Wait until at least one actor's batch is ready, then return every ready
        batch, concatenated (``info["env_id"]``: their global ids).

        Args:
            timeout_s: give up after this long (None: wait).

        Raises:
            RuntimeError: nothing in flight, or the pool is closed.
            TimeoutError: no batch ready within ``timeout_s``.
            ActorDiedError: an actor died (the others are then closed).
        """
        import ray

        self._check_open()
        in_flight = [k for k, p in enumerate(self._pending) if p is not None]
        if not in_flight:
            raise RuntimeError("recv() with nothing in flight: send() or async_reset() first")
        refs = [self._pending[k] for k in in_flight]
        ready, _ = ray.wait(refs, num_returns=1, timeout=timeout_s)
        if not ready:
            raise TimeoutError(f"no actor batch ready within {timeout_s} s")
        # Everything else that is ready too, without waiting.
        ready, _ = ray.wait(refs, num_returns=len(refs), timeout=0)
        ready_set = set(ready)
        done = [k for k in in_flight if self._pending[k] in ready_set]
        parts = self._gather([self._pending[k] for k in done], done)
        for k in done:
            self._pending[k] = None
        # One actor may answer its reset while another answers a step (a late
        # actor's first batch): every part in the step layout before joining.
        return self._results([as_step_result(p) for p in parts], done)  # type: ignore[no-any-return]

    def _shutdown(self, skip: int | None = None) -> None:
        import ray

        self._closed = True
        live = [k for k in range(self.num_actors) if k != skip]
        refs = [self._actors[k].close.remote() for k in live]
        try:
            ready, _ = ray.wait(refs, num_returns=len(refs), timeout=self.close_timeout_s)
            for k, ref in zip(live, refs, strict=True):
                if ref in ready:
                    try:
                        ray.get(ref)
                        self.closed_cleanly.append(k)
                    except ray.exceptions.RayError:
                        pass  # died or failed while closing: killed below all the same
        finally:
            for actor in self._actors:
                ray.kill(actor)

    def close(self) -> None:
        """Close every actor's pool and end the actors (idempotent)."""
        if self._closed:
            return
        self._shutdown()

    def __enter__(self) -> DistributedEnvPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __len__(self) -> int:
        return self.num_envs

    def __repr__(self) -> str:
        return (
            f"DistributedEnvPool({self.task_id}, num_actors={self.num_actors}, "
            f"envs_per_actor={self.envs_per_actor})"
        )
