"""The strongest check of our MiniGrid layout generators: minigrid 3.2.0 made
to draw from our env's random stream (minigrid_oracle.OurStream) builds the
very layout ours builds from the same seed, and DynamicObstacles, whose
steps draw too, then agrees step by step."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("minigrid")

from minigrid_oracle import assert_same_obs, same_seed_pair, world_state  # noqa: E402

import envpool_x  # noqa: E402

# Every generator (the Crossings shuffle and choose with numpy's own
# algorithms; OurStream stands in for them with our generator's, so for them
# this checks the layout logic, not numpy's draws).
TASKS = [
    "MiniGrid-LavaCrossingS9N3-v0",
    "MiniGrid-SimpleCrossingS11N5-v0",
    "MiniGrid-Empty-Random-6x6-v0",
    "MiniGrid-DoorKey-8x8-v0",
    "MiniGrid-FourRooms-v0",
    "MiniGrid-LavaGapS7-v0",
    "MiniGrid-GoToDoor-8x8-v0",
    "MiniGrid-RedBlueDoors-8x8-v0",
    "MiniGrid-Fetch-8x8-N3-v0",
    "MiniGrid-GoToObject-8x8-N2-v0",
    "MiniGrid-PutNear-8x8-N3-v0",
    "MiniGrid-MemoryS17Random-v0",
    "MiniGrid-Unlock-v0",
    "MiniGrid-UnlockPickup-v0",
    "MiniGrid-BlockedUnlockPickup-v0",
    "MiniGrid-KeyCorridorS6R3-v0",
    "MiniGrid-MultiRoom-N6-v0",
    "MiniGrid-LockedRoom-v0",
    "MiniGrid-Playground-v0",
    "MiniGrid-Dynamic-Obstacles-Random-6x6-v0",
    "MiniGrid-ObstructedMaze-1Dlhb-v0",
    "MiniGrid-ObstructedMaze-2Q-v0",
    "MiniGrid-ObstructedMaze-Full-v0",
    "MiniGrid-ObstructedMaze-Full-v1",
]


def _grid_part(state: np.ndarray) -> np.ndarray:
    """The state without mission id and the task's extra values."""
    w, h = int(state[0]), int(state[1])
    return np.delete(state[: 12 + 5 * w * h], 6)


@pytest.mark.parametrize("task", [t for t in TASKS if t in envpool_x.list_all_envs()])
def test_same_stream_same_layout(task):
    for seed in range(15):
        ours, theirs = same_seed_pair(task, seed)
        obs, _ = ours.reset()
        g_obs, _ = theirs.reset()
        mine = ours._pool.get_state(0)
        np.testing.assert_array_equal(
            _grid_part(mine), _grid_part(world_state(theirs, 0)), err_msg=f"{task} seed {seed}"
        )
        assert_same_obs(obs, g_obs, g_obs["mission"], f"{task} seed {seed}")
        ours.close()
        theirs.close()


@pytest.mark.parametrize(
    "task",
    [
        "MiniGrid-Dynamic-Obstacles-5x5-v0",
        "MiniGrid-Dynamic-Obstacles-Random-6x6-v0",
        "MiniGrid-Dynamic-Obstacles-16x16-v0",
    ],
)
def test_dynamic_obstacles_move_alike_step_by_step(task):
    if task not in envpool_x.list_all_envs():
        pytest.skip("not built")
    rng = np.random.default_rng(1)
    ends = {"goal": 0, "hit": 0, "truncated": 0}
    for seed in range(10):
        ours, theirs = same_seed_pair(task, seed)
        ours.reset()
        theirs.reset()
        for t in range(1, 10_000):
            where = f"{task} seed {seed} step {t}"
            action = int(rng.choice(3, p=[0.25, 0.25, 0.5]))
            g_obs, g_rew, g_term, g_trunc, _ = theirs.step(action)
            obs, rew, term, trunc, _ = ours.step(np.array([action]))
            assert_same_obs(obs, g_obs, g_obs["mission"], where)
            assert rew[0] == np.float32(g_rew), where
            assert bool(term[0]) == g_term and bool(trunc[0]) == g_trunc, where
            balls = [c for o in theirs.unwrapped.obstacles for c in o.cur_pos]
            np.testing.assert_array_equal(ours._pool.get_state(0)[-len(balls) :], balls, where)
            if g_term or g_trunc:
                ends["goal" if g_rew > 0 else "hit" if g_rew < 0 else "truncated"] += 1
                break
        ours.close()
        theirs.close()
    assert ends["hit"] > 0
