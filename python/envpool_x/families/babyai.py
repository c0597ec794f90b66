"""BabyAI (the levels of ``minigrid==3.2.0``'s ``envs/babyai``) in C++:
cpp/envs/minigrid/babyai/, on the MiniGrid engine.

Every id EnvPool 1.2.5 registers, one C++ pool class (``BabyAI``) with a
``level`` key. Observations are EnvPool's: ``direction``, ``image`` (the
7 x 7 x 3 egocentric encoding) and ``mission``, the mission text as 512
zero-padded UTF-8 bytes (:func:`envpool_x.families.minigrid.decode_mission`
reads it); ``info["mission_id"]`` is -1 as in EnvPool (missions are free
text). Each episode's time limit is minigrid's: the level's own, or the
navigations its instruction needs times the maze's area; the env truncates
there itself, and the registered ``max_episode_steps`` is only an outer bound.
A task changes only the keys its level reads (its minigrid class's arguments;
:data:`envpool_x.families.grid_options.LEVEL_KEYS`). docs/babyai.md has the details.
"""

from __future__ import annotations

from typing import Any

from envpool_x.families.grid_options import BABYAI_OPTIONS, GRID_ENVPOOL_NAMES
from envpool_x.families.minigrid import BUILD_HINT, has_grid_worlds
from envpool_x.registration import Family, FamilyMemory, KiB, declare_family, register_if_built
from envpool_x.render.minigrid import minigrid_drawer

# One env (estimated, not measured): grid, object ids and positions, instruction.
FAMILY = declare_family(
    Family(
        "babyai",
        renderer=minigrid_drawer,
        memory=FamilyMemory(env_resident=16 * KiB),
        options=BABYAI_OPTIONS,
        envpool_names=GRID_ENVPOOL_NAMES,
    )
).name
register = register_if_built(has_grid_worlds(), BUILD_HINT)
#: The most navigations an instruction needs (a sequence of two conjunctions
#: of put-next clauses): the outer time limit of levels without their own.
MAX_NAVS = 8


def _register(task_id: str, level: str, room: int, rows: int, cols: int, **kw: Any) -> None:
    """One id: its level, final room grid shape and the level's own keys.

    ``max_factor`` (a level's fixed limit, in units of room_size**2) is taken
    out of ``kw``; without it the bound is MAX_NAVS times the maze's area."""
    factor = kw.pop("max_factor", 0)
    area = room * room * rows * cols
    bound = factor * room * room if factor else MAX_NAVS * area
    register(
        task_id,
        "BabyAI",
        FAMILY,
        bound,
        level=level,
        room_size=room,
        num_rows=rows,
        num_cols=cols,
        **kw,
    )


def _maze(task_id: str, level: str, room: int = 8, rows: int = 3, cols: int = 3, **kw: Any) -> None:
    _register(task_id, level, room, rows, cols, **kw)


def _one_room(task_id: str, level: str, room: int = 8, **kw: Any) -> None:
    _register(task_id, level, room, 1, 1, **kw)


# goto.py
_one_room("BabyAI-GoToRedBallGrey-v0", "GoToRedBallGrey", num_dists=7)
_one_room("BabyAI-GoToRedBall-v0", "GoToRedBall", num_dists=7)
_one_room("BabyAI-GoToRedBallNoDists-v0", "GoToRedBall", num_dists=0)
_one_room("BabyAI-GoToRedBlueBall-v0", "GoToRedBlueBall", num_dists=7)
_one_room("BabyAI-GoToObj-v0", "GoToObj")
_one_room("BabyAI-GoToObjS4-v0", "GoToObj", room=4)
_one_room("BabyAI-GoToObjS6-v1", "GoToObj", room=6)
_one_room("BabyAI-GoToLocal-v0", "GoToLocal", num_dists=8)
for _room, _n in ((5, 2), (6, 2), (6, 3), (6, 4), (7, 4), (7, 5), (8, 2), (8, 3), (8, 4)):
    _one_room(f"BabyAI-GoToLocalS{_room}N{_n}-v0", "GoToLocal", room=_room, num_dists=_n)
for _n in (5, 6, 7):
    _one_room(f"BabyAI-GoToLocalS8N{_n}-v0", "GoToLocal", num_dists=_n)
_maze("BabyAI-GoTo-v0", "GoTo", num_dists=18)
_maze("BabyAI-GoToOpen-v0", "GoTo", num_dists=18, doors_open=True)
_maze("BabyAI-GoToObjMaze-v0", "GoTo", num_dists=1)
_maze("BabyAI-GoToObjMazeOpen-v0", "GoTo", num_dists=1, doors_open=True)
_maze("BabyAI-GoToObjMazeS4R2-v0", "GoTo", room=4, rows=2, cols=2, num_dists=1)
for _room in (4, 5, 6, 7):
    _maze(f"BabyAI-GoToObjMazeS{_room}-v0", "GoTo", room=_room, num_dists=1)
