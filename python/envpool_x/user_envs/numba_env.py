"""``register_numba_env``: an env written in Python, compiled by numba to C
callbacks that the engine's worker threads call without the GIL."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from envpool_x.registration import NO_TIME_LIMIT, check_task_id, register

OBS_DTYPES = ("float32", "float64", "int32")
#: The most float64 values of one env's state (2 GiB).
MAX_STATE_SIZE = 1 << 28
#: The most uniforms drawn for one reset or step (the engine counts them in int32).
MAX_RANDOM = 1 << 20
#: The most elements of one env's observation.
MAX_OBS_SIZE = 1 << 28
#: The most elements of one env's Box action, and the most Discrete actions.
MAX_ACTION_SIZE = 1 << 16
MAX_DISCRETE = 2**31 - 1
#: A heap block's bookkeeping (glibc's malloc), per buffer.
_MALLOC_OVERHEAD = 16
# The compiled callbacks of every registered numba env: the engine holds only
# their addresses, so they must live as long as the process.
_CALLBACKS: dict[str, tuple[Any, Any]] = {}


def _numba() -> Any:
    try:
        import numba
    except ImportError as e:
        raise ImportError("register_numba_env needs numba: pip install 'envpool-x[numba]'") from e
    return numba


def env_memory(config: Mapping[str, Any]) -> int:
    """Heap bytes one numba env allocates: its float64 state and the buffer of
    uniforms handed to reset / step (the larger of the two counts)."""
    state = int(config["state_size"])
    rand = max(int(config["reset_random"]), int(config["step_random"]))
    return 8 * (state + rand) + 2 * _MALLOC_OVERHEAD


def _count(name: str, value: Any, low: int, high: int) -> int:
    """An int argument in [low, high]."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int in [{low}, {high}], got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be an int in [{low}, {high}], got {value!r}")
    return int(value)


def _check_arguments(
    reset: Any,
    step: Any,
    state_size: Any,
    observation_space: Any,
    action_space: Any,
    reset_random: Any,
    step_random: Any,
    max_episode_steps: Any,
    reward_threshold: Any,
) -> np.dtype[Any]:
    """Check every argument of :func:`register_numba_env` before anything is
    compiled; return the observation dtype."""
    for name, fn in (("reset", reset), ("step", step)):
        if not callable(fn):
            raise TypeError(f"{name} must be a function, got {type(fn).__name__}")
    if not isinstance(observation_space, spaces.Box):
        raise TypeError(
            f"observation_space must be a gymnasium Box, got {type(observation_space).__name__}"
        )
    obs_dtype = np.dtype(observation_space.dtype)
    if obs_dtype.name not in OBS_DTYPES:
        raise ValueError(f"observation dtype must be one of {OBS_DTYPES}, got {obs_dtype}")
    _check_shape("observation_space", observation_space.shape, MAX_OBS_SIZE)
    if isinstance(action_space, spaces.Discrete):
        if int(action_space.start) != 0:
            raise ValueError(f"a Discrete action space must start at 0, got {action_space.start}")
        _count("action_space.n", int(action_space.n), 1, MAX_DISCRETE)
    elif isinstance(action_space, spaces.Box) and action_space.dtype == np.float32:
        _check_shape("action_space", action_space.shape, MAX_ACTION_SIZE)
        low, high = np.asarray(action_space.low), np.asarray(action_space.high)
        if np.isnan(low).any() or np.isnan(high).any() or (low > high).any():
            raise ValueError("action_space's bounds must not be NaN and low must be <= high")
    else:
        raise TypeError(f"action_space must be a Discrete or a float32 Box, got {action_space!r}")
    _count("state_size", state_size, 1, MAX_STATE_SIZE)
    _count("reset_random", reset_random, 0, MAX_RANDOM)
    _count("step_random", step_random, 0, MAX_RANDOM)
    _count("max_episode_steps", max_episode_steps, 1, NO_TIME_LIMIT)
    if reward_threshold is not None and not (
        isinstance(reward_threshold, (int, float, np.integer, np.floating))
        and not isinstance(reward_threshold, bool)
        and np.isfinite(reward_threshold)
    ):
        raise TypeError(
            f"reward_threshold must be a finite number or None, got {reward_threshold!r}"
        )
    return obs_dtype


