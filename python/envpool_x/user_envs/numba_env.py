"""``register_numba_env``: an env written in Python, compiled by numba to C
callbacks that the engine's worker threads call without the GIL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces

from envpool_x.registration import NO_TIME_LIMIT, check_task_id, register

OBS_DTYPES = ("float32", "float64", "int32")
# The compiled callbacks of every registered numba env: the engine holds only
# their addresses, so they must live as long as the process.
_CALLBACKS: dict[str, tuple[Any, Any]] = {}


def _numba() -> Any:
    try:
        import numba
    except ImportError as e:
        raise ImportError("register_numba_env needs numba: pip install 'envpool-x[numba]'") from e
    return numba


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

    Raises:
        ImportError: numba is not installed (``pip install 'envpool-x[numba]'``).
        TypeError / ValueError: a task id that is not valid or taken (checked
            first, before anything is compiled), unsupported spaces or sizes.
        numba.core.errors.TypingError: the functions do not compile.
    """
    check_task_id(task_id)  # before anything is compiled
    if not isinstance(observation_space, spaces.Box):
        raise TypeError("observation_space must be a gymnasium Box")
    obs_dtype = np.dtype(observation_space.dtype)
    if obs_dtype.name not in OBS_DTYPES:
        raise ValueError(f"observation dtype must be one of {OBS_DTYPES}, got {obs_dtype}")
    if isinstance(action_space, spaces.Discrete):
        if int(action_space.start) != 0:
            raise ValueError("a Discrete action space must start at 0")
    elif not (isinstance(action_space, spaces.Box) and action_space.dtype == np.float32):
        raise TypeError("action_space must be a Discrete or a float32 Box")
    if isinstance(state_size, bool) or not isinstance(state_size, int) or state_size < 1:
        raise ValueError(f"state_size must be an int >= 1, got {state_size!r}")
    for name, count in (("reset_random", reset_random), ("step_random", step_random)):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"{name} must be an int >= 0, got {count!r}")
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
        **fixed,
    )
    _CALLBACKS[task_id] = (c_reset, c_step)
