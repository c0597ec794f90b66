"""A user's own env written in Python and compiled by numba
(envpool_x.register_numba_env): a 7 x 7 grid with two rooms. The door between
them is locked; the agent must pick up the key in its room, walk through the
door and reach the goal in the other room.

Observation (int32, 7 x 7): the cell codes below. Actions: 0 up, 1 right,
2 down, 3 left. Reward: -0.01 a step, +1 on reaching the goal (the episode
ends there).

    python examples/user_envs/key_door_grid.py
"""

from __future__ import annotations

import time

import numba
import numpy as np
from gymnasium import spaces

import envpool_x

SIZE, WALL_COL = 7, 3
# Helpers that reset / step call are compiled by numba.njit themselves.
EMPTY, WALL, KEY, DOOR, OPEN_DOOR, GOAL, AGENT = range(7)
# state: agent row, agent col, has key, key row, key col, door row, goal row, goal col
AR, AC, HAS_KEY, KR, KC, DOOR_ROW, GR, GC = range(8)
MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))


@numba.njit
def _cell(u: float, low: int, high: int) -> int:
    """A uniform u in [0, 1) as an int in [low, high]."""
    return low + int(u * (high - low + 1))


@numba.njit
def _draw(state, obs):
    for r in range(SIZE):
        for c in range(SIZE):
            border = r == 0 or c == 0 or r == SIZE - 1 or c == SIZE - 1
            obs[r, c] = WALL if border or c == WALL_COL else EMPTY
    door = int(state[DOOR_ROW])
    obs[door, WALL_COL] = OPEN_DOOR if state[HAS_KEY] > 0 else DOOR
    if state[HAS_KEY] == 0:
        obs[int(state[KR]), int(state[KC])] = KEY
    obs[int(state[GR]), int(state[GC])] = GOAL
    obs[int(state[AR]), int(state[AC])] = AGENT


def reset(state, obs, rand):
    state[DOOR_ROW] = _cell(rand[0], 1, SIZE - 2)
    state[AR] = _cell(rand[1], 1, SIZE - 2)
    state[AC] = _cell(rand[2], 1, WALL_COL - 1)
    state[KR] = _cell(rand[3], 1, SIZE - 2)
    state[KC] = _cell(rand[4], 1, WALL_COL - 1)
    if state[KR] == state[AR] and state[KC] == state[AC]:  # never under the agent
        state[KR] = 1 + (state[KR] % (SIZE - 2))
    state[GR] = _cell(rand[5], 1, SIZE - 2)
    state[GC] = _cell(rand[6], WALL_COL + 1, SIZE - 2)
    state[HAS_KEY] = 0.0
    _draw(state, obs)


def step(state, action, obs, rand):
    dr, dc = MOVES[action]
    r, c = int(state[AR]) + dr, int(state[AC]) + dc
    is_door = c == WALL_COL and r == int(state[DOOR_ROW])
    blocked = r <= 0 or r >= SIZE - 1 or c <= 0 or c >= SIZE - 1
    blocked = blocked or (c == WALL_COL and not (is_door and state[HAS_KEY] > 0))
    if not blocked:
        state[AR], state[AC] = r, c
        if state[HAS_KEY] == 0 and r == state[KR] and c == state[KC]:
            state[HAS_KEY] = 1.0
    reached = state[AR] == state[GR] and state[AC] == state[GC]
    _draw(state, obs)
    return (1.0 if reached else -0.01), reached


def register(task_id: str = "KeyDoorGrid-v0") -> str:
    envpool_x.register_numba_env(
        task_id,
        reset,
        step,
        state_size=8,
        reset_random=7,
        observation_space=spaces.Box(0, 6, (SIZE, SIZE), np.int32),
        action_space=spaces.Discrete(4),
        max_episode_steps=100,
    )
    return task_id


def main() -> None:
    start = time.perf_counter()
    task = register()
    print(f"compiled and registered in {time.perf_counter() - start:.1f} s")
    env = envpool_x.make_gymnasium(task, num_envs=1024, num_threads=2)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    solved = episodes = 0
    start = time.perf_counter()
    steps = 500
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(rng.integers(0, 4, env.num_envs))
        solved += int(terminated.sum())
        episodes += int((terminated | truncated).sum())
    rate = steps * env.num_envs / (time.perf_counter() - start)
    print(f"random agent: {solved} of {episodes} episodes solved; {rate:,.0f} steps/s")
    env.close()


if __name__ == "__main__":
    main()
