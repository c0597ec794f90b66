"""gymnasium-robotics' maze ``reset(options={"goal_cell": (i, j), "reset_cell": (i, j)})``
on a pool: after the pool's reset, the envs reset get the goal and / or the start in
those cells (their centres plus the maze's position noise), as MazeEnv.reset places
them; a cell that is not given keeps the reset's draw, but a start drawn for another
goal is drawn again (while within 0.5 * scaling of the new goal), as gymnasium-robotics
draws it after a given goal cell.

The noise (and such a start) comes from a numpy Generator of the front end's, seeded
from the reset's seed (the pool's seed when none): not the pool's per-env streams,
which the C++ reset has used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

#: The reset options these tasks take (gymnasium-robotics' names).
KEYS = ("goal_cell", "reset_cell")
#: The goal distance under which a maze task counts as succeeded.
GOAL_RADIUS = 0.45


def start_cells(rows: Sequence[str], scaling: float) -> list[np.ndarray]:
    """The centres of the cells a start is drawn from (Maze.make_maze's
    unique_reset_locations, with the 'c' cells after the 'r' ones)."""
    x_center, y_center = len(rows[0]) / 2 * scaling, len(rows) / 2 * scaling
    kinds: dict[str, list[np.ndarray]] = {"0": [], "r": [], "g": [], "c": []}
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            if cell != "1":
                xy = np.array([(j + 0.5) * scaling - x_center, y_center - (i + 0.5) * scaling])
                kinds[cell].append(xy)
    if not kinds["r"] and not kinds["c"]:
        return kinds["0"]  # no start cells: every free cell
    return kinds["r"] + kinds["c"]


def _cell(rows: list[str], name: str, value: Any) -> tuple[int, int]:
    try:
        i, j = (int(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a (row, column) pair, got {value!r}") from None
    if not (0 <= i < len(rows) and 0 <= j < len(rows[0])):
        raise ValueError(f"{name} {value!r} is outside the {len(rows)} x {len(rows[0])} maze")
    if rows[i][j] == "1":
        raise ValueError(f"{name} {value!r} is a wall cell")
    return i, j


def _generator(env: Any) -> np.random.Generator:
    rng = getattr(env, "_maze_cells_rng", None)
    if rng is None:
        rng = np.random.default_rng(int(env.spec.config.seed))
        env._maze_cells_rng = rng
    return rng


def apply_cells(env: Any, ids: Any, obs: dict[str, np.ndarray], info: dict[str, Any],
                options: dict[str, Any]) -> None:  # fmt: skip
    """Place the goal / start of each env just reset (``ids``; None: all), and
    edit the reset's observation and success to match."""
    config = env.spec.config
    rows = config.maze_map.split("/")
    scaling, noise = float(config.maze_size_scaling), float(config.position_noise_range)
    goal_cell = options.get("goal_cell")
    reset_cell = options.get("reset_cell")
    goal_ij = None if goal_cell is None else _cell(rows, "goal_cell", goal_cell)
    reset_ij = None if reset_cell is None else _cell(rows, "reset_cell", reset_cell)
    if goal_ij is None and reset_ij is None:
        return
    x_center, y_center = len(rows[0]) / 2 * scaling, len(rows) / 2 * scaling

    def centre(ij: tuple[int, int]) -> np.ndarray:
        return np.array([(ij[1] + 0.5) * scaling - x_center, y_center - (ij[0] + 0.5) * scaling])

    rng = _generator(env)

    def noisy(xy: np.ndarray) -> np.ndarray:
        dx = rng.uniform(-noise, noise) * scaling
        dy = rng.uniform(-noise, noise) * scaling
        return xy + np.array([dx, dy])

    starts = start_cells(rows, scaling)
    observe_xy = env.spec.entry.pool_name == "PointMaze"  # the Ant's observation has no x-y
    env_ids = range(env.num_envs) if ids is None else [int(i) for i in np.asarray(ids)]
    for row, env_id in enumerate(env_ids):
        state = env.get_state(env_id).copy()
        goal = state[-2:].copy()
        start = None
        if goal_ij is not None:
            goal = noisy(centre(goal_ij))
        if reset_ij is not None:
            start = noisy(centre(reset_ij))
        elif goal_ij is not None:
            cell = goal.copy()
            while np.linalg.norm(cell - goal) <= 0.5 * scaling:
                cell = starts[rng.integers(len(starts))].copy()
            start = noisy(cell)
        if start is not None:
            state[1:3] = start  # after the time: qpos x, y
        state[-2:] = goal
        env._pool.set_state(env_id, state)
        xy = state[1:3]
        for key in ("achieved_goal", "desired_goal", "observation"):
            if not obs[key].flags.writeable:
                obs[key] = obs[key].copy()
        obs["achieved_goal"][row] = xy
        obs["desired_goal"][row] = goal
        if observe_xy:
            obs["observation"][row, :2] = xy
        success = bool(np.linalg.norm(xy - goal) <= GOAL_RADIUS)
        for key, value in (("success", success), ("is_success", float(success))):
            if key in info:
                if not info[key].flags.writeable:
                    info[key] = info[key].copy()
                info[key][row] = value
