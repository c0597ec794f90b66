"""The declared options of the grid worlds (MiniGrid and BabyAI), checked when a
spec is made (:mod:`envpool_x.options`).

The ranges are the C++ envs' own (cpp/envs/minigrid/), declared here so that a
bad value is refused with its key and range before C++ narrows it, together
with what C++ accepted silently: a start direction that a random start ignores,
more obstacles than minigrid places, keys a BabyAI level does not read (its
minigrid class fixes them), a level other than the task id's, and the counts
with which a level's generator cannot place its objects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envpool_x import _core
from envpool_x.envpool_names import EnvPoolNames, Unsupported
from envpool_x.options import BOOL, Choice, Int, Ints, Option, OptionTable, Relation, ordered
from envpool_x.registration import lookup

#: The largest mission buffer (bytes); the C++ envs also need the longest mission to fit.
MAX_MISSION_BYTES = 4096
#: minigrid's colour names (BabyAI's first_color / second_color; "" draws one).
COLORS = ("red", "green", "blue", "purple", "yellow", "grey")

_COMMON: dict[str, Option] = {
    "agent_view_size": Int(3, 63, odd=True, note="the side of the egocentric view"),
    "mission_bytes": Int(1, MAX_MISSION_BYTES, note="at least the longest mission"),
}
_START: dict[str, Option] = {
    "agent_start_pos": Ints(-1, 127, length=(2, 2), note="(x, y) inside the walls, or (-1, -1)"),
    "agent_start_dir": Int(-1, 3, note="0..3, or -1 with a random start"),
}


def _start_pose(width_key: str, height_key: str) -> Relation:
    """A start (x, y) inside the walls with a direction in 0..3, or (-1, -1)
    (random) whose direction is drawn too: a given direction other than -1
    would be ignored."""

    def check(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
        x, y = (int(v) for v in config["agent_start_pos"])
        width, height = int(config[width_key]), int(config[height_key])
        direction = int(config["agent_start_dir"])
        if (x, y) == (-1, -1):
            if "agent_start_dir" in given and direction != -1:
                raise ValueError(
                    f"{task_id}: agent_start_dir={direction} would be ignored: a random start "
                    "(agent_start_pos (-1, -1)) draws the direction too; give -1, or a position"
                )
            return
        if not (1 <= x <= width - 2 and 1 <= y <= height - 2):
            raise ValueError(
                f"{task_id}: agent_start_pos ({x}, {y}) is not inside the walls: x must be in "
                f"[1, {width - 2}] and y in [1, {height - 2}] (or (-1, -1) for a random start)"
            )
        if direction == -1:
            raise ValueError(
                f"{task_id}: agent_start_dir=-1 (random) needs a random start, agent_start_pos "
                f"(-1, -1); got ({x}, {y}): give a direction in 0..3"
            )

    return check


def _at_most(key: str, bound: Any, why: str) -> Relation:
    """``config[key] <= bound(config)``."""

    def check(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
        most = int(bound(config))
        if int(config[key]) > most:
            raise ValueError(
                f"{task_id}: {key}={config[key]} is more than {most} ({why}); give at most {most}"
            )

    return check


def _table(options: dict[str, Option], *relations: Relation) -> OptionTable:
    return OptionTable({**_COMMON, **options}, relations)


#: The declared options of each MiniGrid pool.
MINIGRID_OPTIONS: dict[str, OptionTable] = {
    "MiniGridEmpty": _table({"size": Int(4, 128), **_START}, _start_pose("size", "size")),
    "MiniGridDistShift": _table(
        {"width": Int(7, 128), "height": Int(4, 128), "strip2_row": Int(1, 126), **_START},
        _at_most("strip2_row", lambda c: c["height"] - 2, "the last row inside the walls"),
        _start_pose("width", "height"),
    ),
    "MiniGridDynamicObstacles": _table(
        {"size": Int(4, 128), "n_obstacles": Int(0, 65), **_START},
        _at_most(
            "n_obstacles",
            lambda c: c["size"] // 2 + 1,
            "minigrid places size // 2 + 1 at most and would silently use size // 2",
        ),
        _start_pose("size", "size"),
    ),
    "MiniGridCrossing": _table(
        {
            "size": Int(5, 127, odd=True),
            "num_crossings": Int(0, 126),
            "obstacle_type": Choice("lava", "wall"),
        },
        _at_most("num_crossings", lambda c: 2 * (c["size"] // 2 - 1), "the rivers of its size"),
    ),
    "MiniGridDoorKey": _table({"size": Int(5, 128)}),
    "MiniGridFetch": _table({"size": Int(4, 128), "num_objs": Int(1, 128 * 128)}),
    "MiniGridGoToDoor": _table({"size": Int(5, 128)}),
    "MiniGridGoToObject": _table({"size": Int(4, 128), "num_objs": Int(1, 18)}),
    "MiniGridPutNear": _table({"size": Int(5, 128), "num_objs": Int(2, 18)}),
    "MiniGridRedBlueDoors": _table({"size": Int(3, 128)}),
    "MiniGridKeyCorridor": _table({"room_size": Int(3, 32), "num_rows": Int(1, 16)}),
    "MiniGridLavaGap": _table({"size": Int(5, 128), "obstacle_type": Choice("lava", "wall")}),
    "MiniGridLockedRoom": _table({"size": Int(13, 128)}),
    "MiniGridMemory": _table({"size": Int(7, 127, odd=True), "random_length": BOOL}),
    "MiniGridMultiRoom": _table(
        {"min_num_rooms": Int(1, 32), "max_num_rooms": Int(1, 32), "max_room_size": Int(4, 24)},
        ordered("min_num_rooms", "max_num_rooms"),
    ),
    "MiniGridObstructedMaze": _table(
        {
            "layout": Choice("1Dlhb", "Full", "FullV1"),
            "agent_room": Ints(0, 2, length=(2, 2), note="(i, j), a room of the 3 x 3 maze"),
            "key_in_box": BOOL,
            "blocked": BOOL,
            "num_quarters": Int(1, 4),
        }
    ),
    "MiniGridFourRooms": _table({}),
    "MiniGridPlayground": _table({}),
    "MiniGridUnlock": _table({}),
    "MiniGridUnlockPickup": _table({"blocked": BOOL}),
}

# The keys each BabyAI level reads beyond level, agent_view_size and
# mission_bytes: its minigrid class's own arguments. The others keep the task's
# values (the class fixes them, or the level never reads them).
_ROOM = {"room_size"}
_GRID = {"room_size", "num_rows", "num_cols"}
LEVEL_KEYS: dict[str, frozenset[str]] = {
    name: frozenset(keys)
    for name, keys in {
        "GoToRedBallGrey": _ROOM | {"num_dists"},
        "GoToRedBall": _ROOM | {"num_dists"},
        "GoToRedBlueBall": _ROOM | {"num_dists"},
        "GoToObj": _ROOM,
        "GoToLocal": _ROOM | {"num_dists"},
        "GoTo": _GRID | {"num_dists", "doors_open"},
        "GoToImpUnlock": set(),
        "GoToDoor": set(),
        "GoToObjDoor": set(),
        "GoToSeq": _GRID | {"num_dists"},
        "Open": set(),
        "OpenRedDoor": set(),
        "OpenDoor": {"debug", "select_by"},
        "OpenTwoDoors": {"first_color", "second_color", "strict"},
        "OpenDoorsOrder": {"num_doors", "debug"},
        "Pickup": set(),
        "UnblockPickup": set(),
        "PickupLoc": set(),
        "PickupDist": {"debug"},
        "PickupAbove": set(),
        "PutNextLocal": _ROOM | {"num_objs"},
        "PutNext": _ROOM | {"objs_per_room", "start_carrying"},
        "MoveTwoAcross": _ROOM | {"objs_per_room"},
        "Unlock": set(),
        "UnlockLocal": {"distractors"},
        "KeyInBox": set(),
        "UnlockPickup": {"distractors"},
        "BlockedUnlockPickup": set(),
        "UnlockToUnlock": set(),
        "ActionObjDoor": set(),
        "FindObj": _ROOM,
        "KeyCorridor": _ROOM | {"num_rows"},
        "OneRoom": _ROOM,
        "Synth": _GRID | {"num_dists"},
        "SynthLoc": set(),
        "SynthSeq": set(),
        "MiniBossLevel": set(),
        "BossLevel": set(),
        "BossLevelNoUnlock": set(),
    }.items()
}
# Per level, the least value of a count below which its generator cannot pick
# its target (GoTo / GoToLocal draw it among the distractors; MoveTwoAcross
# moves two objects of each room).
_LEVEL_MINIMUM: dict[str, dict[str, int]] = {
    "GoTo": {"num_dists": 1},
    "GoToLocal": {"num_dists": 1},
    "MoveTwoAcross": {"objs_per_room": 2},
}


def _level_keys(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
    """The task id's level, with only the keys that level reads changed."""
    defaults = {**_core.BabyAI.default_config(), **lookup(task_id).env_defaults}
    level = config["level"]
    if "level" in given and level != defaults["level"]:
        raise ValueError(
            f"{task_id}: level={level!r} contradicts the task id, whose level is "
            f"{defaults['level']!r}; make the id of that level instead"
        )
    own = LEVEL_KEYS[level]
    for key in sorted(given & set(defaults) - own - set(_COMMON) - {"level"}):
        if config[key] != defaults[key]:
            raise ValueError(
                f"{task_id}: the {level} level does not read {key} (it keeps "
                f"{key}={defaults[key]!r}); its options are {sorted(own | set(_COMMON))}"
            )
    for key, least in _LEVEL_MINIMUM.get(level, {}).items():
        if int(config[key]) < least:
            raise ValueError(
                f"{task_id}: the {level} level needs {key} >= {least}, got {config[key]}"
            )


