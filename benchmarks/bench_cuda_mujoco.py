"""MuJoCo tasks on the GPU (MuJoCo Warp, issue #29): env steps/s of device="cuda"
against MuJoCo Warp's own physics rate, Brax's Ant and our CPU engine, plus a
PPO-style loop with the policy on the GPU.

For each task (Ant-v5, Humanoid-v5) and num_envs = 2^k (k in [--min-log2, --max-log2]):
  ours:  env.step(action tensor on the GPU), timed between two device syncs
  raw:   MuJoCo Warp's step of the same model, batch and states (our pool's own
         Model and Data), captured as a CUDA graph as mjwarp-testspeed does,
         divided by frame_skip: the physics alone. Target: ours >= 85% of it.
  brax:  Brax's Ant (its default backend), jit(vmap(step)), same num_envs
         (Ant-v5 rows only). Target: ours >= 2x it.
  cpu:   our thread-pool engine, --threads threads (0: all cores), up to --cpu-max-log2
Runners are interleaved (ours raw brax cpu, ours raw ...) and the median round kept.

Usage (GPU machine, 16 cores):
  python benchmarks/bench_cuda_mujoco.py --write
  python benchmarks/bench_cuda_mujoco.py --no-brax   # without Brax installed
  python benchmarks/bench_cuda_mujoco.py --smoke     # the whole script, tiny, warp's CPU device
A missing peer (torch with CUDA, MuJoCo Warp, Brax) stops the script at once
with exit status 2 and what to install or which flag skips it.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cuda import time_steps, version  # noqa: E402

TASKS = ("Ant-v5", "Humanoid-v5")
TARGET_RAW, TARGET_BRAX = 0.85, 2.0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tasks", nargs="+", default=list(TASKS), choices=TASKS)
    p.add_argument("--min-log2", type=int, default=10)
    p.add_argument("--max-log2", type=int, default=16)
    p.add_argument("--cpu-max-log2", type=int, default=14, help="largest num_envs, CPU engine")
    p.add_argument("--threads", type=int, default=0, help="CPU engine threads (0: all cores)")
    p.add_argument("--device", default="cuda:0")
    p.add_argument("--seconds", type=float, default=1.0, help="target time of one timed run")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--ppo-envs", type=int, default=1 << 13)
    p.add_argument("--ppo-steps", type=int, default=64, help="rollout length of the PPO loop")
    p.add_argument("--no-brax", action="store_true", help="skip Brax (not installed)")
    p.add_argument("--no-cpu", action="store_true", help="skip our CPU engine")
    p.add_argument("--write", action="store_true", help="append the tables to RESULTS.md")
    p.add_argument(
        "--smoke",
        action="store_true",
        help="run every part tiny (2^1..2^2 envs) on warp's CPU device (device='cpu-reference'); "
        "Brax only imported, not run (its CPU compile takes minutes)",
    )
    args = p.parse_args(argv)
    if args.smoke:
        args.device, args.min_log2, args.max_log2, args.cpu_max_log2 = "cpu-reference", 1, 2, 2
        args.seconds, args.rounds, args.ppo_envs, args.ppo_steps = 0.0, 1, 2, 2
    return args


def missing_peers(args: argparse.Namespace) -> list[str]:
    """What this run needs and lacks, each with how to get it or skip it."""
    out = []
    for mod, what in (("mujoco_warp", 'pip install "envpool-x[mujoco-gpu]"'), ("torch", "torch")):
        try:
            importlib.import_module(mod)
        except ImportError:
            out.append(f"{mod} is not installed ({what})")
    if not args.smoke:
        try:
            import torch

            if not torch.cuda.is_available():
                out.append("torch has no CUDA device here (run on a GPU machine, or --smoke)")
        except ImportError:
            pass
    if not args.no_brax:
        try:
            import brax  # noqa: F401
            from brax import envs  # noqa: F401
        except ImportError as e:
            why = f"brax is not importable ({e}; pip install brax==0.14.*, or --no-brax)"
            if not args.smoke:
                out.append(why)
            else:  # --smoke does not run Brax: say so, go on
                print(f"bench_cuda_mujoco --smoke: {why}", file=sys.stderr)
    return out


class Runner:
    """One timed thing: ``step`` (one batched call), ``sync``, env steps per call."""

    def __init__(self, step: Any, sync: Any, per_call: float, close: Any = None) -> None:
        self.step, self.sync, self.per_call = step, sync, per_call
        self.close = close or (lambda: None)


def ours_and_raw(envpool_x: Any, torch: Any, task: str, n: int, device: str) -> list[Runner]:
    """Our pool (torch actions on the device), and MuJoCo Warp's raw step of the
    pool's own Model and Data (so the same batch and states), graph-captured."""
    kw: dict[str, Any] = {"array_backend": "torch"} if device != "cpu-reference" else {}
    env = envpool_x.make_gymnasium(task, num_envs=n, device=device, **kw)
    env.reset(seed=0)
    nu = env.single_action_space.shape[0]
    pool, wp = env._pool, env._pool.wp
    physics = pool.physics
    if device == "cpu-reference":
        action: Any = np.zeros((n, nu), np.float32)
        sync = lambda: None  # noqa: E731
    else:
        action = torch.zeros((n, nu), device=device)
        sync = lambda: torch.cuda.synchronize(device)  # noqa: E731

    def raw() -> None:
        with pool._scope():
            physics.run("raw", lambda: physics.mjw.step(physics.model, physics.data))

    return [
        Runner(lambda: env.step(action), sync, n, env.close),
        Runner(raw, lambda: wp.synchronize_device(pool.wp_device), n / physics.frame_skip),
    ]


