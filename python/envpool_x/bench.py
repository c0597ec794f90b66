"""Side-by-side throughput measurement, shared by the CLI and benchmarks/.

Runners are measured interleaved (A B A B ...) so that a noisy neighbour on a
shared machine slows every runner alike; the ratio is what we report.
"""

from __future__ import annotations

import importlib.util
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from envpool_x.bench_peer_worker import wait_until_idle
from envpool_x.factory import make_gymnasium
from envpool_x.registration import lookup
from envpool_x.spec import make_spec

if TYPE_CHECKING:
    from envpool_x import _core


@dataclass
class Runner:
    """One thing to measure: ``run(n)`` performs about ``n`` env steps and
    returns how many it did."""

    name: str
    run: Callable[[int], int]
    close: Callable[[], None] = lambda: None
    times: list[float] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    # Rates a runner measures with its own clock, one per run() call (the
    # raw C++ loop: building the envs is not stepping); used instead of the
    # wall clock when present. The first call is measure()'s calibration.
    own_rates: list[float] = field(default_factory=list)

    @property
    def rates(self) -> list[float]:
        """steps/s of each measured round, in round order."""
        if self.own_rates:
            return self.own_rates[1:] or self.own_rates
        pairs = zip(self.steps, self.times, strict=True)
        return [s / t if t > 0 else float("nan") for s, t in pairs]

    @property
    def steps_per_s(self) -> float:
        """Median steps/s over rounds."""
        rates = [r for r in self.rates if r == r]
        return float(np.median(rates)) if rates else float("nan")


def paired_ratio(
    a: Runner, b: Runner, scale: float = 1.0, resamples: int = 2000
) -> tuple[float, float, float]:
    """``a``'s rate over ``scale`` x ``b``'s, round by round (each round runs
    both close together in time, so a host whose speed drifts by tens of
    percent within seconds, as shared VMs do, moves both alike): the median
    of those per-round ratios and a 95% bootstrap interval for it."""
    x = np.asarray(a.rates, dtype=float) / (scale * np.asarray(b.rates, dtype=float))
    x = x[np.isfinite(x)]
    if x.size == 0:
        return float("nan"), float("nan"), float("nan")
    rng = np.random.default_rng(0)
    medians = np.median(rng.choice(x, size=(resamples, x.size)), axis=1)
    lo, hi = np.percentile(medians, [2.5, 97.5])
    return float(np.median(x)), float(lo), float(hi)


def _actions(space: Any, n: int, count: int, seed: int = 0) -> list[np.ndarray]:
    """Pre-drawn batches of random actions (drawing is not what we measure)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        if hasattr(space, "n"):
            out.append(rng.integers(0, int(space.n), size=n).astype(np.int32))
        elif hasattr(space, "nvec"):  # MultiDiscrete: multi-agent tasks
            out.append(rng.integers(0, space.nvec, size=(n, *space.shape)).astype(np.int32))
        else:
            low = np.broadcast_to(space.low, space.shape)
            high = np.broadcast_to(space.high, space.shape)
            out.append(rng.uniform(low, high, size=(n, *space.shape)).astype(np.float32))
    return out


def envpool_x_runner(
    task: str,
    num_envs: int,
    batch_size: int,
    num_threads: int,
    name: str = "envpool_x",
    **config: Any,
) -> Runner:
    """Our pool, sync (batch_size == num_envs) or async (send/recv); ``config``:
    more of the task's options."""
    env = make_gymnasium(
        task, num_envs=num_envs, batch_size=batch_size, num_threads=num_threads, **config
    )
    return _pool_runner(env, num_envs, batch_size, name)


