"""The dm_env front end: a ``dm_env.Environment`` with batched TimeSteps."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dm_env
import numpy as np
from dm_env import specs

from envpool_x.action_dict import unpack_action
from envpool_x.backends import create_pool
from envpool_x.backends.arrays import host_ids
from envpool_x.dm_names import dm_obs_name
from envpool_x.dm_single_env import DmSingleEnv
from envpool_x.legacy_seed import pending_seed
from envpool_x.nested_obs import info_extra_fields
from envpool_x.params import ParamsMixin, get_params, params_info_names
from envpool_x.render import FrameSource, render
from envpool_x.spec import EnvSpec, observation_tuple


class DmEnvPool(ParamsMixin, dm_env.Environment):  # type: ignore[misc]
    """A batch of envs with the dm_env API.

    Each TimeStep field has a leading batch dimension. ``observation`` is a
    namedtuple of the observation fields plus ``env_id``, ``elapsed_step``, the
    info fields, and the info a family derives from them (Craftax's
    ``Achievements_<name>`` and ``score``, EnvPool's dm names).
    ``discount`` is 0 only where an episode terminated (not when truncated by
    the time limit). ``step_type`` is FIRST on the (auto-)reset step.

    As dm_env's contract says, ``step`` on an env that was never reset (or,
    with ``autoreset_mode="disabled"``, whose last step was LAST) starts a new
    sequence: that env resets, its action is ignored, and its row is FIRST.
    :meth:`single_env` gives one env as a plain, unbatched ``dm_env.Environment``.
    """

    def __init__(self, spec: EnvSpec) -> None:
        if spec.config.autoreset_mode == "same_step":
            raise ValueError(
                "make_dm supports autoreset_mode 'next_step' and 'disabled': a dm_env "
                "TimeStep has no place for the final observation of 'same_step'"
            )
        self.spec = spec
        self.config: dict[str, Any] = spec.config_dict()
        self._on_device = not spec.backend.host_results
        self._disabled = spec.config.autoreset_mode == "disabled"
        if self._on_device and self._disabled:
            raise ValueError(
                "make_dm(device='cuda') supports autoreset_mode='next_step': in dm_env's "
                "contract the step after LAST starts a new sequence, which is what next_step does"
            )
        self._pool = create_pool(spec)
        # params_info=True: observation.params, {name: values} of the returned
        # rows, as gymnasium's info["params"] (info fields ride in the observation).
        self._params_info = params_info_names(spec, self._pool)
        self.num_envs = spec.config.num_envs
        # Envs whose next step starts a new sequence: never reset, or (with
        # 'disabled') their last step was LAST. _any_to_start False means none.
        self._to_start = np.ones(self.num_envs, dtype=bool)
        self._any_to_start = True
        self.render_mode = spec.config.render_mode
        self._frames = FrameSource(spec, self._pool)
        self.batch_size = spec.config.batch_size
        self._obs_name = dm_obs_name(spec.env_config, "obs")  # a pixel env's frames: "pixels"
        names = [dm_obs_name(spec.env_config, o["name"]) for o in spec._desc["obs"]]
        names += ["env_id", "elapsed_step"] + [i["name"] for i in spec._desc["info"]]
        # The family's derived info (Craftax's Achievements/...), EnvPool's dm fields.
        extras = info_extra_fields(spec)
        self._info_extras = spec.entry.declaration.info_extras if extras else None
        names += [i["name"] for i in extras]
        if self._params_info is not None:
            names.append("params")
        self._obs_names = names
        self._obs_cls = observation_tuple(tuple(names))
        self._pending_seed: int | None = None
        self._obs_spec = spec.observation_spec()
        self._action_spec = spec.action_spec()
        self._closed = False

    def __len__(self) -> int:
        return int(self.num_envs)

    @property
    def all_env_ids(self) -> np.ndarray:
        """EnvPool's ``all_env_ids``: ``arange(num_envs)`` as int32."""
        return np.arange(self.num_envs, dtype=np.int32)

    @property
    def is_async(self) -> bool:
        """True with ``batch_size < num_envs`` (results come by ``recv``); EnvPool's name."""
        return bool(self.batch_size < self.num_envs)

    def _timestep(self, result: tuple[Any, ...], xp: Any = np) -> dm_env.TimeStep:
        # xp: numpy, or jax.numpy when traced inside env.xla()'s functions.
        obs, reward, terminated, truncated, info = result
        if self._info_extras is not None:
            info = dict(info)
            self._info_extras((obs, reward, terminated, truncated, info), xp=xp)
        fields = dict(obs) if isinstance(obs, dict) else {self._obs_name: obs}
        fields.update(info)
        if self._params_info is not None:
            fields["params"] = get_params(self._pool, self._params_info, info["env_id"])
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
        """Reset all envs (or ``env_id``); returns a batched FIRST TimeStep.
        Given no seed, it uses one that :meth:`seed` left."""
        result = self._pool.reset(env_id, self._take_seed(seed))
        self._mark_started(env_id)
        return self._timestep(self._track(result))

    def step(self, action: Any, env_id: Any = None) -> dm_env.TimeStep:
        """Step all envs (or ``env_id``) with ``action`` (one row per env, or
        EnvPool's dict form); envs to start reset instead (see the class)."""
        action, env_id = unpack_action(action, env_id, self.spec.num_agents, self.num_envs)
        if not self._any_to_start:
            return self._timestep(self._track(self._pool.step(action, env_id)))
        return self._timestep(self._track(self._step_starting(action, env_id)))

    def async_reset(self, env_id: Any = None, seed: Any = None) -> None:
        """Send a reset without waiting; collect it with :meth:`recv`. Given no
        seed, it uses one that :meth:`seed` left."""
        self._pool.send_reset(env_id, self._take_seed(seed))
        self._mark_started(env_id)

    def send(self, action: Any, env_id: Any = None) -> None:
        """Send actions without waiting; envs to start reset instead."""
        action, env_id = unpack_action(action, env_id, self.spec.num_agents, self.num_envs)
        if not self._any_to_start:
            return self._pool.send_step(action, env_id)
        ids, start = self._split_to_start(env_id)
        if start is None or not start.any():
            return self._pool.send_step(action, env_id)
        if start.all():
            return self.async_reset(env_id)
        self._check_split_allowed()
        self.async_reset(ids[start])
        self._pool.send_step(np.asarray(action)[~start], ids[~start])
        return None

    def recv(self) -> dm_env.TimeStep:
        """Wait for the next batch as a TimeStep."""
        return self._timestep(self._track(self._pool.recv()))

    def render(self, env_ids: Any = None) -> Any:
        """Frames of env 0 (or ``env_ids``): uint8 ``(k, H, W, 3)``; see
        :meth:`GymnasiumEnvPool.render <envpool_x.GymnasiumEnvPool.render>`."""
        return render(self._frames, self.render_mode, env_ids)

    def seed(self, seed: int | None = None) -> list[int]:
        """The old ``seed`` of vector envs (EnvPool's pools have it, and only warn
        there): the next reset that is given no seed, an explicit one or the
        start of a sequence by :meth:`step`, uses ``seed`` as ``reset(seed=seed)``
        would; ``None`` cancels a pending seed.

        Returns:
            The seed each env gets from it, in env order.

        Raises:
            TypeError / ValueError: ``seed`` is not an int in [0, 2**64).
        """
        self._pending_seed, seeds = pending_seed(seed, self.num_envs)
        return seeds

    def _take_seed(self, seed: Any) -> Any:
        """``seed``, or the pending one of :meth:`seed` (used up) when None."""
        if seed is None and self._pending_seed is not None:
            seed, self._pending_seed = self._pending_seed, None
        return seed

    def single_env(self, index: int = 0) -> DmSingleEnv:
        """Env ``index`` of this pool as a plain ``dm_env.Environment`` (unbatched
        TimeSteps); see :class:`DmSingleEnv`."""
        return DmSingleEnv(self, index)

    # ---- dm_env's "a step may start a sequence" ----------------------------

    def _split_to_start(self, env_id: Any) -> tuple[Any, Any]:
        """``(ids, mask of those to start)``; ``(None, None)`` for ids the pool
        must reject itself (it names the problem)."""
        if env_id is None:
            return np.arange(self.num_envs, dtype=np.int32), self._to_start.copy()
        ids = np.asarray(host_ids(env_id))
        if ids.ndim != 1 or ids.dtype.kind not in "iu" or ids.size == 0:
            return None, None
        if ids.min() < 0 or ids.max() >= self.num_envs:
            return None, None
        return ids, self._to_start[ids]

    def _step_starting(self, action: Any, env_id: Any) -> Any:
        ids, start = self._split_to_start(env_id)
        if start is None or not start.any():
            return self._pool.step(action, env_id)
        if start.all():
            result = self._pool.reset(env_id, self._take_seed(None))
            self._mark_started(env_id)
            return result
        self._check_split_allowed()
        if self.batch_size < self.num_envs:  # async: the first batch_size to finish
            self.async_reset(ids[start])
            self._pool.send_step(np.asarray(action)[~start], ids[~start])
            return self._pool.recv()
        started = self._pool.reset(ids[start], self._take_seed(None))
        self._mark_started(ids[start])
        stepped = self._pool.step(np.asarray(action)[~start], ids[~start])
        return merge_rows(len(ids), [(start, started), (~start, stepped)])

    def _check_split_allowed(self) -> None:
        if self._on_device:
            raise RuntimeError(
                "on device='cuda' a step must start all the envs it names or none: reset the "
                "envs that were never reset first"
            )

    def _mark_started(self, env_id: Any) -> None:
        if not self._any_to_start:
            return
        if env_id is None:
            self._to_start[:] = False
        else:
            self._to_start[np.asarray(host_ids(env_id))] = False
        self._any_to_start = bool(self._to_start.any())

    def _track(self, result: Any) -> Any:
        """With 'disabled', an env whose step was LAST starts again next step."""
        if self._disabled:
            _, _, terminated, truncated, info = result
            ended = np.asarray(terminated) | np.asarray(truncated)
            self._to_start[np.asarray(info["env_id"])] = ended
            self._any_to_start = bool(self._to_start.any())
        return result

    def xla(self) -> tuple[Any, Any, Any, Any]:
        """``(handle, recv, send, step)`` for ``jax.jit``; results are TimeSteps.

        See :mod:`envpool_x.xla`. Raises ImportError without JAX, and
        ValueError for an env made with ``params_info=True``.
        """
        if self._params_info is not None:
            raise ValueError(
                "env.xla() TimeSteps carry no observation.params: make the env without "
                "params_info=True and read env.get_params() between jitted calls"
            )
        from envpool_x.xla import make_xla

        return make_xla(self, "dm")

    def observation_spec(self) -> Any:
        """Per-env observation specs (namedtuple of dm_env specs)."""
        return self._obs_spec

    def action_spec(self) -> Any:
        """Per-env action spec."""
        return self._action_spec

    def reward_spec(self) -> specs.Array:
        """Per-env reward spec: a float32 scalar, or one per agent ``(num_agents,)``."""
        agents = self.spec.num_agents
        return specs.Array(() if agents == 1 else (agents,), np.float32, "reward")

    def discount_spec(self) -> specs.BoundedArray:
        """Per-env discount spec (float32 in [0, 1])."""
        return specs.BoundedArray((), np.float32, 0.0, 1.0, "discount")

    def close(self) -> None:
        """Stop the workers and free the renderer (idempotent)."""
        if not self._closed:
            self._pool.close()
            self._frames.close()
            self._closed = True

    def __getstate__(self) -> Any:
        raise TypeError("envpool_x envs cannot be pickled; pickle the spec and re-make the env")


def merge_rows(num_rows: int, parts: Sequence[tuple[np.ndarray, Any]]) -> Any:
    """Interleave results: ``parts`` are ``(row mask, result)`` pairs whose
    results hold the masked rows in order; nested tuples / dicts are merged
    leaf by leaf into arrays of ``num_rows`` rows."""
    first = parts[0][1]
    if isinstance(first, tuple):
        return tuple(merge_rows(num_rows, [(m, r[k]) for m, r in parts]) for k in range(len(first)))
    if isinstance(first, dict):
        return {key: merge_rows(num_rows, [(m, r[key]) for m, r in parts]) for key in first}
    leaf = np.asarray(first)
    out = np.empty((num_rows, *leaf.shape[1:]), dtype=leaf.dtype)
    for mask, result in parts:
        out[mask] = result
    return out
