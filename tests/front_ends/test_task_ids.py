"""Task ids of the register functions: one check (registration.check_task_id)
before any side effect, in envpool_x.register, register_cpp_env and
register_numba_env; a bad id leaves nothing registered, compiled or mirrored."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import pytest
from gymnasium import spaces

import envpool_x
from envpool_x import registration

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "user_envs"

# (bad id, exception type, a part of its message)
BAD_IDS: list[tuple[Any, type[Exception], str]] = [
    ("", ValueError, "must not be empty"),
    (" ", ValueError, r"not valid \(the character\(s\) \[' '\]\)"),
    ("My Env-v0", ValueError, r"not valid \(the character\(s\) \[' '\]\)"),
    ("Tab\tEnv-v0", ValueError, r"the character\(s\) \['\\t'\]"),
    ("New\nLine-v0", ValueError, r"the character\(s\) \['\\n'\]"),
    (" Lead-v0", ValueError, "not valid"),
    ("Trail-v0 ", ValueError, "not valid"),
    ("ns/Env-v0", ValueError, r"the character\(s\) \['/'\]"),
    ("module:Env-v0", ValueError, r"the character\(s\) \[':'\]"),
    ("Caf\u00e9-v0", ValueError, "not valid"),
    ("-Dash-v0", ValueError, "its first character"),
    ("Env-v01", ValueError, "leading zero"),
    ("x" * 129, ValueError, "129 characters, more than the 128 allowed"),
    (42, TypeError, r"task_id must be a str, got int \(42\)"),
    (None, TypeError, "task_id must be a str, got NoneType"),
    (b"Bytes-v0", TypeError, "task_id must be a str, got bytes"),
    (("Tuple-v0",), TypeError, "task_id must be a str, got tuple"),
]


def test_every_registered_id_is_valid() -> None:
    ids = envpool_x.list_all_envs()
    assert len(ids) > 100
    for task_id in ids:
        registration.check_task_id(task_id, new=False)


@pytest.mark.parametrize(("bad", "exc", "match"), BAD_IDS, ids=repr)
def test_register_refuses_a_bad_id_and_registers_nothing(
    bad: Any, exc: type[Exception], match: str
) -> None:
    before = set(envpool_x.list_all_envs()), set(gymnasium.registry)
    with pytest.raises(exc, match=match):
        envpool_x.register(bad, "CartPole", "classic_control", 10)
    assert (set(envpool_x.list_all_envs()), set(gymnasium.registry)) == before


def test_an_alias_in_a_build_without_its_family_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """EnvPool-style aliases (MetaWorld/Reach-v3, FetchReach-v1, HandReach-v0)
    of a family this build lacks raise the family's hint, as its own ids do."""
    monkeypatch.setattr(registration, "_NOT_BUILT", {})
    note = registration.alias_if_built(False, "rebuild with ENVPOOL_X_SOMEFAMILY=ON")
    note("Some/Task-v1", "SomeTask-v1")
    with pytest.raises(KeyError, match="ENVPOOL_X_SOMEFAMILY=ON"):
        envpool_x.make_spec("Some/Task-v1")
    assert registration.alias_if_built(True, "unused") is registration.register_alias


@pytest.mark.parametrize(("bad", "exc", "match"), BAD_IDS, ids=repr)
def test_register_cpp_env_checks_the_id_before_compiling(
    bad: Any, exc: type[Exception], match: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ENVPOOL_X_CACHE_DIR", str(tmp_path / "cache"))
    before = set(envpool_x.list_all_envs())
    with pytest.raises(exc, match=match):
        envpool_x.register_cpp_env(bad, EXAMPLES / "cartpole.h", "user::CartPole")
    assert not (tmp_path / "cache").exists()  # nothing compiled, no cache folder made
    assert set(envpool_x.list_all_envs()) == before


def _never_compiled(*args: Any) -> Any:
    raise AssertionError("the id is checked before numba compiles anything")


@pytest.mark.parametrize(("bad", "exc", "match"), BAD_IDS, ids=repr)
def test_register_numba_env_checks_the_id_before_compiling(
    bad: Any, exc: type[Exception], match: str
) -> None:
    before = set(envpool_x.list_all_envs())
    with pytest.raises(exc, match=match):
        envpool_x.register_numba_env(
            bad,
            _never_compiled,
            _never_compiled,
            state_size=1,
            observation_space=spaces.Box(-1.0, 1.0, (1,)),
            action_space=spaces.Discrete(2),
        )
    assert set(envpool_x.list_all_envs()) == before


def test_a_taken_id_is_refused_before_compiling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ENVPOOL_X_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(ValueError, match="'CartPole-v1' is already registered"):
        envpool_x.register_cpp_env("CartPole-v1", EXAMPLES / "cartpole.h", "user::CartPole")
    assert not (tmp_path / "cache").exists()
    with pytest.raises(ValueError, match="'CartPole-v1' is already registered"):
        envpool_x.register_numba_env(
            "CartPole-v1",
            _never_compiled,
            _never_compiled,
            state_size=1,
            observation_space=spaces.Box(-1.0, 1.0, (1,)),
            action_space=spaces.Discrete(2),
        )


def test_a_mirror_that_refuses_the_id_leaves_it_unregistered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(entry: registration.TaskEntry) -> None:
        raise RuntimeError(f"mirror refused {entry.task_id}")

    listeners: list[Callable[[registration.TaskEntry], None]] = [refuse]
    monkeypatch.setattr(registration, "_LISTENERS", listeners)
    with pytest.raises(RuntimeError, match="mirror refused Mirrored-v0"):
        envpool_x.register("Mirrored-v0", "CartPole", "classic_control", 10)
    assert "Mirrored-v0" not in envpool_x.list_all_envs()


def test_valid_ids_of_every_shape_register() -> None:
    for task_id in ("Plain", "With_Under.dot-v0", "9Lives-v12", "a", "x" * 128):
        envpool_x.register(task_id, "CartPole", "classic_control", 10)
        assert f"envpool_x/{task_id}" in gymnasium.registry
        env = envpool_x.make_gymnasium(task_id, num_envs=1)
        env.close()
