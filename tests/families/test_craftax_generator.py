"""Craftax-Classic's world generator (ours, from each env's seed stream):
the rules every world keeps and the block frequencies over many worlds."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x

_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "CraftaxClassic"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

TASK = "Craftax-Classic-Symbolic-v1"
SIZE = 64
GRASS, WATER, STONE, TREE, PATH, COAL, IRON, DIAMOND, SAND, LAVA = 2, 3, 4, 5, 7, 8, 9, 10, 13, 14


def worlds(num_envs: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The maps (num_envs, 64, 64) and player positions of a fresh pool."""
    env = envpool_x.make_gymnasium(TASK, num_envs=num_envs, seed=seed)
    env.reset()
    states = np.array([env._pool.get_state(i) for i in range(num_envs)])
    env.close()
    maps = states[:, : SIZE * SIZE].reshape(num_envs, SIZE, SIZE).astype(int)
    player = states[:, 2 * SIZE * SIZE : 2 * SIZE * SIZE + 2].astype(int)
    return maps, player


def test_start_area_and_diamond() -> None:
    maps, player = worlds(24, seed=3)
    xs, ys = np.meshgrid(np.arange(SIZE), np.arange(SIZE), indexing="ij")
    near = np.abs(xs - SIZE // 2) + np.abs(ys - SIZE // 2) <= 3
    for world, pos in zip(maps, player, strict=True):
        assert tuple(pos) == (SIZE // 2, SIZE // 2)
        assert world[SIZE // 2, SIZE // 2] == GRASS
        # Water and mountains fade out within distance 3 of the start.
        assert set(np.unique(world[near])) <= {GRASS, SAND, TREE}
        assert (world == DIAMOND).sum() >= 1  # always_diamond
        assert set(np.unique(world)) <= {GRASS, WATER, STONE, TREE, PATH, COAL, IRON}.union(
            {DIAMOND, SAND, LAVA}
        )


def test_ores_lie_in_mountains_at_their_rates() -> None:
    maps, _ = worlds(48, seed=11)
    mountain = np.isin(maps, [STONE, COAL, IRON, DIAMOND])
    # An ore cell has been stone: none on the grass side of the map's edges.
    coal = (maps == COAL).sum() / mountain.sum()
    iron = (maps == IRON).sum() / mountain.sum()
    assert 0.03 < coal < 0.05  # drawn at 4% of stone cells
    assert 0.02 < iron < 0.035  # 3% of what stays stone after coal
    assert (maps == GRASS).mean() > 0.3


def test_same_seed_same_worlds_and_envs_differ() -> None:
    a, _ = worlds(4, seed=5)
    b, _ = worlds(4, seed=5)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a[0], a[1])
