"""MiniGrid frames (python/envpool_x/render/minigrid.py) are minigrid 3.2.0's
own full-grid pictures of the same world (without the highlight of the seen
cells)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("minigrid")

from minigrid_oracle import world_state  # noqa: E402

import envpool_x  # noqa: E402


@pytest.mark.parametrize(
    "task",
    ["MiniGrid-DoorKey-6x6-v0", "MiniGrid-ObstructedMaze-1Dlhb-v0", "MiniGrid-Playground-v0"],
)
def test_frames_are_minigrids_pictures(task):
    import gymnasium as gym

    ours = envpool_x.make_gymnasium(task, num_envs=1, render_mode="rgb_array")
    theirs = gym.make(task)
    ours.reset()
    theirs.reset(seed=3)
    rng = np.random.default_rng(0)
    ours._pool.set_state(0, world_state(theirs, 0))
    for _ in range(5):
        a = int(rng.integers(7))
        theirs.step(a)
        ours.step(np.array([a]))
        frame = ours.render()
        expected = theirs.unwrapped.get_full_render(False, 32)
        assert frame.shape[-3:] == expected.shape
        np.testing.assert_array_equal(frame.reshape(expected.shape), expected)
    ours.close()
    theirs.close()
