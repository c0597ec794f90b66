"""Pixel observations (from_pixels=True), side by side in one run: DeepMind Control
(CheetahRun, WalkerWalk, CartpoleSwingup) and HalfCheetah-v5, 84 x 84, frame_stack 3.

Runners per task and num_envs, measured interleaved (A B A B ...), random actions,
sync (batch_size == num_envs):

  envpool_x pixels: frames drawn by the C++ worker threads
  envpool_x state: the same pool without frames (what rendering costs is the gap)
  envpool: EnvPool 1.2.7 with the same keywords, installed here (CPython >= 3.12)
      or in the interpreter ENVPOOL_X_PEER_PYTHON names (envpool_x.bench_peer);
      older releases have no working pixel pools and are left out
  python: gymnasium's AsyncVectorEnv (one process per env, at most --python-envs)
      over dm_control's pixel wrapper (``suite.wrappers.pixels``) with a frame stack
      of its own, or over gymnasium's HalfCheetah-v5 with AddRenderObservation and
      FrameStackObservation: the Python stack a user builds without a pixel pool.

Steps counted are env steps (each one frame). Set MUJOCO_GL (osmesa without a GPU,
egl with one) before running; every runner renders through it, and the section
names the GL renderer that drew (a GPU's, or a software one).

--scale-threads adds rows at more thread counts for the pools alone (ours and
EnvPool's, at the largest --num-envs): the Python stack runs one process per env
whatever the threads. Rows are printed as each case ends (a run cut short keeps them).

Usage: python benchmarks/bench_pixels.py [--quick] [--threads 2] [--num-envs 8 64]
           [--scale-threads 16] [--seconds 0.25]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from collections import deque
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from bench_classic import section_header, version  # noqa: E402
from results_file import write_section  # noqa: E402

from envpool_x import bench  # noqa: E402
from envpool_x.families import dmc  # noqa: E402

TASKS = ["CheetahRun-v1", "WalkerWalk-v1", "CartpoleSwingup-v1", "HalfCheetah-v5"]
SIDE, STACK = 84, 3
PIXELS = {"from_pixels": True, "render_width": SIDE, "render_height": SIDE, "frame_stack": STACK}


#: The first EnvPool release whose pixel pools render without a GL context of the
#: caller's: 1.2.5 stops the process in mjr_makeContext (MuJoCo's fatal error).
ENVPOOL_PIXELS = (1, 2, 7)


def envpool_pixel_runner(task: str, num_envs: int, threads: int) -> bench.Runner | None:
    """EnvPool's pixel pool of ``task``: in ENVPOOL_X_PEER_PYTHON's interpreter when
    set, else here; None when no EnvPool with pixel pools is there."""
    import importlib.util

    from envpool_x import bench_peer

    python = bench_peer.peer_python()
    if python is not None:
        worker = bench_peer.start_worker(python, task, num_envs, num_envs, threads, PIXELS)
        if worker is None:
            return None
        runner = bench.self_timed_runner(worker.name, worker.measure)
        runner.close = worker.close
        return runner
    if importlib.util.find_spec("envpool") is None:
        return None
    have = tuple(int(x) for x in bench.envpool_version().split(".")[:3] if x.isdigit())
    if have < ENVPOOL_PIXELS:
        return None
    import envpool

    warnings.filterwarnings("ignore", message=r".*Box (low|high)'s precision lowered")
    env = envpool.make_gymnasium(task, num_envs=num_envs, num_threads=threads, **PIXELS)
    return bench._pool_runner(env, num_envs, num_envs, f"envpool {bench.envpool_version()}")


def envpool_note() -> str:
    """Which EnvPool the envpool rows are, or why there are none."""
    from envpool_x import bench_peer

    if bench_peer.peer_python() is not None:
        return f"EnvPool {bench_peer.version_text() or '(its worker made no pool)'}"
    have = bench.envpool_version()
    if not have:
        return "no EnvPool installed: no envpool rows"
    if tuple(int(x) for x in have.split(".")[:3] if x.isdigit()) < ENVPOOL_PIXELS:
        return (
            f"EnvPool {have} has no working pixel pools: no envpool rows (1.2.7 needs "
            "CPython 3.12+; or set ENVPOOL_X_PEER_PYTHON)"
        )
    return f"EnvPool {have}"


#: Run in a child process: the GL strings of a context made as MUJOCO_GL says.
_GL_PROBE = """
import mujoco
from OpenGL import GL
ctx = mujoco.GLContext(8, 8)
ctx.make_current()
print("; ".join(GL.glGetString(k).decode() for k in (GL.GL_VENDOR, GL.GL_RENDERER, GL.GL_VERSION)))
ctx.free()
"""


def gl_renderer() -> str:
    """Vendor, renderer and version of the OpenGL that MUJOCO_GL gives (a GPU's, or
    a software rasteriser's), or why none could be made."""
    import subprocess

    proc = subprocess.run(
        [sys.executable, "-c", _GL_PROBE], capture_output=True, text=True, timeout=60
    )
    if proc.returncode != 0:
        return f"no GL context ({(proc.stderr.strip().splitlines() or ['?'])[-1]})"
    return proc.stdout.strip()


class _DmcPixels:
    """dm_control's suite task with its pixel wrapper, as a gymnasium env whose
    observation is the last STACK frames, channels first (as the pools')."""

    def __init__(self, task: str) -> None:
        import gymnasium
        from dm_control import suite
        from dm_control.suite.wrappers import pixels

        domain, name = next(
            (d, t) for d, p, _, ts in dmc.DOMAINS for t in ts if dmc.task_id(p, t) == task
        )
        env = suite.load(domain, name)
        self._env = pixels.Wrapper(env, render_kwargs={"height": SIDE, "width": SIDE})
        spec = self._env.action_spec()
        low, high = spec.minimum.astype(np.float32), spec.maximum.astype(np.float32)
        self.action_space = gymnasium.spaces.Box(low, high, dtype=np.float32)
        self.observation_space = gymnasium.spaces.Box(0, 255, (3 * STACK, SIDE, SIDE), np.uint8)
        self._frames: deque[np.ndarray] = deque(maxlen=STACK)

    def _obs(self, step: Any, fill: bool) -> np.ndarray:
        frame = np.ascontiguousarray(step.observation["pixels"].transpose(2, 0, 1))
        for _ in range(STACK if fill else 1):
            self._frames.append(frame)
        return np.concatenate(self._frames)

    def reset(self, seed: int | None = None, options: Any = None) -> tuple[np.ndarray, dict]:
        return self._obs(self._env.reset(), fill=True), {}

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict]:
        step = self._env.step(action)
        return self._obs(step, fill=False), float(step.reward or 0.0), False, step.last(), {}

    def close(self) -> None:
        self._env.close()
        # Its GL context now: dm_control's exit hook would find its executor shut down.
        self._env.physics.free()