def _check_shape(name: str, shape: Any, most: int) -> None:
    """Every dimension >= 1 and at most ``most`` elements in all."""
    dims = tuple(int(d) for d in shape or ())
    if any(d < 1 for d in dims):
        raise ValueError(f"{name} must have dimensions >= 1, got shape {dims}")
    if math.prod(dims) > most:
        raise ValueError(
            f"{name} has {math.prod(dims)} elements (shape {dims}), more than the {most} allowed"
        )


def _bounds(box: spaces.Box) -> tuple[list[float], list[float]]:
    """A Box's bounds as the engine's lists: [] unbounded, [v] uniform, else all."""

    def one(values: np.ndarray, infinite: float) -> list[float]:
        flat = np.asarray(values, dtype=np.float64).ravel()
        if np.all(flat == infinite):
            return []
        if np.all(flat == flat[0]):
            return [float(flat[0])]
        return [float(v) for v in flat]

    return one(box.low, -np.inf), one(box.high, np.inf)


def _compile(
    reset: Callable[..., Any],
    step: Callable[..., Any],
    state_size: int,
    obs_shape: tuple[int, ...],
    obs_dtype: Any,
    action_space: spaces.Space[Any],
    reset_random: int,
    step_random: int,
) -> tuple[Any, Any]:
    """The C callbacks (cfuncs) around the user's functions (see numba_env.h)."""
    numba = _numba()
    from numba import types

    user_reset = reset if hasattr(reset, "py_func") else numba.njit(reset)
    user_step = step if hasattr(step, "py_func") else numba.njit(step)
    f64p = types.CPointer(types.float64)
    reset_sig = types.int32(f64p, types.voidptr, f64p)
    step_sig = types.int32(
        f64p,
        types.voidptr,
        types.voidptr,
        f64p,
        types.CPointer(types.float32),
        types.CPointer(types.uint8),
    )
    state_shape = (state_size,)
    reset_rand_shape = (reset_random,)
    step_rand_shape = (step_random,)

    @numba.cfunc(reset_sig, nopython=True)
    def c_reset(state_p, obs_p, rand_p):  # type: ignore[no-untyped-def]
        state = numba.carray(state_p, state_shape)
        obs = numba.carray(obs_p, obs_shape, obs_dtype)
        rand = numba.carray(rand_p, reset_rand_shape)
        try:
            user_reset(state, obs, rand)
        except Exception:
            return 1
        return 0

    # The action as the user's step takes it: an int, or a float32 array.
    if isinstance(action_space, spaces.Discrete):

        @numba.njit
        def load_action(action_p):  # type: ignore[no-untyped-def]
            return numba.carray(action_p, (1,), np.int32)[0]

    else:
        action_shape = tuple(int(d) for d in action_space.shape or ())

        @numba.njit
        def load_action(action_p):  # type: ignore[no-untyped-def]
            return numba.carray(action_p, action_shape, np.float32)

    @numba.cfunc(step_sig, nopython=True)
    def c_step(state_p, action_p, obs_p, rand_p, reward_p, term_p):  # type: ignore[no-untyped-def]
        state = numba.carray(state_p, state_shape)
        action = load_action(action_p)
        obs = numba.carray(obs_p, obs_shape, obs_dtype)
        rand = numba.carray(rand_p, step_rand_shape)
        try:
            reward, terminated = user_step(state, action, obs, rand)
        except Exception:
            return 1
        reward_p[0] = reward
        term_p[0] = 1 if terminated else 0
        return 0

    return c_reset, c_step


