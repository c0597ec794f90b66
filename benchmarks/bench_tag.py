"""WarpDrive's Tag envs, side by side with WarpDrive 2.7.1 itself, in one run.

CPU (any machine): our pool (``num_envs`` envs, ``--threads`` workers, sync
steps) against WarpDrive's numpy CPU classes (``TagGridWorld`` /
``TagContinuous`` with ``env_backend="cpu"``; one Python object per env,
stepped in a loop), on WarpDrive's two run configs: the grid (4 taggers, 1
runner, grid 100, episode 100) and the continuous one (10 taggers, 100 runners,
grid 20, episode 500, partial observation of 10 agents). Measured interleaved
(A B A B ...); uniform random actions; agent-steps/s = env-steps/s x agents.

GPU (``--gpu``, a CUDA machine with torch and numba-cuda): ours with
``device="cuda"`` (one block per env, agents over its threads) against
WarpDrive's numba backend (its step kernel, one block per env and one thread
per agent) on the same GPU, interleaved, for 1 to 4,000 envs (20,000 for the
grid) and 5 to 1,000 agents. ``--simulate`` checks this part of the script on
any machine: ours on ``device="cpu-reference"``, WarpDrive's kernels under
numba's CUDA simulator, tiny sizes, nothing written.

WarpDrive is installed without its dependencies
(``pip install --no-deps rl-warp-drive==2.7.1``); its CPU classes import
``gym.spaces``, for which gymnasium's spaces stand in here when gym is absent.

Usage: python benchmarks/bench_tag.py [--quick] [--threads 2] [--gpu | --simulate] [--out PATH]
"""

from __future__ import annotations

import argparse
import sys
import time
import types
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_classic import section_header, version, write_section  # noqa: E402

import envpool_x  # noqa: E402

GRID = dict(
    num_taggers=4, grid_length=100, episode_length=100, wall_hit_penalty=0.1,
    tag_reward_for_tagger=10.0, tag_penalty_for_runner=5.0, step_cost_for_tagger=0.01,
)  # fmt: skip
CONTINUOUS = dict(
    num_taggers=10, num_runners=100, grid_length=20.0, episode_length=500, max_acceleration=0.1,
    min_acceleration=-0.1, max_turn=2.356, min_turn=-2.356, num_acceleration_levels=20,
    num_turn_levels=20, skill_level_runner=1.0, skill_level_tagger=1.0, max_speed=1.0,
    use_full_observation=False, runner_exits_game_after_tagged=True,
    num_other_agents_observed=10, tag_reward_for_tagger=10.0, tag_penalty_for_runner=-10.0,
    step_penalty_for_tagger=0.0, step_reward_for_runner=0.0, edge_hit_penalty=0.0,
    end_of_game_reward_for_runner=1.0, tagging_distance=0.02,
)  # fmt: skip
SECTION = "Tag (WarpDrive's envs)"
SECTION_GPU = "Tag on the GPU (WarpDrive's envs)"


def _gym_spaces_shim() -> None:
    """WarpDrive's CPU classes import gym.spaces; gymnasium's stand in."""
    try:
        import gym  # noqa: F401
    except ImportError:
        import gymnasium

        shim = types.ModuleType("gym")
        shim.spaces = gymnasium.spaces  # type: ignore[attr-defined]
        sys.modules["gym"] = shim


class Ours:
    def __init__(self, task: str, config: dict, num_envs: int, threads: int) -> None:
        self.env = envpool_x.make_gymnasium(
            task, num_envs=num_envs, num_threads=threads, seed=0, **config
        )
        self.env.reset()
        space = self.env.action_space
        rng = np.random.default_rng(0)
        self.actions = [
            rng.integers(0, space.nvec, size=(num_envs, *space.shape)).astype(np.int32)
            for _ in range(16)
        ]
        self.num_envs, self.k = num_envs, 0

    def run(self, seconds: float) -> tuple[int, float]:
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            self.env.step(self.actions[self.k % 16])
            self.k += 1
            steps += self.num_envs
        return steps, time.perf_counter() - start


