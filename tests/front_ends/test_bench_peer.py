"""EnvPool in another interpreter (ENVPOOL_X_PEER_PYTHON) for the benchmarks.

The peer here is this interpreter behind a wrapper script that puts a stand-in
``envpool`` package on its path (envpool_x's own make_gymnasium under
EnvPool's name), so the worker protocol is exercised without EnvPool."""

from __future__ import annotations

import stat
import sys
import textwrap
from pathlib import Path

import pytest

import envpool_x
from envpool_x import bench, bench_peer


@pytest.fixture
def peer(tmp_path, monkeypatch):
    """A fake peer interpreter whose ``envpool`` is envpool_x, version 0.0.1."""
    fake = tmp_path / "site" / "envpool"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(
        "from envpool_x import make_gymnasium\n__version__ = '0.0.1'\n"
    )
    ours = Path(envpool_x.__file__).parents[1]
    python = tmp_path / "python"
    python.write_text(
        textwrap.dedent(f"""\
        #!/bin/sh
        PYTHONPATH={fake.parent}:{ours} exec {sys.executable} "$@"
        """)
    )
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv(bench_peer.PEER_PYTHON_VAR, str(python))
    monkeypatch.setattr(bench_peer, "seen", {})
    return python


@pytest.mark.parametrize("batch_size", [8, 4])  # sync, async
def test_remote_runner_steps_the_peer_in_its_own_process(peer, batch_size):
    runner = bench.envpool_runner("CartPole-v1", 8, batch_size, 1)
    assert runner is not None
    try:
        assert runner.name == "envpool 0.0.1"
        done = [runner.run(100) for _ in range(3)]
        # Whole batches: sync rounds of 8, async rounds of 4 plus the parked ones.
        assert all(d >= 96 and d % batch_size == 0 for d in done), done
        assert len(runner.own_rates) == 3 and all(r > 0 for r in runner.own_rates)
    finally:
        runner.close()
    assert bench.envpool_version() == "0.0.1"
    assert "Python" in bench_peer.version_text()


def test_a_task_the_peer_lacks_is_left_out_with_its_reason(peer, capsys):
    assert bench.envpool_runner("NoSuchTask-v0", 4, 4, 1) is None
    assert "cannot make NoSuchTask-v0" in capsys.readouterr().err


def test_a_peer_python_that_does_not_exist_is_an_error(monkeypatch, tmp_path):
    monkeypatch.setenv(bench_peer.PEER_PYTHON_VAR, str(tmp_path / "python3.12"))
    with pytest.raises(FileNotFoundError, match="ENVPOOL_X_PEER_PYTHON"):
        bench.envpool_runner("CartPole-v1", 4, 4, 1)


def test_without_the_variable_the_local_envpool_is_used(monkeypatch):
    monkeypatch.delenv(bench_peer.PEER_PYTHON_VAR, raising=False)
    assert bench_peer.peer_python() is None


def test_the_peer_gets_the_extra_keywords(peer, capsys):
    """Keywords beyond the pool's size (pixel observations in bench_pixels.py)
    reach the peer's make_gymnasium: a valid one makes the pool, a bad one is
    the peer's error, named on stderr."""
    worker = bench_peer.start_worker(str(peer), "CartPole-v1", 4, 4, 1, {"max_episode_steps": 5})
    assert worker is not None
    try:
        assert worker.measure(40)[0] >= 40
    finally:
        worker.close()
    bad = bench_peer.start_worker(str(peer), "CartPole-v1", 4, 4, 1, {"no_such_key": 1})
    assert bad is None
    assert "no_such_key" in capsys.readouterr().err