def register_numba_env(
    task_id: str,
    reset: Callable[..., Any],
    step: Callable[..., Any],
    *,
    state_size: int,
    observation_space: spaces.Box,
    action_space: spaces.Discrete | spaces.Box,
    reset_random: int = 0,
    step_random: int = 0,
    max_episode_steps: int = NO_TIME_LIMIT,
    reward_threshold: float | None = None,
) -> None:
    """Register an env whose ``reset`` and ``step`` are numba nopython functions.

    The engine keeps per env a float64 ``state`` array (``state_size``) and
    calls, from its worker threads:

    - ``reset(state, obs, rand)``: start an episode: fill ``state`` and write
      the first observation into ``obs`` (shaped and typed as
      ``observation_space``);
    - ``step(state, action, obs, rand) -> (reward, terminated)``: one step;
      ``action`` is an int for a ``Discrete`` action space, else a float32
      array of its shape.

    ``rand`` holds ``reset_random`` (for ``reset``) or ``step_random`` (for
    ``step``) uniforms in [0, 1) drawn from the env's own seed stream just
    before the call: the functions' only randomness, so seeding,
    ``reset(seed=...)`` and determinism work as for built-in envs. Time limits, autoreset, env ids
    and batching are the engine's. The functions must compile in numba's
    nopython mode and must not keep references to the arrays between calls.
    An exception inside them becomes a ``RuntimeError`` naming the env, as in a
    built-in env (nopython mode keeps no message).

    Sizes have declared bounds: ``state_size`` in [1, :data:`MAX_STATE_SIZE`],
    ``reset_random`` / ``step_random`` in [0, :data:`MAX_RANDOM`], at most
    :data:`MAX_OBS_SIZE` observation elements and :data:`MAX_ACTION_SIZE` action
    elements; what one env allocates (state and random buffers) counts in the
    memory check when a pool is made.

    Raises:
        ImportError: numba is not installed (``pip install 'envpool-x[numba]'``).
        TypeError / ValueError: a task id that is not valid or taken (checked
            first, before anything is compiled), unsupported spaces, or sizes
            outside their bounds.
        numba.core.errors.TypingError: the functions do not compile.
    """
    check_task_id(task_id)
    obs_dtype = _check_arguments(
        reset,
        step,
        state_size,
        observation_space,
        action_space,
        reset_random,
        step_random,
        max_episode_steps,
        reward_threshold,
    )
    obs_shape = tuple(int(d) for d in observation_space.shape)
    c_reset, c_step = _compile(
        reset, step, state_size, obs_shape, obs_dtype.type, action_space, reset_random, step_random
    )
    obs_low, obs_high = _bounds(observation_space)
    fixed: dict[str, Any] = {
        "reset_fn": int(c_reset.address),
        "step_fn": int(c_step.address),
        "state_size": state_size,
        "obs_shape": [float(d) for d in obs_shape],
        "obs_dtype": obs_dtype.name,
        "obs_low": obs_low,
        "obs_high": obs_high,
        "reset_random": reset_random,
        "step_random": step_random,
    }
    if isinstance(action_space, spaces.Discrete):
        fixed["num_actions"] = int(action_space.n)
    else:
        act_low, act_high = _bounds(action_space)
        fixed.update(
            action_shape=[float(d) for d in action_space.shape],
            action_low=act_low,
            action_high=act_high,
        )

    def keep_fixed(merged: dict[str, Any]) -> None:
        changed = sorted(k for k, v in fixed.items() if merged[k] != v)
        if changed:
            raise KeyError(f"{changed} of {task_id} are set by register_numba_env")

    register(
        task_id,
        "NumbaEnv",
        "user",
        max_episode_steps,
        reward_threshold,
        resolve=keep_fixed,
        env_memory=env_memory,
        **fixed,
    )
    _CALLBACKS[task_id] = (c_reset, c_step)
