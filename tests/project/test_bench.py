"""The measuring helpers behind benchmarks/: paired ratios and measure()'s
slice sizing and shuffled order (what they compute, not how fast anything is)."""

from __future__ import annotations

import math
import threading
import time

import numpy as np
import pytest

from envpool_x import bench


def fake_runner(name: str, rates: list[float]) -> bench.Runner:
    """A runner whose k-th measured round reports rates[k] by its own clock."""
    runner = bench.Runner(name, lambda n: 0)
    runner.own_rates = [0.0, *rates]  # the first entry is the calibration call
    return runner


def test_paired_ratio_cancels_drift_that_moves_both_runners():
    # The host's speed swings by 2x from round to round; a is always 0.9 x b.
    speed = [1.0, 2.0, 0.5, 1.5, 1.0, 2.0, 0.7]
    b = fake_runner("b", [100.0 * s for s in speed])
    a = fake_runner("a", [90.0 * s for s in speed])
    mid, lo, hi = bench.paired_ratio(a, b)
    assert mid == pytest.approx(0.9)
    assert lo == pytest.approx(0.9) and hi == pytest.approx(0.9)
    # ... which the ratio of per-runner medians would not give in general:
    assert bench.paired_ratio(a, b, scale=2.0)[0] == pytest.approx(0.45)


def test_paired_ratio_interval_brackets_the_median_of_noisy_ratios():
    b = fake_runner("b", [100.0] * 9)
    a = fake_runner("a", [80.0, 85.0, 90.0, 95.0, 100.0, 105.0, 110.0, 90.0, 92.0])
    mid, lo, hi = bench.paired_ratio(a, b)
    assert mid == pytest.approx(0.92)
    assert lo <= mid <= hi
    assert lo < hi


def test_paired_ratio_without_rounds_is_nan():
    a, b = fake_runner("a", []), fake_runner("b", [])
    a.own_rates, b.own_rates = [], []
    assert all(math.isnan(x) for x in bench.paired_ratio(a, b))


def test_measure_sizes_slices_and_shuffles_the_order():
    order: list[str] = []

    def make(name: str, steps_per_s: float) -> bench.Runner:
        runner = bench.Runner(name, lambda n: 0)

        def run(n: int) -> int:
            order.append(name)
            runner.own_rates.append(steps_per_s)
            return n

        runner.run = run
        return runner

    runners = [make("a", 1000.0), make("b", 10.0), make("c", 100.0)]
    bench.measure(runners, 10**6, rounds=20, progress=False, slice_seconds=0.5, shuffle=True)
    for r, rate in zip(runners, (1000.0, 10.0, 100.0), strict=True):
        # One round each, every round sized to ~0.5 s of that runner's rate;
        # the calibration calls left no extra rates behind.
        assert r.steps == [int(rate * 0.5)] * 20
        assert len(r.rates) == 20
    rounds = [order[-60:][3 * k : 3 * k + 3] for k in range(20)]
    assert all(sorted(rnd) == ["a", "b", "c"] for rnd in rounds)
    assert len({tuple(rnd) for rnd in rounds}) > 1  # not the same order every round


def test_work_a_runner_leaves_running_is_not_timed_as_the_next_ones():
    """EnvPool fills its next result buffers on a thread of its own after a
    step returns; measure() (and the peer's worker) wait until the process is
    idle before the next runner's clock starts."""
    from envpool_x.bench_peer_worker import wait_until_idle

    wait_until_idle()  # whatever earlier tests left running in this process
    busy_until = time.perf_counter() + 0.3

    def leave_work(n: int) -> int:
        def spin() -> None:
            while time.perf_counter() < busy_until:
                pass

        threading.Thread(target=spin).start()
        return 1

    timed_after: list[float] = []

    def after(n: int) -> int:
        timed_after.append(time.perf_counter())
        return n

    runners = [bench.Runner("leaves work", leave_work), bench.Runner("next", after)]
    bench.measure(runners, 1, rounds=1, progress=False)
    assert timed_after[-1] >= busy_until  # the round's call (the first calibrates)


def test_raw_loops_step_with_uniform_actions_like_the_pools():
    """The raw C++ loops (the efficiency baseline) cycle through pre-drawn
    uniform actions over the whole action set, as the benchmarks' pools get:
    a fixed cheap pattern (Pong's NOOP/FIRE leaves the paddle still, so fewer
    screen rows change) would make the baseline do less work per step."""
    from envpool_x import _core

    picks = _core.raw_loop_actions(6, 0)
    assert len(picks) == 64
    assert set(picks) == set(range(6))  # every action of Pong's minimal set
    assert picks != [k % 2 for k in range(64)]
    assert _core.raw_loop_actions(6, 0) == picks  # the same for every run
    assert _core.raw_loop_actions(6, 1) != picks  # each raw loop thread its own
    counts = [picks.count(a) for a in range(6)]
    assert min(counts) >= 4  # 64 draws of 6: roughly uniform, none starved
    assert set(_core.raw_loop_actions(1, 0)) == {0}


