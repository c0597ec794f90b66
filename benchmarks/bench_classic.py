"""Classic control throughput, side by side with the peers, in one run.

For each task and num_envs, every runner is measured interleaved (A B A B ...)
and the ratios to envpool_x are written to benchmarks/RESULTS.md:

  envpool_x sync (batch = num_envs) and async (batch = num_envs / 2)
  envpool 1.2.5 with the same config (when installed: pip install envpool)
  gymnasium's vector envs: the numpy-vectorised CartPole (vector_entry_point),
      SyncVectorEnv, and AsyncVectorEnv (subprocesses; only for <= 16 envs)
  raw: a single-thread plain C++ loop of the same dynamics (no pool)

Usage: python benchmarks/bench_classic.py [--quick] [--threads 2] [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

# numpy's BLAS threads spin after use and would steal the cores we measure.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


from envpool_x import bench, bench_peer  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results_file import write_section  # noqa: E402  (the other benchmarks import it from here)


def version(pkg: str) -> str:
    if pkg == "envpool" and bench_peer.seen:  # EnvPool ran in ENVPOOL_X_PEER_PYTHON
        return bench_peer.version_text()
    try:
        return metadata.version(pkg)
    except metadata.PackageNotFoundError:
        return "not installed"


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def run_case(task: str, num_envs: int, threads: int, steps: int, rounds: int) -> list[dict]:
    runners = [bench.envpool_x_runner(task, num_envs, num_envs, threads, "envpool_x sync")]
    if num_envs >= 2:
        runners.append(
            bench.envpool_x_runner(task, num_envs, num_envs // 2, threads, "envpool_x async")
        )
    peer = bench.envpool_runner(task, num_envs, num_envs, threads)
    if peer is not None:
        peer.name = "envpool sync"
        runners.append(peer)
        if num_envs >= 2:
            peer_async = bench.envpool_runner(task, num_envs, num_envs // 2, threads)
            if peer_async is not None:
                peer_async.name = "envpool async"
                runners.append(peer_async)
    for mode in ("vector_entry_point", "sync") + (("async",) if num_envs <= 16 else ()):
        g = bench.gymnasium_runner(task, num_envs, mode)
        if g is not None:
            runners.append(g)
    raw_runner = bench.raw_runner(task, num_envs)
    runners.append(raw_runner)
    try:
        bench.measure(runners, steps, rounds=rounds, progress=sys.stderr.isatty())
    finally:
        for r in runners:
            r.close()
    raw = raw_runner.steps_per_s
    ours = runners[0].steps_per_s
    rows = []
    for r in runners:
        if r is raw_runner:
            continue
        rows.append(
            {
                "task": task,
                "num_envs": num_envs,
                "runner": r.name,
                "steps_per_s": r.steps_per_s,
                "us_per_batch": None if "async" in r.name else 1e6 * num_envs / r.steps_per_s,
                "sync_over_this": ours / r.steps_per_s,
                "of_2x_raw": r.steps_per_s / (2 * raw) if r.name.startswith("envpool_x") else None,
            }
        )
    rows.append(
        {
            "task": task,
            "num_envs": num_envs,
            "runner": "raw C++ loop, 1 thread",
            "steps_per_s": raw,
            "us_per_batch": None,
            "sync_over_this": ours / raw,
            "of_2x_raw": None,
        }
    )
    return rows


def with_defaults(argv: list[str], defaults: list[str]) -> list[str]:
    """argv plus the ``defaults`` for the flags it does not give (so the section's
    Command line shows each flag once): for the scripts that pick tasks and
    sizes for this one (bench_box2d.py, bench_minigrid.py)."""
    given = {a for a in argv if a.startswith("--")}
    extra: list[str] = []
    keep = False
    for a in defaults:
        if a.startswith("--"):
            keep = a not in given
        if keep:
            extra.append(a)
    return [*extra, *argv]


def to_markdown(rows: list[dict], args: argparse.Namespace, cmd: str) -> str:
    head = [
        f"## {args.section}",
        "",
        f"- Command: `{cmd}`",
        f"- Date: {datetime.date.today().isoformat()}",
        f"- Machine: {os.cpu_count()} CPUs, {cpu_name()}, Python {platform.python_version()}",
        f"- Versions: envpool_x {version('envpool-x')}, envpool {version('envpool')}, "
        f"gymnasium {version('gymnasium')}, numpy {version('numpy')}",
        f"- num_threads = {args.threads}; async = batch_size num_envs/2; steps counted are "
        "env steps (not frames); each runner measured in "
        f"{args.rounds} interleaved rounds, median rate reported.",
        "- `sync / runner`: envpool_x sync steps/s divided by that runner's steps/s "
        "(> 1: envpool_x is faster). `of 2x raw`: steps/s / (2 x the single-thread raw C++ "
        "loop), the parallel efficiency on 2 threads.",
        "",
        "| task | num_envs | runner | steps/s | µs per sync step | sync / runner | of 2x raw |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        us = f"{r['us_per_batch']:.1f}" if r["us_per_batch"] else ""
        eff = f"{r['of_2x_raw']:.0%}" if r["of_2x_raw"] is not None else ""
        head.append(
            f"| {r['task']} | {r['num_envs']} | {r['runner']} | {r['steps_per_s']:,.0f} | "
            f"{us} | {r['sync_over_this']:.2f}x | {eff} |"
        )
    return "\n".join(head) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="small workloads (smoke test)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tasks", nargs="+", default=["CartPole-v1", "Pendulum-v1"])
    parser.add_argument("--num-envs", nargs="+", type=int, default=[16, 256, 4096])
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    parser.add_argument(
        "--section",
        default="Classic control",
        help="the section of --out this run replaces (other sections are kept)",
    )
    args = parser.parse_args()
    steps = 20_000 if args.quick else 2_000_000
    rows = []
    for task in args.tasks:
        for n in args.num_envs:
            print(f"{task} num_envs={n}", file=sys.stderr)
            rows.extend(run_case(task, n, args.threads, steps, 1 if args.quick else args.rounds))
    cmd = "python " + " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]])
    md = to_markdown(rows, args, cmd)
    write_section(Path(args.out), args.section, md)
    print(md)


def section_header(section: str, seconds: float, versions: str, method: str) -> list[str]:
    """The lines that open a results section: command, date, machine, versions
    and a line on the method."""
    return [
        f"## {section}",
        "",
        f"- Command: `python {' '.join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]])}`",
        f"- Date: {time.strftime('%Y-%m-%d')}; {seconds:.0f} s",
        f"- Machine: {os.cpu_count()} CPUs, {cpu_name()}",
        f"- Versions: envpool_x {version('envpool-x')}, envpool {version('envpool')}, {versions}",
        f"- {method}",
    ]


def peer_runners(task: str, threads: int) -> list[bench.Runner]:
    """The async (16 envs, batch 8) and sync (8 envs) cases the physics and
    Atari issues set bars for: ours, then EnvPool's when it is installed."""
    runners = [
        bench.envpool_x_runner(task, 16, 8, threads, "envpool_x async 16/b8"),
        bench.envpool_x_runner(task, 8, 8, threads, "envpool_x sync 8"),
    ]
    for n, b in ((16, 8), (8, 8)):
        peer = bench.envpool_runner(task, n, b, threads)
        if peer is not None:
            peer.name = f"envpool {n}/b{b}"
            runners.append(peer)
    return runners