class WarpDriveCpu:
    def __init__(self, task: str, config: dict, num_envs: int) -> None:
        _gym_spaces_shim()
        if task.startswith("TagGrid"):
            from example_envs.tag_gridworld.tag_gridworld import TagGridWorld as cls
        else:
            from example_envs.tag_continuous.tag_continuous import TagContinuous as cls
        self.envs = [cls(**config, seed=i) for i in range(num_envs)]
        for env in self.envs:
            env.reset()
        self.grid = task.startswith("TagGrid")
        self.rng = np.random.default_rng(0)

    def _actions(self, env: Any) -> dict[int, Any]:
        if self.grid:
            return dict(enumerate(self.rng.integers(0, 5, size=env.num_agents).tolist()))
        acts = self.rng.integers(0, 21, size=(env.num_agents, 2))
        return {k: acts[k] for k in range(env.num_agents)}

    def run(self, seconds: float) -> tuple[int, float]:
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for env in self.envs:
                _, _, done, _ = env.step(self._actions(env))
                if done["__all__"]:
                    env.reset()
                steps += 1
        return steps, time.perf_counter() - start


def paired(a: Any, b: Any, rounds: int, seconds: float) -> tuple[float, float, float]:
    """Median rates of a and b over rounds run A B A B, and the median ratio."""
    ra, rb = [], []
    for _ in range(rounds):
        n, t = a.run(seconds)
        ra.append(n / t)
        n, t = b.run(seconds)
        rb.append(n / t)
    ratios = [x / y for x, y in zip(ra, rb, strict=True)]
    return float(np.median(ra)), float(np.median(rb)), float(np.median(ratios))


