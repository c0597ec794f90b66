"""The CPU engine from 1 to 16 threads, side by side with EnvPool and the hardware's ceiling.

For each case and thread count T, in one run, measured in interleaved rounds:

  envpool_x   our pool with num_threads = T (sync; async with batch = num_envs / 2 where
              the case lists it)
  envpool     EnvPool (the installed release) with the same settings (when installed)
  ceiling     T plain C++ loops of the same env running at once, no pool: what T cores
              deliver together with no coordination at all

and, once per case, one plain loop on one thread (the single-thread rate).

Efficiency columns: ours / (T x one plain loop), and ours / the T-loops ceiling. On a
machine with fewer cores than T the ceiling says how much the cores themselves give; a run
with T above the core count (``--oversubscribe``) shows contention, not scaling.

Usage:
  python benchmarks/bench_scaling.py                    # every case, T = 1, 2, 4, ... cores
  python benchmarks/bench_scaling.py --cases cartpole --threads 1 2
  python benchmarks/bench_scaling.py --quick            # a smoke run (tests/project/test_bench.py)
The table replaces the "CPU scaling" section of benchmarks/RESULTS.md; the plot goes to
benchmarks/scaling.png (needs matplotlib: pip install "envpool-x[bench]").
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

# numpy's BLAS threads spin after use and would steal the cores we measure.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).parent))

from bench_classic import cpu_name, version, write_section  # noqa: E402

from envpool_x import bench  # noqa: E402


@dataclass(frozen=True)
class Case:
    """A task and the pool sizes to scale it over."""

    key: str
    task: str
    num_envs: tuple[int, ...]
    with_async: bool


CASES = {
    "cartpole": Case("cartpole", "CartPole-v1", (4096, 65536, 1 << 20), False),
    "pong": Case("pong", "Pong-v5", (16, 64, 256), True),
    "ant": Case("ant", "Ant-v5", (16, 64, 256), False),
    "halfcheetah": Case("halfcheetah", "HalfCheetah-v5", (16, 64, 256), False),
}
QUICK_NUM_ENVS = {"cartpole": (256,), "pong": (4,), "ant": (4,), "halfcheetah": (4,)}


@dataclass
class Row:
    task: str
    num_envs: int
    mode: str
    threads: int
    ours: bench.Runner
    peer: bench.Runner | None
    ceiling: bench.Runner
    single: bench.Runner
    profile: dict[str, float] | None = None  # sync rows: where a round's time goes


def pool_runners(case: Case, num_envs: int, threads: int) -> list[tuple[str, bench.Runner]]:
    """(mode, runner) pairs of ours and EnvPool's pools at this size."""
    modes = [("sync", num_envs)]
    if case.with_async and num_envs >= 2:
        modes.append(("async", num_envs // 2))
    out = []
    for mode, batch in modes:
        out.append((mode, bench.envpool_x_runner(case.task, num_envs, batch, threads)))
        peer = bench.envpool_runner(case.task, num_envs, batch, threads)
        if peer is not None:
            peer.name = f"envpool {mode}"
            out.append((mode, peer))
    return out


def run_case(
    case: Case, num_envs: int, threads: list[int], rounds: int, quick: bool, profile: bool
) -> list[Row]:
    """Measure one pool size at every thread count (each count its own interleaved set)."""
    single = bench.raw_runner(case.task, 1)
    rows = []
    for t in threads:
        print(f"{case.task} num_envs={num_envs} threads={t}", file=sys.stderr)
        ceiling = bench.raw_runner(case.task, 1, f"raw C++ loops, {t} at once", threads=t)
        pools = pool_runners(case, num_envs, t)
        runners = [single, ceiling, *(r for _, r in pools)]
        try:
            bench.measure(
                runners,
                10**9,
                rounds=1 if quick else rounds,
                progress=False,
                slice_seconds=0.01 if quick else 0.1,
                shuffle=True,
            )
        finally:
            for _, r in pools:
                r.close()
        for mode in dict.fromkeys(m for m, _ in pools):
            ours = next(r for m, r in pools if m == mode and not r.name.startswith("envpool "))
            peer = next((r for m, r in pools if m == mode and r.name.startswith("envpool ")), None)
            rows.append(Row(case.task, num_envs, mode, t, ours, peer, ceiling, single))
        if profile:  # a diagnostic run of its own, after the timed rounds
            sync_row = next(r for r in rows if r.threads == t and r.mode == "sync")
            sync_row.profile = bench.round_profile(
                case.task, num_envs, t, 0.02 if quick else 0.3, 3 if quick else 20
            )
        # The single-thread loop is shared by every thread count: start its rounds afresh
        # so each row's paired ratios pair rounds measured together.
        single = bench.raw_runner(case.task, 1)
    return rows


def _ratio(a: bench.Runner, b: bench.Runner, scale: float = 1.0, pct: bool = True) -> str:
    mid, lo, hi = bench.paired_ratio(a, b, scale)
    if pct:
        return f"{mid:.0%} ({lo:.0%}-{hi:.0%})"
    return f"{mid:.2f}x ({lo:.2f}-{hi:.2f})"


def to_markdown(rows: list[Row], seconds: float, note: str, section: str) -> str:
    lines = [
        f"## {section}",
        "",
        f"- Command: `python {' '.join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]])}`",
        f"- Date: {time.strftime('%Y-%m-%d')}; {seconds:.0f} s",
        f"- Machine: {os.cpu_count()} CPUs, {cpu_name()}",
        f"- Versions: envpool_x {version('envpool-x')}, envpool {version('envpool')}, "
        f"ale-py {version('ale-py')}, mujoco {version('mujoco')}",
        "- Rounds of ~0.1 s per runner in a fresh random order; steps/s is the median over "
        "rounds; ratios are paired round by round with 95% bootstrap intervals. `of T x 1 "
        "loop`: ours / (T x one plain C++ loop on one thread); `of T loops at once`: ours / "
        "the summed rate of T plain loops running together (the cores' ceiling).",
    ]
    if note:
        lines.append(f"- {note}")
    lines += [
        "",
        "| task | num_envs | mode | threads | ours steps/s | EnvPool steps/s | ours / EnvPool "
        "| T loops at once | of T x 1 loop | of T loops at once |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        peer = f"{r.peer.steps_per_s:,.0f}" if r.peer else "n/a"
        vs_peer = _ratio(r.ours, r.peer, pct=False) if r.peer else "n/a"
        lines.append(
            f"| {r.task} | {r.num_envs} | {r.mode} | {r.threads} | {r.ours.steps_per_s:,.0f} "
            f"| {peer} | {vs_peer} | {r.ceiling.steps_per_s:,.0f} "
            f"| {_ratio(r.ours, r.single, float(r.threads))} | {_ratio(r.ours, r.ceiling)} |"
        )
    profiled = [r for r in rows if r.profile]
    if profiled:
        lines += [
            "",
            "Where a sync round's time goes in our pool (`envpool_x.bench.round_profile`, "
            "a separate run after the interleaved rounds; mean µs per round). "
            "`caller`: its own work before the envs are queued (actions, result arrays) "
            "and after the last one finished; `last start`: how long after the envs were "
            "queued the last taking thread began; `steps`: one taking thread's time in env "
            "steps; `end wait`: a taking thread's mean wait for the others at the end; "
            "`threads`: threads that took work (the caller is one).",
            "",
            "| task | num_envs | threads | round µs | caller µs | last start µs | steps µs "
            "| end wait µs | threads | steps / round |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in profiled:
            p = r.profile
            caller = p["prologue_us"] + p["epilogue_us"]
            lines.append(
                f"| {r.task} | {r.num_envs} | {r.threads} | {p['wall_us']:,.1f} | {caller:,.1f} "
                f"| {p['latest_start_us']:,.1f} | {p['busy_per_lane_us']:,.1f} "
                f"| {p['end_idle_us']:,.1f} | {p['lanes_per_round']:.1f} "
                f"| {p['busy_per_lane_us'] / p['wall_us']:.0%} |"
            )
    return "\n".join(lines) + "\n"


def plot(rows: list[Row], path: Path) -> bool:
    """steps/s against threads per (task, num_envs, mode): ours, EnvPool, the ceiling.
    False when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    groups: dict[tuple[str, int, str], list[Row]] = {}
    for r in rows:
        groups.setdefault((r.task, r.num_envs, r.mode), []).append(r)
    cols = min(3, len(groups))
    nrows = (len(groups) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5 * cols, 3.6 * nrows), squeeze=False)
    for ax, ((task, n, mode), group) in zip(axes.flat, groups.items(), strict=False):
        t = [r.threads for r in group]
        ax.plot(t, [r.ceiling.steps_per_s for r in group], "k--", label="T plain loops at once")
        ax.plot(t, [r.ours.steps_per_s for r in group], "o-", label="envpool_x")
        if all(r.peer for r in group):
            ax.plot(
                t, [r.peer.steps_per_s for r in group], "s-", label=f"EnvPool {version('envpool')}"
            )
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(f"{task}, {n} envs, {mode}", fontsize=10)
        ax.set_xlabel("threads")
        ax.set_ylabel("env steps/s")
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(groups) :]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    return True


def default_threads(oversubscribe: bool) -> list[int]:
    cpus = os.cpu_count() or 1
    out, t = [], 1
    while t <= 16 and (t <= cpus or oversubscribe):
        out.append(t)
        t *= 2
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", nargs="+", choices=sorted(CASES), default=list(CASES))
    parser.add_argument("--threads", nargs="+", type=int, help="default: 1, 2, 4 .. the CPUs")
    parser.add_argument("--num-envs", nargs="+", type=int, help="override every case's sizes")
    parser.add_argument("--oversubscribe", action="store_true", help="T up to 16 on any machine")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="tiny sizes, one round (smoke)")
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    parser.add_argument("--plot", default=str(Path(__file__).with_name("scaling.png")))
    parser.add_argument("--note", default="", help="a line for the section (e.g. the machine)")
    parser.add_argument("--section", default="CPU scaling", help="RESULTS.md section to replace")
    parser.add_argument(
        "--no-profile", action="store_true", help="skip the round profiles of the sync rows"
    )
    args = parser.parse_args()
    threads = args.threads or default_threads(args.oversubscribe)
    t0 = time.perf_counter()
    rows: list[Row] = []
    for key in args.cases:
        case = CASES[key]
        sizes = args.num_envs or (QUICK_NUM_ENVS[key] if args.quick else case.num_envs)
        for n in sizes:
            rows += run_case(case, n, threads, args.rounds, args.quick, not args.no_profile)
    md = to_markdown(rows, time.perf_counter() - t0, args.note, args.section)
    print(md)
    if args.out != "-":
        write_section(Path(args.out), args.section, md)
    if args.plot != "-" and not plot(rows, Path(args.plot)):
        print("matplotlib is not installed: no plot (pip install 'envpool-x[bench]')")


if __name__ == "__main__":
    main()
