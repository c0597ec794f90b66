"""The command line of scripts/gpu_kit.sh."""

from __future__ import annotations

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def parse(argv: list[str]) -> argparse.Namespace:
    """prepare | stage N | run [--dry] [--only STEP] | merge OUT_RESULTS | budget."""
    p = argparse.ArgumentParser(prog="scripts/gpu_kit.sh", description=__doc__)
    p.add_argument("--kit", default=".gpu_kit", help="the kit folder (relative to the repo root)")
    sub = p.add_subparsers(dest="cmd", required=True)
    prep = sub.add_parser("prepare", help="build, download and cut the kit into parts (here)")
    prep.add_argument("--python", help="CPython 3.12 to build with (default: python3.12, pyenv's)")
    prep.add_argument("--wheel", help="use this envpool_x cp312 wheel instead of building one")
    prep.add_argument("--build-dir", default="build/gpu-kit-cp312", help="CMake build folder")
    prep.add_argument("--rlsolver", help="an RLSolver checkout or bare git mirror")
    prep.add_argument(
        "--data",
        default=str(ROOT.parent / "shared" / "data"),
        help="the folder with gset/ and tsplib/ (default ../shared/data)",
    )
    prep.add_argument("--allow-unmet", action="store_true", help="pack despite unmet requirements")
    st = sub.add_parser("stage", help="copy carried part N to the stage folder (GPU machine)")
    st.add_argument("part", type=int)
    st.add_argument("--stage", default="/tmp/gpu_kit")
    run = sub.add_parser("run", help="install and run the steps (GPU machine; --dry here)")
    run.add_argument("--dry", action="store_true", help="CPU stand-ins, tiny sizes (any machine)")
    run.add_argument("--only", action="append", help="only these steps (STEP[,STEP])")
    run.add_argument("--stage", help="stage folder (default /tmp/gpu_kit; --dry: a temp folder)")
    run.add_argument("--out", help="output folder (default $OUT; else a temp folder)")
    run.add_argument("--budget", type=float, help="seconds for the whole run")
    run.add_argument("--rlsolver", help="RLSolver checkout (default: the kit's copy)")
    mg = sub.add_parser("merge", help="copy $OUT/RESULTS.md's sections into benchmarks/RESULTS.md")
    mg.add_argument("results", help="the RESULTS.md a run left in $OUT")
    mg.add_argument("sections", nargs="*", help="these sections (default: the finished steps')")
    sub.add_parser("budget", help="print the run's time budget")
    return p.parse_args(argv)


def main(argv: list[str]) -> int:
    """Dispatch."""
    args = parse(argv)
    if args.cmd == "prepare":
        from gpu_kit import prepare

        return prepare.main(args, ROOT)
    if args.cmd == "stage":
        from gpu_kit import runner

        return runner.stage(args, ROOT)
    if args.cmd == "run":
        from gpu_kit import runner, steps

        if args.budget is None:
            args.budget = steps.TOTAL_BUDGET_S
        return runner.run(args, ROOT)
    if args.cmd == "merge":
        from gpu_kit import report

        target = ROOT / "benchmarks" / "RESULTS.md"
        for name in report.merge(Path(args.results), target, args.sections or None):
            print(f"gpu_kit merge: {name} -> {target}")
        return 0
    from gpu_kit import steps

    print(steps.budget_text())
    return 0
