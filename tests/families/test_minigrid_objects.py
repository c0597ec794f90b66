"""MiniGrid's tasks with objects and their own step rules (GoToDoor,
RedBlueDoors, Fetch, GoToObject, PutNear, Memory): every step agrees with
minigrid 3.2.0 from its layout, and our generators make valid layouts
distributed as minigrid's."""

from __future__ import annotations

import pytest

pytest.importorskip("minigrid")

from minigrid.core.constants import COLOR_TO_IDX, OBJECT_TO_IDX  # noqa: E402
from minigrid_layouts import (  # noqa: E402
    DOOR,
    assert_same_distribution,
    decode,
    minigrid_layouts,
    our_layouts,
    positions,
    reachable,
)
from minigrid_oracle import COLORS, run_episodes  # noqa: E402

FETCH_SYNTAX = ["get a", "go get a", "fetch a", "go fetch a", "you must fetch a"]
TYPES = ["key", "ball", "box"]
# Fewer "done"/"toggle"/"pickup" than uniform so that episodes last a while.
ACTIONS = [0.2, 0.2, 0.4, 0.06, 0.06, 0.04, 0.04]


def _color_type(words: list[str]) -> int:
    return COLORS.index(words[0]) * 3 + TYPES.index(words[1])


def _fetch_id(m: str) -> int:
    *syntax, color, kind = m.split()
    return (FETCH_SYNTAX.index(" ".join(syntax)) * 6 + COLORS.index(color)) * 2 + TYPES.index(kind)


def _put_near_id(m: str) -> int:
    w = m.split()  # put the C T near the C T
    return _color_type(w[2:4]) * 18 + _color_type(w[6:8])


def _door_positions(env):
    u = env.unwrapped
    found = {}
    for y in range(u.height):
        for x in range(u.width):
            c = u.grid.get(x, y)
            if c is not None and c.type == "door":
                found[c.color] = (x, y)
    return [*found["red"], *found["blue"]]


def _code(kind: str, color: str) -> list[int]:
    return [OBJECT_TO_IDX[kind], COLOR_TO_IDX[color]]


# id: (episodes, mission id of a mission text, the task's extra state from minigrid)
TASKS = {
    "MiniGrid-GoToDoor-5x5-v0": (
        40,
        lambda m: COLORS.index(m.split()[3]),
        lambda e: list(e.unwrapped.target_pos),
    ),
    "MiniGrid-GoToDoor-8x8-v0": (
        40,
        lambda m: COLORS.index(m.split()[3]),
        lambda e: list(e.unwrapped.target_pos),
    ),
    "MiniGrid-RedBlueDoors-6x6-v0": (6, lambda m: 0, _door_positions),
    "MiniGrid-Fetch-5x5-N2-v0": (
        40,
        _fetch_id,
        lambda e: _code(e.unwrapped.targetType, e.unwrapped.targetColor),
    ),
    "MiniGrid-Fetch-8x8-N3-v0": (
        30,
        _fetch_id,
        lambda e: _code(e.unwrapped.targetType, e.unwrapped.targetColor),
    ),
    "MiniGrid-GoToObject-6x6-N2-v0": (
        40,
        lambda m: _color_type(m.split()[3:5]),
        lambda e: list(e.unwrapped.target_pos),
    ),
    "MiniGrid-PutNear-6x6-N2-v0": (
        40,
        _put_near_id,
        lambda e: (
            _code(e.unwrapped.move_type, e.unwrapped.moveColor) + list(e.unwrapped.target_pos)
        ),
    ),
    "MiniGrid-PutNear-8x8-N3-v0": (
        30,
        _put_near_id,
        lambda e: (
            _code(e.unwrapped.move_type, e.unwrapped.moveColor) + list(e.unwrapped.target_pos)
        ),
    ),
    "MiniGrid-MemoryS7-v0": (
        20,
        lambda m: 0,
        lambda e: [*e.unwrapped.success_pos, *e.unwrapped.failure_pos],
    ),
    "MiniGrid-MemoryS13Random-v0": (
        10,
        lambda m: 0,
        lambda e: [*e.unwrapped.success_pos, *e.unwrapped.failure_pos],
    ),
}


@pytest.mark.parametrize("task", sorted(TASKS))
def test_steps_match_minigrid_from_its_layout(task):
    episodes, mission_id, extra = TASKS[task]
    ends = run_episodes(task, episodes, mission_id, True, extra=extra, action_probs=ACTIONS)
    assert ends["ended"] == episodes
    assert ends["rewarded"] > 0  # the task's reward rule ran (fixed seeds: not flaky)


@pytest.mark.parametrize("task", sorted(TASKS))
def test_generated_layouts_are_valid_and_distributed_as_minigrids(task):
    ours = our_layouts(task, 300)
    for state in ours:
        cells, agent, _ = decode(state)
        assert cells[agent[1], agent[0], 0] == 1, task  # the agent on a free cell
        objects = [p for t in (5, 6, 7) for p in positions(cells, t)]
        # Every object can be reached (walked next to) through free cells and doors.
        free = reachable(cells, agent, lambda t: t not in (1, DOOR))
        for x, y in objects:
            assert {(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)} & free, task
        if "PutNear" in task:  # no two objects side by side or diagonal
            for i, (x, y) in enumerate(objects):
                assert all(max(abs(x - u), abs(y - v)) > 1 for u, v in objects[i + 1 :])
        if "GoToDoor" in task:  # four doors of four colours
            doors = positions(cells, DOOR)
            assert len({int(cells[y, x, 1]) for x, y in doors}) == 4
        if "Fetch" in task or "GoToObject" in task or "PutNear" in task:
            assert len(objects) == int(task.split("-N")[1][0])
    assert_same_distribution(ours, minigrid_layouts(task, 300))
