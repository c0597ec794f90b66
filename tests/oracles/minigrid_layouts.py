"""Checks of MiniGrid layouts read as our state vectors (ours through the
state hook, minigrid's through tests/oracles/minigrid_oracle.world_state): validity
(reachability) and summary statistics compared between the two generators."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import gymnasium as gym
import numpy as np
from minigrid_oracle import world_state

import envpool_x

HEADER = 12
WALL, DOOR, KEY, GOAL, LAVA = 2, 4, 5, 8, 9


def decode(state: np.ndarray) -> tuple[np.ndarray, tuple[int, int], int]:
    """(grid codes [y, x, 5], agent (x, y), direction) of a state vector."""
    w, h = int(state[0]), int(state[1])
    cells = state[HEADER : HEADER + w * h * 5].reshape(h, w, 5).astype(int)
    return cells, (int(state[2]), int(state[3])), int(state[4])


def reachable(cells: np.ndarray, start: tuple[int, int], blocked: Callable[[int], bool]) -> set:
    """Cells (x, y) reachable from start through cells whose type is not blocked."""
    h, w = cells.shape[:2]
    seen = {start}
    todo = deque([start])
    while todo:
        x, y = todo.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in seen:
                if not blocked(int(cells[ny, nx, 0])):
                    seen.add((nx, ny))
                    todo.append((nx, ny))
    return seen


def positions(cells: np.ndarray, obj_type: int) -> list[tuple[int, int]]:
    """Every (x, y) holding obj_type."""
    ys, xs = np.nonzero(cells[:, :, 0] == obj_type)
    return list(zip(xs.tolist(), ys.tolist(), strict=True))


def our_layouts(task: str, n: int, **kwargs: object) -> list[np.ndarray]:
    """The states of n freshly reset envs of ours."""
    env = envpool_x.make_gymnasium(task, num_envs=n, seed=7, **kwargs)
    env.reset()
    states = [env._pool.get_state(i) for i in range(n)]
    env.close()
    return states


def minigrid_layouts(task: str, n: int) -> list[np.ndarray]:
    """The states of minigrid's env after n seeded resets."""
    env = gym.make(task)
    states = []
    for seed in range(n):
        env.reset(seed=seed)
        states.append(world_state(env, 0))
    env.close()
    return states


def features(state: np.ndarray) -> np.ndarray:
    """Agent x, y, direction; per object type (wall .. lava) its count and the
    mean x and y of its cells."""
    cells, (ax, ay), d = decode(state)
    out = [ax, ay, d]
    for t in range(2, 10):
        ys, xs = np.nonzero(cells[:, :, 0] == t)
        out += [len(xs), xs.mean() if len(xs) else -1, ys.mean() if len(xs) else -1]
    return np.array(out, dtype=np.float64)


def assert_same_distribution(ours: list[np.ndarray], theirs: list[np.ndarray]) -> None:
    """Every feature's mean agrees within 5 standard errors (a generator that
    places something elsewhere shifts a mean by many)."""
    a = np.array([features(s) for s in ours])
    b = np.array([features(s) for s in theirs])
    err = np.sqrt(a.var(0) / len(a) + b.var(0) / len(b))
    diff = np.abs(a.mean(0) - b.mean(0))
    bad = np.nonzero(diff > 5 * err + 1e-9)[0]
    means = f"ours {a.mean(0)[bad]}, minigrid {b.mean(0)[bad]}"
    assert bad.size == 0, f"features {bad.tolist()} differ: {means}"