def brax_ant(n: int) -> tuple[Runner, str]:
    """Brax's Ant with jit(vmap(step)) (compiled before timing), and its backend."""
    import jax
    from brax import envs

    env = envs.get_environment("ant")
    state = jax.jit(jax.vmap(env.reset))(jax.random.split(jax.random.PRNGKey(0), n))
    step = jax.jit(jax.vmap(env.step))
    action = jax.numpy.zeros((n, env.action_size))
    box = {"s": step(state, action)}
    jax.block_until_ready(box["s"])

    def run() -> None:
        box["s"] = step(box["s"], action)

    backend = str(getattr(env, "backend", "?"))
    return Runner(run, lambda: jax.block_until_ready(box["s"]), n), backend


def cpu(envpool_x: Any, task: str, n: int, threads: int) -> Runner:
    env = envpool_x.make_gymnasium(task, num_envs=n, num_threads=threads)
    env.reset(seed=0)
    action = np.zeros((n, env.single_action_space.shape[0]), np.float32)
    return Runner(lambda: env.step(action), lambda: None, n, env.close)


def ppo_loop(envpool_x: Any, torch: Any, task: str, n: int, steps: int, device: str) -> float:
    """A PPO-style rollout: a torch MLP policy on the device, Gaussian actions,
    observations kept in a device buffer; env steps per second."""
    dev = "cpu" if device == "cpu-reference" else device
    env = envpool_x.make_gymnasium(task, num_envs=n, device=device, array_backend="torch")
    obs_dim, act_dim = env.single_observation_space.shape[0], env.single_action_space.shape[0]
    policy = torch.nn.Sequential(
        torch.nn.Linear(obs_dim, 64),
        torch.nn.Tanh(),
        torch.nn.Linear(64, 64),
        torch.nn.Tanh(),
        torch.nn.Linear(64, act_dim),
    ).to(dev)
    obs_buf = torch.empty((steps, n, obs_dim), device=dev)
    rew_buf = torch.empty((steps, n), device=dev)
    obs, _ = env.reset(seed=0)

    def rollout() -> None:
        nonlocal obs
        with torch.no_grad():
            for t in range(steps):
                o = obs.float()
                obs_buf[t] = o
                mean = policy(o)
                action = (mean + 0.1 * torch.randn_like(mean)).clamp(-0.4, 0.4)
                obs, reward, _, _, _ = env.step(action)
                rew_buf[t] = reward
        assert obs.device.type == torch.device(dev).type  # never left the device

    def sync() -> None:
        if dev != "cpu":
            torch.cuda.synchronize(dev)

    rollout()
    sync()
    t0 = time.perf_counter()
    rollout()
    sync()
    env.close()
    return steps * n / (time.perf_counter() - t0)