def envpool_runner(task: str, num_envs: int, batch_size: int, num_threads: int) -> Runner | None:
    """EnvPool with the same config, or None when it is not installed (or
    cannot make the task). With ``ENVPOOL_X_PEER_PYTHON`` set, the EnvPool of
    that interpreter, stepped in a worker process (``bench_peer``)."""
    from envpool_x import bench_peer

    python = bench_peer.peer_python()
    if python is not None:
        worker = bench_peer.start_worker(python, task, num_envs, batch_size, num_threads)
        if worker is None:
            return None
        runner = self_timed_runner(worker.name, worker.measure)
        runner.close = worker.close
        return runner
    if importlib.util.find_spec("envpool") is None:
        return None
    import envpool

    if task not in envpool.list_all_envs():  # e.g. the Tag tasks
        return None
    # The peer builds gymnasium spaces with float64 bounds at every recv, and
    # gymnasium warns "Box low's precision lowered" about them: silenced for
    # the process (a benchmark's), since they are about the peer, not us.
    warnings.filterwarnings("ignore", message=r".*Box (low|high)'s precision lowered")
    env = envpool.make_gymnasium(
        task, num_envs=num_envs, batch_size=batch_size, num_threads=num_threads
    )
    return _pool_runner(env, num_envs, batch_size, f"envpool {envpool_version()}")


#: The newest EnvPool release, and the oldest CPython its wheels are built for.
NEWEST_ENVPOOL = "1.2.7"
NEWEST_ENVPOOL_PYTHON = (3, 12)


def envpool_version() -> str:
    """The installed EnvPool's version ("" when it is not installed), or the
    one ``ENVPOOL_X_PEER_PYTHON``'s worker reported."""
    from importlib import metadata

    from envpool_x import bench_peer

    if bench_peer.seen:
        return bench_peer.seen["envpool"]

    try:
        return metadata.version("envpool")
    except metadata.PackageNotFoundError:
        return ""


def peer_note(python: tuple[int, int] | None = None) -> str | None:
    """What a reader of a comparison with EnvPool should know: that no EnvPool
    is installed, or that an older one ran because this Python cannot install
    the newest (EnvPool 1.2.7 ships wheels for CPython 3.12+ only). None when
    the newest ran."""
    import sys

    python = python or (sys.version_info.major, sys.version_info.minor)
    have = envpool_version()
    how = (
        f"to compare against EnvPool {NEWEST_ENVPOOL}, use Python "
        f"{NEWEST_ENVPOOL_PYTHON[0]}.{NEWEST_ENVPOOL_PYTHON[1]}+: python3.12 -m venv .venv312 && "
        '. .venv312/bin/activate && pip install ".[bench]", or point ENVPOOL_X_PEER_PYTHON at a '
        f"Python that has envpool=={NEWEST_ENVPOOL} (docs/benchmarks.md)"
    )
    if not have:
        return 'no EnvPool installed (pip install ".[bench]" installs the peer)'
    if have == NEWEST_ENVPOOL:
        return None
    if python < NEWEST_ENVPOOL_PYTHON:
        py = f"{python[0]}.{python[1]}"
        return f"EnvPool {have} ran: the newest this Python {py} installs; {how}"
    newest = NEWEST_ENVPOOL
    return f"EnvPool {have} ran, not the newest ({newest}): pip install envpool=={newest}"