#: The declared options of the BabyAI pool.
BABYAI_OPTIONS: dict[str, OptionTable] = {
    "BabyAI": OptionTable(
        {
            "level": Choice(*LEVEL_KEYS),
            "room_size": Int(3, 32),
            "num_rows": Int(1, 8),
            "num_cols": Int(1, 8),
            "num_dists": Int(0, 64),
            "num_objs": Int(2, 18),
            "objs_per_room": Int(1, 9),
            "num_doors": Int(2, 4),
            "doors_open": BOOL,
            "debug": BOOL,
            "strict": BOOL,
            "start_carrying": BOOL,
            "distractors": BOOL,
            "select_by": Choice("", "color", "loc"),
            "first_color": Choice("", *COLORS),
            "second_color": Choice("", *COLORS),
            "agent_view_size": _COMMON["agent_view_size"],
            "mission_bytes": Int(64, MAX_MISSION_BYTES, note="at least the longest mission"),
        },
        (_level_keys,),
    )
}

#: The keys of EnvPool's MiniGrid config (1.2.5 and 1.2.7), one for every
#: MiniGrid and BabyAI level: a key of it that a level here lacks does not apply
#: to that level (:mod:`envpool_x.envpool_names`).
ENVPOOL_GRID_KEYS = (
    "action_kinds", "action_max", "agent_room", "agent_start_dir", "agent_start_pos",
    "agent_view_size", "blocked", "debug", "distractors", "doors_open", "ensure_connected",
    "env_name", "first_color", "height", "implicit_unlock", "instr_kinds", "key_in_box",
    "locations", "locked_room_prob", "max_num_rooms", "max_room_size", "min_num_rooms",
    "mission_bytes", "n_obstacles", "num_cols", "num_crossings", "num_dists", "num_doors",
    "num_objs", "num_quarters", "num_rooms_visited", "num_rows", "obj_type", "objs_per_room",
    "obstacle_type", "random_length", "room_size", "second_color", "select_by", "size",
    "start_carrying", "strict", "strip2_row", "unblocking", "wfc_preset", "width",
)  # fmt: skip
_OTHER_LEVEL = Unsupported(
    "this level does not read it (EnvPool's MiniGrid and BabyAI levels share one config with "
    "every level's keys; each task here takes its own level's: envpool-x info <id> lists them)"
)
#: EnvPool's grid keys of each pool (those a level has are its own, not these).
GRID_ENVPOOL_NAMES: dict[str, EnvPoolNames] = {
    pool: EnvPoolNames(dict.fromkeys(ENVPOOL_GRID_KEYS, _OTHER_LEVEL))
    for pool in (*MINIGRID_OPTIONS, *BABYAI_OPTIONS)
}
