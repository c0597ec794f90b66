"""DeepMind Control throughput (CheetahRun-v1, WalkerWalk-v1), side by side, in one run.

Runners per task, measured interleaved (A B A B ...), random actions:

  envpool_x async: 16 envs, batch 8; envpool_x sync: 8 envs
  envpool 1.2.5 with the same configs (when installed)
  dm_control: the suite's own environment (``suite.load``) stepped in a Python
      loop, one env, resetting when an episode ends (what a user of dm_control
      runs without a vectoriser)
  raw: our env stepped by one thread in a plain C++ loop (the single-thread rate
      that parallel efficiency is measured against).

Usage: python benchmarks/bench_dmc.py [--quick] [--threads 2] [--tasks CheetahRun-v1 WalkerWalk-v1]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control: no rendering

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_classic import (  # noqa: E402
    CEILING_NOTE,
    EFFICIENCY_METHOD,
    EFFICIENCY_ROUNDS,
    efficiency_table,
    envpool_ratios,
    measure_paired,
    paired_times,
    peer_runners,
    raw_pair,
    section_header,
    version,
    write_section,
)

from envpool_x import bench, make_spec  # noqa: E402
from envpool_x.families import dmc  # noqa: E402


def dm_control_runner(task: str) -> bench.Runner | None:
    """dm_control's own env of ``task`` in a Python loop, or None without dm_control."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from dm_control import suite
    except ImportError:
        return None
    domain, name = next(
        (d, t) for d, p, _, tasks in dmc.DOMAINS for t in tasks if dmc.task_id(p, t) == task
    )
    env = suite.load(domain, name, task_kwargs={"random": 0})
    acts = [a.astype("float64") for a in bench._actions(make_spec(task).action_space, 1, 64)]
    env.reset()

    def run(n: int) -> int:
        for i in range(n):
            if env.step(acts[i % 64][0]).last():
                env.reset()
        return n

    return bench.Runner("dm_control Python loop, 1 env", run)


def bench_task(task: str, threads: int, rounds: int, quick: bool) -> list[str]:
    runners = peer_runners(task, threads)
    loop = dm_control_runner(task)
    if loop is not None:
        runners.append(loop)
    raw, ceiling = raw_pair(task, threads)
    runners += [raw, ceiling]
    try:
        measure_paired(runners, rounds, quick)
    finally:
        for r in runners:
            r.close()
    ratios = envpool_ratios(runners)
    if loop is not None:
        ratios.append(f"sync {paired_times(runners[1], loop)} dm_control's loop")
    table = efficiency_table(runners, raw, ceiling)
    return [f"### {task}", "", *table, "", f"Ratios: {', '.join(ratios)}.", ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=EFFICIENCY_ROUNDS)
    parser.add_argument("--tasks", nargs="+", default=["CheetahRun-v1", "WalkerWalk-v1"])
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    parser.add_argument("--section", default="DeepMind Control")
    parser.add_argument("--note", default="", help="a line about the machine's load")
    args = parser.parse_args()
    t0 = time.time()
    body: list[str] = []
    for task in args.tasks:
        body += bench_task(task, args.threads, args.rounds, args.quick)
    lines = [
        *section_header(
            args.section,
            time.time() - t0,
            f"dm-control {version('dm-control')}, mujoco {version('mujoco')}",
            f"num_threads = {args.threads}; env steps (n_sub_steps MuJoCo steps each: 1 for "
            "cheetah, 10 for walker). " + EFFICIENCY_METHOD + CEILING_NOTE,
        ),
        *([f"- {args.note}"] if args.note else []),
        "",
        *body,
    ]
    md = "\n".join(lines)
    write_section(Path(args.out), args.section, md)
    print(md)


if __name__ == "__main__":
    main()