# How the efficiency sections measure, and what their columns mean (each
# section header gives these sentences).
EFFICIENCY_ROUNDS = 60
EFFICIENCY_SLICE_S = 0.08
EFFICIENCY_METHOD = (
    f"Rounds of ~{EFFICIENCY_SLICE_S:.2f} s per runner, in a fresh random "
    "order each round; steps/s is the median over rounds. Shares are paired: the median over "
    "rounds of the runner's rate over the raw rate of the same round, with a 95% bootstrap "
    "interval (this VM's speed drifts by up to ±20% within seconds, which a ratio of "
    "per-runner medians does not cancel). `of 2x raw`: steps/s / (2 x the single-thread C++ "
    "loop of the same env, which ends episodes as the pools do: terminated, or at the task's "
    "time limit), the parallel efficiency on 2 threads."
)
CEILING_NOTE = (
    " `of 2 raw loops at once`: steps/s / the summed rate of two raw loops running at the "
    "same time, no pool: what the two cores deliver together, any pool's ceiling."
)


def measure_paired(runners: list[bench.Runner], rounds: int, quick: bool) -> None:
    """Measure ``runners`` the way the efficiency sections report them."""
    bench.measure(
        runners,
        10**9,
        rounds=1 if quick else rounds,
        progress=False,
        slice_seconds=0.01 if quick else EFFICIENCY_SLICE_S,
        shuffle=True,
    )


def _share(a: bench.Runner, b: bench.Runner, scale: float) -> str:
    mid, lo, hi = bench.paired_ratio(a, b, scale)
    if a is b and scale == 1.0:
        return "100%"
    return f"{mid:.1%} ({lo:.1%}-{hi:.1%})"


def efficiency_table(
    runners: list[bench.Runner], raw: bench.Runner, ceiling: bench.Runner | None = None
) -> list[str]:
    """steps/s of each runner, its share of 2x the single-thread raw rate (the
    issues' parallel efficiency) and, given ``ceiling`` (two raw loops at
    once), its share of what the two cores delivered together; both paired
    round by round (``bench.paired_ratio``)."""
    head = "| runner | steps/s | of 2x raw (95% CI) |"
    if ceiling is not None:
        head += " of 2 raw loops at once (95% CI) |"
    lines = [head, "|---|---:|---:|" + ("---:|" if ceiling is not None else "")]
    for r in runners:
        line = f"| {r.name} | {r.steps_per_s:,.0f} | {_share(r, raw, 2.0)} |"
        if ceiling is not None:
            line += f" {_share(r, ceiling, 1.0)} |"
        lines.append(line)
    return lines


