"""Users' own envs against the built-in CartPole-v1, side by side in one run.

The same CartPole written as a user would (examples/user_envs/cartpole.h for
register_cpp_env, examples/user_envs/numba_cartpole.py for register_numba_env)
is stepped at 4096 envs, sync, next to the built-in CartPole-v1 and
gymnasium's vector envs (its numpy-vectorised CartPole and SyncVectorEnv),
in shuffled interleaved rounds with paired ratios. Also timed, each in a fresh
process: the first compile of the C++ env (empty cache) and a cached load.

Usage: python benchmarks/bench_user_envs.py [--quick] [--threads 2] [--out PATH]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_classic import section_header, version, write_section  # noqa: E402

from envpool_x import bench  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "user_envs"
REGISTER = f"""
import json, sys, time
t0 = time.perf_counter()
import envpool_x
t1 = time.perf_counter()
envpool_x.register_cpp_env("UserCartPole-v1", {str(EXAMPLES / "cartpole.h")!r},
                           "user::CartPole", max_episode_steps=500)
t2 = time.perf_counter()
print(json.dumps({{"import": t1 - t0, "register": t2 - t1}}))
"""


def time_register(cache: str) -> dict[str, float]:
    """Seconds to import envpool_x and to register the C++ CartPole, in a fresh
    process with ``cache`` as the module cache."""
    env = dict(os.environ, ENVPOOL_X_CACHE_DIR=cache)
    out = subprocess.run(
        [sys.executable, "-c", REGISTER], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def register_user_cartpoles() -> None:
    import envpool_x

    envpool_x.register_cpp_env(
        "UserCartPole-v1", EXAMPLES / "cartpole.h", "user::CartPole", max_episode_steps=500
    )
    spec = importlib.util.spec_from_file_location("numba_cartpole", EXAMPLES / "numba_cartpole.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    module.register("NumbaCartPole-v1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--num-envs", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--quick", action="store_true", help="a smoke test")
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    parser.add_argument("--section", default="User envs (issue 30)")
    args = parser.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as cache:
        first = time_register(cache)
        cached = [time_register(cache) for _ in range(3)]
    register_user_cartpoles()
    n, threads = args.num_envs, args.threads
    runners = [
        bench.envpool_x_runner("CartPole-v1", n, n, threads, "built-in CartPole-v1"),
        bench.envpool_x_runner("UserCartPole-v1", n, n, threads, "register_cpp_env CartPole"),
        bench.envpool_x_runner("NumbaCartPole-v1", n, n, threads, "register_numba_env CartPole"),
    ]
    for mode in ("vector_entry_point", "sync"):
        peer = bench.gymnasium_runner("CartPole-v1", n, mode)
        if peer is not None:
            runners.append(peer)
    try:
        bench.measure(
            runners,
            10**9,
            rounds=1 if args.quick else args.rounds,
            progress=False,
            slice_seconds=0.01 if args.quick else 0.1,
            shuffle=True,
        )
    finally:
        for r in runners:
            r.close()
    builtin = runners[0]
    lines = section_header(
        args.section,
        time.perf_counter() - start,
        f"numba {version('numba')}, gymnasium {version('gymnasium')}",
        f"{n} envs, sync, num_threads={threads}; shuffled interleaved rounds of ~0.1 s; "
        "`of built-in`: the runner's rate over the built-in CartPole-v1's, paired round by "
        "round (median and 95% bootstrap interval).",
    )
    lines += [
        "",
        "| runner | steps/s | of built-in (95% CI) |",
        "|---|---:|---:|",
    ]
    for r in runners:
        mid, lo, hi = bench.paired_ratio(r, builtin)
        lines.append(f"| {r.name} | {r.steps_per_s:,.0f} | {mid:.1%} ({lo:.1%}-{hi:.1%}) |")
    best_cached = min(c["register"] for c in cached)
    all_cached = ", ".join(f"{c['register']:.3f}" for c in cached)
    lines += [
        "",
        f"register_cpp_env of the CartPole header, fresh process: first compile "
        f"{first['register']:.2f} s (empty cache); cached load {best_cached:.3f} s "
        f"(best of {len(cached)}; all: {all_cached}); "
        f"`import envpool_x` itself {first['import']:.2f} s.",
        "",
    ]
    md = "\n".join(lines)
    if not args.quick:
        write_section(Path(args.out), args.section, md)
    print(md)


if __name__ == "__main__":
    main()