@pytest.mark.parametrize("num_envs", [64, 128, 63, 65])
def test_raw_loops_vary_each_envs_action_for_every_loop_size(num_envs):
    """Each env of a raw loop cycles through the pre-drawn actions, whatever
    the loop's size: a CartPole env pushed one way forever falls after ~10
    steps, one under uniform random actions after ~22. Cycling by the step
    count alone gave every env of a 64-env loop a single action forever."""
    from envpool_x import make_spec
    from envpool_x.registration import lookup

    cls = lookup("CartPole-v1").pool_class
    config = make_spec("CartPole-v1").env_config
    steps = num_envs * 400
    _, episodes = cls.raw_loop(config, num_envs, steps, 0, 500)
    mean_length = steps / max(episodes, 1)
    # Uniform random actions: ~22 steps an episode (gymnasium's CartPole under
    # random actions); one fixed push: under 11.
    assert 16.0 < mean_length < 32.0, mean_length


def test_raw_loops_end_episodes_at_the_pools_time_limit():
    """The raw loop resets an env at the task's time limit, as a pool does, so
    both step the same episodes (a MuJoCo episode that never ends drifts into
    states whose steps cost another amount than those after a reset)."""
    from envpool_x import make_spec
    from envpool_x.registration import lookup

    cls = lookup("FaultInjection-v0").pool_class  # never terminates by default
    config = make_spec("FaultInjection-v0").env_config
    seconds, episodes = cls.raw_loop(config, 1, 20, 0, 5)
    assert seconds >= 0.0
    assert episodes == 4
    assert cls.raw_loop(config, 2, 20, 0, 10)[1] == 2  # 10 steps each, 1 episode each
    assert cls.raw_loop(config, 1, 20, 0, 0)[1] == 0  # 0: no time limit
    assert cls.raw_loop(config, 1, 20)[1] == 0  # the default: none either


