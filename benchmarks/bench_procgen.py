"""Procgen throughput: envpool_x against EnvPool's Procgen and procgen's own
vector env (its libenv.so with its own stepping threads), side by side in one run.

Runners per (task, num_envs), measured interleaved (bench.measure):

  envpool_x sync / async (batch num_envs/2)
  envpool sync / async, when EnvPool is installed (1.2.7 needs Python >= 3.12)
  procgen libenv, N threads: procgen's VecGame (the engine under procgen's
      gym3 env, which cannot be installed on Python >= 3.11) made through its C
      API with num_threads = --threads, stepped with libenv_act; gym3's Python
      wrapper, which only adds per-step overhead, is left out
  raw C++ loop, 1 thread: our env stepped by one thread without the pool
  procgen act() only, 1 thread: libenv_act on one game in a C++ loop, the
      engine's own cost per step (drawing the 64x64 frame with Qt is most of it)

Usage: python benchmarks/bench_procgen.py [--quick] [--threads 2]
           [--tasks CoinrunHard-v0 ...] [--num-envs 16 256] [--out PATH]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "oracles"))

from bench_classic import case_rows, report_cases  # noqa: E402
from procgen_libenv import OracleGames, libenv_options, load_library  # noqa: E402

from envpool_x import _core, bench, make_spec  # noqa: E402
from envpool_x.families import procgen  # noqa: E402

SLICE_S = 0.15  # seconds per runner per round


def libenv_runner(task: str, num_envs: int, threads: int) -> bench.Runner:
    """procgen's own vector env: one libenv handle of num_envs games, its threads."""
    config = make_spec(task).env_config
    library = load_library(config["library_path"])
    # The oracle's options (as procgen's Python env passes them), with procgen's threads on.
    options = libenv_options(config, rand_seed=0, resource_root=config["resource_root"])
    options.update(num_levels=0, start_level=0, num_threads=threads)
    games = OracleGames(library, num_envs, options)
    rng = np.random.default_rng(0)
    acts = [rng.integers(0, 15, num_envs).astype(np.int32) for _ in range(64)]

    def run(n: int) -> int:
        rounds = max(1, n // num_envs)
        for i in range(rounds):
            games.step(acts[i % 64])
        return rounds * num_envs

    return bench.Runner(f"procgen libenv, {threads} threads", run, games.close)


def act_only_runner(task: str) -> bench.Runner:
    """libenv_act on one game in a C++ loop (no pool, no copies)."""
    config = make_spec(task).env_config
    return bench.self_timed_runner(
        "procgen act() only, 1 thread",
        lambda n: (
            n,
            n
            / _core.procgen_act_loop(
                config["library_path"],
                config["resource_root"],
                config["env_name"],
                config["distribution_mode"],
                n,
            ),
        ),
    )


def run_case(
    task: str, num_envs: int, threads: int, rounds: int, quick: bool
) -> tuple[list[dict], str]:
    """Measure every runner on (task, num_envs); return bench_classic's table
    rows and the paired ratios of ours over the peers."""
    runners = [
        bench.envpool_x_runner(task, num_envs, num_envs, threads, "envpool_x sync"),
        bench.envpool_x_runner(task, num_envs, num_envs // 2, threads, "envpool_x async"),
    ]
    for batch, name in ((num_envs, "envpool sync"), (num_envs // 2, "envpool async")):
        try:
            peer = bench.envpool_runner(task, num_envs, batch, threads)
        except ImportError as e:  # EnvPool's Procgen needs the system's Qt 5 libraries
            print(f"{name}: left out ({e})", file=sys.stderr)
            peer = None
        if peer is not None:
            peer.name = name
            runners.append(peer)
    runners.append(libenv_runner(task, num_envs, threads))
    raw = bench.raw_runner(task, 1)
    runners += [raw, act_only_runner(task)]
    try:
        # Short rounds in a fresh order each round: the ratios are paired per round.
        bench.measure(
            runners,
            10**9,
            rounds=rounds,
            progress=sys.stderr.isatty(),
            slice_seconds=0.02 if quick else SLICE_S,
            shuffle=True,
        )
    finally:
        for r in runners:
            r.close()
    pairs = [("envpool_x sync", "envpool sync"), ("envpool_x async", "envpool async")]
    # procgen's own threaded vector env: the engine's parallel rate, what
    # bounds every pool once the games' memory outgrows the caches (256 envs).
    pairs.append(("envpool_x sync", f"procgen libenv, {threads} threads"))
    pairs.append(("envpool sync", f"procgen libenv, {threads} threads"))
    return case_rows(task, num_envs, runners, raw, pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="tiny workloads (smoke test)")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument(
        "--tasks", nargs="+", default=["CoinrunHard-v0", "BigfishEasy-v0", "StarpilotEasy-v0"]
    )
    parser.add_argument("--num-envs", nargs="+", type=int, default=[16, 256])
    parser.add_argument("--out", default=str(HERE / "RESULTS.md"))
    parser.add_argument("--section", default="Procgen")
    args = parser.parse_args()
    if not procgen.has_procgen():
        sys.exit(procgen.BUILD_HINT)
    if args.quick:
        args.rounds = 1
    rows, ratios = [], []
    for task in args.tasks:
        for n in args.num_envs:
            print(f"{task} num_envs={n}", file=sys.stderr)
            new_rows, new_ratio = run_case(task, n, args.threads, args.rounds, args.quick)
            rows.extend(new_rows)
            ratios.append(new_ratio)
    report_cases(rows, ratios, args, SLICE_S)


if __name__ == "__main__":
    main()
