"""Two builds of envpool_x side by side: is a change within noise?

Each build runs in its own worker process (the module cannot be imported
twice in one process), found through PYTHONPATH (a folder holding an
``envpool_x`` package, e.g. from ``pip install --no-deps --target DIR .``), or
the installed package for ``--after installed``. The driver asks the workers
for rounds alternately (A B A B ...), so a host whose speed drifts moves both
alike, and reports each case's median rate per build and the paired ratio
after / before with a 95% bootstrap interval.

Cases (num_threads = 2, sync steps, pre-drawn uniform random actions):
CartPole-v1 4096 envs, Pong-v5 8 envs, Ant-v5 8 envs.

Usage:
  python benchmarks/bench_builds.py --before /tmp/before_site --after installed \
      [--rounds 15] [--seconds 0.3] [--cases CartPole-v1:4096 CartPole-v1:16]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time

import numpy as np

CASES = [("CartPole-v1", 4096), ("Pong-v5", 8), ("Ant-v5", 8)]

# The worker: builds one env, then answers "n" (run about n steps) with the
# seconds and steps it took, until stdin closes.
WORKER = r"""
import json, sys, time
import numpy as np
import envpool_x

task, num_envs, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
env = envpool_x.make_gymnasium(task, num_envs=num_envs, num_threads=threads, seed=0)
space = env.single_action_space
rng = np.random.default_rng(0)
if hasattr(space, "n"):
    acts = [rng.integers(0, int(space.n), size=num_envs).astype(np.int32) for _ in range(64)]
else:
    acts = [rng.uniform(space.low, space.high, size=(num_envs, *space.shape)).astype(np.float32)
            for _ in range(64)]
env.reset()
print(json.dumps({"ready": envpool_x.__file__}), flush=True)
for line in sys.stdin:
    rounds = max(1, int(line) // num_envs)
    t0 = time.perf_counter()
    for i in range(rounds):
        env.step(acts[i % 64])
    print(json.dumps({"s": time.perf_counter() - t0, "n": rounds * num_envs}), flush=True)
env.close()
"""


def start_worker(site: str, task: str, num_envs: int, threads: int) -> subprocess.Popen:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    if site != "installed":
        env["PYTHONPATH"] = site + os.pathsep + env.get("PYTHONPATH", "")
        # A --target install has no mujoco package beside it, where the
        # module's RUNPATH looks for libmujoco: use the installed one.
        spec = importlib.util.find_spec("mujoco")
        if spec is not None and spec.origin is not None:
            libdir = os.path.dirname(spec.origin)
            env["LD_LIBRARY_PATH"] = libdir + os.pathsep + env.get("LD_LIBRARY_PATH", "")
    proc = subprocess.Popen(
        [sys.executable, "-c", WORKER, task, str(num_envs), str(threads)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    ready = json.loads(proc.stdout.readline())
    print(f"  {task}: {site} -> {ready['ready']}", file=sys.stderr)
    if site != "installed" and not os.path.realpath(ready["ready"]).startswith(
        os.path.realpath(site)
    ):
        # An editable install's import hook wins over PYTHONPATH: both workers
        # would measure the same build.
        proc.kill()
        sys.exit(
            f"the worker for {site} imported envpool_x from {ready['ready']}: an editable "
            "install's import hook takes precedence over PYTHONPATH. Run this script with an "
            "interpreter without the editable install (a venv whose .pth lists only the "
            "dependencies' site-packages) and give both builds as folders"
        )
    return proc


def ask(proc: subprocess.Popen, steps: int) -> float:
    """One round of about ``steps`` env steps; returns steps/s."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{steps}\n")
    proc.stdin.flush()
    r = json.loads(proc.stdout.readline())
    return r["n"] / r["s"]


def parse_case(text: str) -> tuple[str, int]:
    """'CartPole-v1:4096' -> ('CartPole-v1', 4096)."""
    task, sep, num_envs = text.rpartition(":")
    if not sep or not task or not num_envs.isdigit() or int(num_envs) < 1:
        raise argparse.ArgumentTypeError(f"expected TASK:NUM_ENVS, got {text!r}")
    return task, int(num_envs)


def paired(after: list[float], before: list[float]) -> tuple[float, float, float]:
    x = np.asarray(after) / np.asarray(before)
    rng = np.random.default_rng(0)
    medians = np.median(rng.choice(x, size=(2000, x.size)), axis=1)
    lo, hi = np.percentile(medians, [2.5, 97.5])
    return float(np.median(x)), float(lo), float(hi)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", required=True, help="folder with the baseline envpool_x")
    ap.add_argument("--after", default="installed", help="folder, or 'installed'")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--seconds", type=float, default=0.3, help="target length of a round")
    ap.add_argument(
        "--cases",
        nargs="+",
        type=parse_case,
        default=CASES,
        help="TASK:NUM_ENVS pairs (default: %(default)s); builds of a few families "
        "measure only their own tasks",
    )
    args = ap.parse_args()
    print("| task | num_envs | before steps/s | after steps/s | after / before (95% CI) |")
    print("|---|---|---|---|---|")
    for task, num_envs in args.cases:
        workers = {
            "before": start_worker(args.before, task, num_envs, args.threads),
            "after": start_worker(args.after, task, num_envs, args.threads),
        }
        # Calibrate a round's length on the baseline, then warm both up.
        steps = num_envs
        while True:
            t0 = time.perf_counter()
            ask(workers["before"], steps)
            if time.perf_counter() - t0 > args.seconds / 4:
                break
            steps *= 2
        steps = int(steps * args.seconds / max(time.perf_counter() - t0, 1e-6))
        for w in workers.values():
            ask(w, steps)
        rates: dict[str, list[float]] = {"before": [], "after": []}
        for k in range(args.rounds):
            order = ["before", "after"] if k % 2 == 0 else ["after", "before"]
            for name in order:
                rates[name].append(ask(workers[name], steps))
        for w in workers.values():
            assert w.stdin is not None
            w.stdin.close()
            w.wait()
        ratio, lo, hi = paired(rates["after"], rates["before"])
        print(
            f"| {task} | {num_envs} | {np.median(rates['before']):,.0f} | "
            f"{np.median(rates['after']):,.0f} | {ratio:.3f} ({lo:.3f}-{hi:.3f}) |",
            flush=True,
        )


if __name__ == "__main__":
    main()