def test_scaling_benchmark_smoke_run_writes_its_section(tmp_path):
    """benchmarks/bench_scaling.py runs end to end (the 16-core run needs a big
    machine; this checks the script, its table and its section, not speed)."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parents[2] / "benchmarks" / "bench_scaling.py"
    out = tmp_path / "RESULTS.md"
    out.write_text("# Benchmark results\n\n<!-- begin: Other -->\nkept\n<!-- end: Other -->\n")
    cmd = [sys.executable, str(script), "--quick", "--cases", "cartpole", "--threads", "1", "2"]
    proc = subprocess.run(
        [*cmd, "--out", str(out), "--plot", "-"], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert "kept" in text and "<!-- begin: CPU scaling -->" in text
    rows = [line for line in text.splitlines() if line.startswith("| CartPole-v1 | 256 | sync |")]
    assert [row.split("|")[4].strip() for row in rows] == ["1", "2"]
    for row in rows:
        ours = float(row.split("|")[5].replace(",", ""))
        assert math.isfinite(ours) and ours > 0
    # The round profiles: one per sync row, their parts within the round.
    profiles = [line for line in text.splitlines() if line.startswith("| CartPole-v1 | 256 | ")]
    profiles = [line.split("|") for line in profiles if "| sync |" not in line]
    assert [cells[3].strip() for cells in profiles] == ["1", "2"]
    for cells in profiles:
        wall, caller, steps = (float(cells[k].replace(",", "")) for k in (4, 5, 7))
        assert 0 < caller < wall and 0 < steps <= wall


def test_mujoco_gpu_benchmark_smoke_run_prints_every_column():
    """benchmarks/bench_cuda_mujoco.py --smoke runs end to end on warp's CPU device
    (the GPU run needs a GPU machine; this checks the script and its table)."""
    import subprocess
    import sys
    from pathlib import Path

    pytest.importorskip("mujoco_warp")
    script = Path(__file__).parents[2] / "benchmarks" / "bench_cuda_mujoco.py"
    proc = subprocess.run(
        [sys.executable, str(script), "--smoke"], capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    header = next(line for line in proc.stdout.splitlines() if line.startswith("| num_envs"))
    assert "raw / frame_skip" in header and "cpu engine" in header
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| 2^")]
    assert rows, proc.stdout
    for row in rows:
        ours = float(row.split("|")[2].replace(",", ""))
        assert math.isfinite(ours) and ours > 0
    for task in ("Ant-v5", "Humanoid-v5"):
        assert f"PPO-style rollout ({task}" in proc.stdout


class _CountingAsyncEnv:
    """An async pool stand-in: envs finish in send order, one batch per recv;
    records how many envs are in flight."""

    def __init__(self, num_envs: int, batch_size: int) -> None:
        import collections

        self.batch_size = batch_size
        self.queue = collections.deque(range(num_envs))  # async_reset: all in flight
        self.steps = 0

    def recv(self):
        ids = np.array([self.queue.popleft() for _ in range(self.batch_size)])
        self.steps += len(ids)
        return None, None, None, None, {"env_id": ids}

    def send(self, actions, env_id) -> None:
        assert len(actions) == len(env_id) == self.batch_size
        self.queue.extend(int(i) for i in env_id)


@pytest.mark.parametrize(("num_envs", "batch_size"), [(256, 128), (16, 8), (10, 4)])
def test_async_runner_leaves_the_pool_idle_between_calls(num_envs, batch_size):
    env = _CountingAsyncEnv(num_envs, batch_size)
    acts = [np.zeros(batch_size, np.int32) for _ in range(3)]
    run = bench.async_step_loop(env, num_envs, batch_size, acts)
    total = 0
    for n in (1000, 37, 4096):
        total += run(n)
        # Only what no whole batch can take stays in flight between calls.
        assert len(env.queue) == num_envs % batch_size
        assert total == env.steps  # every counted step was received in a call
    assert sorted(env.queue) == sorted(set(env.queue))


def test_result_arrays_benchmark_smoke_run():
    """benchmarks/bench_result_arrays.py runs end to end (its table, not speed)."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parents[2] / "benchmarks" / "bench_result_arrays.py"
    proc = subprocess.run(
        [sys.executable, str(script), "--quick", "--task", "CartPole-v1", "--num-envs", "300"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith(("| drop", "| keep"))]
    assert [row.split("|")[1].strip() for row in rows] == ["drop", "keep 1", "keep 3"]
    assert rows[-1].split("|")[3].strip().startswith("1.000")


def test_minigrid_benchmark_gives_each_flag_once():
    """bench_minigrid.py adds its defaults only for the flags the user left out, so
    the Command line of its section repeats nothing."""
    import importlib.util
    import sys
    from pathlib import Path

    here = Path(__file__).parents[2] / "benchmarks"
    sys.path.insert(0, str(here))
    try:
        spec = importlib.util.spec_from_file_location("bench_minigrid", here / "bench_minigrid.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(here))
    assert module.with_defaults([]) == module.DEFAULTS
    argv = module.with_defaults(["--tasks", "BabyAI-GoToLocal-v0", "--rounds", "1"])
    flags = [a for a in argv if a.startswith("--")]
    assert sorted(flags) == ["--num-envs", "--rounds", "--section", "--tasks"]
    assert argv[-4:] == ["--tasks", "BabyAI-GoToLocal-v0", "--rounds", "1"]


_FAKE_PEER = """
import json, sys
from envpool_x.bench_peer_worker import requests
print(json.dumps({"envpool": "fake", "python": "3"}), flush=True)
for n in requests(sys.stdin):
    print(json.dumps({"n": n, "s": 0.001}), flush=True)
"""


def test_peer_worker_ends_while_a_forked_process_holds_its_stdin(tmp_path):
    """A gymnasium AsyncVectorEnv forked after the peer's worker started holds
    a copy of the worker's stdin: closing ours sent no end of input, and the
    benchmark waited 60 s, then failed. close() asks the worker to end."""
    import multiprocessing
    import subprocess
    import sys
    import tempfile

    from envpool_x.bench_peer import PeerWorker

    pipe = subprocess.PIPE
    errors = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen(
        [sys.executable, "-c", _FAKE_PEER], stdin=pipe, stdout=pipe, stderr=errors, text=True
    )
    assert proc.stdout is not None and "fake" in proc.stdout.readline()
    worker = PeerWorker("envpool fake", proc, errors)
    assert worker.measure(500) == (500, 500 / 0.001)
    holder = multiprocessing.get_context("fork").Process(target=time.sleep, args=(30,))
    holder.start()  # as gymnasium's AsyncVectorEnv starts its workers
    try:
        t0 = time.perf_counter()
        worker.close(timeout=20)
        assert proc.returncode == 0 and time.perf_counter() - t0 < 10
    finally:
        holder.terminate()
        holder.join()