def measure(envpool_x: Any, torch: Any, task: str, k: int, args: Any) -> dict[str, Any]:
    """One row: median env steps/s of each runner over interleaved rounds."""
    n = 1 << k
    pair = ours_and_raw(envpool_x, torch, task, n, args.device)
    runners = dict(zip(("ours", "raw"), pair, strict=True))
    row: dict[str, Any] = {"task": task, "k": k, "brax_backend": ""}
    if task == "Ant-v5" and not args.no_brax and not args.smoke:
        runners["brax"], row["brax_backend"] = brax_ant(n)
    if not args.no_cpu and k <= args.cpu_max_log2:
        runners["cpu"] = cpu(envpool_x, task, n, args.threads)
    rates: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(args.rounds):
        for name, r in runners.items():
            rates[name].append(
                time_steps(r.step, r.sync, args.seconds, max_calls=1 << 14) * r.per_call
            )
    for r in runners.values():
        r.close()
    for name in ("ours", "raw", "brax", "cpu"):
        row[name] = statistics.median(rates[name]) if name in rates else float("nan")
    return row


def fmt(x: float) -> str:
    return "-" if x != x else f"{x:.3g}"


def table_line(r: dict[str, Any]) -> str:
    of_raw, of_brax, of_cpu = r["ours"] / r["raw"], r["ours"] / r["brax"], r["ours"] / r["cpu"]
    return (
        f"| 2^{r['k']} | {fmt(r['ours'])} | {fmt(r['raw'])} | {100 * of_raw:.0f}% "
        f"{'ok' if of_raw >= TARGET_RAW else 'BELOW'} | {fmt(r['brax'])} | "
        + (
            f"{of_brax:.1f}x {'ok' if of_brax >= TARGET_BRAX else 'BELOW'}"
            if r["brax"] == r["brax"]
            else "-"
        )
        + f" | {fmt(r['cpu'])} | "
        + (f"{of_cpu:.2g}x |" if r["cpu"] == r["cpu"] else "- |")
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    missing = missing_peers(args)
    if missing:
        print("bench_cuda_mujoco: missing peers:\n  " + "\n  ".join(missing), file=sys.stderr)
        return 2
    import torch

    import envpool_x

    gpu = "warp's CPU device (--smoke)" if args.smoke else torch.cuda.get_device_name(args.device)
    lines = [
        f"## MuJoCo on the GPU: MuJoCo Warp ({datetime.date.today().isoformat()})",
        "",
        f"Command: `python benchmarks/bench_cuda_mujoco.py {' '.join(sys.argv[1:])}`",
        f"Device: {gpu}. envpool-x {version('envpool-x')}, mujoco-warp {version('mujoco-warp')}, "
        f"warp-lang {version('warp-lang')}, mujoco {version('mujoco')}, brax {version('brax')}, "
        f"jax {version('jax')}, torch {version('torch')}. CPU engine: "
        f"{args.threads or 'all'} threads. Env steps/s, median of {args.rounds} interleaved "
        f"rounds of ~{args.seconds} s; raw = MuJoCo Warp's step of the pool's own model, "
        f"batch and states (CUDA graph) / frame_skip; targets: ours >= {TARGET_RAW:.0%} of "
        f"raw, >= {TARGET_BRAX:.0f}x Brax's Ant.",
        "",
    ]
    for task in args.tasks:
        lines += [
            f"### {task}",
            "",
            "| num_envs | ours | raw / frame_skip | ours / raw | brax ant | ours / brax | "
            "cpu engine | ours / cpu |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        backend = ""
        for k in range(args.min_log2, args.max_log2 + 1):
            row = measure(envpool_x, torch, task, k, args)
            backend = row["brax_backend"] or backend
            lines.append(table_line(row))
            print(lines[-1], flush=True)
            if not args.smoke:
                torch.cuda.empty_cache()
        if backend:
            lines.append(f"\nBrax's Ant ran on its default backend, `{backend}`.")
        lines.append("")
    for task in args.tasks:
        sps = ppo_loop(envpool_x, torch, task, args.ppo_envs, args.ppo_steps, args.device)
        lines.append(
            f"PPO-style rollout ({task}, {args.ppo_envs} envs x {args.ppo_steps} steps, 2x64 "
            f"tanh MLP policy + Gaussian noise + step, observations kept on the device): "
            f"{sps:.3g} env steps/s."
        )
        print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write and not args.smoke:
        out = Path(__file__).with_name("RESULTS.md")
        with out.open("a") as f:
            f.write("\n" + text)
        print(f"appended to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
