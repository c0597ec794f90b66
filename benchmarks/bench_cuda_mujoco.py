"""MuJoCo tasks on the GPU (MuJoCo Warp): env steps/s of device="cuda" against
MuJoCo Warp's own physics rate, Brax's Ant and our CPU engine, plus a
PPO-style loop with the policy on the GPU.

For each task (Ant-v5, Humanoid-v5) and num_envs = 2^k (k in [--min-log2, --max-log2]):
  ours:  env.step(action tensor on the device), timed between two device syncs
  raw:   mujoco_warp.step on the same model and batch, in a loop, / frame_skip
         (the ceiling: the physics alone; ours should be >= 85% of it)
  brax:  Brax's Ant (its default backend) with jit(vmap(step)), when brax is installed
  cpu:   our thread-pool engine on the same task (up to --cpu-max-log2)

Usage: python benchmarks/bench_cuda_mujoco.py [--max-log2 16]
       python benchmarks/bench_cuda_mujoco.py --simulate   # tiny sizes, warp's CPU device
Needs mujoco-warp (the mujoco-gpu extra) and, on a GPU, torch with CUDA.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

TASKS = ("Ant-v5", "Humanoid-v5")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tasks", nargs="+", default=list(TASKS), choices=TASKS)
    p.add_argument("--min-log2", type=int, default=10)
    p.add_argument("--max-log2", type=int, default=16)
    p.add_argument(
        "--cpu-max-log2", type=int, default=14, help="largest num_envs for the CPU engine"
    )
    p.add_argument("--threads", type=int, default=0, help="CPU engine threads (0: all cores)")
    p.add_argument("--device", default="cuda:0")
    p.add_argument("--seconds", type=float, default=1.0, help="target time of one timed run")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--ppo-envs", type=int, default=1 << 13)
    p.add_argument("--ppo-steps", type=int, default=64, help="rollout length of the PPO loop")
    p.add_argument(
        "--simulate",
        action="store_true",
        help="check the script on warp's CPU device (device='cpu-reference') at 2^1..2^2 envs",
    )
    return p.parse_args(argv)


def time_steps(step: Any, sync: Any, seconds: float, min_steps: int = 2) -> float:
    """Calls of ``step`` per second: warm up once, then run for about ``seconds``."""
    step()
    sync()
    n, t0 = 0, time.perf_counter()
    while n < min_steps or time.perf_counter() - t0 < seconds:
        step()
        n += 1
    sync()
    return n / (time.perf_counter() - t0)


def ours(envpool_x: Any, task: str, n: int, device: str, torch: Any) -> tuple[Any, Any]:
    if device == "cpu-reference":
        env = envpool_x.make_gymnasium(task, num_envs=n, device=device)
        env.reset()
        action = np.zeros((n, env.single_action_space.shape[0]), np.float32)
        return (lambda: env.step(action)), (lambda: None)
    env = envpool_x.make_gymnasium(task, num_envs=n, device=device, array_backend="torch")
    env.reset()
    action = torch.zeros((n, env.single_action_space.shape[0]), device=device)
    return (lambda: env.step(action)), (lambda: torch.cuda.synchronize(device))


def raw(envpool_x: Any, task: str, n: int, device: str) -> tuple[Any, Any, int]:
    """MuJoCo Warp's step loop on the model our pool loads (frame_skip returned)."""
    from envpool_x.mujoco_gpu import engine

    _, wp, mjw = engine.import_engine()
    spec = envpool_x.make_spec(task)
    model = engine.load_model(dict(spec.env_config)["xml_file"])
    wdev = "cpu" if device == "cpu-reference" else device
    physics = engine.Physics(model, n, wdev, 1, False)
    with wp.ScopedDevice(wdev):
        physics.forward()
    return (
        (lambda: physics.step()),
        (lambda: wp.synchronize_device(wdev)),
        int(spec.config.frame_skip),
    )


def brax_ant(n: int) -> Any:
    """Brax's Ant with jit(vmap(step)), or None without brax."""
    try:
        import jax
        from brax import envs
    except ImportError:
        return None
    env = envs.get_environment("ant")
    state = jax.jit(jax.vmap(env.reset))(jax.random.split(jax.random.PRNGKey(0), n))
    step = jax.jit(jax.vmap(env.step))
    action = jax.numpy.zeros((n, env.action_size))
    box = {"s": state}

    def run() -> None:
        box["s"] = step(box["s"], action)

    return run, (lambda: jax.block_until_ready(box["s"]))


