"""MiniGrid (``minigrid==3.2.0``'s grid worlds) in C++: cpp/envs/minigrid/.

Observations use EnvPool 1.2.5's names: ``direction`` (0..3), ``image`` (the
7 x 7 x 3 egocentric encoding) and ``mission`` (the mission string as
zero-padded UTF-8 bytes; :func:`decode_mission` turns it back into text).
``info["mission_id"]`` is the mission's index in the task's mission list and
``info["agent_pos"]`` the agent's (x, y). Each id's time limit is minigrid's
``max_steps``, which the success reward ``1 - 0.9 * step_count / max_steps``
reads too. Every key has a declared valid range (:mod:`envpool_x.families.grid_options`).
docs/minigrid.md lists the ids and what is not done yet.
"""

from __future__ import annotations

import numpy as np

from envpool_x import _core
from envpool_x.families.grid_options import GRID_ENVPOOL_NAMES, MINIGRID_OPTIONS
from envpool_x.registration import (
    Family,
    FamilyMemory,
    KiB,
    declare_family,
    note_not_ported,
    register_if_built,
)
from envpool_x.render.minigrid import minigrid_drawer

# One env: the grid (5 bytes a cell, 25 x 25 at most) and the view.
FAMILY = declare_family(
    Family(
        "minigrid",
        renderer=minigrid_drawer,
        memory=FamilyMemory(env_resident=4 * KiB),
        options=MINIGRID_OPTIONS,
        envpool_names=GRID_ENVPOOL_NAMES,
    )
).name
#: How to get MiniGrid and BabyAI when this build lacks them.
BUILD_HINT = (
    "this envpool_x was built without the grid worlds (ENVPOOL_X_GRID_WORLDS=OFF): rebuild "
    "with -DENVPOOL_X_GRID_WORLDS=ON (pip: --config-settings=cmake.define.ENVPOOL_X_GRID_WORLDS=ON)"
)


def has_grid_worlds() -> bool:
    """Return True if this build of envpool_x includes MiniGrid and BabyAI."""
    return hasattr(_core, "BabyAI")


# Optional at build time (a CMake option): without it, making an id says how to get it.
register = register_if_built(has_grid_worlds(), BUILD_HINT)
#: EnvPool's agent_start_pos for "random start".
RANDOM_START = (-1, -1)


def decode_mission(mission: np.ndarray) -> str | list[str]:
    """The mission text of one env's ``mission`` bytes, or a list for a batch.

    Returns:
        the UTF-8 text up to the first zero byte (a list of them for a 2-d batch).
    """
    arr = np.asarray(mission, dtype=np.uint8)
    if arr.ndim == 2:
        return [str(decode_mission(row)) for row in arr]
    raw = arr.tobytes()
    end = raw.find(b"\0")
    return (raw if end < 0 else raw[:end]).decode("utf-8")


for _size in (5, 6, 8, 16):
    register(
        f"MiniGrid-Empty-{_size}x{_size}-v0", "MiniGridEmpty", FAMILY, 4 * _size**2, size=_size
    )
for _size in (5, 6):
    register(
        f"MiniGrid-Empty-Random-{_size}x{_size}-v0",
        "MiniGridEmpty",
        FAMILY,
        4 * _size**2,
        size=_size,
        agent_start_pos=RANDOM_START,
        agent_start_dir=-1,
    )
for _size in (5, 6, 8, 16):
    register(
        f"MiniGrid-DoorKey-{_size}x{_size}-v0", "MiniGridDoorKey", FAMILY, 10 * _size**2, size=_size
    )
register("MiniGrid-FourRooms-v0", "MiniGridFourRooms", FAMILY, 100)
for _size in (5, 6, 7):
    register(f"MiniGrid-LavaGapS{_size}-v0", "MiniGridLavaGap", FAMILY, 4 * _size**2, size=_size)
for _kind, _obstacle in (("Lava", "lava"), ("Simple", "wall")):
    for _size, _n in ((9, 1), (9, 2), (9, 3), (11, 5)):
        register(
            f"MiniGrid-{_kind}CrossingS{_size}N{_n}-v0",
            "MiniGridCrossing",
            FAMILY,
            4 * _size**2,
            size=_size,
            num_crossings=_n,
            obstacle_type=_obstacle,
        )
for _name, _row in (("DistShift1", 2), ("DistShift2", 5)):
    register(f"MiniGrid-{_name}-v0", "MiniGridDistShift", FAMILY, 4 * 9 * 7, strip2_row=_row)
for _size in (5, 6, 8):
    register(
        f"MiniGrid-GoToDoor-{_size}x{_size}-v0",
        "MiniGridGoToDoor",
        FAMILY,
        4 * _size**2,
        size=_size,
    )
for _size in (6, 8):
    register(
        f"MiniGrid-RedBlueDoors-{_size}x{_size}-v0",
        "MiniGridRedBlueDoors",
        FAMILY,
        20 * _size**2,
        size=_size,
    )
for _size, _n in ((5, 2), (6, 2), (8, 3)):
    register(
        f"MiniGrid-Fetch-{_size}x{_size}-N{_n}-v0",
        "MiniGridFetch",
        FAMILY,
        5 * _size**2,
        size=_size,
        num_objs=_n,
    )
for _size, _n in ((6, 2), (8, 2)):
    register(
        f"MiniGrid-GoToObject-{_size}x{_size}-N{_n}-v0",
        "MiniGridGoToObject",
        FAMILY,
        5 * _size**2,
        size=_size,
        num_objs=_n,
    )
