"""What EnvPool's qpos0 / qvel0 info fields cost: MuJoCo and DMC tasks stepped
with and without ``initial_state_info``, interleaved, in one run.

EnvPool always writes each episode's initial qpos / qvel into info; envpool_x
writes them when ``initial_state_info=True``. This measures the price of the
fields, to decide (and document) whether they are worth a default.

Runners per task (sync, 8 envs; async, 16 envs batch 8), random actions:

  off: the default config
  on:  initial_state_info=True

Usage: python benchmarks/bench_info_fields.py [--quick] [--threads 2]
       [--tasks Hopper-v5 Humanoid-v5 CheetahRun-v1]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_classic import (  # noqa: E402
    EFFICIENCY_METHOD,
    EFFICIENCY_ROUNDS,
    measure_paired,
    paired_times,
    section_header,
    version,
    write_section,
)

from envpool_x import bench  # noqa: E402

SECTION = "Cost of the qpos0 / qvel0 info fields (initial_state_info)"
CASES = ((8, 8, "sync 8"), (16, 8, "async 16/b8"))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tasks", nargs="+", default=["Hopper-v5", "Humanoid-v5", "CheetahRun-v1"])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=EFFICIENCY_ROUNDS)
    p.add_argument("--quick", action="store_true", help="one short round (a smoke run)")
    p.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    args = p.parse_args()
    start = time.time()
    rows = []
    for task in args.tasks:
        runners = []
        for n, b, label in CASES:
            for on in (False, True):
                name = f"{'on' if on else 'off'} {label}"
                runners.append(
                    bench.envpool_x_runner(task, n, b, args.threads, name, initial_state_info=on)
                )
        measure_paired(runners, args.rounds, args.quick)
        by = {r.name: r for r in runners}
        for _, _, label in CASES:
            off, on = by[f"off {label}"], by[f"on {label}"]
            rows.append(
                f"| {task} | {label} | {off.steps_per_s:,.0f} | {on.steps_per_s:,.0f} "
                f"| {paired_times(on, off)} |"
            )
            print(rows[-1], flush=True)
        for r in runners:
            r.close()
    versions = f"mujoco {version('mujoco')}"
    lines = section_header(SECTION, time.time() - start, versions, EFFICIENCY_METHOD.split(";")[0])
    lines += [
        "",
        "| task | setting | off: steps/s | on: steps/s | on / off (95% interval) |",
        "|---|---|---:|---:|---:|",
        *rows,
        "",
    ]
    md = "\n".join(lines) + "\n"
    if not args.quick:
        write_section(Path(args.out), SECTION, md)
    print(md)


if __name__ == "__main__":
    main()