def cpu(envpool_x: Any, task: str, n: int, threads: int) -> Any:
    env = envpool_x.make_gymnasium(task, num_envs=n, num_threads=threads)
    env.reset()
    action = np.zeros((n, env.single_action_space.shape[0]), np.float32)
    return (lambda: env.step(action)), (lambda: None)


def ppo_loop(envpool_x: Any, torch: Any, task: str, n: int, steps: int, device: str) -> float:
    """A PPO-style rollout: a torch MLP policy on the device, Gaussian actions,
    observations kept in a device buffer; env steps per second."""
    dev = "cpu" if device == "cpu-reference" else device
    env = envpool_x.make_gymnasium(task, num_envs=n, device=device, array_backend="torch")
    obs_dim, act_dim = env.single_observation_space.shape[0], env.single_action_space.shape[0]
    policy = torch.nn.Sequential(
        torch.nn.Linear(obs_dim, 64), torch.nn.Tanh(), torch.nn.Linear(64, act_dim)
    ).to(dev)
    obs_buf = torch.empty((steps, n, obs_dim), device=dev)
    rew_buf = torch.empty((steps, n), device=dev)
    obs, _ = env.reset()

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

    rollout()
    if dev != "cpu":
        torch.cuda.synchronize(dev)
    t0 = time.perf_counter()
    rollout()
    if dev != "cpu":
        torch.cuda.synchronize(dev)
    return steps * n / (time.perf_counter() - t0)


def median_rate(make: Any, seconds: float, rounds: int) -> float:
    step, sync = make()
    return statistics.median(time_steps(step, sync, seconds) for _ in range(rounds))


def measure(
    envpool_x: Any, torch: Any, task: str, n: int, device: str, args: Any, with_cpu: bool
) -> tuple[Any, ...]:
    """One row: env steps/s of ours, raw / frame_skip, their ratio, Brax, CPU."""
    secs, rounds = args.seconds, args.rounds
    r_ours = n * median_rate(lambda: ours(envpool_x, task, n, device, torch), secs, rounds)
    step, sync, fs = raw(envpool_x, task, n, device)
    r_raw = n * statistics.median(time_steps(step, sync, secs) for _ in range(rounds)) / fs
    r_brax = float("nan")
    if task == "Ant-v5" and not args.simulate:
        made = brax_ant(n)
        if made is not None:
            r_brax = n * median_rate(lambda: made, secs, rounds)
    r_cpu = float("nan")
    if with_cpu:
        r_cpu = n * median_rate(lambda: cpu(envpool_x, task, n, args.threads), secs, rounds)
    return task, n, r_ours, r_raw, r_ours / r_raw, r_brax, r_cpu


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import envpool_x

    torch: Any = None
    try:
        import torch
    except ImportError:
        pass
    device = args.device
    lo, hi, cpu_hi = args.min_log2, args.max_log2, args.cpu_max_log2
    if args.simulate:
        device, lo, hi, cpu_hi = "cpu-reference", 1, 2, 2
        args.seconds, args.rounds, args.ppo_envs, args.ppo_steps = 0.0, 1, 2, 2
    print(f"device={device}  num_envs=2^{lo}..2^{hi}  (env steps/s)")
    cols = ("task", "envs", "ours", "raw/fs", "ours/raw", "brax", "cpu")
    print("{:12} {:>7} {:>10} {:>10} {:>8} {:>10} {:>10}".format(*cols))
    for task in args.tasks:
        for k in range(lo, hi + 1):
            row = measure(envpool_x, torch, task, 1 << k, device, args, k <= cpu_hi)
            print("{:12} {:>7} {:>10.4g} {:>10.4g} {:>8.2f} {:>10.4g} {:>10.4g}".format(*row))
    if torch is not None:
        sps = ppo_loop(envpool_x, torch, args.tasks[0], args.ppo_envs, args.ppo_steps, device)
        print(
            f"PPO-style rollout ({args.tasks[0]}, {args.ppo_envs} envs x {args.ppo_steps} "
            f"steps): {sps:.4g} env steps/s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
