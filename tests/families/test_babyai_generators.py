"""BabyAI's level generators (cpp/envs/minigrid/babyai/): the layouts and
instructions they draw are valid (every description names an object, the
objects are reachable where minigrid checks it, put-next objects start
apart) and are distributed as minigrid 3.2.0's (summary statistics)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("minigrid")

from babyai_oracle import MAX_NODES, NODE_VALUES, babyai_state  # noqa: E402
from minigrid_layouts import (  # noqa: E402
    WALL,
    decode,
    features,
    our_layouts,
    reachable,
)
from test_babyai import IDS  # noqa: E402

KEY, BALL, BOX = 5, 6, 7
# Levels that call check_objs_reachable (doors count as passable) after
# placing every object (GoToImpUnlock adds its target after the check).
REACHABLE = (
    "GoToRedBall",
    "GoToLocal",
    "GoTo-",
    "GoToOpen",
    "GoToObjMaze",
    "GoToObjDoor",
    "GoToSeq",
    "Open-",
    "Pickup-",
    "PutNextLocal",
    "Unlock-",
)


def nodes(state: np.ndarray) -> np.ndarray:
    """The instruction's nodes (MAX_NODES x NODE_VALUES)."""
    return state[-MAX_NODES * NODE_VALUES :].reshape(MAX_NODES, NODE_VALUES).astype(int)


def matches(cells: np.ndarray, carried: np.ndarray, desc: np.ndarray) -> list[tuple[int, int]]:
    """Cells (x, y; (-1, -1) for the carried object) of objects of a
    description's type and colour (its location is not checked here)."""
    t, c = int(desc[0]), int(desc[1])
    found = []
    h, w = cells.shape[:2]
    for y in range(h):
        for x in range(w):
            ct, cc = cells[y, x, :2]
            if ct in (KEY, BALL, BOX, 4) and (t < 0 or ct == t) and (c < 0 or cc == c):
                found.append((x, y))
    if carried[0] in (KEY, BALL, BOX) and (t < 0 or carried[0] == t) and (c < 0 or carried[1] == c):
        found.append((-1, -1))
    return found


def unreachable_objects(cells: np.ndarray, agent: tuple[int, int]) -> set:
    """Objects (x, y) with no neighbour reachable through empty cells and doors."""
    seen = reachable(cells, agent, lambda t: t not in (1, 4))
    objs = {(x, y) for y, x in zip(*np.nonzero(cells[:, :, 0] > WALL), strict=True)}
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
    return {(x, y) for x, y in objs if not any((x + i, y + j) in seen for i, j in steps)}


@pytest.mark.parametrize("task", IDS)
def test_generated_levels_are_valid(task):
    for state in our_layouts(task, 40):
        cells, (ax, ay), d = decode(state)
        carried = state[7:12].astype(int)
        assert cells[ay, ax, 0] == 1, task
        fx, fy = ax + (1, 0, -1, 0)[d], ay + (0, 1, 0, -1)[d]
        assert cells[fy, fx, 0] not in (KEY, BALL, BOX), task
        ns = [n for n in nodes(state) if n[0] != 0]
        assert ns, task
        for n in ns:
            if 1 <= n[0] <= 4:  # an action: its objects exist
                assert matches(cells, carried, n[4:7]), (task, n)
            if n[0] == 4:  # put next: the two sides start apart
                fixed = matches(cells, carried, n[7:10])
                assert fixed, (task, n)
                if carried[0] == 1 and n[6] < 0 and n[9] < 0:  # (locations narrow the sets)
                    for mx, my in matches(cells, carried, n[4:7]):
                        assert all(abs(mx - x) + abs(my - y) != 1 for x, y in fixed), task
        if any(task.startswith(f"BabyAI-{r}") for r in REACHABLE):
            assert not unreachable_objects(cells, (ax, ay)), task
        if task == "BabyAI-UnblockPickup-v0":
            assert unreachable_objects(cells, (ax, ay)), task


def instruction_features(state: np.ndarray) -> np.ndarray:
    """Counts of each node kind; over the action nodes, how many descriptions
    give a type, a colour, a location."""
    ns = nodes(state)
    kinds = [int((ns[:, 0] == k).sum()) for k in range(1, 8)]
    acts = ns[(ns[:, 0] >= 1) & (ns[:, 0] <= 4)]
    descs = np.concatenate([acts[:, 4:7], acts[acts[:, 0] == 4][:, 7:10]])
    return np.array(kinds + [int((descs[:, i] >= 0).sum()) for i in range(3)], dtype=float)


def minigrid_states(task: str, n: int) -> list[np.ndarray]:
    env = gym.make(task)
    states = []
    for seed in range(n):
        env.reset(seed=seed)
        states.append(babyai_state(env))
    env.close()
    return states


DISTRIBUTION = [
    "BabyAI-GoToRedBallGrey-v0",
    "BabyAI-GoToLocal-v0",
    "BabyAI-GoTo-v0",
    "BabyAI-GoToImpUnlock-v0",
    "BabyAI-GoToSeqS5R2-v0",
    "BabyAI-GoToObjDoor-v0",
    "BabyAI-Open-v0",
    "BabyAI-OpenDoor-v0",
    "BabyAI-OpenDoorsOrderN4-v0",
    "BabyAI-UnblockPickup-v0",
    "BabyAI-PickupLoc-v0",
    "BabyAI-PickupDist-v0",
    "BabyAI-PickupAbove-v0",
    "BabyAI-PutNextLocal-v0",
    "BabyAI-PutNextS6N3Carrying-v0",
    "BabyAI-Unlock-v0",
    "BabyAI-UnlockLocalDist-v0",
    "BabyAI-KeyInBox-v0",
    "BabyAI-UnlockPickupDist-v0",
    "BabyAI-BlockedUnlockPickup-v0",
    "BabyAI-UnlockToUnlock-v0",
    "BabyAI-ActionObjDoor-v0",
    "BabyAI-FindObjS5-v0",
    "BabyAI-KeyCorridorS3R3-v0",
    "BabyAI-OneRoomS12-v0",
    "BabyAI-MoveTwoAcrossS8N9-v0",
    "BabyAI-SynthS5R2-v0",
    "BabyAI-SynthLoc-v0",
    "BabyAI-SynthSeq-v0",
    "BabyAI-MiniBossLevel-v0",
    "BabyAI-BossLevel-v0",
    "BabyAI-BossLevelNoUnlock-v0",
]


@pytest.mark.parametrize("task", DISTRIBUTION)
def test_layouts_and_instructions_are_distributed_as_minigrids(task):
    ours, theirs = our_layouts(task, 200), minigrid_states(task, 200)
    both = [np.concatenate([features(s), instruction_features(s)]) for s in ours + theirs]
    ours_f, theirs_f = both[: len(ours)], both[len(ours) :]
    a, b = np.array(ours_f), np.array(theirs_f)
    err = np.sqrt(a.var(0) / len(a) + b.var(0) / len(b))
    diff = np.abs(a.mean(0) - b.mean(0))
    bad = np.nonzero(diff > 5 * err + 1e-9)[0]
    means = f"ours {a.mean(0)[bad]}, minigrid {b.mean(0)[bad]}"
    assert bad.size == 0, f"{task}: features {bad.tolist()} differ: {means}"