def _python_env(task: str) -> Any:
    """One env of the Python stack (made in the worker process)."""
    import gymnasium

    if task in dmc_task_ids():
        return _as_env(_DmcPixels(task))
    env = gymnasium.make(task, render_mode="rgb_array", width=SIDE, height=SIDE)
    env = gymnasium.wrappers.AddRenderObservation(env, render_only=True)
    chw = gymnasium.spaces.Box(0, 255, (3, SIDE, SIDE), np.uint8)  # the frames' new shape
    env = gymnasium.wrappers.TransformObservation(
        env, lambda o: np.ascontiguousarray(o.transpose(2, 0, 1)), chw
    )
    return gymnasium.wrappers.FrameStackObservation(env, STACK)


def _as_env(inner: _DmcPixels) -> Any:
    """``inner`` as a gymnasium.Env subclass (AsyncVectorEnv checks the type)."""
    import gymnasium

    class DmcPixelEnv(gymnasium.Env):
        def __init__(self) -> None:
            self.action_space = inner.action_space
            self.observation_space = inner.observation_space

        def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
            return inner.reset(seed, options)

        def step(self, action: Any) -> Any:
            return inner.step(action)

        def close(self) -> None:
            inner.close()

    return DmcPixelEnv()


def dmc_task_ids() -> set[str]:
    return {dmc.task_id(p, t) for _, p, _, ts in dmc.DOMAINS for t in ts}