def sync_step_loop(env: Any, num_envs: int, acts: list[np.ndarray]) -> Callable[[int], int]:
    """A runner's ``run`` for a sync vector env: full steps with pre-drawn actions."""

    def run(n: int) -> int:
        rounds = max(1, n // num_envs)
        for i in range(rounds):
            env.step(acts[i % len(acts)])
        return rounds * num_envs

    return run


def _pool_runner(env: Any, num_envs: int, batch_size: int, name: str) -> Runner:
    space = env.action_space
    acts = _actions(space, batch_size, 64)
    if batch_size == num_envs:
        env.reset()
        run = sync_step_loop(env, num_envs, acts)
    else:
        env.async_reset()
        run = async_step_loop(env, num_envs, batch_size, acts)
    return Runner(name, run, env.close)


def async_step_loop(
    env: Any, num_envs: int, batch_size: int, acts: list[np.ndarray]
) -> Callable[[int], int]:
    """A runner's ``run`` for an async pool (``async_reset()`` already called):
    recv a batch, send its actions back, ``n / batch_size`` times.

    Each call ends by receiving the envs still in flight (all but
    ``num_envs % batch_size``) and the next call starts by sending them their
    actions: between calls the pool is idle. Left running, it would step
    ``num_envs`` envs in the background while the other runners are timed,
    slowing them, and hand its next call that work for free (Pong at 256 envs
    with 128 a batch measured above the machine's ceiling so)."""
    parked: list[np.ndarray] = []  # env ids received at the end of the last call

    def run(n: int) -> int:
        for k, ids in enumerate(parked):
            env.send(acts[k % len(acts)], ids)
        parked.clear()
        rounds = max(1, n // batch_size)
        for i in range(rounds):
            info = env.recv()[-1]
            env.send(acts[i % len(acts)], info["env_id"])
        drained = num_envs // batch_size
        for _ in range(drained):
            parked.append(np.asarray(env.recv()[-1]["env_id"]))
        return (rounds + drained) * batch_size

    return run


def round_profile(
    task: str, num_envs: int, num_threads: int, seconds: float = 0.3, min_rounds: int = 20
) -> dict[str, float]:
    """Where a sync round's time goes in our pool (core/round_profile.h): mean
    microseconds per round of the caller's own work before the envs are queued
    (``prologue_us``: actions, result arrays), the parallel part (``span_us``),
    handing the result back (``epilogue_us``), how late the last thread started
    (``latest_start_us``), each taking thread's steps (``busy_per_lane_us``) and
    its wait for the others at the end (``end_idle_us``). Random actions, after
    a few untimed rounds."""
    env = make_gymnasium(task, num_envs=num_envs, num_threads=num_threads)
    try:
        env.reset()
        acts = _actions(env.action_space, num_envs, 8)
        for k in range(3):
            env.step(acts[k % len(acts)])
        pool = cast("_core._PoolBase", env._pool)  # a CPU pool: device="cpu" above
        pool.profile_rounds(True)
        start = time.perf_counter()
        k = 0
        while k < min_rounds or time.perf_counter() - start < seconds:
            env.step(acts[k % len(acts)])
            k += 1
        return dict(pool.round_profile())
    finally:
        env.close()


def self_timed_runner(name: str, measure: Callable[[int], tuple[int, float]]) -> Runner:
    """A runner timed by what it runs: ``measure(n)`` performs about ``n`` env
    steps and returns ``(steps done, steps/s by its own clock)``, so setup
    inside it (building envs, loading a ROM) is not counted."""
    runner = Runner(name, lambda n: 0)

    def run(n: int) -> int:
        steps, rate = measure(n)
        runner.own_rates.append(rate)
        return steps

    runner.run = run
    return runner


def raw_runner(
    task: str,
    num_envs: int,
    name: str = "raw C++ loop, 1 thread",
    threads: int = 1,
    max_episode_steps: int | None = None,
) -> Runner:
    """Plain C++ loops stepping the same envs (no pool, no Python per step).

    An env resets when its episode ends: terminated, or truncated by
    ``max_episode_steps`` (None: the task's time limit, the one the pools
    apply by default; 0: none), so the loop does the same work as a pool.

    ``threads == 1``: one thread, the single-thread rate that parallel
    efficiency is measured against. ``threads > 1``: that many independent
    loops at once (each its own envs, on its own Python thread with the GIL
    released), their rates summed: what the machine's cores deliver together
    with no coordination at all, i.e. the ceiling of any pool. On a machine
    whose cores slow each other down (shared physical cores, a busy host) it is
    below ``threads`` x the single-thread rate. Timed by the loops themselves,
    so building the envs (an Atari ROM load, a MuJoCo model) is not counted."""
    import threading

    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    entry = lookup(task)
    pool_cls = entry.pool_class
    # The resolved env config (e.g. an Atari task's ROM path), not just the defaults.
    spec = make_spec(task)
    config = spec.env_config
    limit = spec.max_episode_steps if max_episode_steps is None else max_episode_steps

    def measure(n: int) -> tuple[int, float]:
        steps = max(n // threads, num_envs)
        seconds = [0.0] * threads

        def loop(k: int) -> None:
            seconds[k] = pool_cls.raw_loop(config, num_envs, steps, k, limit)[0]

        if threads == 1:
            loop(0)
        else:
            workers = [threading.Thread(target=loop, args=(k,)) for k in range(threads)]
            for w in workers:
                w.start()
            for w in workers:
                w.join()
        return steps * threads, sum(steps / s for s in seconds)

    return self_timed_runner(name, measure)


# Our ids whose gymnasium 1.x counterpart has another name.
GYMNASIUM_IDS = {"Taxi-v3": "Taxi-v4", "CliffWalking-v0": "CliffWalking-v1"}


def gymnasium_runner(task: str, num_envs: int, mode: str) -> Runner | None:
    """gymnasium's vector env: mode "vector_entry_point", "sync" or "async"."""
    import gymnasium

    # EnvPool's older ids that gymnasium 1.x renamed (same dynamics at defaults).
    gym_id = GYMNASIUM_IDS.get(task, task)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            env = gymnasium.make_vec(gym_id, num_envs=num_envs, vectorization_mode=mode)
        except Exception:  # noqa: BLE001 - the peer lacks this mode for this task
            return None
    env.reset(seed=0)
    run = sync_step_loop(env, num_envs, _actions(env.single_action_space, num_envs, 64))
    name = f"gymnasium[{mode}]" + (f" {gym_id}" if gym_id != task else "")
    return Runner(name, run, env.close)


def measure(
    runners: list[Runner],
    steps: int,
    rounds: int = 5,
    progress: bool = True,
    min_seconds: float = 0.0,
    slice_seconds: float | None = None,
    shuffle: bool = False,
) -> None:
    """Run every runner ``rounds`` times interleaved, ``steps`` env steps each
    (scaled down per runner so that slow peers do not take forever).

    ``slice_seconds``: size each runner's round to about that long instead
    (many short rounds make the per-round ratios of ``paired_ratio`` tight).
    ``shuffle``: a fresh random order every round, so no runner always runs
    right after the same other one."""
    from tqdm import tqdm

    # Calibrate: how many steps each runner does in ~0.5 s (or slice_seconds).
    budget: dict[str, int] = {}
    for r in runners:
        t0 = time.perf_counter()
        done = r.run(1)
        dt = max(time.perf_counter() - t0, 1e-6)
        if slice_seconds is None:
            budget[r.name] = max(done, min(steps, int(done / dt * max(min_seconds, 0.05) * 10)))
            continue
        # A one-step call mostly times call overhead: grow n until a call
        # takes a measurable share of the slice, then scale to it.
        n = done
        while dt < slice_seconds / 8 and n < steps:
            n *= 4
            t0 = time.perf_counter()
            done = r.run(n)
            dt = max(time.perf_counter() - t0, 1e-6)
        rate = r.own_rates[-1] if r.own_rates else done / dt
        budget[r.name] = max(1, min(steps, int(rate * slice_seconds)))
    for r in runners:
        # Calibration calls are not rounds (the first own rate is dropped by
        # Runner.rates; drop any further ones here).
        del r.own_rates[1:]
    order_rng = np.random.default_rng(0)
    # One tick per runner's round, and no rate of its own: a rate over all
    # runners together would mix ours with the peers'. The postfix gives the
    # last runner's own rate.
    bar_format = "{l_bar}{bar}| {n_fmt}/{total_fmt} rounds [{elapsed}<{remaining}{postfix}]"
    with tqdm(total=rounds * len(runners), bar_format=bar_format, disable=not progress) as bar:
        for _ in range(rounds):
            order = order_rng.permutation(len(runners)) if shuffle else range(len(runners))
            for r in (runners[i] for i in order):
                t0 = time.perf_counter()
                done = r.run(budget[r.name])
                r.times.append(time.perf_counter() - t0)
                wait_until_idle()  # what a runner leaves running is nobody's time
                r.steps.append(done)
                rate = done / max(r.times[-1], 1e-9)
                bar.set_postfix_str(f"{r.name} {rate:.3g} steps/s", refresh=False)
                bar.update(1)
