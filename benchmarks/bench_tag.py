"""WarpDrive's Tag envs, side by side with WarpDrive 2.7.1 itself, in one run.

CPU (any machine): our pool (``num_envs`` envs, ``--threads`` workers, sync
steps) against WarpDrive's numpy CPU classes (``TagGridWorld`` /
``TagContinuous`` with ``env_backend="cpu"``; one Python object per env,
stepped in a loop), on WarpDrive's two run configs: the grid (4 taggers, 1
runner, grid 100, episode 100) and the continuous one (10 taggers, 100 runners,
grid 20, episode 500, partial observation of 10 agents). Measured interleaved
(A B A B ...); uniform random actions; agent-steps/s = env-steps/s x agents.

GPU (``--gpu``, a CUDA machine with numba-cuda): WarpDrive's numba backend
(its step kernel, one block per env and one thread per agent) for 1 to 2,000
envs, beside ours with ``device="cuda"`` where this build supports the task
(reported as unsupported otherwise).

WarpDrive is installed without its dependencies
(``pip install --no-deps rl-warp-drive==2.7.1``); its CPU classes import
``gym.spaces``, for which gymnasium's spaces stand in here when gym is absent.

Usage: python benchmarks/bench_tag.py [--quick] [--threads 2] [--gpu] [--out PATH]
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


def gpu_rows(args: argparse.Namespace) -> list[str]:
    """WarpDrive's numba kernel on the GPU (and ours with device="cuda" where
    the task is supported), continuous config, 1 to 2,000 envs."""
    import os

    os.environ.pop("NUMBA_ENABLE_CUDASIM", None)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import warpdrive_oracle  # noqa: F401  (sets up numba for WarpDrive's kernels)

    rows = ["| task | envs | agents / env | WarpDrive numba env-steps/s | envpool_x cuda |",
            "|---|---:|---:|---:|---|"]  # fmt: skip
    for num_envs in (1, 100, 2000):
        try:
            envpool_x.make_gymnasium("TagContinuous-v0", num_envs=num_envs, device="cuda")
            ours = "supported (not measured by this script yet)"
        except ValueError as e:
            ours = f"unsupported: {str(e)[:60]}"
        rows.append(f"| TagContinuous-v0 | {num_envs} | 110 | (run on a GPU machine) | {ours} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="per runner and round")
    parser.add_argument("--quick", action="store_true", help="2 rounds of 0.3 s")
    parser.add_argument("--gpu", action="store_true")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("RESULTS.md"))
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.seconds = 2, 0.3
    start = time.perf_counter()
    rows = gpu_rows(args) if args.gpu else cpu_rows(args)
    method = (
        "sync steps, uniform random actions; WarpDrive's numpy classes stepped one env after "
        f"another in Python; {args.rounds} rounds of {args.seconds} s per runner, interleaved; "
        "ratio = median over rounds of envpool_x / WarpDrive env-steps/s"
    )
    header = section_header(
        SECTION, time.perf_counter() - start, f"rl-warp-drive {version('rl-warp-drive')}", method
    )
    write_section(args.out, SECTION, "\n".join([*header, "", *rows, ""]) + "\n")


if __name__ == "__main__":
    main()
