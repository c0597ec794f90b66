"""Bad input to the users' env functions: register_numba_env's sizes and spaces
(declared bounds, checked before numba compiles), and the trust of
register_cpp_env's module cache (a private folder; no folder or module another
user owns or can write)."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces

import envpool_x
from envpool_x.user_envs import UntrustedCacheError, cpp_env, numba_env

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


# ---- register_cpp_env's cache: private, and trusted only when private -------------

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "user_envs"
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
NOBODY = 65534


@pytest.fixture(scope="module")
def built_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache (a private folder) holding the example CartPole's module."""
    root = tmp_path_factory.mktemp("trusted") / "cache"
    old = os.environ.get("ENVPOOL_X_CACHE_DIR")
    os.environ["ENVPOOL_X_CACHE_DIR"] = str(root)
    try:
        cpp_env.build_module(EXAMPLES / "cartpole.h", "user::CartPole")
    finally:
        if old is None:
            del os.environ["ENVPOOL_X_CACHE_DIR"]
        else:
            os.environ["ENVPOOL_X_CACHE_DIR"] = old
    return root


@pytest.fixture
def cache(built_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of ``built_cache`` for one test to change, as ENVPOOL_X_CACHE_DIR."""
    root = tmp_path / "cache"
    shutil.copytree(built_cache, root)
    monkeypatch.setenv("ENVPOOL_X_CACHE_DIR", str(root))
    return root


def _module(root: Path) -> Path:
    (module,) = (root / "cpp_envs").glob("*/user_CartPole.so")
    return module


def _build() -> Path:
    return cpp_env.build_module(EXAMPLES / "cartpole.h", "user::CartPole")


def test_a_new_cache_is_private(built_cache: Path) -> None:
    module = _module(built_cache)
    for folder in (built_cache, built_cache / "cpp_envs", module.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    assert stat.S_IMODE(module.stat().st_mode) == 0o600


def test_a_private_cache_is_used(cache: Path) -> None:
    assert _build() == _module(cache)


@pytest.mark.parametrize(
    ("mode", "who"),
    [(0o777, "group and others"), (0o775, "its group"), (0o757, "group and others")],
)
@pytest.mark.parametrize("where", ["root", "cpp_envs", "key"])
def test_a_cache_folder_others_can_write_is_refused(
    cache: Path, mode: int, who: str, where: str
) -> None:
    folder = {"root": cache, "cpp_envs": cache / "cpp_envs", "key": _module(cache).parent}[where]
    os.chmod(folder, mode)
    with pytest.raises(UntrustedCacheError, match=rf"can be written by {who} \(mode {mode:#o}\)"):
        _build()
    os.chmod(folder, 0o700)
    assert _build() == _module(cache)


def test_a_shared_cache_folder_is_refused_before_compiling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    monkeypatch.setenv("ENVPOOL_X_CACHE_DIR", str(shared))
    before = set(envpool_x.list_all_envs())
    with pytest.raises(UntrustedCacheError, match="point ENVPOOL_X_CACHE_DIR at a folder"):
        envpool_x.register_cpp_env("SharedCache-v0", EXAMPLES / "cartpole.h", "user::CartPole")
    assert list(shared.iterdir()) == []  # nothing compiled or written
    assert set(envpool_x.list_all_envs()) == before


@pytest.mark.parametrize("mode", [0o666, 0o620, 0o602])
def test_a_cached_module_others_can_write_is_not_loaded(cache: Path, mode: int) -> None:
    module = _module(cache)
    os.chmod(module, mode)
    with pytest.raises(UntrustedCacheError, match="cached module .* can be written by"):
        _build()
    with pytest.raises(UntrustedCacheError, match="module .* can be written by"):
        cpp_env.CppEnvPoolClass(module)  # the check before loading, whoever asks
    before = set(envpool_x.list_all_envs())
    with pytest.raises(UntrustedCacheError):
        envpool_x.register_cpp_env("Planted-v0", EXAMPLES / "cartpole.h", "user::CartPole")
    assert set(envpool_x.list_all_envs()) == before


@pytest.mark.skipif(not IS_ROOT, reason="owning a file as another user needs root")
@pytest.mark.parametrize("what", ["root", "module"])
def test_a_folder_or_module_of_another_user_is_refused(cache: Path, what: str) -> None:
    path = cache if what == "root" else _module(cache)
    os.chown(path, NOBODY, -1)
    with pytest.raises(UntrustedCacheError, match=rf"belongs to .*uid {NOBODY}"):
        _build()
