"""MiniGrid's random layouts: every step agrees with minigrid 3.2.0 from its
own layout (loaded through the state hook), and our generators, which draw
from our seed stream, make valid layouts distributed as minigrid's."""

from __future__ import annotations

import pytest

pytest.importorskip("minigrid")

from minigrid_layouts import (  # noqa: E402
    DOOR,
    GOAL,
    KEY,
    LAVA,
    WALL,
    assert_same_distribution,
    decode,
    minigrid_layouts,
    our_layouts,
    positions,
    reachable,
)
from minigrid_oracle import run_episodes  # noqa: E402

LAVA_OR_WALL = [
    "avoid the lava and get to the green goal square",
    "find the opening and get to the green goal square",
]
# Mostly forward moves, with enough pickups and toggles to open doors.
ACTIONS = [0.15, 0.15, 0.4, 0.1, 0.05, 0.1, 0.05]

RANDOM_LAYOUTS = {
    # id: episodes compared
    "MiniGrid-DoorKey-5x5-v0": 12,
    "MiniGrid-DoorKey-8x8-v0": 3,
    "MiniGrid-FourRooms-v0": 10,
    "MiniGrid-LavaGapS5-v0": 12,
    "MiniGrid-LavaGapS7-v0": 8,
    "MiniGrid-LavaCrossingS9N2-v0": 8,
    "MiniGrid-LavaCrossingS11N5-v0": 4,
    "MiniGrid-SimpleCrossingS9N1-v0": 3,
    "MiniGrid-SimpleCrossingS11N5-v0": 3,
}


@pytest.mark.parametrize("task", sorted(RANDOM_LAYOUTS))
def test_steps_match_minigrid_from_its_layout(task):
    missions = LAVA_OR_WALL if "Crossing" in task or "Lava" in task else None
    ends = run_episodes(
        task,
        RANDOM_LAYOUTS[task],
        (lambda m: missions.index(m)) if missions else (lambda m: 0),
        load_layout=True,
        action_probs=ACTIONS,
    )
    assert ends["ended"] == RANDOM_LAYOUTS[task]


@pytest.mark.parametrize("task", ["MiniGrid-DistShift1-v0", "MiniGrid-DistShift2-v0"])
def test_distshift_matches_minigrid_from_reset(task):
    ends = run_episodes(task, 12, lambda m: 0, load_layout=False, action_probs=ACTIONS)
    assert ends["terminated"] > 0


def _not_passable(t: int) -> bool:
    return t in (WALL, LAVA)


@pytest.mark.parametrize(
    "task",
    [
        "MiniGrid-DoorKey-6x6-v0",
        "MiniGrid-DoorKey-16x16-v0",
        "MiniGrid-FourRooms-v0",
        "MiniGrid-LavaGapS6-v0",
        "MiniGrid-LavaCrossingS9N3-v0",
        "MiniGrid-SimpleCrossingS9N2-v0",
        "MiniGrid-LavaCrossingS11N5-v0",
    ],
)
def test_generated_layouts_are_valid_and_distributed_as_minigrids(task):
    ours = our_layouts(task, 300)
    for state in ours:
        cells, agent, _ = decode(state)
        goals = positions(cells, GOAL)
        assert len(goals) == 1 and cells[agent[1], agent[0], 0] == 1  # the agent on a free cell
        # The goal is reachable without stepping on lava or through walls.
        assert goals[0] in reachable(cells, agent, _not_passable), task
        if "DoorKey" in task:
            # The key is reachable without passing the locked door.
            (key,) = positions(cells, KEY)
            (door,) = positions(cells, DOOR)
            assert cells[door[1], door[0], 2] == 2  # locked
            assert key in reachable(cells, agent, lambda t: t in (WALL, DOOR))
            assert goals[0] not in reachable(cells, agent, lambda t: t in (WALL, DOOR))
    assert_same_distribution(ours, minigrid_layouts(task, 300))
