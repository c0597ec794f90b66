"""MiniGrid's multi-room mazes without step rules (MultiRoom, LockedRoom,
Playground): every step agrees with minigrid 3.2.0 from its layout, and our
generators make valid layouts distributed as minigrid's."""

from __future__ import annotations

import pytest

pytest.importorskip("minigrid")

from minigrid_layouts import (  # noqa: E402
    DOOR,
    GOAL,
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

ACTIONS = [0.2, 0.2, 0.35, 0.05, 0.05, 0.1, 0.05]


def _locked_room_id(m: str) -> int:
    w = m.split()  # get the L key from the K room, ...
    return COLORS.index(w[2]) * 6 + COLORS.index(w[6])


# id: (episodes, mission id of a mission text)
TASKS = {
    "MiniGrid-MultiRoom-N2-S4-v0": (12, lambda m: 0),
    "MiniGrid-MultiRoom-N6-v0": (8, lambda m: 0),
    "MiniGrid-LockedRoom-v0": (6, _locked_room_id),
    "MiniGrid-Playground-v0": (6, lambda m: 0),
}


@pytest.mark.parametrize("task", sorted(TASKS))
def test_steps_match_minigrid_from_its_layout(task):
    episodes, mission_id = TASKS[task]
    ends = run_episodes(task, episodes, mission_id, True, action_probs=ACTIONS)
    assert ends["ended"] == episodes


@pytest.mark.parametrize(
    "task",
    [
        "MiniGrid-MultiRoom-N2-S4-v0",
        "MiniGrid-MultiRoom-N4-S5-v0",
        "MiniGrid-MultiRoom-N6-v0",
        "MiniGrid-LockedRoom-v0",
        "MiniGrid-Playground-v0",
    ],
)
def test_generated_layouts_are_valid_and_distributed_as_minigrids(task):
    ours = our_layouts(task, 300)
    for state in ours:
        cells, agent, _ = decode(state)
        assert cells[agent[1], agent[0], 0] == 1, task
        doors = positions(cells, DOOR)
        passable = reachable(cells, agent, lambda t: t == WALL)
        if "MultiRoom" in task:
            rooms = len(doors) + 1
            assert (2 if "N2" in task else 6) >= rooms >= 1, task
            assert positions(cells, GOAL)[0] in passable, task
        if "LockedRoom" in task:
            locked = [(x, y) for x, y in doors if cells[y, x, 2] == 2]
            assert len(doors) == 6 and len(locked) == 1, task
            assert len({int(cells[y, x, 1]) for x, y in doors}) == 6  # six colours
            (lx, ly) = locked[0]
            (key,) = positions(cells, KEY)
            assert cells[key[1], key[0], 1] == cells[ly, lx, 1], task
            closed = cells.copy()
            closed[ly, lx, 0] = WALL
            assert key in reachable(closed, agent, lambda t: t == WALL), task
            assert positions(cells, GOAL)[0] not in reachable(closed, agent, lambda t: t == WALL)
        if "Playground" in task:
            objects = sum(len(positions(cells, t)) for t in (5, 6, 7))
            assert objects == 12 and len(doors) == 12, task
            open_cells = {(x, y) for y, x in zip(*(cells[:, :, 0] != WALL).nonzero(), strict=True)}
            assert open_cells <= passable, task
    assert_same_distribution(ours, minigrid_layouts(task, 300))
