"""MiniGrid throughput: envpool_x against EnvPool 1.2.5's MiniGrid envs and
minigrid 3.2.0 under gymnasium's vector envs, side by side in one run.

The runners and the table are bench_classic.py's (interleaved rounds, ratios
to envpool_x sync, the single-thread raw C++ loop); this script only picks
the MiniGrid tasks and registers minigrid's ids for gymnasium. Arguments
given on the command line override the defaults below.

Usage: python benchmarks/bench_minigrid.py [--rounds 3] [--num-envs 16 256]
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import gymnasium
import minigrid  # noqa: F401  (registers MiniGrid-* for gymnasium's runners)

from envpool_x import bench

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_classic  # noqa: E402

_plain_gymnasium_runner = bench.gymnasium_runner


def gymnasium_runner(task: str, num_envs: int, mode: str) -> bench.Runner | None:
    """bench.gymnasium_runner; "async" without shared memory, which minigrid's
    text mission space does not support (one subprocess per env)."""
    if mode != "async":
        return _plain_gymnasium_runner(task, num_envs, mode)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gymnasium.make_vec(
            task,
            num_envs=num_envs,
            vectorization_mode="async",
            vector_kwargs={"shared_memory": False},
        )
    env.reset(seed=0)
    actions = bench._actions(env.single_action_space, num_envs, 64)
    return bench.Runner("gymnasium[async]", bench.sync_step_loop(env, num_envs, actions), env.close)


bench.gymnasium_runner = gymnasium_runner

DEFAULTS = [
    "--tasks",
    "MiniGrid-Empty-8x8-v0",
    "MiniGrid-DoorKey-8x8-v0",
    "MiniGrid-FourRooms-v0",
    "--num-envs",
    "16",
    "256",
    "--rounds",
    "3",
    "--section",
    "MiniGrid",
]


def with_defaults(argv: list[str]) -> list[str]:
    """argv plus the DEFAULTS for the flags it does not give."""
    return bench_classic.with_defaults(argv, DEFAULTS)


if __name__ == "__main__":
    sys.argv = [sys.argv[0], *with_defaults(sys.argv[1:])]
    bench_classic.main()
