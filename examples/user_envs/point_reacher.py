"""Compile examples/user_envs/point_reacher.h at run time, register it and drive
4096 point masses to their targets with a proportional-derivative controller.

    python examples/user_envs/point_reacher.py
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

import envpool_x


def main() -> None:
    start = time.perf_counter()
    envpool_x.register_cpp_env(
        "PointReacher-v0",
        Path(__file__).with_name("point_reacher.h"),
        "reacher::PointReacher",
        max_episode_steps=200,
        verbose=True,
    )
    print(f"registered in {time.perf_counter() - start:.2f} s (cached after the first run)")
    env = envpool_x.make_gymnasium("PointReacher-v0", num_envs=4096, damping=0.5)
    obs, _ = env.reset(seed=0)
    returns = np.zeros(env.num_envs)
    finished, reached = [], 0
    for _ in range(400):
        position, velocity, offset = obs[:, 0:2], obs[:, 2:4], obs[:, 4:6]
        del position
        force = np.clip(4.0 * offset - 2.0 * velocity, -1, 1).astype(np.float32)
        obs, reward, terminated, truncated, _ = env.step(force)
        returns += reward
        done = terminated | truncated
        reached += int(terminated.sum())
        finished += returns[done].tolist()
        returns[done] = 0.0
    print(
        f"{len(finished)} episodes, {reached} reached the target, mean return "
        f"{np.mean(finished):.2f}"
    )
    env.close()


if __name__ == "__main__":
    main()