def python_runner(task: str, num_envs: int) -> bench.Runner:
    """gymnasium's AsyncVectorEnv over the Python pixel stack of ``task``."""
    import functools

    import gymnasium

    # Spawned, not forked: this process runs pool threads and GL contexts by
    # now, and a forked worker could wait forever on a lock one of them held
    # (the --quick run hung so, every worker idle on a futex).
    vec = gymnasium.vector.AsyncVectorEnv(
        [functools.partial(_python_env, task)] * num_envs,
        autoreset_mode=gymnasium.vector.AutoresetMode.NEXT_STEP,
        context="spawn",
    )
    vec.reset(seed=0)
    acts = bench._actions(vec.single_action_space, num_envs, 16)

    def run(n: int) -> int:
        rounds = max(1, n // num_envs)
        for i in range(rounds):
            vec.step(acts[i % len(acts)])
        return rounds * num_envs

    return bench.Runner(f"python AsyncVectorEnv {num_envs}", run, vec.close)


def bench_case(
    task: str, num_envs: int, threads: int, with_python: bool, args: argparse.Namespace
) -> list[str]:
    """The rows of one task at one size and thread count."""
    runners = [
        bench.envpool_x_runner(task, num_envs, num_envs, threads, "envpool_x pixels", **PIXELS),
        bench.envpool_x_runner(task, num_envs, num_envs, threads, "envpool_x state"),
    ]
    failed: list[str] = []

    def add_peer(name: str, make: Any) -> None:
        # A peer that cannot run here is a row saying so, not the end of the run
        # (a GPU machine's run is not repeated for the cases after it).
        try:
            runner = make()
        except Exception as e:  # noqa: BLE001
            failed.append(f"{name} failed: {type(e).__name__}: {str(e)[:160]}")
            return
        if runner is not None:
            runners.append(runner)

    try:
        add_peer("envpool", lambda: envpool_pixel_runner(task, num_envs, threads))
        if with_python:
            python_envs = min(num_envs, args.python_envs)
            add_peer("python", lambda: python_runner(task, python_envs))
        steps = 200 if args.quick else 20_000
        rounds = 1 if args.quick else args.rounds
        bench.measure(runners, steps, rounds, progress=False, slice_seconds=args.seconds)
    finally:
        for r in runners:
            r.close()
    ours, state = runners[0].steps_per_s, runners[1].steps_per_s
    # Rendering's share of a pixel step, and one frame's cost on one thread.
    share = 1 - ours / state
    frame_us = 1e6 * threads * (1 / ours - 1 / state)
    lead = f"| {task} | {num_envs} | {threads} |"
    rows = [f"{lead} {r.name} | {r.steps_per_s:,.0f} | {ours / r.steps_per_s:.2f}x |"
            for r in runners]  # fmt: skip
    note = f"rendering {share:.0%} of a pixel step, ~{frame_us:.0f} µs a frame per thread"
    return [*rows, *(f"{lead} ({f}) | | |" for f in failed), f"{lead} ({note}) | | |"]


def cases(args: argparse.Namespace) -> list[tuple[str, int, int, bool]]:
    """(task, num_envs, threads, with the Python stack) in the order they run:
    the comparison first, then the pools alone at --scale-threads."""
    out = [(t, n, args.threads, True) for t in args.tasks for n in args.num_envs]
    more = [k for k in args.scale_threads if k != args.threads]
    return out + [(t, max(args.num_envs), k, False) for k in more for t in args.tasks]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (``argv``: sys.argv[1:] when None)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--scale-threads",
        nargs="*",
        type=int,
        default=[],
        help="more thread counts, the pools alone, at the largest --num-envs",
    )
    parser.add_argument("--quick", action="store_true", help="tiny workloads (a smoke test)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--seconds", type=float, help="each runner's round lasts about this long (default ~0.5)"
    )
    parser.add_argument("--tasks", nargs="+", default=TASKS)
    parser.add_argument("--num-envs", nargs="+", type=int, default=[8, 16, 64])
    parser.add_argument(
        "--python-envs", type=int, default=16, help="most processes of AsyncVectorEnv"
    )
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    parser.add_argument("--section", default="Pixel observations")
    parser.add_argument(
        "--expect-gl",
        help="stop at once unless the GL vendor / renderer names this (e.g. NVIDIA: not a "
        "software fallback)",
    )
    return parser.parse_args(argv)


def main() -> None:
    args = parse_args()
    if os.environ.get("MUJOCO_GL") not in ("osmesa", "egl"):
        sys.exit("set MUJOCO_GL=osmesa (no GPU) or MUJOCO_GL=egl first")
    from envpool_x import bench_peer

    bench_peer.peer_python()  # an ENVPOOL_X_PEER_PYTHON that is no program stops here
    t0 = time.time()
    gl = gl_renderer()
    print(f"MUJOCO_GL={os.environ['MUJOCO_GL']}: {gl}", flush=True)
    if args.expect_gl and args.expect_gl.lower() not in gl.lower():
        sys.exit(f"the GL is not {args.expect_gl}'s: {gl}; nothing measured")
    head = [
        "| task | num_envs | threads | runner | steps/s | pixels / runner |",
        "|---|---:|---:|---|---:|---:|",
    ]
    print("\n".join(head), flush=True)
    body = [*head]
    for task, n, threads, with_python in cases(args):
        print(f"{task} num_envs={n} threads={threads}", file=sys.stderr)
        rows = bench_case(task, n, threads, with_python, args)
        print("\n".join(rows), flush=True)  # kept if the run is cut short
        body += rows
    rounds = 1 if args.quick else args.rounds
    lines = [
        *section_header(
            args.section,
            time.time() - t0,
            f"dm-control {version('dm-control')}, mujoco {version('mujoco')}, "
            f"gymnasium {version('gymnasium')}; {envpool_note()}",
            f"MUJOCO_GL={os.environ['MUJOCO_GL']}, GL: {gl}. {SIDE} x {SIDE}, frame_stack "
            f"{STACK}; sync; {rounds} interleaved round{'s' * (rounds != 1)}, median rate; "
            "the Python stack "
            f"runs min(num_envs, {args.python_envs}) processes, and only at "
            f"num_threads = {args.threads}.",
        ),
        "",
        *body,
        "",
    ]
    md = "\n".join(lines)
    if not args.quick:
        write_section(Path(args.out), args.section, md)
    print(md)


if __name__ == "__main__":
    main()
