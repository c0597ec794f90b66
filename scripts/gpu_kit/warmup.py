"""Compile ahead, beside the tests and the first benchmarks, what the mujoco step
would otherwise compile inside its time limit: MuJoCo Warp's kernels for Ant-v5
and Humanoid-v5 (warp keeps them in its kernel cache), and Brax's Ant reset and
step at one batch size (JAX's persistent cache, JAX_COMPILATION_CACHE_DIR).

It calls bench_cuda_mujoco.py's own constructors, so what it compiles is what
the benchmark runs. A standalone script, run by the kit in the steps' environment:

    python scripts/gpu_kit/warmup.py warp [--dry]   # --dry: warp's CPU device, 2 envs
    python scripts/gpu_kit/warmup.py brax LOG2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))


def warp(dry: bool, log2: int) -> None:
    """Our MuJoCo Warp pool and the raw step, stepped once per task."""
    import torch
    from bench_cuda_mujoco import TASKS, ours_and_raw

    import envpool_x

    device, n = ("cpu-reference", 2) if dry else ("cuda:0", 1 << log2)
    for task in TASKS:
        t0 = time.perf_counter()
        runners = ours_and_raw(envpool_x, torch, task, n, device)
        for r in runners:
            r.step()
            r.sync()
        for r in runners:
            r.close()
        print(f"warmup: {task} on {device}, {n} envs: {time.perf_counter() - t0:.1f} s", flush=True)


def brax(log2: int) -> None:
    """Brax's Ant at 2^log2 envs: reset and step compiled and run once."""
    from bench_cuda_mujoco import brax_ant

    t0 = time.perf_counter()
    runner, backend = brax_ant(1 << log2)
    runner.step()
    runner.sync()
    print(f"warmup: brax ant ({backend}), 2^{log2} envs: {time.perf_counter() - t0:.1f} s")


def main(argv: list[str]) -> int:
    """warp [--dry] [--log2 K] | brax K."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("what", choices=["warp", "brax"])
    p.add_argument("log2", type=int, nargs="?", default=13)
    p.add_argument("--dry", action="store_true")
    args = p.parse_args(argv)
    if args.what == "warp":
        warp(args.dry, args.log2)
    else:
        brax(args.log2)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
