"""MiniGrid family: parity with minigrid 3.2.0 (tests/oracles/minigrid_oracle.py),
the layout generators, the state hook and the bad inputs."""

from __future__ import annotations

import numpy as np
import pytest
from minigrid_oracle import COLORS, run_episodes

import envpool_x

pytest.importorskip("minigrid")

ONE_MISSION = lambda mission: 0  # noqa: E731

# Mostly forward moves, so that random episodes reach the goal or lava too.
FORWARD_HEAVY = [0.15, 0.15, 0.45, 0.05, 0.05, 0.1, 0.05]


@pytest.mark.parametrize("size", [5, 6, 8, 16])
def test_empty_matches_minigrid_from_reset(size):
    # A deterministic layout: no state is loaded, the reset observations agree.
    ends = run_episodes(
        f"MiniGrid-Empty-{size}x{size}-v0",
        20,
        ONE_MISSION,
        load_layout=False,
        action_probs=FORWARD_HEAVY,
    )
    assert ends["ended"] == 20
    if size <= 6:
        assert ends["rewarded"] > 0


@pytest.mark.parametrize("size", [5, 6])
def test_empty_random_start_matches_from_loaded_layout(size):
    ends = run_episodes(
        f"MiniGrid-Empty-Random-{size}x{size}-v0",
        6,
        ONE_MISSION,
        load_layout=True,
        action_probs=FORWARD_HEAVY,
    )
    assert ends["rewarded"] > 0


def test_empty_random_start_covers_the_room_and_directions():
    env = envpool_x.make_gymnasium("MiniGrid-Empty-Random-6x6-v0", num_envs=64, seed=3)
    positions, dirs = set(), set()
    for _ in range(4):
        obs, info = env.reset()
        positions |= {tuple(p) for p in info["agent_pos"]}
        dirs |= set(obs["direction"].tolist())
    env.close()
    # 16 inner cells minus the goal's; every direction.
    assert positions == {(x, y) for x in range(1, 5) for y in range(1, 5)} - {(4, 4)}
    assert dirs == {0, 1, 2, 3}


def test_spaces_and_names_follow_envpool():
    env = envpool_x.make_gymnasium("MiniGrid-Empty-8x8-v0", num_envs=2)
    space = env.observation_space
    assert set(space.spaces) == {"direction", "image", "mission"}
    assert space["image"].shape == (7, 7, 3) and space["image"].dtype == np.uint8
    assert space["mission"].shape == (96,)
    assert env.action_space.n == 7
    obs, info = env.reset()
    assert (
        envpool_x.families.minigrid.decode_mission(obs["mission"])
        == ["get to the green goal square"] * 2
    )
    assert info["mission_id"].tolist() == [0, 0]
    assert info["agent_pos"].tolist() == [[1, 1], [1, 1]]
    env.close()
    dm = envpool_x.make_dm("MiniGrid-Empty-8x8-v0", num_envs=2)
    ts = dm.reset()
    assert ts.observation.image.shape == (2, 7, 7, 3)
    dm.close()


def test_async_pool_steps_minigrid():
    env = envpool_x.make_gymnasium("MiniGrid-Empty-5x5-v0", num_envs=4, batch_size=2)
    env.async_reset()
    seen = set()
    for _ in range(20):
        obs, rew, term, trunc, info = env.recv()
        assert obs["image"].shape == (2, 7, 7, 3)
        seen |= set(info["env_id"].tolist())
        env.send(np.full(2, 2, dtype=np.int32), info["env_id"])
    assert seen == {0, 1, 2, 3}
    env.close()


@pytest.mark.parametrize(
    "task, action",
    [
        ("MiniGrid-Empty-5x5-v0", -1),
        ("MiniGrid-Empty-5x5-v0", 7),
        ("MiniGrid-Dynamic-Obstacles-5x5-v0", 3),  # three actions only
    ],
)
def test_bad_actions_are_refused(task, action):
    env = envpool_x.make_gymnasium(task, num_envs=1)
    env.reset()
    with pytest.raises(ValueError, match="action"):
        env.step(np.array([action]))
    env.close()


def test_bad_task_state_is_refused():
    env = envpool_x.make_gymnasium("MiniGrid-GoToDoor-5x5-v0", num_envs=1)
    env.reset()
    state = env._pool.get_state(0)
    state[-2:] = [99, 0]  # the target door outside the grid
    with pytest.raises(ValueError, match="outside the grid"):
        env._pool.set_state(0, state)
    env.close()


def test_bad_config_and_state_are_refused():
    with pytest.raises(ValueError, match="size"):
        envpool_x.make_gymnasium("MiniGrid-Empty-8x8-v0", size=2)
    with pytest.raises(ValueError, match="agent_start_pos"):
        envpool_x.make_gymnasium("MiniGrid-Empty-8x8-v0", agent_start_pos=(0, 3))
    with pytest.raises(ValueError, match="agent_view_size"):
        envpool_x.make_gymnasium("MiniGrid-Empty-8x8-v0", agent_view_size=4)
    env = envpool_x.make_gymnasium("MiniGrid-Empty-5x5-v0", num_envs=1)
    env.reset()
    state = env._pool.get_state(0)
    with pytest.raises(ValueError, match="state must hold"):
        env._pool.set_state(0, state[:-1])
    bad = state.copy()
    bad[12] = 42  # an object type minigrid does not have
    with pytest.raises(ValueError, match="object type"):
        env._pool.set_state(0, bad)
    env.close()


@pytest.mark.parametrize("view", [3, 5, 9])
def test_other_view_sizes_match_minigrid(view):
    ends = run_episodes(
        "MiniGrid-DoorKey-6x6-v0",
        6,
        ONE_MISSION,
        load_layout=True,
        action_probs=FORWARD_HEAVY,
        agent_view_size=view,
    )
    assert ends["ended"] == 6


def test_trajectories_do_not_depend_on_threads_or_batch():
    # Each env follows its own fixed action list, whatever order the batches come in.
    plan = np.random.default_rng(0).integers(0, 7, (8, 200)).astype(np.int32)

    def run(num_threads, batch_size):
        env = envpool_x.make_gymnasium(
            "MiniGrid-KeyCorridorS3R3-v0",
            num_envs=8,
            batch_size=batch_size,
            num_threads=num_threads,
            seed=5,
        )
        env.async_reset()
        images = {i: [] for i in range(8)}
        for _ in range(300):
            obs, _, _, _, info = env.recv()
            ids = info["env_id"]
            for k, i in enumerate(ids):
                images[int(i)].append(obs["image"][k].copy())
            env.send(np.array([plan[i, len(images[int(i)]) % 200] for i in ids]), ids)
        env.close()
        return {i: np.array(v[:60]) for i, v in images.items()}

    a, b = run(1, 8), run(2, 3)
    for i in range(8):
        np.testing.assert_array_equal(a[i], b[i])


def test_agent_view_size_changes_the_image():
    env = envpool_x.make_gymnasium("MiniGrid-Empty-8x8-v0", num_envs=1, agent_view_size=5)
    obs, _ = env.reset()
    assert obs["image"].shape == (1, 5, 5, 3)
    env.close()


assert len(COLORS) == 6
