"""Bad input to the users' env functions: register_numba_env's sizes and spaces
(declared bounds, checked before numba compiles), and the trust of
register_cpp_env's module cache (a private folder; no folder or module another
user owns or can write)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium import spaces

import envpool_x
from envpool_x.user_envs import numba_env

OBS = spaces.Box(-1.0, 1.0, (2,))


def _never_compiled(*args: Any) -> Any:
    raise AssertionError("arguments are checked before numba compiles anything")


def _register(task: str, **kw: Any) -> None:
    args: dict[str, Any] = {
        "state_size": 1,
        "observation_space": OBS,
        "action_space": spaces.Discrete(2),
    }
    args.update(kw)
    envpool_x.register_numba_env(task, _never_compiled, _never_compiled, **args)


@pytest.mark.parametrize(
    ("kw", "exc", "match"),
    [
        ({"step_random": 10**12}, ValueError, r"step_random must be an int in \[0, 1048576\]"),
        ({"reset_random": 2**31}, ValueError, r"reset_random must be an int in \[0, 1048576\]"),
        ({"step_random": -1}, ValueError, r"step_random must be an int in \[0, 1048576\], got -1"),
        ({"step_random": 1.5}, TypeError, "step_random must be an int .* got float"),
        ({"reset_random": True}, TypeError, "reset_random must be an int .* got bool"),
        ({"state_size": 0}, ValueError, r"state_size must be an int in \[1, 268435456\], got 0"),
        ({"state_size": 2**40}, ValueError, r"state_size must be an int in \[1, 268435456\]"),
        ({"state_size": "8"}, TypeError, "state_size must be an int .* got str"),
        ({"max_episode_steps": 0}, ValueError, r"max_episode_steps must be an int in \[1, "),
        ({"max_episode_steps": 2**31}, ValueError, r"max_episode_steps must be an int in \[1, "),
        ({"reward_threshold": float("nan")}, TypeError, "reward_threshold must be a finite"),
        ({"observation_space": spaces.Discrete(3)}, TypeError, "must be a gymnasium Box"),
        (
            {"observation_space": spaces.Box(0, 1, (0, 3))},
            ValueError,
            r"observation_space must have dimensions >= 1, got shape \(0, 3\)",
        ),
        (
            {"observation_space": spaces.Box(0, 1, (2,), dtype=np.uint8)},
            ValueError,
            "observation dtype must be one of",
        ),
        ({"action_space": spaces.Discrete(2**31)}, ValueError, r"action_space.n must be an int"),
        ({"action_space": spaces.Discrete(3, start=1)}, ValueError, "must start at 0, got 1"),
        (
            {"action_space": spaces.Box(-1.0, 1.0, (1 << 17,))},
            ValueError,
            "action_space has 131072 elements",
        ),
        (
            {"action_space": spaces.Box(-1.0, 1.0, (2,), dtype=np.float64)},
            TypeError,
            "action_space must be a Discrete or a float32 Box",
        ),
        ({"action_space": spaces.MultiBinary(3)}, TypeError, "must be a Discrete or a float32"),
    ],
    ids=lambda v: repr(v)[:60],
)
def test_numba_arguments_out_of_bounds_are_refused_before_compiling(
    kw: dict[str, Any], exc: type[Exception], match: str
) -> None:
    before = set(envpool_x.list_all_envs())
    with pytest.raises(exc, match=match):
        _register("NumbaBounds-v0", **kw)
    assert set(envpool_x.list_all_envs()) == before


def test_a_too_large_observation_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # A smaller bound than MAX_OBS_SIZE: a Box above it would itself take gigabytes.
    monkeypatch.setattr(numba_env, "MAX_OBS_SIZE", 100)
    with pytest.raises(
        ValueError,
        match=r"observation_space has 110 elements \(shape \(11, 10\)\), more than the 100",
    ):
        _register("NumbaBigObs-v0", observation_space=spaces.Box(0, 1, (11, 10)))


def test_numba_functions_must_be_callable() -> None:
    with pytest.raises(TypeError, match="step must be a function, got int"):
        envpool_x.register_numba_env(
            "NumbaNotCallable-v0",
            _never_compiled,
            3,  # type: ignore[arg-type]
            state_size=1,
            observation_space=OBS,
            action_space=spaces.Discrete(2),
        )


def test_the_bounds_are_what_the_docstring_says() -> None:
    doc = envpool_x.register_numba_env.__doc__ or ""
    for name in ("MAX_STATE_SIZE", "MAX_RANDOM", "MAX_OBS_SIZE", "MAX_ACTION_SIZE"):
        assert name in doc
    assert numba_env.MAX_RANDOM < 2**31  # the engine counts uniforms in int32
