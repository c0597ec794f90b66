"""Craftax and Craftax-Classic throughput: envpool_x against EnvPool's Craftax and
Craftax's own JAX step on JAX's CPU backend, side by side in one run (issue 45).

Runners per (task, num_envs), measured interleaved (bench.measure):

  envpool_x sync / async (batch num_envs/2)
  envpool sync / async: EnvPool 1.2.7, which installs on Python >= 3.12 only;
      set ENVPOOL_X_PEER_PYTHON to a Python that has it (bench_peer)
  craftax jax: Craftax 1.6.1's jit(vmap(env.step)) on JAX's CPU backend
      (JAX_PLATFORMS=cpu, XLA's own threads), with the auto-reset its
      make_craftax_env_from_name(auto_reset=True) envs do (each step also
      makes the world a reset would take and keeps it where an episode
      ended); timed after compilation, the state kept on the device; only
      up to --jax-max-envs envs (a step of 256 takes seconds on 2 cores)
  raw C++ loop, 1 thread: our env stepped by one thread without the pool

Then where a step's time goes in our C++ (_core.craftax_profile: one thread,
16 envs, a clock read as each part of a step ends).

Usage: python benchmarks/bench_craftax.py [--quick] [--threads 2]
           [--tasks Craftax-Classic-Symbolic-v1 ...] [--num-envs 256 1024 4096]
           [--jax-max-envs 256] [--out PATH]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # before anything imports JAX
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_classic import case_rows, report_cases  # noqa: E402

from envpool_x import _core, bench  # noqa: E402
from envpool_x.families import craftax  # noqa: E402

SLICE_S = 0.15  # seconds per runner per round
TASKS = [
    "Craftax-Classic-Symbolic-v1",
    "Craftax-Classic-Pixels-v1",
    "Craftax-Symbolic-v1",
    "Craftax-Pixels-v1",
]
PROFILE_ENVS = 16


def jax_runner(task: str, num_envs: int) -> bench.Runner:
    """Craftax's jit(vmap(env.step)) on JAX's CPU backend, auto-resetting."""
    import jax
    from craftax.craftax_env import make_craftax_env_from_name

    env = make_craftax_env_from_name(task, auto_reset=True)
    params = env.default_params
    step = jax.jit(jax.vmap(env.step, in_axes=(0, 0, 0, None)))
    reset = jax.jit(jax.vmap(env.reset, in_axes=(0, None)))
    rng = np.random.default_rng(0)
    # Pre-drawn actions and step keys (drawing them is not what we measure).
    n = env.action_space(params).n
    acts = [jax.numpy.asarray(rng.integers(0, n, num_envs), dtype=np.int32) for _ in range(64)]
    keys = list(jax.random.split(jax.random.PRNGKey(1), 64 * num_envs).reshape(64, num_envs, -1))
    _, state = reset(jax.random.split(jax.random.PRNGKey(0), num_envs), params)
    obs, state, *_ = step(keys[0], state, acts[0], params)  # compiles
    jax.block_until_ready(obs)
    held = {"state": state}

    def run(n: int) -> int:
        rounds = max(1, n // num_envs)
        s = held["state"]
        for i in range(rounds):
            obs, s, *_ = step(keys[i % 64], s, acts[i % 64], params)
        jax.block_until_ready(obs)
        held["state"] = s
        return rounds * num_envs

    return bench.Runner("craftax jax (CPU)", run)


def run_case(
    task: str, num_envs: int, threads: int, rounds: int, quick: bool, with_jax: bool
) -> tuple[list[dict], str]:
    """Measure every runner on (task, num_envs); return bench_classic's table
    rows and the paired ratios of ours over the peers."""
    runners = [
        bench.envpool_x_runner(task, num_envs, num_envs, threads, "envpool_x sync"),
        bench.envpool_x_runner(task, num_envs, num_envs // 2, threads, "envpool_x async"),
    ]
    for batch, name in ((num_envs, "envpool sync"), (num_envs // 2, "envpool async")):
        peer = bench.envpool_runner(task, num_envs, batch, threads)
        if peer is not None:
            peer.name = name
            runners.append(peer)
        else:
            print(f"{name}: left out ({bench.peer_note()})", file=sys.stderr)
    if with_jax:
        runners.append(jax_runner(task, num_envs))
    raw = bench.raw_runner(task, 1)
    runners.append(raw)
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
    pairs = [
        ("envpool_x sync", "envpool sync"),
        ("envpool_x async", "envpool async"),
        ("envpool_x sync", "craftax jax (CPU)"),
    ]
    return case_rows(task, num_envs, runners, raw, pairs)


def profile_table(tasks: list[str], quick: bool) -> str:
    """Microseconds per step of each part of a step, per task (one thread)."""
    parts = ["reset", "draws", "player", "mobs", "spawns", "upkeep", "obs"]
    lines = [
        f"Where a step's time goes (`_core.craftax_profile`: one thread, {PROFILE_ENVS} envs, "
        "random actions, a reset when an episode ends; µs per step, a reset's cost spread "
        "over the steps; `reset`: making the world (all nine floors in the full game), "
        "`draws`: the step's random numbers (drawn as the full game's step needs them, so "
        "counted in its parts), `player`: the player's actions (crafting, DO, placing, "
        "moving; in the full game also floors, shooting, spells, potions, books, enchanting, "
        "the boss), `mobs`: mobs and projectiles, `spawns`: new mobs, `upkeep`: plants, "
        "intrinsics, daylight, `obs`: the observation):",
        "",
        "| task | " + " | ".join(parts) + " | total | steps/s | episodes |",
        "|---|" + "---:|" * (len(parts) + 3),
    ]
    for task in tasks:
        pixels = "Pixels" in task
        full = "Classic" not in task
        steps = (4_000 if pixels else 20_000) if quick else (100_000 if pixels else 1_000_000)
        got = dict(_core.craftax_profile(pixels, {}, PROFILE_ENVS, steps, 0, full))
        total = sum(got[p] for p in parts)
        cells = " | ".join(f"{got[p]:.3f}" for p in parts)
        lines.append(
            f"| {task} | {cells} | {total:.3f} | {1e6 / total:,.0f} | {got['resets']:.0f} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="tiny workloads (smoke test)")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--tasks", nargs="+", default=TASKS)
    parser.add_argument("--num-envs", nargs="+", type=int, default=None)
    parser.add_argument(
        "--jax-max-envs",
        type=int,
        default=256,
        help="measure Craftax's JAX step up to this many envs (0: never)",
    )
    parser.add_argument("--out", default=str(HERE / "RESULTS.md"))
    parser.add_argument("--section", default="Craftax")
    args = parser.parse_args()
    if not craftax.has_craftax():
        sys.exit(craftax.BUILD_HINT)
    if args.num_envs is None:
        args.num_envs = [256] if args.quick else [256, 1024, 4096]
    if args.quick:
        args.rounds = 1
    rows, ratios = [], []
    for task in args.tasks:
        for n in args.num_envs:
            print(f"{task} num_envs={n}", file=sys.stderr)
            new_rows, new_ratio = run_case(
                task, n, args.threads, args.rounds, args.quick, n <= args.jax_max_envs
            )
            rows.extend(new_rows)
            ratios.append(new_ratio)
    report_cases(rows, ratios, args, SLICE_S, extra="\n" + profile_table(args.tasks, args.quick))


if __name__ == "__main__":
    main()