for _size, _n in ((6, 2), (8, 3)):
    # minigrid's PutNear time limit is 5 * size (not squared).
    register(
        f"MiniGrid-PutNear-{_size}x{_size}-N{_n}-v0",
        "MiniGridPutNear",
        FAMILY,
        5 * _size,
        size=_size,
        num_objs=_n,
    )
for _name, _size, _random in (
    ("MemoryS17Random", 17, True),
    ("MemoryS13Random", 13, True),
    ("MemoryS13", 13, False),
    ("MemoryS11", 11, False),
    ("MemoryS9", 9, False),
    ("MemoryS7", 7, False),
):
    register(
        f"MiniGrid-{_name}-v0",
        "MiniGridMemory",
        FAMILY,
        5 * _size**2,
        size=_size,
        random_length=_random,
    )
register("MiniGrid-Unlock-v0", "MiniGridUnlock", FAMILY, 8 * 6**2)
register("MiniGrid-UnlockPickup-v0", "MiniGridUnlockPickup", FAMILY, 8 * 6**2)
register("MiniGrid-BlockedUnlockPickup-v0", "MiniGridUnlockPickup", FAMILY, 16 * 6**2, blocked=True)
for _size, _rows in ((3, 1), (3, 2), (3, 3), (4, 3), (5, 3), (6, 3)):
    register(
        f"MiniGrid-KeyCorridorS{_size}R{_rows}-v0",
        "MiniGridKeyCorridor",
        FAMILY,
        30 * _size**2,
        room_size=_size,
        num_rows=_rows,
    )
for _name, _min, _max, _size in (
    ("N2-S4", 2, 2, 4),
    ("N4-S5", 6, 6, 5),  # minigrid's -v0 asks for 6 rooms (its -v1 for 4)
    ("N6", 6, 6, 10),
):
    register(
        f"MiniGrid-MultiRoom-{_name}-v0",
        "MiniGridMultiRoom",
        FAMILY,
        _max * 20,
        min_num_rooms=_min,
        max_num_rooms=_max,
        max_room_size=_size,
    )
register(
    "MiniGrid-MultiRoom-N4-S5-v1",
    "MiniGridMultiRoom",
    FAMILY,
    4 * 20,
    min_num_rooms=4,
    max_num_rooms=4,
    max_room_size=5,
)
register("MiniGrid-LockedRoom-v0", "MiniGridLockedRoom", FAMILY, 10 * 19)
register("MiniGrid-Playground-v0", "MiniGridPlayground", FAMILY, 100)
for _name, _size, _n, _random in (
    ("5x5", 5, 2, False),
    ("Random-5x5", 5, 2, True),
    ("6x6", 6, 3, False),
    ("Random-6x6", 6, 3, True),
    ("8x8", 8, 4, False),
    ("16x16", 16, 8, False),
):
    register(
        f"MiniGrid-Dynamic-Obstacles-{_name}-v0",
        "MiniGridDynamicObstacles",
        FAMILY,
        4 * _size**2,
        size=_size,
        n_obstacles=_n,
        agent_start_pos=RANDOM_START if _random else (1, 1),
        agent_start_dir=-1 if _random else 0,
    )
# ObstructedMaze: (name, layout, agent_room, key_in_box, blocked, quarters, rooms visited).
for _name, _layout, _room, _in_box, _blocked, _quarters, _visited in (
    ("1Dl-v0", "1Dlhb", (0, 0), False, False, 1, 2),
    ("1Dlh-v0", "1Dlhb", (0, 0), True, False, 1, 2),
    ("1Dlhb-v0", "1Dlhb", (0, 0), True, True, 1, 2),
    ("2Dl-v0", "Full", (2, 1), False, False, 1, 4),
    ("2Dlh-v0", "Full", (2, 1), True, False, 1, 4),
    ("2Dlhb-v0", "Full", (2, 1), True, True, 1, 4),
    ("1Q-v0", "Full", (1, 1), True, True, 1, 5),
    ("2Q-v0", "Full", (2, 1), True, True, 2, 11),
    ("Full-v0", "Full", (1, 1), True, True, 4, 25),
    ("2Dlhb-v1", "FullV1", (2, 1), True, True, 1, 4),
    ("1Q-v1", "FullV1", (1, 1), True, True, 1, 5),
    ("2Q-v1", "FullV1", (2, 1), True, True, 2, 11),
    ("Full-v1", "FullV1", (1, 1), True, True, 4, 25),
):
    register(
        f"MiniGrid-ObstructedMaze-{_name}",
        "MiniGridObstructedMaze",
        FAMILY,
        4 * _visited * 6**2,
        layout=_layout,
        agent_room=_room,
        key_in_box=_in_box,
        blocked=_blocked,
        num_quarters=_quarters,
    )

#: minigrid 3.2.0's wave function collapse mazes (its WFC_PRESETS), which EnvPool
#: registers: not ported, so making one says why (docs/minigrid.md).
WFC_TASK_IDS = tuple(
    f"MiniGrid-WFC-{name}-v0"
    for name in (
        "MazeSimple",
        "DungeonMazeScaled",
        "RoomsFabric",
        "ObstaclesBlackdots",
        "ObstaclesAngular",
        "ObstaclesHogs3",
    )
)
note_not_ported(
    WFC_TASK_IDS,
    "its layouts come from minigrid's wave function collapse generator (a pattern "
    "solver over the preset's PNG tiles), which envpool_x has not ported to C++; "
    "docs/minigrid.md says more",
)
