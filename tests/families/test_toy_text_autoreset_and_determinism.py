"""Toy text in the engine: same-step autoreset returns the terminal tile, and
trajectories do not depend on thread counts or batch sizes."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x
from conftest import rollout


def test_same_step_autoreset_returns_terminal_tile():
    env = envpool_x.make_gymnasium(
        "FrozenLake-v1", num_envs=16, seed=0, autoreset_mode="same_step", max_episode_steps=1000
    )
    env.reset()
    tiles = "SFFFFHFHFFFHHFFG"
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(300):
        obs, _, term, _, info = env.step(rng.integers(4, size=16))
        for i in np.flatnonzero(term):
            assert tiles[int(info["final_obs"][i])] in "HG" and obs[i] == 0
            seen += 1
    assert seen > 0


@pytest.mark.parametrize(
    "task, config",
    [
        ("FrozenLake-v1", {}),
        ("Taxi-v4", {"is_rainy": True, "fickle_passenger": True}),
        ("CliffWalkingSlippery-v1", {}),
        ("Blackjack-v1", {}),
        ("Catch-v0", {}),
        ("NChain-v0", {}),
    ],
)
def test_trajectories_identical_across_threads_and_batch_sizes(task, config):
    ref = rollout(task, 8, 60, num_threads=1, seed=3, max_episode_steps=25, **config)
    for threads in (1, 2, 4):
        for batch in (8, 3, 1):
            got = rollout(
                task,
                8,
                60,
                num_threads=threads,
                batch_size=batch,
                seed=3,
                max_episode_steps=25,
                **config,
            )
            assert got == ref, (threads, batch)