_maze("BabyAI-GoToImpUnlock-v0", "GoToImpUnlock")
_maze("BabyAI-GoToSeq-v0", "GoToSeq", num_dists=18)
_maze("BabyAI-GoToSeqS5R2-v0", "GoToSeq", room=5, rows=2, cols=2, num_dists=4)
_maze("BabyAI-GoToDoor-v0", "GoToDoor", room=7)
_maze("BabyAI-GoToObjDoor-v0", "GoToObjDoor")
# open.py
_maze("BabyAI-Open-v0", "Open")
_maze("BabyAI-OpenRedDoor-v0", "OpenRedDoor", room=5, rows=1, cols=2)
_maze("BabyAI-OpenDoor-v0", "OpenDoor")
_maze("BabyAI-OpenDoorDebug-v0", "OpenDoor", debug=True)
_maze("BabyAI-OpenDoorColor-v0", "OpenDoor", select_by="color")
_maze("BabyAI-OpenDoorLoc-v0", "OpenDoor", select_by="loc")
_maze("BabyAI-OpenTwoDoors-v0", "OpenTwoDoors", room=6, max_factor=20)
_maze(
    "BabyAI-OpenRedBlueDoors-v0",
    "OpenTwoDoors",
    room=6,
    max_factor=20,
    first_color="red",
    second_color="blue",
)
_maze(
    "BabyAI-OpenRedBlueDoorsDebug-v0",
    "OpenTwoDoors",
    room=6,
    max_factor=20,
    first_color="red",
    second_color="blue",
    strict=True,
)
for _n in (2, 4):
    for _debug in (False, True):
        _maze(
            f"BabyAI-OpenDoorsOrderN{_n}{'Debug' if _debug else ''}-v0",
            "OpenDoorsOrder",
            room=6,
            max_factor=20,
            num_doors=_n,
            debug=_debug,
        )
# pickup.py
_maze("BabyAI-Pickup-v0", "Pickup")
_maze("BabyAI-UnblockPickup-v0", "UnblockPickup")
_one_room("BabyAI-PickupLoc-v0", "PickupLoc", num_dists=8)
_one_room("BabyAI-PickupDist-v0", "PickupDist", room=7)
_one_room("BabyAI-PickupDistDebug-v0", "PickupDist", room=7, debug=True)
_maze("BabyAI-PickupAbove-v0", "PickupAbove", room=6, max_factor=8)
# putnext.py
_one_room("BabyAI-PutNextLocal-v0", "PutNextLocal", num_objs=8)
_one_room("BabyAI-PutNextLocalS5N3-v0", "PutNextLocal", room=5, num_objs=3)
_one_room("BabyAI-PutNextLocalS6N4-v0", "PutNextLocal", room=6, num_objs=4)
for _room, _n, _carry in (
    (4, 1, False),
    (5, 1, False),
    (5, 2, False),
    (5, 2, True),
    (6, 3, False),
    (6, 3, True),
    (7, 4, False),
    (7, 4, True),
):
    _maze(
        f"BabyAI-PutNextS{_room}N{_n}{'Carrying' if _carry else ''}-v0",
        "PutNext",
        room=_room,
        rows=1,
        cols=2,
        max_factor=8,
        objs_per_room=_n,
        start_carrying=_carry,
    )
# unlock.py
_maze("BabyAI-Unlock-v0", "Unlock")
_maze("BabyAI-UnlockLocal-v0", "UnlockLocal")
_maze("BabyAI-UnlockLocalDist-v0", "UnlockLocal", distractors=True)
_maze("BabyAI-KeyInBox-v0", "KeyInBox")
_maze("BabyAI-UnlockPickup-v0", "UnlockPickup", room=6, rows=1, cols=2)
_maze("BabyAI-UnlockPickupDist-v0", "UnlockPickup", room=6, rows=1, cols=2, distractors=True)
_maze("BabyAI-BlockedUnlockPickup-v0", "BlockedUnlockPickup", room=6, rows=1, cols=2, max_factor=16)
_maze("BabyAI-UnlockToUnlock-v0", "UnlockToUnlock", room=6, rows=1, cols=3, max_factor=30)
# other.py
_maze("BabyAI-ActionObjDoor-v0", "ActionObjDoor", room=7)
for _room in (5, 6, 7):
    _maze(f"BabyAI-FindObjS{_room}-v0", "FindObj", room=_room, max_factor=20)
_maze("BabyAI-KeyCorridor-v0", "KeyCorridor", room=6, max_factor=30)
for _room, _rows in ((3, 1), (3, 2), (3, 3), (4, 3), (5, 3), (6, 3)):
    _maze(
        f"BabyAI-KeyCorridorS{_room}R{_rows}-v0",
        "KeyCorridor",
        room=_room,
        rows=_rows,
        max_factor=30,
    )
for _room in (8, 12, 16, 20):
    _one_room(f"BabyAI-OneRoomS{_room}-v0", "OneRoom", room=_room)
for _room, _n in ((5, 2), (8, 9)):
    _maze(
        f"BabyAI-MoveTwoAcrossS{_room}N{_n}-v0",
        "MoveTwoAcross",
        room=_room,
        rows=1,
        cols=2,
        max_factor=16,
        objs_per_room=_n,
    )
# synth.py
_maze("BabyAI-Synth-v0", "Synth", num_dists=18)
_maze("BabyAI-SynthS5R2-v0", "Synth", room=5, rows=2, num_dists=18)
_maze("BabyAI-SynthLoc-v0", "SynthLoc", num_dists=18)
_maze("BabyAI-SynthSeq-v0", "SynthSeq", num_dists=18)
_maze("BabyAI-MiniBossLevel-v0", "MiniBossLevel", room=5, rows=2, cols=2, num_dists=7)
_maze("BabyAI-BossLevel-v0", "BossLevel", num_dists=18)
_maze("BabyAI-BossLevelNoUnlock-v0", "BossLevelNoUnlock", num_dists=18)
