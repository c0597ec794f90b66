"""The gymnasium front end: a ``gymnasium.vector.VectorEnv`` backed by the pool."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode

from envpool_x.action_dict import unpack_action
from envpool_x.backends import create_pool
from envpool_x.backends.checks import reset_ids
from envpool_x.backends.contract import DevicePool, Pool
from envpool_x.goal_env import GoalMethods
from envpool_x.gymnasium_single_env import GymnasiumSingleEnv
from envpool_x.legacy_seed import pending_seed
from envpool_x.nested_obs import result_hook
from envpool_x.params import ParamsMixin, add_params_info, params_info_names, set_params
from envpool_x.render import RENDER_MODES, FrameSource, render
from envpool_x.spec import EnvSpec

#: What every backend's error says of a step of an env that was never reset.
_NOT_RESET = "has not been reset; call reset() (or async_reset()) before stepping"


class ResetNeeded(RuntimeError, gymnasium.error.ResetNeeded):  # type: ignore[misc]
    """A step of an env that was never reset, on the gymnasium front end:
    gymnasium's ``ResetNeeded`` (what its own envs raise there) and a
    ``RuntimeError`` (what the pools raise). The message names the env."""


def _raise_if_not_reset(error: RuntimeError) -> None:
    """Raise :class:`ResetNeeded` in place of the pool's "not reset" ``error``."""
    if _NOT_RESET in str(error):
        raise ResetNeeded(str(error)) from None


_MODES = {
    "next_step": AutoresetMode.NEXT_STEP,
    "same_step": AutoresetMode.SAME_STEP,
    "disabled": AutoresetMode.DISABLED,
}


