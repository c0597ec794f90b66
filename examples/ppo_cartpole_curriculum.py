"""PPO on CartPole-v1 with a domain-randomisation curriculum (docs/params.md).

Every env draws its pole mass, pole length and gravity at each of its resets
from ranges that start at gymnasium's values and widen one level each time the
policy's recent mean return reaches ``--widen-at``. The draws happen in the
engine, from each env's own seed stream, so a run is reproducible by seed.

    python examples/ppo_cartpole_curriculum.py --total-timesteps 200000
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from ppo_cartpole import main, parse_args  # the PPO loop of examples/ppo_cartpole.py

from envpool_x.params import LogUniform, Uniform


def add_curriculum_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--widen-at", type=float, default=450.0, help="mean return that widens")
    p.add_argument("--max-level", type=int, default=8)


def ranges(level: int) -> dict[str, Any]:
    """The parameter distributions of curriculum ``level`` (0: gymnasium's values)."""
    spread = 0.1 * level
    return {
        "gravity": Uniform(9.8 * (1 - spread), 9.8 * (1 + spread)),
        "masspole": LogUniform(0.1 / (1 + 2 * spread), 0.1 * (1 + 2 * spread)),
        "length": Uniform(0.5 * (1 - 0.5 * spread), 0.5 * (1 + spread)),
    }


class Curriculum:
    """Widens the ranges when the last 20 episodes' mean return reaches the bar;
    the new ranges apply at each env's next (auto-)reset."""

    def __init__(self) -> None:
        self.level = 0
        self.level_start = 0  # episodes finished before this level: not judged

    def __call__(self, args: argparse.Namespace, envs: Any, update: int, done: list[float]) -> str:
        recent = done[max(self.level_start, len(done) - 20) :]
        if len(recent) == 20 and np.mean(recent) >= args.widen_at and self.level < args.max_level:
            self.level += 1
            self.level_start = len(done)
            envs.set_params(**ranges(self.level))
        low, high = ranges(self.level)["gravity"].low, ranges(self.level)["gravity"].high
        return f" level={self.level} gravity=[{low:.2f},{high:.2f})"


if __name__ == "__main__":
    main(parse_args(add_curriculum_args), Curriculum())
