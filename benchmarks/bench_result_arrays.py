"""What reusing result arrays gives a sync pool: one pool, three loops in interleaved
rounds, so that process-to-process differences (large for MiniGrid, see
docs/benchmarks.md) cancel out:

  drop     each result is dropped at once (the pool writes the same arrays again)
  keep 1   the last result is kept until the next step (the pool alternates two sets)
  keep 3   the last three are kept (every step needs new arrays: no reuse)

Prints steps/s (median over rounds) and the paired ratios against `keep 3`; writes
nothing.

Usage:
  python benchmarks/bench_result_arrays.py --task MiniGrid-Empty-8x8-v0 --num-envs 256
  python benchmarks/bench_result_arrays.py --quick   # a smoke run (tests/project/test_bench.py)
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from envpool_x import bench  # noqa: E402
from envpool_x.factory import make_gymnasium  # noqa: E402

KEEP = {"drop": 0, "keep 1": 1, "keep 3": 3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--task", default="MiniGrid-Empty-8x8-v0")
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=0.3, help="per loop per round")
    parser.add_argument("--quick", action="store_true", help="two short rounds (smoke)")
    args = parser.parse_args()
    rounds, seconds = (2, 0.02) if args.quick else (args.rounds, args.seconds)
    n = args.num_envs
    env = make_gymnasium(args.task, num_envs=n, num_threads=args.threads)
    env.reset()
    acts = bench._actions(env.action_space, n, 8)

    def loop(keep: int) -> float:
        held: collections.deque = collections.deque(maxlen=keep or None)
        k = 0
        start = time.perf_counter()
        while k < 3 or time.perf_counter() - start < seconds:
            result = env.step(acts[k % len(acts)])
            if keep:
                held.append(result)
            k += 1
        return k * n / (time.perf_counter() - start)

    rates: dict[str, list[float]] = {name: [] for name in KEEP}
    for _ in range(rounds):
        for name, keep in KEEP.items():
            rates[name].append(loop(keep))
    env.close()
    print(f"{args.task}, {n} envs, {args.threads} threads, {rounds} interleaved rounds\n")
    print("| loop | steps/s | / keep 3 (paired median, min-max) |")
    print("|---|---:|---:|")
    for name, r in rates.items():
        ratios = [a / b for a, b in zip(r, rates["keep 3"], strict=True)]
        print(
            f"| {name} | {statistics.median(r):,.0f} | {statistics.median(ratios):.3f} "
            f"({min(ratios):.2f}-{max(ratios):.2f}) |"
        )


if __name__ == "__main__":
    main()