class GymnasiumEnvPool(ParamsMixin, GoalMethods, gymnasium.vector.VectorEnv, gymnasium.Env):  # type: ignore[misc]
    """A batch of envs stepped by C++ worker threads, with the gymnasium API.

    Like EnvPool's, it is both a ``gymnasium.vector.VectorEnv`` and a
    ``gymnasium.Env`` (code written for EnvPool checks either).

    ``observation_space`` / ``action_space`` are the spaces of ONE env (as in
    EnvPool); ``single_observation_space`` / ``single_action_space`` are the
    same objects. ``gymnasium.make_vec("envpool_x/<id>")`` gives the batched
    ones of gymnasium's convention (docs/usage.md, "Two conventions for
    spaces"). Results of a full step come in env_id order; with
    ``batch_size < num_envs`` use ``send`` / ``recv`` and ``info["env_id"]``.

    A multi-agent task (``num_agents > 1``) has its agent axis inside these
    spaces (one env is ``(num_agents, ...)``); ``agent_observation_space`` /
    ``agent_action_space`` are one agent's (docs/multi_agent.md).
    """

    # A subclass with the classic gym API (4-tuple step) sets this: env.xla()
    # then returns the same 4-tuple with info["TimeLimit.truncated"].
    _classic_gym_api: bool = False

    def __init__(self, spec: EnvSpec) -> None:
        # EnvPool's spec (id, config, spaces), not gymnasium's registry EnvSpec.
        self.spec: EnvSpec = spec  # type: ignore[assignment]
        self.config: dict[str, Any] = spec.config_dict()
        self._pool = create_pool(spec)
        self.num_envs = spec.config.num_envs
        self.batch_size = spec.config.batch_size
        self.single_observation_space = spec.observation_space
        self.single_action_space = spec.action_space
        self.observation_space = spec.observation_space
        self.action_space = spec.action_space
        self.num_agents = spec.num_agents
        self.agent_observation_space = spec.agent_observation_space
        self.agent_action_space = spec.agent_action_space
        self.metadata = {
            "autoreset_mode": _MODES[spec.config.autoreset_mode],
            "render_modes": list(RENDER_MODES),
        }
        self.render_mode = spec.config.render_mode
        self._frames = FrameSource(spec, self._pool)
        self.closed = False
        self.is_vector_env = True
        self._return_info = bool(spec.config.gym_reset_return_info)
        # Latest obs of every env, for gymnasium's reset_mask results. Only kept
        # where reset_mask is the way to reset (sync, autoreset 'disabled'):
        # holding it would stop the engine from reusing the obs array.
        self._on_device = not spec.backend.host_results
        self._track_last_obs = (
            spec.config.autoreset_mode == "disabled"
            and self.batch_size == self.num_envs
            and not self._on_device  # the GPU path builds reset_mask results itself
        )
        self._last_obs: Any = None
        self._pending_seed: int | None = None
        if spec.obs_tuple:  # e.g. Blackjack: gymnasium's Tuple of Discretes
            self._pool = _TupleObsPool(self._pool)
        # params_info=True: the parameter names whose values info["params"] carries.
        self._params_info = params_info_names(spec, self._pool)
        # Info keys the family derives from the engine's (Craftax's Achievements/...).
        # and the grouping of "group.key" fields into nested Dicts (nested_obs).
        self._info_extras = result_hook(
            [o["name"] for o in spec._desc["obs"]],
            spec.entry.declaration.info_extras if spec.backend.host_results else None,
        )

    def __len__(self) -> int:
        return int(self.num_envs)

    @property
    def all_env_ids(self) -> np.ndarray:
        """EnvPool's ``all_env_ids``: ``arange(num_envs)`` as int32."""
        return np.arange(self.num_envs, dtype=np.int32)

    @property
    def is_async(self) -> bool:
        """True with ``batch_size < num_envs`` (results come by ``recv``); EnvPool's
        name, which Tianshou's Collector reads to accept a vector env."""
        return bool(self.batch_size < self.num_envs)

    def reset(
        self,
        env_id: Any = None,
        *,
        seed: int | list[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> Any:
        """Reset all envs, or those in ``env_id`` / ``options["reset_mask"]``.

        ``env_id`` may be passed positionally (EnvPool's ``reset(env_id)``).
        ``options["params"]`` (``{name: value or distribution}``, as
        :meth:`set_params` takes them) sets the parameters of the envs this
        call resets, from this reset on (docs/params.md). ``seed`` (an int in
        [0, 2**64), or one per env reset) re-seeds before resetting; without
        it each env continues its own random stream, unless :meth:`seed` left
        seeds for this reset.

        Returns:
            ``(obs, info)``, in the order of ``env_id`` (env order when None);
            with ``batch_size < num_envs``, the first ``batch_size`` to finish.
            With ``reset_mask`` (sync mode) the result covers every env, as
            gymnasium's: masked rows fresh, the others their latest obs, and
            info arrays paired with ``_key`` masks.

        Raises:
            ValueError / TypeError / RuntimeError: bad ids, seeds or options,
                an env with work in flight, or a closed env.
        """
        family_options = self.spec.entry.declaration.reset_options
        family_keys = family_options[0] if family_options else ()
        ids = reset_ids(self.num_envs, env_id, options, family_keys)
        if options and "params" in options:  # for the envs this call resets
            self._check_param_tables()
            set_params(self._pool, self.num_envs, ids, options["params"], False, True)
            self._param_tables_made = True
        if seed is None and self._pending_seed is not None:
            seed, self._pending_seed = self._pending_seed, None
        if self._on_device and options and "reset_mask" in options:
            if self.spec.config.autoreset_mode != "disabled":
                raise ValueError(
                    "options={'reset_mask': ...} needs autoreset_mode='disabled' (gymnasium's "
                    "DISABLED mode); otherwise reset a subset with reset(env_id=...)"
                )
            pool = self._pool
            assert isinstance(pool, DevicePool)  # results that are not numpy: a device pool
            obs, _, _, _, info = pool.reset_masked(ids, seed)
            host_mask = np.zeros(self.num_envs, dtype=bool)
            host_mask[ids] = True
            mask = pool.from_host(host_mask)
            info = {k: v for k, v in info.items() if not k.startswith("final")}
            info.update({f"_{k}": mask for k in list(info)})
            return (obs, info) if self._return_info else obs
        result = self._pool.reset(ids, seed)
        if self._params_info is not None:
            add_params_info(self._pool, self._params_info, result)
        if self._info_extras is not None:
            self._info_extras(result)
        obs, _, _, _, info = result
        own = {k: v for k, v in (options or {}).items() if k in family_keys}
        if own and family_options:  # the family's options (mazes' goal_cell, reset_cell)
            family_options[1](self, ids, obs, info, own)
        if options and "reset_mask" in options:
            obs, info = self._full_batch(ids, obs, info)
        elif ids is None and self._track_last_obs and isinstance(obs, (np.ndarray, dict)):
            self._last_obs = obs
        return (obs, info) if self._return_info else obs

    def _full_batch(self, ids: np.ndarray, obs: Any, info: dict[str, Any]) -> tuple[Any, Any]:
        """gymnasium's reset_mask result: every env's row, the masked ones fresh,
        the others their latest observation; info arrays with ``_key`` masks."""
        mask = np.zeros(self.num_envs, dtype=bool)
        mask[ids] = True
        last = self._last_obs
        if not self._track_last_obs:
            raise ValueError(
                "options={'reset_mask': ...} needs autoreset_mode='disabled' and "
                "batch_size == num_envs (gymnasium's DISABLED mode); otherwise reset "
                "a subset with reset(env_id=...)"
            )
        if last is None:
            raise RuntimeError("reset(options={'reset_mask': ...}) needs a full reset() first")
        full_obs = _with_rows(last, ids, obs)
        full_info: dict[str, Any] = {}
        for key, value in info.items():
            arr = np.zeros((self.num_envs, *value.shape[1:]), dtype=value.dtype)
            arr[ids] = value
            full_info[key] = arr
            full_info[f"_{key}"] = mask
        full_info["env_id"] = np.arange(self.num_envs, dtype=np.int32)
        self._last_obs = full_obs
        return full_obs, full_info

    def step(self, actions: Any, env_id: Any = None) -> Any:
        """Step all envs (or those in ``env_id``) with ``actions``, one row each.

        Returns:
            ``(obs, reward, terminated, truncated, info)`` with info["env_id"]
            and info["elapsed_step"]; ``same_step`` mode adds ``final_obs``,
            ``final_info`` and the masks ``_final_obs`` / ``_final_info``.

        Raises:
            ValueError: wrong action shape, action out of range or not finite,
                bad env_id.
            TypeError: wrong action dtype.
            ResetNeeded: an env that was never reset (gymnasium's contract;
                also a RuntimeError). RuntimeError: work already in flight,
                closed env, or an exception raised inside an env (message
                names the env).
        """
        actions, env_id = unpack_action(actions, env_id, self.num_agents, self.num_envs)
        try:
            result = self._pool.step(actions, env_id)
        except RuntimeError as error:
            _raise_if_not_reset(error)
            raise
        if self._params_info is not None:
            add_params_info(self._pool, self._params_info, result)
        if self._info_extras is not None:
            self._info_extras(result)
        if self._last_obs is not None:
            if env_id is None:
                self._last_obs = result[0]
            else:  # a copy: the earlier array belongs to the caller now
                self._last_obs = _with_rows(self._last_obs, np.asarray(env_id), result[0])
        return result

    def render(self, env_ids: Any = None) -> Any:
        """Frames of env 0, or of ``env_ids``, as uint8 ``(k, H, W, 3)`` with
        ``render_mode="rgb_array"``; with ``"human"`` the first is shown in a
        window (returns None). Drawn only when called, from the envs' current
        state (only envs with no work in flight). See docs/render.md.

        Raises:
            ValueError: bad ids. RuntimeError: work in flight, a closed env, or
            no display / OpenGL (the message says what to install).
            NotImplementedError: a task that draws no frames.
        """
        return render(self._frames, self.render_mode, env_ids)

    def single_env(self, index: int = 0) -> GymnasiumSingleEnv:
        """Env ``index`` as a plain ``gymnasium.Env`` (for gymnasium's
        ``RecordVideo`` and other single-env tools); see :class:`GymnasiumSingleEnv`."""
        return GymnasiumSingleEnv(self, index)

    def async_reset(self, env_id: Any = None, seed: Any = None) -> None:
        """Send a reset to all envs (or ``env_id``) without waiting; see :meth:`recv`.
        Given no seed, it uses one that :meth:`seed` left."""
        if seed is None and self._pending_seed is not None:
            seed, self._pending_seed = self._pending_seed, None
        self._pool.send_reset(env_id, seed)

    def send(self, actions: Any, env_id: Any = None) -> None:
        """Send actions to envs without waiting (ids default to all envs).
        An env that was never reset raises :class:`ResetNeeded`, as in :meth:`step`."""
        actions, env_id = unpack_action(actions, env_id, self.num_agents, self.num_envs)
        try:
            self._pool.send_step(actions, env_id)
        except RuntimeError as error:
            _raise_if_not_reset(error)
            raise

    def seed(self, seed: int | None = None) -> list[int]:
        """The old gym ``VecEnv.seed`` (EnvPool's pools have it too, and only warn
        there): the next ``reset()`` or ``async_reset()`` that is given no seed
        uses ``seed`` (``reset(seed=seed)``); ``None`` cancels a pending seed.

        Returns:
            The seed each env gets at that reset, in env order (derived from
            ``seed`` and the env's index, as ``reset(seed=seed)`` derives them).

        Raises:
            TypeError / ValueError: ``seed`` is not an int in [0, 2**64).
        """
        self._pending_seed, seeds = pending_seed(seed, self.num_envs)
        return seeds

    def recv(self) -> Any:
        """Wait for the next batch; returns the same 5-tuple as :meth:`step`.

        Raises:
            RuntimeError: nothing (or less than ``batch_size``) in flight.
            KeyboardInterrupt: Ctrl-C while waiting.
        """
        result = self._pool.recv()
        if self._params_info is not None:
            add_params_info(self._pool, self._params_info, result)
        if self._info_extras is not None:
            self._info_extras(result)
        return result

    def xla(self) -> tuple[Any, Any, Any, Any]:
        """``(handle, recv, send, step)``: this env's send / recv / step for ``jax.jit``.

        ``step(handle, action)`` returns ``(handle, result)`` where result has
        the pytree of :meth:`step` (the classic gym 4-tuple with
        ``info["TimeLimit.truncated"]`` when this env uses the classic gym
        API). See :mod:`envpool_x.xla`.

        Raises:
            ImportError: JAX is not installed (``pip install "envpool-x[jax]"``).
            ValueError: the env was made with ``params_info=True``.
            RuntimeError: this build of envpool_x has no XLA support.
        """
        from envpool_x.xla import make_xla

        if self._params_info is not None:
            raise ValueError(
                "env.xla() results carry no info['params']: make the env without "
                "params_info=True and read env.get_params() between jitted calls"
            )

        return make_xla(self, "gym_classic" if self._classic_gym_api else "gymnasium")

    def close_extras(self, **kwargs: Any) -> None:
        """Stop and join the worker threads; free the renderer."""
        self._pool.close()
        self._frames.close()

    def close(self, **kwargs: Any) -> None:
        """Close the env (idempotent); later calls raise RuntimeError."""
        if getattr(self, "closed", True):
            return
        self.close_extras(**kwargs)
        self.closed = True

    def __repr__(self) -> str:
        return f"GymnasiumEnvPool({self.spec.id}, num_envs={self.num_envs})"

    def __getstate__(self) -> Any:
        raise TypeError("envpool_x envs cannot be pickled; pickle the spec and re-make the env")

    def get_state(self, env_id: int) -> np.ndarray:
        """An env's simulator state (tests; only with no work in flight)."""
        return np.asarray(self._pool.get_state(env_id))


class _TupleObsPool:
    """Presents a pool's (n, k) discrete observation as a tuple of k arrays of
    shape (n,), gymnasium's batched layout for a Tuple space. The arrays are
    views of the engine's array (which is then never reused for a later step)."""

    def __init__(self, pool: Pool) -> None:
        self._inner = pool

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    @staticmethod
    def _split(result: Any) -> Any:
        obs, reward, terminated, truncated, info = result
        columns = tuple(obs[:, k] for k in range(obs.shape[1]))
        if "final_obs" in info:
            final = info["final_obs"]
            info["final_obs"] = tuple(final[:, k] for k in range(final.shape[1]))
        return columns, reward, terminated, truncated, info

    def step(self, action: Any, env_id: Any = None) -> Any:
        return self._split(self._inner.step(action, env_id))

    def reset(self, env_id: Any = None, seed: Any = None) -> Any:
        return self._split(self._inner.reset(env_id, seed))

    def recv(self) -> Any:
        return self._split(self._inner.recv())


def _with_rows(full: Any, ids: np.ndarray, rows: Any) -> Any:
    """A copy of the batched observation ``full`` (an array, or a dict of them)
    with rows ``ids`` replaced by ``rows``."""
    if isinstance(full, dict):
        return {k: _with_rows(v, ids, rows[k]) for k, v in full.items()}
    out = full.copy()
    out[ids] = rows
    return out