def cpu_rows(args: argparse.Namespace) -> list[str]:
    rows = [
        "| task | agents / env | envpool_x envs, threads | envpool_x env-steps/s | "
        "envpool_x agent-steps/s | WarpDrive CPU env-steps/s | WarpDrive CPU agent-steps/s | "
        "ratio |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    cases = [("TagGridworld-v0", GRID, 5, 256, 16), ("TagContinuous-v0", CONTINUOUS, 110, 64, 2)]
    for task, config, agents, num_envs, wd_envs in cases:
        ours = Ours(task, config, num_envs, args.threads)
        theirs = WarpDriveCpu(task, config, wd_envs)
        a, b, ratio = paired(ours, theirs, args.rounds, args.seconds)
        rows.append(
            f"| {task} | {agents} | {num_envs}, {args.threads} | {a:,.0f} | {a * agents:,.0f} | "
            f"{b:,.0f} | {b * agents:,.0f} | {ratio:.0f}x |"
        )
        print(rows[-1], flush=True)
    return rows


class WarpDriveNumba:
    """WarpDrive's numba step kernel on the GPU: one block per env, one thread
    per agent, as its trainer launches it; every env restarts from its first
    state after episode_length steps (WarpDrive's reset_when_done copies the
    saved start the same way). Actions are pre-drawn on the device."""

    def __init__(self, task: str, config: dict, num_envs: int) -> None:
        from numba import cuda

        self.cuda, self.num_envs = cuda, num_envs
        rng = np.random.default_rng(0)
        f32, i32 = np.float32, np.int32
        self.episode = int(config["episode_length"])
        if task.startswith("TagGrid"):
            n = int(config["num_taggers"]) + 1
            env_config = types.ModuleType("warp_drive.numba_includes.env_config")
            env_config.wkNumberAgents, env_config.wkNumberEnvs = n, num_envs  # type: ignore[attr-defined]
            env_config.wkBlocksPerEnv = 1  # type: ignore[attr-defined]
            sys.modules[env_config.__name__] = env_config
            from example_envs.tag_gridworld.tag_gridworld_step_numba import NumbaTagGridWorldStep

            centre = int(config["grid_length"]) // 2
            start = np.full((num_envs, n), centre, np.int32)
            start[:, -1] = 0
            self.starts = [start, start.copy()]
            acts = rng.integers(0, 5, size=(16, num_envs, n, 1)).astype(np.int32)
            size = 4 * n + 1
            self.kernel = NumbaTagGridWorldStep
            self.extra = lambda d: (
                d["done"], d["rew"], d["obs"], f32(config["wall_hit_penalty"]),
                f32(config["tag_reward_for_tagger"]), f32(config["tag_penalty_for_runner"]),
                f32(config["step_cost_for_tagger"]), True, i32(config["grid_length"]),
            )  # fmt: skip
        else:
            from example_envs.tag_continuous.tag_continuous_step_numba import (
                NumbaTagContinuousStep,
            )

            taggers, n = (
                int(config["num_taggers"]),
                int(config["num_taggers"] + config["num_runners"]),
            )
            length = f32(config["grid_length"])
            self.starts = [(length * rng.random((num_envs, n))).astype(np.float32) for _ in "xy"]
            self.starts += [np.zeros((num_envs, n), np.float32) for _ in range(3)]
            self.starts.append(np.ones((num_envs, n), np.int32))
            self.starts.append(np.full(num_envs, n - taggers, np.int32))
            acts = rng.integers(0, 21, size=(16, num_envs, n, 2)).astype(np.int32)
            k = int(config["num_other_agents_observed"])
            size = 7 * k + 1
            types_ = np.array([1] * taggers + [0] * (n - taggers), np.int32)

            def levels(lo: float, hi: float, num: int) -> np.ndarray:
                return np.insert(np.linspace(f32(lo), f32(hi), num), 0, 0).astype(np.float32)

            consts = [cuda.to_device(v) for v in (
                types_, levels(config["min_acceleration"], config["max_acceleration"], 20),
                levels(config["min_turn"], config["max_turn"], 20), np.ones(n, np.float32),
                np.zeros(n, np.float32),
            )]  # fmt: skip
            scratch = [cuda.to_device(np.zeros((num_envs, n, w), t)) for w, t in (
                (n - 1, np.float32), (n - 1, np.int32), (k, np.int32))]  # fmt: skip
            edge = cuda.to_device(np.zeros((num_envs, n), np.float32))
            self.kernel = NumbaTagContinuousStep
            margin = f32((config["tagging_distance"] * length).astype(np.float32))

            def extra(d: dict) -> tuple:
                x, y, sp, di, ac, still, runners = d["state"]
                return (
                    x, y, sp, di, ac, consts[0], edge, f32(0.0), length, consts[1], consts[2],
                    f32(1.0), i32(k), consts[3], True, still, False, d["obs"], d["act"],
                    *scratch, d["rew"], consts[4], runners, margin, f32(10.0), f32(-10.0),
                    f32(1.0), d["done"], d["t"], i32(n), i32(self.episode),
                )  # fmt: skip

            self.extra = extra
        self.n = n
        self.dev: dict[str, Any] = {
            "state": [cuda.to_device(s) for s in self.starts],
            "acts": [cuda.to_device(a) for a in acts],
            "obs": cuda.to_device(np.zeros((num_envs, n, size), np.float32)),
            "rew": cuda.to_device(np.zeros((num_envs, n), np.float32)),
            "done": cuda.to_device(np.zeros(num_envs, np.int32)),
            "t": cuda.to_device(np.zeros(num_envs, np.int32)),
        }
        self.grid = task.startswith("TagGrid")
        self.k = 0

    def _launch(self) -> None:
        d = self.dev
        d["act"] = d["acts"][self.k % 16]
        if self.grid:
            x, y = d["state"]
            args = (x, y, d["act"], *self.extra(d), d["t"], np.int32(self.episode))
        else:
            args = self.extra(d)
        self.kernel[self.num_envs, self.n](*args)
        self.k += 1
        if self.k % self.episode == 0:  # restart every env from its first state
            for dst, src in zip(d["state"], self.starts, strict=True):
                dst.copy_to_device(src)
            d["t"].copy_to_device(np.zeros(self.num_envs, np.int32))
            d["done"].copy_to_device(np.zeros(self.num_envs, np.int32))

    def run(self, seconds: float) -> tuple[int, float]:
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            self._launch()
            steps += self.num_envs
        self.cuda.synchronize()
        return steps, time.perf_counter() - start


class OursDevice:
    """Our CUDA stepper: ``device="cuda"`` (torch tensors, actions drawn on
    the GPU beforehand, results written into one reused block as WarpDrive's
    kernel writes its arrays in place), or ``"cpu-reference"`` with --simulate.
    Episodes restart by the pool's own autoreset."""

    def __init__(self, task: str, config: dict, num_envs: int, device: str) -> None:
        backend = "numpy" if device == "cpu-reference" else "torch"
        self.env = envpool_x.make_gymnasium(
            task, num_envs=num_envs, device=device, array_backend=backend, copy_results=False,
            seed=0, **config,
        )  # fmt: skip
        self.env.reset()
        space = self.env.action_space
        rng = np.random.default_rng(0)
        shape = (num_envs, *space.shape)
        acts = [rng.integers(0, space.nvec, size=shape).astype(np.int32) for _ in range(16)]
        if backend == "torch":
            import torch

            self.actions = [torch.as_tensor(a, device=device) for a in acts]
            self.sync = lambda: torch.cuda.synchronize(device)
        else:
            self.actions, self.sync = acts, lambda: None
        self.num_envs, self.k = num_envs, 0

    def run(self, seconds: float) -> tuple[int, float]:
        self.sync()
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            self.env.step(self.actions[self.k % 16])
            self.k += 1
            steps += self.num_envs
        self.sync()
        return steps, time.perf_counter() - start

    def close(self) -> None:
        self.env.close()


def continuous(taggers: int, runners: int, **extra: Any) -> dict:
    """WarpDrive's continuous config with another agent count (nearest-10
    observation, fewer when there are fewer other agents)."""
    seen = min(10, taggers + runners - 1)
    return dict(CONTINUOUS, num_taggers=taggers, num_runners=runners,
                num_other_agents_observed=seen, **extra)  # fmt: skip


def gpu_cases(args: argparse.Namespace) -> list[tuple[str, dict, tuple[int, ...]]]:
    """(task, config, env counts): the grid (5 agents) and the continuous Tag
    at 5, 110 (WarpDrive's config) and 1,000 agents, 1 to 2,000+ envs."""
    if args.simulate:  # a small world: the simulator runs one Python thread per agent
        return [("TagGridworld-v0", dict(GRID, num_taggers=2), (2,)),
                ("TagContinuous-v0", continuous(2, 3), (2,))]  # fmt: skip
    envs = (1, 100, 1000, 2000, 4000)
    if args.quick:
        envs = (1, 2000)
    return [
        ("TagGridworld-v0", GRID, (*envs, 20000)),
        ("TagContinuous-v0", continuous(1, 4), envs),
        ("TagContinuous-v0", CONTINUOUS, envs),
        ("TagContinuous-v0", continuous(100, 900), tuple(e for e in envs if e <= 2000)),
    ]


def gpu_rows(args: argparse.Namespace) -> list[str]:
    """Ours (device="cuda") against WarpDrive's numba kernels on the same GPU,
    interleaved; with --simulate, ours on device="cpu-reference" against the
    kernels under numba's CUDA simulator (a check of this script only)."""
    device = "cpu-reference" if args.simulate else "cuda"
    rows = [
        f"| task | envs | agents / env | envpool_x device='{device}' env-steps/s | "
        "agent-steps/s | WarpDrive numba env-steps/s | agent-steps/s | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    print("\n".join(rows), flush=True)  # a run cut short still has a table with its header
    for task, config, sizes in gpu_cases(args):
        for num_envs in sizes:
            ours = OursDevice(task, config, num_envs, device)
            theirs = WarpDriveNumba(task, config, num_envs)
            a, b, ratio = paired(ours, theirs, args.rounds, args.seconds)
            n = theirs.n
            rows.append(
                f"| {task} | {num_envs} | {n} | {a:,.0f} | {a * n:,.0f} | {b:,.0f} | "
                f"{b * n:,.0f} | {ratio:.1f}x |"
            )
            print(rows[-1], flush=True)
            ours.close()
            del theirs
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="per runner and round")
    parser.add_argument("--quick", action="store_true", help="2 rounds of 0.3 s")
    parser.add_argument("--gpu", action="store_true")
    parser.add_argument(
        "--simulate", action="store_true", help="--gpu on the CPU (numba's CUDA simulator)"
    )
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("RESULTS.md"))
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.seconds = 2, 0.3
    if args.simulate:
        import os

        os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
        args.gpu = True
    start = time.perf_counter()
    rows = gpu_rows(args) if args.gpu else cpu_rows(args)
    if args.simulate:
        return  # a check of the script, not a measurement
    method = (
        "sync steps, uniform random actions; WarpDrive's numpy classes stepped one env after "
        "another in Python"
    )
    if args.gpu:
        method = "actions pre-drawn on the GPU; results in place (copy_results=False) as WarpDrive"
    method += (
        f"; {args.rounds} rounds of {args.seconds} s per runner, interleaved; "
        "ratio = median over rounds of envpool_x / WarpDrive env-steps/s"
    )
    section = SECTION_GPU if args.gpu else SECTION
    versions = f"rl-warp-drive {version('rl-warp-drive')}"
    if args.gpu:
        import torch

        versions += f", numba {version('numba')}; GPU: {torch.cuda.get_device_name()}"
    header = section_header(section, time.perf_counter() - start, versions, method)
    write_section(args.out, section, "\n".join([*header, "", *rows, ""]) + "\n")


if __name__ == "__main__":
    main()