def raw_over_pool_envs(task: str, num_envs: int = 16) -> bench.Runner:
    """One thread stepping as many envs as the async pool holds, round robin:
    the single-thread rate with the pool's working set (the 1-env loop keeps
    its one env in cache), so a table shows how much of a pool's shortfall
    is that and how much is the pool itself."""
    return bench.raw_runner(task, num_envs, f"raw C++ loop over {num_envs} envs, 1 thread")


def raw_pair(task: str, threads: int) -> tuple[bench.Runner, bench.Runner]:
    """The single-thread raw loop, and ``threads`` raw loops at once (the
    machine's own parallel ceiling, see ``bench.raw_runner``)."""
    return (
        bench.raw_runner(task, 1),
        bench.raw_runner(task, 1, f"raw C++ loops, {threads} at once", threads=threads),
    )


def envpool_ratios(runners: list[bench.Runner]) -> list[str]:
    """Our async / sync rates over EnvPool's (empty without EnvPool)."""
    by_name = {r.name: r for r in runners}
    if "envpool 16/b8" not in by_name:
        return []
    return [
        f"async {paired_times(by_name['envpool_x async 16/b8'], by_name['envpool 16/b8'])} envpool",
        f"sync {paired_times(by_name['envpool_x sync 8'], by_name['envpool 8/b8'])} envpool",
    ]


def paired_times(a: bench.Runner, b: bench.Runner) -> str:
    """``a``'s rate over ``b``'s, paired round by round: "1.23x (1.20-1.26)"."""
    mid, lo, hi = bench.paired_ratio(a, b)
    return f"{mid:.2f}x ({lo:.2f}-{hi:.2f})"


def case_rows(
    label: str,
    num_envs: int,
    runners: list[bench.Runner],
    raw: bench.Runner | None,
    pairs: list[tuple[str, str]],
) -> tuple[list[dict[str, Any]], str]:
    """One case of the family benchmarks: a row per runner (its rate, µs per sync batch,
    our sync pool's rate over its, and our pools' share of twice the raw loop; the first
    runner is our sync pool) and a line of the paired ratios of the ``pairs`` that ran."""
    by_name = {r.name: r for r in runners}
    ratios = [
        f"{a} / {b} {paired_times(by_name[a], by_name[b])}"
        for a, b in pairs
        if a in by_name and b in by_name
    ]
    ours = runners[0].steps_per_s
    rows = [
        {
            "task": label,
            "num_envs": num_envs,
            "runner": r.name,
            "steps_per_s": r.steps_per_s,
            "us_per_batch": None
            if "async" in r.name or r.own_rates
            else 1e6 * num_envs / r.steps_per_s,
            "sync_over_this": ours / r.steps_per_s,
            "of_2x_raw": r.steps_per_s / (2 * raw.steps_per_s)
            if raw is not None and r.name.startswith("envpool_x")
            else None,
        }
        for r in runners
    ]
    return rows, f"- {label}, {num_envs} envs: " + "; ".join(ratios)


if __name__ == "__main__":
    main()


def report_cases(
    rows: list[dict], ratios: list[str], args: argparse.Namespace, slice_s: float, extra: str = ""
) -> None:
    """The end of a case benchmark (bench_metaworld, bench_procgen, bench_craftax,
    bench_robotics): the table, the paired ratios and ``extra``, printed and,
    unless ``--quick``, written to the section ``args.section`` of ``args.out``."""
    cmd = "python " + " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]])
    md = to_markdown(rows, args, cmd)
    md += (
        "\nPaired ratios (median over rounds of the per-round ratio, 95% bootstrap interval; "
        f"rounds of ~{slice_s} s per runner in a fresh random order):\n\n"
        + "\n".join(ratios)
        + "\n"
        + extra
    )
    if not args.quick:
        write_section(Path(args.out), args.section, md)
    print(md)


def pool_and_peer_runners(
    task: str, num_envs: int, threads: int, peer: bool = True, **config: Any
) -> list[bench.Runner]:
    """A case benchmark's pools: envpool_x sync and async (batch num_envs/2) with
    ``config``, and with ``peer`` EnvPool's sync and async where it runs ``task``."""
    runners = [
        bench.envpool_x_runner(task, num_envs, batch, threads, name, **config)
        for batch, name in ((num_envs, "envpool_x sync"), (num_envs // 2, "envpool_x async"))
    ]
    if peer:
        for batch, name in ((num_envs, "envpool sync"), (num_envs // 2, "envpool async")):
            runner = bench.envpool_runner(task, num_envs, batch, threads)
            if runner is not None:
                runner.name = name
                runners.append(runner)
    return runners


def measure_shuffled(runners: list[bench.Runner], rounds: int, quick: bool, slice_s: float) -> None:
    """Measure ``runners`` in interleaved rounds in a fresh random order, then close them."""
    try:
        bench.measure(
            runners, 10**9, rounds=rounds, progress=sys.stderr.isatty(),
            slice_seconds=0.02 if quick else slice_s, shuffle=True,
        )  # fmt: skip
    finally:
        for r in runners:
            r.close()
