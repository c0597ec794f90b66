"""The ``envpool-x`` command line (also ``python -m envpool_x``): list, info, bench."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from importlib import metadata

import pytest

import envpool_x
from conftest import CLASSIC_TASKS
from envpool_x import bench, cli

CLASSIC = CLASSIC_TASKS

# A table row: name, steps/s with thousands separators, ratio such as "1.00x".
ROW = re.compile(r"^(.+?)\s+([\d,]+)\s+(\d+\.\d\d)x$")


def run_module(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "envpool_x", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def parse_table(stdout: str) -> dict[str, tuple[float, float]]:
    """runner name -> (steps/s, ratio) from bench's table on stdout."""
    lines = [ln for ln in stdout.splitlines() if ln.strip()]
    header = next(i for i, ln in enumerate(lines) if ln.split()[:2] == ["runner", "steps/s"])
    assert "envpool_x / runner" in lines[header]
    rows = {}
    for ln in lines[header + 1 :]:
        m = ROW.match(ln.strip())
        assert m, f"not a table row: {ln!r}"
        rows[m.group(1)] = (float(m.group(2).replace(",", "")), float(m.group(3)))
    return rows


def families(stdout: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    current = None
    for ln in stdout.splitlines():
        if ln.endswith(":") and not ln.startswith(" "):
            current = ln[:-1]
            out[current] = []
        elif ln.strip():
            assert current is not None, f"id before any family: {ln!r}"
            out[current].append(ln.strip())
    return out


# ---- list ----------------------------------------------------------------------


def test_list_via_module():
    proc = run_module("list")
    assert proc.returncode == 0, proc.stderr
    fams = families(proc.stdout)
    assert set(CLASSIC) <= set(fams["classic_control"])
    listed = [t for ids in fams.values() for t in ids]
    assert "CartPole-v1" in listed
    # Every registered id is listed exactly once (a fresh process has only the built-ins).
    assert sorted(listed) == sorted(set(listed))


def test_list_via_main(capsys):
    assert cli.main(["list"]) == 0
    fams = families(capsys.readouterr().out)
    listed = [t for ids in fams.values() for t in ids]
    assert sorted(listed) == sorted(envpool_x.list_all_envs())
    assert fams["classic_control"][:6] == CLASSIC


# ---- info ----------------------------------------------------------------------


def test_info_via_module():
    proc = run_module("info", "CartPole-v1")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "task: CartPole-v1" in out
    assert "observation_space: Box(" in out and "(4,), float32" in out
    assert "action_space: Discrete(2)" in out
    assert "reward_threshold: 475.0" in out
    assert "num_envs = 1" in out
    assert "max_episode_steps = 500" in out
    assert "seed = 42" in out
    assert "autoreset_mode = 'next_step'" in out


@pytest.mark.parametrize("task", CLASSIC)
def test_info_via_main_shows_every_config_key(task, capsys):
    assert cli.main(["info", task]) == 0
    out = capsys.readouterr().out
    spec = envpool_x.make_spec(task)
    assert f"observation_space: {spec.observation_space}" in out
    assert f"action_space: {spec.action_space}" in out
    for key, value in spec.config_dict().items():
        assert f"  {key} = {value!r}" in out


def test_info_num_envs_prints_the_memory_estimate(capsys):
    from envpool_x import memory

    assert cli.main(["info", "CartPole-v1", "--num-envs", "1000000"]) == 0
    out = capsys.readouterr().out
    assert "num_envs = 1000000" in out
    est = memory.estimate(envpool_x.make_spec("CartPole-v1", num_envs=10**6))
    assert f"memory estimate for num_envs=1000000: {memory.fmt_bytes(est.resident)}" in out
    assert "  outputs: " in out and "  bookkeeping: " in out
    assert "available: " in out and "MemAvailable" in out
    assert "largest num_envs that fits (memory): " in out


# ---- bench ---------------------------------------------------------------------


def test_bench_no_peers_via_main(capsys):
    args = ["bench", "CartPole-v1", "--num-envs", "8", "--steps", "2000", "--rounds", "1"]
    assert cli.main([*args, "--quiet", "--no-peers"]) == 0
    captured = capsys.readouterr()
    rows = parse_table(captured.out)
    assert list(rows) == ["envpool_x"]
    rate, ratio = rows["envpool_x"]
    assert rate > 0 and ratio == 1.0
    assert "num_envs=8" in captured.err and "(sync)" in captured.err


def test_bench_no_peers_via_module():
    proc = run_module(
        "bench", "CartPole-v1", "--num-envs", "8", "--steps", "2000", "--rounds", "1",
        "--quiet", "--no-peers",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    rows = parse_table(proc.stdout)
    assert list(rows) == ["envpool_x"] and rows["envpool_x"][0] > 0
    assert "step/s" not in proc.stderr  # --quiet: no progress bar


def test_bench_async_via_main(capsys):
    argv = ["bench", "Pendulum-v1", "--num-envs", "8", "--batch-size", "4", "--num-threads", "2"]
    argv += ["--steps", "1000", "--rounds", "1", "--quiet", "--no-peers"]
    assert cli.main(argv) == 0
    captured = capsys.readouterr()
    assert "batch_size=4" in captured.err and "(async)" in captured.err
    assert list(parse_table(captured.out)) == ["envpool_x"]


def test_bench_with_peers_via_module():
    proc = run_module(
        "bench", "CartPole-v1", "--num-envs", "4", "--steps", "500", "--rounds", "1", "--quiet"
    )
    assert proc.returncode == 0, proc.stderr
    rows = parse_table(proc.stdout)
    assert next(iter(rows)) == "envpool_x"
    gym_rows = [name for name in rows if name.startswith("gymnasium[")]
    assert gym_rows, rows
    assert "gymnasium[sync]" in rows
    if importlib.util.find_spec("envpool") is not None:
        # The peer's row names the EnvPool version that ran.
        assert f"envpool {metadata.version('envpool')}" in rows
    note = bench.peer_note()
    assert (note is None) == ("note:" not in proc.stderr)
    assert "precision lowered" not in proc.stderr  # the peer's gymnasium warnings
    ours = rows["envpool_x"][0]
    for _name, (rate, ratio) in rows.items():
        assert rate > 0
        # The ratio column is envpool_x's rate over the row's, to 2 decimals.
        assert ratio == pytest.approx(ours / rate, rel=0.01, abs=0.006)


def test_bench_progress_bar_stays_off_stdout():
    proc = run_module(
        "bench", "CartPole-v1", "--num-envs", "4", "--steps", "500", "--rounds", "1",
        "--no-peers",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    # Without --quiet a progress bar is drawn, on stderr: stdout is only the table.
    assert list(parse_table(proc.stdout)) == ["envpool_x"]
    # One tick per runner's round, with that runner's own rate (never one rate
    # over ours and the peers' together).
    assert "1/1 rounds" in proc.stderr
    assert re.search(r"envpool_x [0-9.e+]+ steps/s", proc.stderr), proc.stderr


# ---- errors --------------------------------------------------------------------


@pytest.mark.parametrize("command", ["bench", "info"])
def test_unknown_task_exits_2_with_suggestion_via_module(command):
    extra = ["--quiet", "--no-peers"] if command == "bench" else []
    proc = run_module(command, "CartPole-v2", *extra)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "envpool-x: error:" in proc.stderr
    assert "unknown task id 'CartPole-v2'" in proc.stderr
    assert "did you mean 'CartPole-v1'" in proc.stderr
    assert proc.stdout == ""


def test_unknown_task_via_main(capsys):
    assert cli.main(["info", "Pendulm-v1"]) == 2
    err = capsys.readouterr().err
    assert "unknown task id 'Pendulm-v1'" in err and "'Pendulum-v1'" in err


def test_bad_bench_config_exits_2(capsys):
    # batch_size > num_envs is rejected by make(), reported as a usage error.
    argv = ["bench", "CartPole-v1", "--num-envs", "2", "--batch-size", "4", "--quiet"]
    assert cli.main([*argv, "--no-peers"]) == 2
    assert "batch_size=4 must not exceed num_envs=2" in capsys.readouterr().err


def test_missing_or_unknown_subcommand_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main([])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        cli.main(["frobnicate"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


# ---- console script --------------------------------------------------------------


def test_console_script():
    bindir = os.path.dirname(sys.executable)
    script = shutil.which("envpool-x", path=bindir)
    if script is None:
        pytest.skip("envpool-x is not installed as a script next to this interpreter")
    proc = subprocess.run([script, "list"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "CartPole-v1" in families(proc.stdout)["classic_control"]
    proc = subprocess.run([script, "info", "NoSuchTask-v0"], capture_output=True, text=True)
    assert proc.returncode == 2 and "unknown task id" in proc.stderr


def test_raw_runner_with_threads_runs_that_many_loops():
    """bench.raw_runner(threads=2): two plain loops at once, their rates summed
    (the benchmarks' hardware ceiling column)."""
    from envpool_x import bench

    single = bench.raw_runner("CartPole-v1", 1)
    pair = bench.raw_runner("CartPole-v1", 1, "two", threads=2)
    assert single.run(20_000) == 20_000
    assert pair.run(20_000) == 20_000  # 10,000 steps on each thread
    assert len(pair.own_rates) == 1 and pair.own_rates[0] > 0
    with pytest.raises(ValueError, match="threads must be >= 1"):
        bench.raw_runner("CartPole-v1", 1, threads=0)


@pytest.mark.parametrize(
    ("installed", "python", "expected"),
    [
        ("1.2.7", (3, 12), None),
        ("1.2.5", (3, 11), "newest this Python 3.11 installs"),
        ("1.2.5", (3, 12), "pip install envpool==1.2.7"),
        ("", (3, 11), "no EnvPool installed"),
    ],
)
def test_peer_note_says_which_envpool_ran(monkeypatch, installed, python, expected):
    """The bench says when the peer is not the newest EnvPool, and how to get it."""
    monkeypatch.setattr(bench, "envpool_version", lambda: installed)
    note = bench.peer_note(python)
    if expected is None:
        assert note is None
    else:
        assert note is not None and expected in note
