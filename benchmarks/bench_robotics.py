"""gymnasium-robotics throughput: envpool_x against gymnasium-robotics 1.4.2
under gymnasium's vector envs and against EnvPool's, side by side in one run.

Cases (issue 47): FetchPush-v4, HandManipulateBlock-v1, PointMaze_Medium-v3 and
AntMaze_Medium-v5 at 16 and 64 envs, 2 threads; a case whose id this build does
not register is left out (and said so). Runners per case, measured in
interleaved rounds in a fresh random order (bench.measure):

  envpool_x sync / async (batch num_envs/2)
  envpool sync / async: EnvPool 1.2.7 (set ENVPOOL_X_PEER_PYTHON to a Python
      3.12 with envpool==1.2.7, e.g. /work/venv312/bin/python); EnvPool has no
      AntMaze
  gymnasium-robotics sync / async: gymnasium's SyncVectorEnv / AsyncVectorEnv
      of ``gymnasium.make(id)`` (its time limit included)
  raw C++ loop, 1 thread: our env stepped without the pool

gymnasium-robotics runs on the mujoco wheel envpool_x is built against, its
joint-type check patched for it (tests/families/robotics_helpers.py). Paired
ratios: the median over rounds of the per-round ratio with a 95% bootstrap
interval.

Usage: python benchmarks/bench_robotics.py [--quick] [--threads 2]
           [--tasks FetchPush-v4 ...] [--num-envs 16 64] [--rounds 30] [--out PATH]
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "families"))

from bench_classic import (  # noqa: E402
    case_rows,
    measure_shuffled,
    pool_and_peer_runners,
    report_cases,
)

from envpool_x import bench  # noqa: E402
from envpool_x.registration import list_all_envs  # noqa: E402

SLICE_S = 0.15  # seconds per runner per round
DEFAULT_TASKS = [
    "FetchPush-v4",
    "HandManipulateBlock-v1",
    "PointMaze_Medium-v3",
    "AntMaze_Medium-v5",
]


def _oracle_env(task: str) -> Any:
    """gymnasium-robotics' env of ``task``, patched for our mujoco (in a worker
    process too)."""
    import gymnasium
    import gymnasium_robotics
    import mujoco
    from robotics_helpers import load_oracle

    load_oracle(mujoco, gymnasium, gymnasium_robotics)
    return gymnasium.make(task)


def oracle_runner(task: str, num_envs: int, mode: str, seed: int = 0) -> bench.Runner:
    """gymnasium-robotics' envs in gymnasium's vector env (mode "sync" or "async")."""
    import functools

    import gymnasium

    fns = [functools.partial(_oracle_env, task) for _ in range(num_envs)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if mode == "sync":
            env = gymnasium.vector.SyncVectorEnv(fns)
        else:
            # Spawned, not forked: a forked worker would keep our end of the
            # EnvPool peer's stdin open, and the peer would never see it close.
            env = gymnasium.vector.AsyncVectorEnv(fns, context="spawn")
        env.reset(seed=seed)
    acts = bench._actions(env.single_action_space, num_envs, 64)
    return bench.Runner(
        f"gymnasium-robotics {mode}", bench.sync_step_loop(env, num_envs, acts), env.close
    )


def run_case(
    task: str, num_envs: int, threads: int, rounds: int, quick: bool
) -> tuple[list[dict], str]:
    """Measure every runner on one case; return the table rows and the paired ratios."""
    runners = pool_and_peer_runners(task, num_envs, threads)
    for mode in ("sync", "async"):
        runners.append(oracle_runner(task, num_envs, mode))
    raw = bench.raw_runner(task, 1)
    runners.append(raw)
    measure_shuffled(runners, rounds, quick, SLICE_S)
    pairs = [
        ("envpool_x sync", "envpool sync"),
        ("envpool_x async", "envpool async"),
        ("envpool_x sync", "gymnasium-robotics sync"),
        ("envpool_x sync", "gymnasium-robotics async"),
    ]
    return case_rows(task, num_envs, runners, raw, pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="tiny workloads (smoke test)")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--tasks", nargs="*", default=DEFAULT_TASKS)
    parser.add_argument("--num-envs", nargs="+", type=int, default=[16, 64])
    parser.add_argument("--out", default=str(HERE / "RESULTS.md"))
    parser.add_argument("--section", default="gymnasium-robotics")
    args = parser.parse_args()
    if args.quick:
        args.rounds = 1
    registered = set(list_all_envs())
    tasks = [t for t in args.tasks if t in registered]
    for t in sorted(set(args.tasks) - registered):
        print(f"{t}: left out (not registered in this build)", file=sys.stderr)
    if not tasks:
        sys.exit("none of the tasks is registered in this build (ENVPOOL_X_ROBOTICS=ON?)")
    rows, ratios = [], []
    for task in tasks:
        for n in args.num_envs:
            print(f"{task} num_envs={n}", file=sys.stderr)
            new_rows, new_ratio = run_case(task, n, args.threads, args.rounds, args.quick)
            rows.extend(new_rows)
            ratios.append(new_ratio)
    report_cases(rows, ratios, args, SLICE_S)


if __name__ == "__main__":
    main()
