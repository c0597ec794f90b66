"""GPU path throughput: steps/s of device="cuda" against the CPU engine and the
memory-bandwidth roofline, plus a PPO-style loop that never copies observations
to the host.

For each task and num_envs = 2^k (k in [--min-log2, --max-log2]):
  gpu:      env.step(action tensor on the GPU), timed between two device syncs
  cpu:      the thread-pool engine with the same task (up to --cpu-max-log2)
  roofline: (GPU memory bandwidth) / (bytes the kernel moves per env step)
GPU and CPU runs are interleaved (A B A B ...) and the median round is kept.

Bandwidth is both queried from the device (memory clock x bus width, the
data-sheet peak) and measured (a large device-to-device copy); the roofline
column uses the measured copy bandwidth, the realistic ceiling.

Usage: python benchmarks/bench_cuda.py [--max-log2 24] [--write]
Needs torch with CUDA and an NVIDIA GPU; --help works anywhere, and --smoke runs
every part tiny on the GPU path's host loop (device="cpu-reference", torch on the CPU).
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from importlib import metadata
from pathlib import Path

TASKS = ("CartPole-v1", "Pendulum-v1")

# Bytes the kernel body reads and writes per env step in steady state
# (cpp/cuda/kernel_body.h): state words (8 B each) read and written, elapsed
# (4 + 4), flags (1 + 1), the action (8 B: int64 / float64 tensors from torch
# are read as they are; float32 for Pendulum: 4 B), and the outputs: obs
# (4 B each), reward 4, terminated 1, truncated 1, env_id 4, elapsed_step 4.
# The RNG stream (16 B) is only touched on the steps that reset.
STATE_WORDS = {"CartPole-v1": 4, "Pendulum-v1": 2}
OBS_DIM = {"CartPole-v1": 4, "Pendulum-v1": 3}
ACTION_BYTES = {"CartPole-v1": 8, "Pendulum-v1": 4}


def bytes_per_step(task: str) -> int:
    state = 2 * 8 * STATE_WORDS[task]
    bookkeeping = 2 * 4 + 2 * 1
    outputs = 4 * OBS_DIM[task] + 4 + 1 + 1 + 4 + 4
    return state + bookkeeping + ACTION_BYTES[task] + outputs


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tasks", nargs="+", default=list(TASKS), choices=TASKS)
    p.add_argument("--min-log2", type=int, default=10)
    p.add_argument("--max-log2", type=int, default=24)
    p.add_argument(
        "--cpu-max-log2", type=int, default=20, help="largest num_envs for the CPU engine"
    )
    p.add_argument("--threads", type=int, default=0, help="CPU engine threads (0: all cores)")
    p.add_argument("--device", default="cuda:0")
    p.add_argument("--seconds", type=float, default=0.5, help="target time of one timed run")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--ppo-envs", type=int, default=1 << 16)
    p.add_argument("--ppo-steps", type=int, default=128, help="rollout length of the PPO loop")
    p.add_argument(
        "--write", action="store_true", help="append the tables to benchmarks/RESULTS.md"
    )
    p.add_argument(
        "--smoke",
        action="store_true",
        help="every part tiny (2^2..2^3 envs) on device='cpu-reference' with torch on the CPU "
        "(a check of this script, not a measurement; nothing written)",
    )
    args = p.parse_args(argv)
    if args.smoke:
        args.device, args.min_log2, args.max_log2, args.cpu_max_log2 = "cpu-reference", 2, 3, 3
        args.seconds, args.rounds, args.ppo_envs, args.ppo_steps = 0.01, 1, 4, 2
        args.write = False
    return args


def torch_device(device: str) -> str:
    """Where torch keeps this device's tensors (the reference device's are on the CPU)."""
    return "cpu" if device == "cpu-reference" else device


def synchronizer(torch, device: str):
    """A function that waits for the device's queued work (nothing to wait for on the CPU)."""
    if device == "cpu-reference":
        return lambda: None
    return lambda: torch.cuda.synchronize(device)


def version(pkg: str) -> str:
    try:
        return metadata.version(pkg)
    except metadata.PackageNotFoundError:
        return "not installed"


def measured_copy_bandwidth(torch, device: str, n: int = 1 << 28) -> float:
    """Bytes/s of a device-to-device copy of n float32 (1 GiB; read + write counted)."""
    sync = synchronizer(torch, device)
    src = torch.empty(n, dtype=torch.float32, device=torch_device(device))
    dst = torch.empty_like(src)
    dst.copy_(src)
    sync()
    best = 0.0
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(10):
            dst.copy_(src)
        sync()
        best = max(best, 10 * 2 * 4 * n / (time.perf_counter() - t0))
    del src, dst
    torch.cuda.empty_cache()
    return best


def time_steps(step, sync, seconds: float, max_calls: int = 1 << 16) -> float:
    """Calls of `step()` (one batched step) per second over about `seconds`, after one
    warm-up call; at most `max_calls` calls in the timed run."""
    step()
    sync()
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            step()
        sync()
        dt = time.perf_counter() - t0
        if dt >= seconds or n >= max_calls:
            return n / dt
        n = max(n * 2, int(n * seconds / max(dt, 1e-6)))


def gpu_runner(envpool_x, torch, task: str, num_envs: int, device: str):
    env = envpool_x.make_gymnasium(task, num_envs=num_envs, device=device, array_backend="torch")
    env.reset()
    tdev = torch_device(device)
    if task == "CartPole-v1":
        act = torch.randint(0, 2, (num_envs,), device=tdev)
    else:
        act = torch.rand((num_envs, 1), device=tdev) * 4 - 2

    def step():
        env.step(act)

    return env, step, synchronizer(torch, device)


