"""env.xla() throughput: a jitted lax.scan of steps against the eager Python loop.

For each case every runner is measured interleaved (A B A B ...), sync
(batch_size == num_envs), pre-drawn random actions:

  envpool_x scan: jax.jit(lax.scan(step)) over a chunk of steps per call
      (the handle threads through the carry; results stay inside XLA)
  envpool_x eager: ``env.step(actions)`` in a Python loop
  envpool scan / eager: EnvPool 1.2.5 the same two ways (when installed)

Usage: python benchmarks/bench_xla.py [--quick] [--threads 2] [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
from pathlib import Path
from typing import Any

# Before numpy loads OpenBLAS, which reads it then (its helper thread otherwise
# takes samples from the measured threads).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_classic import cpu_name, version, write_section  # noqa: E402

from envpool_x import bench  # noqa: E402

CASES = [("CartPole-v1", 16, 256), ("CartPole-v1", 256, 256), ("CartPole-v1", 4096, 64)]
ATARI_CASES = [("Pong-v5", 8, 32)]


def scan_runner(env: Any, num_envs: int, chunk: int, name: str) -> bench.Runner:
    """``chunk`` steps per call of a jitted lax.scan over env.xla()'s step."""
    import jax

    handle, _, _, step = env.xla()
    acts = jax.numpy.asarray(np.stack(bench._actions(env.action_space, num_envs, chunk)))

    @jax.jit
    def run_chunk(handle: Any, acts: Any) -> Any:
        def body(h: Any, a: Any) -> Any:
            h, (_, reward, *_rest) = step(h, a)
            return h, reward.sum()

        return jax.lax.scan(body, handle, acts)

    env.reset()
    state = {"handle": jax.block_until_ready(run_chunk(handle, acts)[0])}  # compile now

    def run(n: int) -> int:
        calls = max(1, n // (num_envs * chunk))
        for _ in range(calls):
            state["handle"], _ = run_chunk(state["handle"], acts)
        jax.block_until_ready(state["handle"])
        return calls * chunk * num_envs

    return bench.Runner(name, run, env.close)


def eager_runner(env: Any, num_envs: int, name: str) -> bench.Runner:
    env.reset()
    run = bench.sync_step_loop(env, num_envs, bench._actions(env.action_space, num_envs, 64))
    return bench.Runner(name, run, env.close)


def run_case(task: str, num_envs: int, chunk: int, threads: int, steps: int, rounds: int):
    import envpool_x

    def ours() -> Any:
        return envpool_x.make_gymnasium(task, num_envs=num_envs, num_threads=threads)

    runners = [
        scan_runner(ours(), num_envs, chunk, "envpool_x scan"),
        eager_runner(ours(), num_envs, "envpool_x eager"),
    ]
    try:
        import envpool

        def peer() -> Any:
            return envpool.make_gymnasium(task, num_envs=num_envs, num_threads=threads)

        runners.append(scan_runner(peer(), num_envs, chunk, "envpool scan"))
        runners.append(eager_runner(peer(), num_envs, "envpool eager"))
    except ImportError:
        pass
    try:
        bench.measure(runners, steps, rounds=rounds, progress=sys.stderr.isatty())
    finally:
        for r in runners:
            r.close()
    base = runners[0].steps_per_s
    return [
        {
            "task": task,
            "num_envs": num_envs,
            "chunk": chunk,
            "runner": r.name,
            "steps_per_s": r.steps_per_s,
            "us_per_step": 1e6 * num_envs / r.steps_per_s,
            "scan_over_this": base / r.steps_per_s,
        }
        for r in runners
    ]


def to_markdown(rows: list[dict], args: argparse.Namespace, cmd: str) -> str:
    lines = [
        f"## {args.section}",
        "",
        f"- Command: `{cmd}`",
        f"- Date: {datetime.date.today().isoformat()}",
        f"- Machine: {os.cpu_count()} CPUs, {cpu_name()}, Python {platform.python_version()}",
        f"- Versions: envpool_x {version('envpool-x')}, envpool {version('envpool')}, "
        f"jax {version('jax')}, jaxlib {version('jaxlib')}, numpy {version('numpy')}",
        f"- num_threads = {args.threads}; sync steps (batch = num_envs); `scan`: one jitted "
        "`lax.scan` of `chunk` steps of `env.xla()`'s step per call, the handle in the carry; "
        "`eager`: `env.step` in a Python loop. Env steps counted (not frames); "
        f"{args.rounds} interleaved rounds, median rate reported.",
        "- `envpool_x scan / runner`: envpool_x scan steps/s divided by that runner's "
        "(> 1: the envpool_x scan is faster).",
        "",
        "| task | num_envs | runner | steps/s | µs per batch step | envpool_x scan / runner |",
        "|---|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['task']} | {r['num_envs']} | {r['runner']} | {r['steps_per_s']:,.0f} | "
            f"{r['us_per_step']:.1f} | {r['scan_over_this']:.2f}x |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="small workloads (smoke test)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    parser.add_argument("--section", default="JAX: env.xla() scan vs eager")
    args = parser.parse_args()
    from envpool_x.families import atari

    cases = CASES + (ATARI_CASES if atari.has_atari() else [])
    rows = []
    for task, n, chunk in cases:
        print(f"{task} num_envs={n}", file=sys.stderr)
        steps = (20_000 if args.quick else 2_000_000) if task.startswith("CartPole") else 20_000
        rows.extend(run_case(task, n, chunk, args.threads, steps, 1 if args.quick else args.rounds))
    cmd = "python " + " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]])
    md = to_markdown(rows, args, cmd)
    write_section(Path(args.out), args.section, md)
    print(md)


if __name__ == "__main__":
    main()
