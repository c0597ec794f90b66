"""MiniGrid's room-grid tasks (Unlock, UnlockPickup, BlockedUnlockPickup,
KeyCorridor): every step agrees with minigrid 3.2.0 from its layout, and our
generators (cpp/envs/minigrid/room_grid.h) make valid layouts distributed
as minigrid's."""

from __future__ import annotations

import pytest

pytest.importorskip("minigrid")

from minigrid.core.constants import COLOR_TO_IDX  # noqa: E402
from minigrid_layouts import (  # noqa: E402
    DOOR,
    KEY,
    WALL,
    assert_same_distribution,
    decode,
    minigrid_layouts,
    our_layouts,
    positions,
    reachable,
)
from minigrid_oracle import COLORS, run_episodes  # noqa: E402

ACTIONS = [0.2, 0.2, 0.3, 0.1, 0.05, 0.1, 0.05]


def _colour_of_target(e) -> list[int]:
    return [COLOR_TO_IDX[e.unwrapped.obj.color]]


def _fourth_word_colour(m: str) -> int:
    return COLORS.index(m.split()[3])


# id: (episodes, mission id of a mission text, the task's extra state from minigrid)
TASKS = {
    "MiniGrid-Unlock-v0": (12, lambda m: 0, lambda e: list(e.unwrapped.door.cur_pos)),
    "MiniGrid-UnlockPickup-v0": (6, _fourth_word_colour, _colour_of_target),
    "MiniGrid-BlockedUnlockPickup-v0": (4, _fourth_word_colour, _colour_of_target),
    "MiniGrid-KeyCorridorS3R1-v0": (12, _fourth_word_colour, _colour_of_target),
    "MiniGrid-KeyCorridorS3R3-v0": (6, _fourth_word_colour, _colour_of_target),
    "MiniGrid-KeyCorridorS4R3-v0": (3, _fourth_word_colour, _colour_of_target),
    "MiniGrid-ObstructedMaze-1Dlhb-v0": (6, lambda m: 0, lambda e: []),
    "MiniGrid-ObstructedMaze-2Dlh-v0": (4, lambda m: 0, lambda e: []),
    "MiniGrid-ObstructedMaze-Full-v0": (2, lambda m: 0, lambda e: []),
    "MiniGrid-ObstructedMaze-1Q-v1": (3, lambda m: 0, lambda e: []),
}


@pytest.mark.parametrize("task", sorted(TASKS))
def test_steps_match_minigrid_from_its_layout(task):
    episodes, mission_id, extra = TASKS[task]
    ends = run_episodes(task, episodes, mission_id, True, extra=extra, action_probs=ACTIONS)
    assert ends["ended"] == episodes


LAYOUT_TASKS = [
    "MiniGrid-Unlock-v0",
    "MiniGrid-UnlockPickup-v0",
    "MiniGrid-BlockedUnlockPickup-v0",
    "MiniGrid-KeyCorridorS3R3-v0",
    "MiniGrid-KeyCorridorS6R3-v0",
]


@pytest.mark.parametrize("task", LAYOUT_TASKS)
def test_generated_layouts_are_valid_and_distributed_as_minigrids(task):
    ours = our_layouts(task, 300)
    for state in ours:
        cells, agent, d = decode(state)
        assert cells[agent[1], agent[0], 0] == 1, task
        # The agent does not face an object (room grid's place_agent; KeyCorridor
        # adds doors after placing the agent).
        fx, fy = agent[0] + (1, 0, -1, 0)[d], agent[1] + (0, 1, 0, -1)[d]
        assert cells[fy, fx, 0] in (1, WALL) or "KeyCorridor" in task, task
        # Every room can be entered: all non-wall cells connect through doors.
        open_cells = {(x, y) for y, x in zip(*((cells[:, :, 0] != WALL).nonzero()), strict=True)}
        assert open_cells <= reachable(cells, agent, lambda t: t == WALL), task
        # One locked door; its key is reachable without passing it.
        locked = [(x, y) for x, y in positions(cells, DOOR) if cells[y, x, 2] == 2]
        assert len(locked) == 1, task
        (lx, ly) = locked[0]
        keys = [(x, y) for x, y in positions(cells, KEY) if cells[y, x, 1] == cells[ly, lx, 1]]
        assert len(keys) == 1, task
        cells_closed = cells.copy()
        cells_closed[ly, lx, 0] = WALL
        assert keys[0] in reachable(cells_closed, agent, lambda t: t == WALL), task
        if "Blocked" in task:  # a ball in front of the door
            assert cells[ly, lx - 1, 0] == 6, task
    assert_same_distribution(ours, minigrid_layouts(task, 300))


OBSTRUCTED = [
    "MiniGrid-ObstructedMaze-1Dl-v0",
    "MiniGrid-ObstructedMaze-1Dlhb-v0",
    "MiniGrid-ObstructedMaze-2Dlhb-v0",
    "MiniGrid-ObstructedMaze-2Q-v0",
    "MiniGrid-ObstructedMaze-Full-v0",
    "MiniGrid-ObstructedMaze-2Q-v1",
    "MiniGrid-ObstructedMaze-Full-v1",
]


@pytest.mark.parametrize("task", OBSTRUCTED)
def test_obstructed_maze_layouts_are_valid_and_distributed_as_minigrids(task):
    ours = our_layouts(task, 200)
    for state in ours:
        cells, agent, _ = decode(state)
        assert cells[agent[1], agent[0], 0] == 1, task
        balls = positions(cells, 6)
        assert [tuple(cells[y, x, :2]) for x, y in balls].count((6, 2)) == 1  # one blue ball
        # The blue ball can be reached through doors (with fewer than four
        # quarters, some rooms stay closed off).
        target = [(x, y) for x, y in balls if cells[y, x, 1] == 2]
        assert target[0] in reachable(cells, agent, lambda t: t == WALL), task
        locked = [int(cells[y, x, 1]) for x, y in positions(cells, DOOR) if cells[y, x, 2] == 2]
        keys = [int(cells[y, x, 1]) for x, y in positions(cells, KEY)]
        keys += [int(cells[y, x, 4]) for x, y in positions(cells, 7) if cells[y, x, 3] == KEY]
        if task.endswith("-v1") or "-1D" in task:
            # v0's quarters may cover a key with the next door's blocking ball.
            assert sorted(locked) == sorted(keys), task
    assert_same_distribution(ours, minigrid_layouts(task, 200))
