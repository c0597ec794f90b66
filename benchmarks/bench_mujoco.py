"""MuJoCo throughput (HalfCheetah-v5, Ant-v5), side by side with the peers, in one run.

Runners per task, measured interleaved (A B A B ...), random actions:

  envpool_x async: 16 envs, batch 8; envpool_x sync: 8 envs
  envpool 1.2.5 with the same configs (when installed)
  MuJoCo's own batched API (mjBatch, through ``mujoco.batch.Batch``, persistent:
      one mjData per simulation) stepping the same model: 8 simulations,
      frame_skip substeps per step, the same number of threads; controls in,
      qpos/qvel out. It computes no reward and no observation beyond the state,
      so it is a lower bound on the work of a step.
  raw: our env stepped by one thread in a plain C++ loop (the single-thread rate
      that parallel efficiency is measured against).

Usage: python benchmarks/bench_mujoco.py [--quick] [--threads 2] [--tasks HalfCheetah-v5 Ant-v5]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

# Before numpy loads OpenBLAS, which reads it then (its helper thread otherwise
# takes samples from the measured threads).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

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
    raw_over_pool_envs,
    raw_pair,
    section_header,
    version,
    write_section,
)

from envpool_x import bench, make_spec  # noqa: E402


def mjbatch_runner(task: str, nsim: int, threads: int) -> bench.Runner | None:
    """mujoco.batch.Batch stepping ``task``'s model: ctrl in, frame_skip
    mj_steps on ``threads`` threads (the caller's included), qpos/qvel out."""
    try:
        import mujoco
        from mujoco import batch as mjb
    except ImportError:
        return None
    spec = make_spec(task)
    config = spec.env_config
    model = mujoco.MjModel.from_xml_path(config["xml_file"])
    b = mjb.Batch(model, nsim=nsim, nthread=threads, persistent=True)
    ctrl, qpos, qvel = b.bind("ctrl"), b.bind("qpos"), b.bind("qvel")
    frame_skip = int(config["frame_skip"])
    acts = bench._actions(spec.action_space, nsim, 64)

    def run(n: int) -> int:
        rounds = max(1, n // nsim)
        for i in range(rounds):
            ctrl[:] = acts[i % 64]
            b.step(nstep=frame_skip)
            np.concatenate([qpos, qvel], axis=1)  # the observation a user reads
        return rounds * nsim

    return bench.Runner(f"mjBatch {nsim} sims, {threads} threads", run)


def bench_task(task: str, threads: int, rounds: int, quick: bool) -> list[str]:
    runners = peer_runners(task, threads)
    batch = mjbatch_runner(task, 8, threads)
    if batch is not None:
        runners.append(batch)
    raw, ceiling = raw_pair(task, threads)
    runners += [raw, ceiling, raw_over_pool_envs(task)]
    try:
        measure_paired(runners, rounds, quick)
    finally:
        for r in runners:
            r.close()
    ratios = envpool_ratios(runners)
    if batch is not None:
        ratios.append(f"sync {paired_times(runners[1], batch)} mjBatch")
    table = efficiency_table(runners, raw, ceiling)
    return [f"### {task}", "", *table, "", f"Ratios: {', '.join(ratios)}.", ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=EFFICIENCY_ROUNDS)
    parser.add_argument("--tasks", nargs="+", default=["HalfCheetah-v5", "Ant-v5"])
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    parser.add_argument("--section", default="MuJoCo")
    args = parser.parse_args()
    t0 = time.time()
    body: list[str] = []
    for task in args.tasks:
        body += bench_task(task, args.threads, args.rounds, args.quick)
    lines = [
        *section_header(
            args.section,
            time.time() - t0,
            f"mujoco {version('mujoco')}",
            f"num_threads = {args.threads}; env steps (frame_skip MuJoCo steps each). "
            + EFFICIENCY_METHOD
            + CEILING_NOTE,
        ),
        "",
        *body,
    ]
    md = "\n".join(lines)
    write_section(Path(args.out), args.section, md)
    print(md)


if __name__ == "__main__":
    main()
