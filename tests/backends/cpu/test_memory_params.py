"""The per-env parameter tables (docs/params.md) and the memory check: a first
``set_params`` makes ``num_envs x`` parameter-count entries, checked then
(MemoryError, nothing changed) and shown by ``describe``."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x
from conftest import run_python
from envpool_x import memory
from envpool_x.memory_available import Available


def _tables(task: str, num_envs: int) -> int:
    return memory.param_table_bytes(envpool_x.make_spec(task, num_envs=num_envs))


def test_the_tables_grow_with_envs_and_parameters() -> None:
    cartpole, pendulum = (envpool_x.make_spec(t).params for t in ("CartPole-v1", "Pendulum-v1"))
    assert len(cartpole) > len(pendulum) > 0
    assert _tables("CartPole-v1", 2000) == 2 * _tables("CartPole-v1", 1000) > 0
    assert _tables("CartPole-v1", 1000) > _tables("Pendulum-v1", 1000)
    # Per env and parameter the same bytes, up to a constant per env.
    per_param = (_tables("CartPole-v1", 1) - _tables("Pendulum-v1", 1)) / (
        len(cartpole) - len(pendulum)
    )
    assert per_param > 8  # at least the value (a double) of each
    assert 0 <= _tables("CartPole-v1", 1) - per_param * len(cartpole) < per_param
    assert _tables("Blackjack-v1", 1000) == 0  # no parameters, no tables
    assert not envpool_x.make_spec("Blackjack-v1").params
    spec = envpool_x.make_spec("CartPole-v1", num_envs=1000)
    assert any("parameter tables" in line for line in memory.describe(spec))


# Measured in a fresh interpreter: in a test worker that ran other tests,
# malloc hands the tables memory it already holds, and RSS does not grow.
_MEASURE = """
import os, envpool_x
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
env = envpool_x.make_gymnasium("CartPole-v1", num_envs=100_000, num_threads=1)
env.reset()
before = rss()
env.set_params(gravity=11.0)
print(rss() - before)
"""


def test_the_count_covers_what_set_params_allocates(tmp_path) -> None:
    """The tables a first set_params makes (RSS growth of a large pool) fit in
    the count and fill most of it (a staged table, made only for settings
    given while an env is in flight, is the rest)."""
    grown = int(run_python(["-c", _MEASURE], cwd=tmp_path).stdout.split()[-1])
    assert 0.3 * _tables("CartPole-v1", 100_000) < grown <= _tables("CartPole-v1", 100_000)


def test_tables_that_do_not_fit_are_refused_before_they_are_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=1000, seed=0)
    need = _tables("CartPole-v1", 1000)
    tight = Available(need - 1, None, None, {"test": need - 1})
    monkeypatch.setattr(memory, "available", lambda spec=None: tight)
    for call in (
        lambda: env.set_params(gravity=11.0),
        lambda: env.reset(options={"params": {"gravity": 11.0}}),
    ):
        with pytest.raises(MemoryError, match="parameter tables"):
            call()
        np.testing.assert_array_equal(env.get_params()["gravity"], np.full(1000, 9.8))
    roomy = Available(need, None, None, {"test": need})
    monkeypatch.setattr(memory, "available", lambda spec=None: roomy)
    env.set_params(gravity=11.0)
    monkeypatch.setattr(memory, "available", lambda spec=None: tight)
    env.set_params(gravity=12.0)  # the tables exist: nothing more to check
    env.reset()
    np.testing.assert_array_equal(env.get_params()["gravity"], np.full(1000, 12.0))
    env.close()
    unchecked = envpool_x.make_gymnasium("CartPole-v1", num_envs=10, check_memory=False)
    monkeypatch.setattr(memory, "available", lambda spec=None: Available(0, 0, None, {}))
    unchecked.set_params(gravity=11.0)  # check_memory=False: no check
    unchecked.close()
