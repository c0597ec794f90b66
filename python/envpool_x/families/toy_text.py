"""Toy text: gymnasium 1.4's ids (FrozenLake, Taxi, CliffWalking, Blackjack) and
EnvPool's Taxi-v3, CliffWalking-v0, Catch-v0 and NChain-v0.

gymnasium registers CliffWalking and Blackjack without a time limit, EnvPool
Catch likewise: they get NO_TIME_LIMIT; Blackjack and Catch episodes end by
themselves within a few steps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from envpool_x.families.option_rules import unused_unless
from envpool_x.options import BOOL, Choice, Float, Floats, Int, Option, OptionTable
from envpool_x.registration import (
    NO_TIME_LIMIT,
    Family,
    declare_family,
    register,
    register_alias,
)
from envpool_x.render.toy_text import toy_text_drawer

#: The longest side of a FrozenLake map (C++'s bound).
FROZEN_LAKE_MAX_SIDE = 1 << 15
#: The most cells of a Catch board (C++'s bound).
CATCH_MAX_CELLS = 1 << 24
_DESC = "rows of 'S' (start), 'F' (frozen), 'H' (hole), 'G' (goal)"


def _desc_rows(task_id: str, desc: Any) -> list[str]:
    """FrozenLake's ``desc`` as rows of str, read as C++ reads it: each row a
    str, bytes, or a sequence of characters (gymnasium's char array); None: []."""
    if desc is None:
        return []
    scalar = isinstance(desc, np.ndarray) and desc.ndim == 0
    if isinstance(desc, (str, bytes)) or not isinstance(desc, (Sequence, np.ndarray)) or scalar:
        raise TypeError(
            f"{task_id}: desc expects a sequence of str ({_DESC}), got "
            f"{type(desc).__name__} ({desc!r})"
        )
    rows: list[str] = []
    for i, row in enumerate(desc):
        chars = [row] if isinstance(row, (str, bytes)) else row
        if not isinstance(chars, Iterable):
            chars = [chars]
        text = ""
        for ch in chars:
            if not isinstance(ch, (str, bytes)):
                raise TypeError(
                    f"{task_id}: desc[{i}] is an item of type {type(ch).__name__}: desc "
                    f"expects a sequence of str ({_DESC})"
                )
            text += ch if isinstance(ch, str) else ch.decode("latin-1")
        rows.append(text)
    return rows


def _frozen_lake_map(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
    """One source of the map: ``desc`` (a rectangle of S / F / H / G with a
    start and a goal), else ``size`` (4 or 8), else ``map_name`` (None: a
    random 8x8 map); a key that the source in use ignores is refused."""
    rows = _desc_rows(task_id, config["desc"])
    size, map_name = int(config["size"]), config["map_name"]
    if size not in (0, 4, 8):
        raise ValueError(
            f"{task_id}: size must be 4 or 8 (EnvPool's key; 0: map_name decides), got {size}"
        )
    if rows:
        for key in ("map_name", "size"):
            if key in given and config[key] not in (None, 0):
                raise ValueError(
                    f"{task_id}: {key}={config[key]!r} would be ignored: desc gives the map; "
                    f"leave {key} out"
                )
        _check_desc(task_id, rows)
    elif size and "map_name" in given and map_name != f"{size}x{size}":
        what = "a random map" if map_name is None else f"the {map_name} map"
        raise ValueError(
            f"{task_id}: size={size} contradicts map_name={map_name!r} ({what}); give one of them"
        )


def _check_desc(task_id: str, rows: list[str]) -> None:
    """A rectangle of S / F / H / G, at most FROZEN_LAKE_MAX_SIDE a side, with
    a start (several: one is drawn at each reset) and a goal."""
    if not rows[0] or len(rows) > FROZEN_LAKE_MAX_SIDE or len(rows[0]) > FROZEN_LAKE_MAX_SIDE:
        raise ValueError(
            f"{task_id}: desc rows must be non-empty and at most {FROZEN_LAKE_MAX_SIDE} long, "
            f"with at most {FROZEN_LAKE_MAX_SIDE} rows; got {len(rows)} rows of {len(rows[0])}"
        )
    for row in rows:
        if len(row) != len(rows[0]):
            raise ValueError(
                f"{task_id}: desc rows must all have the same length, got {rows[0]!r} and {row!r}"
            )
        bad = sorted(set(row) - set("SFHG"))
        if bad:
            raise ValueError(
                f"{task_id}: desc may only hold 'S', 'F', 'H', 'G', got {bad[0]!r} in row {row!r}"
            )
    for tile, what in (("S", "start"), ("G", "goal")):
        if not any(tile in row for row in rows):
            raise ValueError(f"{task_id}: desc needs at least one {what} tile {tile!r}: {rows}")


def _catch_cells(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
    """Catch's board: height * width <= CATCH_MAX_CELLS."""
    cells = int(config["height"]) * int(config["width"])
    if cells > CATCH_MAX_CELLS:
        raise ValueError(
            f"{task_id}: height * width = {cells} is more than the {CATCH_MAX_CELLS} cells "
            "a Catch board may have"
        )


_PROBABILITY = Float(0, 1)
#: The declared options of each pool: C++'s own bounds; the map's keys agree;
#: a probability its switch leaves unused is refused rather than ignored.
TOY_TEXT_OPTIONS: dict[str, OptionTable] = {
    "FrozenLake": OptionTable(
        {
            "desc": Option("any", note=f"a list of {_DESC}; [] or None: map_name names it"),
            "is_slippery": BOOL,
            "map_name": Choice("4x4", "8x8", optional=True, note="None: a random 8x8 map"),
            "reward_schedule": Floats(length=(3, 3), note="the goal's, a hole's, a frozen tile's"),
            "size": Int(0, 8, note="EnvPool's key: 4 or 8 names the map, 0: map_name does"),
            "success_rate": Float(0, 1, note="of moving as asked, on ice"),
        },
        (
            _frozen_lake_map,
            unused_unless("is_slippery", ("success_rate",), "the ice is not slippery"),
        ),
    ),
    "Taxi": OptionTable(
        {
            "fickle_passenger": BOOL,
            "fickle_probability": _PROBABILITY,
            "is_rainy": BOOL,
            "rainy_probability": _PROBABILITY,
        },
        (
            unused_unless("is_rainy", ("rainy_probability",), "no rain"),
            unused_unless("fickle_passenger", ("fickle_probability",), "no fickle passenger"),
        ),
    ),
    "CliffWalking": OptionTable({"is_slippery": BOOL}),
    "Blackjack": OptionTable(
        {"natural": BOOL, "sab": BOOL},
        (
            unused_unless(
                "sab", ("natural",), "Sutton and Barto's rules pay a natural 1", when=False
            ),
        ),
    ),
    "Catch": OptionTable(
        {"height": Int(2, CATCH_MAX_CELLS), "width": Int(1, CATCH_MAX_CELLS // 2)},
        (_catch_cells,),
    ),
    "NChain": OptionTable(
        {
            "large": Float(note="the reward at the chain's end"),
            "n": Int(1, 1 << 30),
            "slip": Float(0, 1, note="the probability of the other action"),
            "small": Float(note="the reward of going back"),
        }
    ),
}

declare_family(Family("toy_text", renderer=toy_text_drawer, options=TOY_TEXT_OPTIONS))


def _frozen_lake_random_map(config: dict[str, Any]) -> None:
    """gymnasium's ``map_name=None`` (without desc): a random 8x8 map from
    gymnasium's own generator, seeded by the pool's seed so that a config
    reproduces its map. One map serves the whole pool."""
    if config.get("desc") is None:
        config["desc"] = []
    if config.get("map_name") is not None:
        return
    if len(config["desc"]) == 0:
        from gymnasium.envs.toy_text.frozen_lake import generate_random_map

        seed = config["seed"] if isinstance(config["seed"], int) else int(config["seed"][0])
        config["desc"] = generate_random_map(size=8, seed=seed % 2**32)
    config["map_name"] = "8x8"  # unused when desc is given


register(
    "FrozenLake-v1",
    "FrozenLake",
    "toy_text",
    100,
    0.70,
    resolve=_frozen_lake_random_map,
    map_name="4x4",
)
register(
    "FrozenLake8x8-v1",
    "FrozenLake",
    "toy_text",
    200,
    0.85,
    resolve=_frozen_lake_random_map,
    map_name="8x8",
)
register("Taxi-v4", "Taxi", "toy_text", 200, 8.0)
register("Taxi-v3", "Taxi", "toy_text", 200, 8.0)
register("CliffWalking-v1", "CliffWalking", "toy_text", NO_TIME_LIMIT)
register("CliffWalkingSlippery-v1", "CliffWalking", "toy_text", NO_TIME_LIMIT, is_slippery=True)
register("CliffWalking-v0", "CliffWalking", "toy_text", NO_TIME_LIMIT)
register(
    "Blackjack-v1",
    "Blackjack",
    "toy_text",
    NO_TIME_LIMIT,
    obs_tuple=True,  # gymnasium's Tuple(Discrete(32), Discrete(11), Discrete(2))
    sab=True,
    natural=False,
)
register("Catch-v0", "Catch", "toy_text", NO_TIME_LIMIT)
register("NChain-v0", "NChain", "toy_text", 1000)

# gymnasium's functional (jax) ids, as EnvPool 1.2.7 accepts them: the same
# rules as these ids; docs/toy_text.md says how gymnasium's own spaces differ.
register_alias("tabular/CliffWalking-v0", "CliffWalking-v1")
register_alias("tabular/Blackjack-v0", "Blackjack-v1")
