"""Atari throughput (Pong-v5), side by side with the peers, in one run.

Runners, measured interleaved (A B A B ...), default EnvPool preprocessing
(frame_skip 4, 84x84 grayscale, stack 4):

  envpool_x async: 16 envs, batch 8; envpool_x sync: 8 envs
  envpool 1.2.5 with the same configs (when installed)
  ale-py's AtariVectorEnv (its C++ thread pool) with the same configs
  raw: our env (emulation + preprocessing) stepped by one thread in a plain C++
      loop; the same loop on 2 threads at once (the machine's ceiling); and ALE's
      act() alone in a C++ loop with our ALE build (emulation only, 4 frames per
      env step). The raw loops cycle through 64 pre-drawn uniform actions, as
      the pools get uniform random ones (a fixed NOOP/FIRE pattern leaves
      Pong's paddle still and the preprocessing less to redo)

Usage: python benchmarks/bench_atari.py [--quick] [--threads 2] [--out PATH]
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
    CEILING_NOTE,
    EFFICIENCY_METHOD,
    EFFICIENCY_ROUNDS,
    efficiency_table,
    envpool_ratios,
    measure_paired,
    paired_times,
    peer_runners,
    raw_over_pool_envs,
    section_header,
    version,
    write_section,
)

from envpool_x import bench  # noqa: E402

TASK = "Pong-v5"


def ale_vector_runner(num_envs: int, batch_size: int, threads: int) -> bench.Runner | None:
    """ale-py's AtariVectorEnv, sync (batch == num_envs) or send/recv."""
    try:
        from ale_py.vector_env import AtariVectorEnv
    except ImportError:
        return None
    env = AtariVectorEnv(
        "pong",
        num_envs,
        batch_size=batch_size if batch_size < num_envs else 0,
        num_threads=threads,
        reward_clipping=False,
    )
    acts = bench._actions(env.single_action_space, batch_size, 64)
    if batch_size == num_envs:
        env.reset(seed=0)
        run = bench.sync_step_loop(env, num_envs, acts)
    else:
        env.reset(seed=0)  # returns the first batch; send acts on the last batch received

        def run(n: int) -> int:
            rounds = max(1, n // batch_size)
            for i in range(rounds):
                env.send(acts[i % 64])
                env.recv()
            return rounds * batch_size

    return bench.Runner(f"ale-py AtariVectorEnv b{batch_size}", run, env.close)


def ale_act_runner() -> bench.Runner:
    """ALE's act() alone (frame_skip 4 frames per env step, no preprocessing) in
    a plain C++ loop with this module's ALE build: what emulation costs, so the
    raw loop's rate shows what our preprocessing adds."""
    from envpool_x import _core
    from envpool_x.families import atari

    rom = atari.rom_path("pong")
    return bench.self_timed_runner(
        "ALE act() only, 1 thread (emulation)",
        lambda n: (n, n / _core.atari_act_loop(rom, "pong", n)),
    )


def ale_ratios(runners: list[bench.Runner]) -> list[str]:
    """Our async / sync rates over ale-py's AtariVectorEnv (empty without it)."""
    by_name = {r.name: r for r in runners}
    pairs = (("async", "envpool_x async 16/b8", 16), ("sync", "envpool_x sync 8", 8))
    return [
        f"{mode} {paired_times(by_name[ours], by_name[f'ale-py AtariVectorEnv {n}/b8'])} ale-py"
        for mode, ours, n in pairs
        if f"ale-py AtariVectorEnv {n}/b8" in by_name
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=EFFICIENCY_ROUNDS)
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    parser.add_argument("--section", default="Atari")
    args = parser.parse_args()
    t = args.threads
    runners = peer_runners(TASK, t)
    for n, b in ((16, 8), (8, 8)):
        ale_vec = ale_vector_runner(n, b, t)
        if ale_vec is not None:
            ale_vec.name = f"ale-py AtariVectorEnv {n}/b{b}"
            runners.append(ale_vec)
    raw = bench.raw_runner(TASK, 1, "raw C++ loop, 1 thread (emulation + preprocessing)")
    ceiling = bench.raw_runner(TASK, 1, f"raw C++ loops, {t} at once", threads=t)
    runners += [raw, ceiling, raw_over_pool_envs(TASK), ale_act_runner()]
    t0 = time.time()
    try:
        measure_paired(runners, args.rounds, args.quick)
    finally:
        for r in runners:
            r.close()
    lines = [
        *section_header(
            args.section,
            time.time() - t0,
            f"ale-py {version('ale-py')}",
            f"{TASK}, num_threads = {t}, EnvPool's default preprocessing; env steps (4 frames "
            "each). " + EFFICIENCY_METHOD + CEILING_NOTE,
        ),
        "",
        *efficiency_table(runners, raw, ceiling),
        "",
        f"Ratios: {', '.join(envpool_ratios(runners) + ale_ratios(runners))}.",
    ]
    md = "\n".join(lines) + "\n"
    write_section(Path(args.out), args.section, md)
    print(md)


if __name__ == "__main__":
    main()