def cpu_runner(envpool_x, np, task: str, num_envs: int, threads: int):
    env = envpool_x.make_gymnasium(task, num_envs=num_envs, num_threads=threads)
    env.reset()
    rng = np.random.default_rng(0)
    if task == "CartPole-v1":
        act = rng.integers(0, 2, num_envs)
    else:
        act = rng.uniform(-2, 2, (num_envs, 1)).astype(np.float32)

    def step():
        env.step(act)

    return env, step, lambda: None


def ppo_loop(envpool_x, torch, num_envs: int, steps: int, device: str) -> dict:
    """A PPO-style rollout: policy forward on the GPU, sample, step; the
    observations go into a rollout buffer on the GPU and never to the host."""
    env = envpool_x.make_gymnasium(
        "CartPole-v1", num_envs=num_envs, device=device, array_backend="torch"
    )
    sync, tdev = synchronizer(torch, device), torch_device(device)
    policy = torch.nn.Sequential(
        torch.nn.Linear(4, 64),
        torch.nn.Tanh(),
        torch.nn.Linear(64, 64),
        torch.nn.Tanh(),
        torch.nn.Linear(64, 2),
    ).to(tdev)
    obs_buf = torch.empty((steps, num_envs, 4), device=tdev)
    rew_buf = torch.empty((steps, num_envs), device=tdev)
    done_buf = torch.empty((steps, num_envs), dtype=torch.bool, device=tdev)
    obs, _ = env.reset()

    def rollout():
        nonlocal obs
        with torch.no_grad():
            for t in range(steps):
                obs_buf[t] = obs
                logits = policy(obs)
                action = torch.distributions.Categorical(logits=logits).sample()
                obs, reward, term, trunc, _ = env.step(action)
                rew_buf[t] = reward
                done_buf[t] = term | trunc
        assert obs.device.type == torch.device(tdev).type  # never left the device

    rollout()
    sync()
    t0 = time.perf_counter()
    rollout()
    sync()
    dt = time.perf_counter() - t0
    env.close()
    return {"num_envs": num_envs, "steps": steps, "sps": steps * num_envs / dt}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import numpy as np

    import envpool_x
    from envpool_x.backends.cuda import cuda_status

    ok, why = cuda_status()
    if not ok and not args.smoke:
        print(f"bench_cuda: {why}", file=sys.stderr)
        return 2
    try:
        import torch
    except ImportError:
        print("bench_cuda: needs torch (with CUDA)", file=sys.stderr)
        return 2
    if not torch.cuda.is_available() and not args.smoke:
        print("bench_cuda: torch has no CUDA support here", file=sys.stderr)
        return 2
    from envpool_x import _core

    if args.smoke:  # the host loop: no device to ask, a host copy stands in
        info = {"name": "device='cpu-reference' (--smoke)", "peak_bandwidth": 0.0}
        copy_bw = measured_copy_bandwidth(torch, args.device, n=1 << 20)
    else:
        index = int(args.device.split(":")[1]) if ":" in args.device else 0
        info = _core.cuda_device_info(index)
        copy_bw = measured_copy_bandwidth(torch, args.device)
    peak = info["peak_bandwidth"]
    lines = [
        f"## GPU path ({datetime.date.today().isoformat()})",
        "",
        f"Command: `python benchmarks/bench_cuda.py {' '.join(sys.argv[1:])}`",
        f"GPU: {info['name']} (peak memory bandwidth {peak / 1e9:.0f} GB/s from its memory "
        f"clock and bus width; measured copy {copy_bw / 1e9:.0f} GB/s). "
        f"torch {version('torch')}, envpool-x {version('envpool-x')}.",
        "",
    ]
    for task in args.tasks:
        bps = bytes_per_step(task)
        roof = copy_bw / bps
        lines += [
            f"### {task} ({bps} bytes per env step; roofline {roof:.3g} steps/s)",
            "",
            "| num_envs | gpu steps/s | % of roofline | cpu steps/s | gpu / cpu |",
            "|---:|---:|---:|---:|---:|",
        ]
        for k in range(args.min_log2, args.max_log2 + 1):
            n = 1 << k
            runners = [("gpu", *gpu_runner(envpool_x, torch, task, n, args.device))]
            if k <= args.cpu_max_log2:
                runners.append(("cpu", *cpu_runner(envpool_x, np, task, n, args.threads)))
            rates: dict[str, list[float]] = {name: [] for name, *_ in runners}
            for _ in range(args.rounds):  # interleaved: gpu cpu gpu cpu ...
                for name, _env, step, sync in runners:
                    rates[name].append(time_steps(step, sync, args.seconds) * n)
            for _name, env, *_ in runners:
                env.close()
            gpu = statistics.median(rates["gpu"])
            cpu = statistics.median(rates["cpu"]) if "cpu" in rates else None
            lines.append(
                f"| 2^{k} | {gpu:.3g} | {100 * gpu / roof:.0f}% | "
                + (f"{cpu:.3g} | {gpu / cpu:.1f}x |" if cpu else "- | - |")
            )
            print(lines[-1], flush=True)
            torch.cuda.empty_cache()
        lines.append("")
    ppo = ppo_loop(envpool_x, torch, args.ppo_envs, args.ppo_steps, args.device)
    lines += [
        f"PPO-style rollout (CartPole-v1, {ppo['num_envs']} envs x {ppo['steps']} steps, "
        f"2x64 tanh MLP policy forward + sample + step, observations kept on the GPU): "
        f"{ppo['sps']:.3g} env steps/s.",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write:
        out = Path(__file__).with_name("RESULTS.md")
        with out.open("a") as f:
            f.write("\n" + text)
        print(f"appended to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
