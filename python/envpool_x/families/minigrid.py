"""MiniGrid (``minigrid==3.2.0``'s grid worlds) in C++: cpp/envs/minigrid/.

Observations use EnvPool 1.2.5's names: ``direction`` (0..3), ``image`` (the
7 x 7 x 3 egocentric encoding) and ``mission`` (the mission string as
zero-padded UTF-8 bytes; :func:`decode_mission` turns it back into text).
``info["mission_id"]`` is the mission's index in the task's mission list and
``info["agent_pos"]`` the agent's (x, y). Each id's time limit is minigrid's
``max_steps``, which the success reward ``1 - 0.9 * step_count / max_steps``
reads too. docs/minigrid.md lists the ids and what is not done yet.
"""

from __future__ import annotations

import numpy as np

from envpool_x.registration import register

FAMILY = "minigrid"
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
