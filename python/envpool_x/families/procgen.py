"""Procgen (16 games, EnvPool's 50 ids) on procgen's own compiled engine.

Each env is a handle of procgen's ``libenv.so`` (the gym3 libenv C API), the
library of the pinned procgen wheel, fetched at build time with its sprites
(cmake/procgen.cmake) and installed as ``envpool_x/procgen_data``. The ids exist
only in builds with ``ENVPOOL_X_PROCGEN`` on (the default); docs/procgen.md
lists the keys, the seeding and the differences from EnvPool.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from envpool_x import _core
from envpool_x.families.option_rules import task_defaults
from envpool_x.options import BOOL, TEXT, Int, Option, OptionTable
from envpool_x.registration import (
    Family,
    FamilyMemory,
    KiB,
    declare_family,
    note_not_built,
    register,
)

_INT32_MAX = 2**31 - 1

#: Procgen's distribution modes by name; "exploration" is hard mode on one
#: fixed level per game (procgen's Python env does the same).
DISTRIBUTION_MODES = {"easy": 0, "hard": 1, "extreme": 2, "memory": 10, "exploration": 20}
EXPLORATION = DISTRIBUTION_MODES["exploration"]

#: (game, step limit, modes): procgen 0.10.7's games, the step limit each game
#: ends an episode at, and the modes EnvPool registers an id for.
GAMES: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    ("bigfish", 6000, ("easy", "hard")),
    ("bossfight", 4000, ("easy", "hard")),
    ("caveflyer", 1000, ("easy", "hard", "memory", "exploration")),
    ("chaser", 1000, ("easy", "hard", "extreme")),
    ("climber", 1000, ("easy", "hard", "exploration")),
    ("coinrun", 1000, ("easy", "hard", "exploration")),
    ("dodgeball", 1000, ("easy", "hard", "extreme", "memory")),
    ("fruitbot", 1000, ("easy", "hard")),
    ("heist", 1000, ("easy", "hard", "memory", "exploration")),
    ("jumper", 1000, ("easy", "hard", "memory", "exploration")),
    ("leaper", 500, ("easy", "hard", "extreme", "exploration")),
    ("maze", 500, ("easy", "hard", "memory", "exploration")),
    ("miner", 1000, ("easy", "hard", "memory")),
    ("ninja", 1000, ("easy", "hard", "exploration")),
    ("plunder", 4000, ("easy", "hard")),
    ("starpilot", 1000, ("easy", "hard", "extreme")),
)

#: The one level each game's exploration mode plays (procgen's own table).
EXPLORATION_LEVEL_SEEDS = {
    "coinrun": 1949448038,
    "caveflyer": 1259048185,
    "leaper": 1318677581,
    "jumper": 1434825276,
    "maze": 158988835,
    "heist": 876640971,
    "climber": 1561126160,
    "ninja": 1123500215,
}

#: The environment variable naming a folder with procgen's prebuilt/libenv.so
#: and assets/ (the layout of the wheel's procgen/data), used before the
#: copy installed with the package.
DATA_DIR_VARIABLE = "ENVPOOL_X_PROCGEN_DIR"


def task_id(game: str, mode: str) -> str:
    """EnvPool's id of ``game`` in ``mode``: ``("coinrun", "hard")`` -> ``"CoinrunHard-v0"``."""
    return f"{game.capitalize()}{mode.capitalize()}-v0"


def data_dir() -> Path:
    """Return the folder holding procgen's ``prebuilt/libenv.so`` and ``assets/``.

    Looked up in order: ``$ENVPOOL_X_PROCGEN_DIR``, ``envpool_x/procgen_data``
    (installed with the package), the build folder this module was built in.

    Raises:
        FileNotFoundError: none of them holds the library (the message says
            where it looked and how to get it).
    """
    candidates = []
    if os.environ.get(DATA_DIR_VARIABLE):
        candidates.append(Path(os.environ[DATA_DIR_VARIABLE]))
    candidates.append(Path(__file__).resolve().parent.parent / "procgen_data")
    candidates.append(Path(getattr(_core, "procgen_build_dir", "")))
    for folder in candidates:
        if (folder / "prebuilt" / "libenv.so").is_file() and (folder / "assets").is_dir():
            return folder
    looked = ", ".join(str(c) for c in candidates)
    raise FileNotFoundError(
        f"procgen's library (prebuilt/libenv.so and assets/) was not found in {looked}; "
        "it comes from the procgen wheel at build time (docs/procgen.md): reinstall "
        f"envpool_x, or set {DATA_DIR_VARIABLE} to an unpacked wheel's procgen/data folder"
    )


def _mode_code(value: Any) -> int:
    """A distribution mode given by name (procgen's) or code (EnvPool's)."""
    if isinstance(value, str):
        if value not in DISTRIBUTION_MODES:
            raise ValueError(
                f"distribution_mode {value!r} is not one of {sorted(DISTRIBUTION_MODES)}"
            )
        return DISTRIBUTION_MODES[value]
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"distribution_mode must be a str or an int, got {type(value).__name__}")
    if value not in DISTRIBUTION_MODES.values():
        raise ValueError(
            f"distribution_mode {value} is not one of {sorted(DISTRIBUTION_MODES.values())}"
        )
    return value


def _mode_fixed_by_task_id(task: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
    """A relation: ``distribution_mode`` (by name or code) is the task id's;
    ``env_name`` is the id's game."""
    own = task_defaults(task)
    if "distribution_mode" in given:
        mode = _mode_code(config["distribution_mode"])
        if mode != own["distribution_mode"]:
            raise ValueError(
                f"{task}: distribution_mode={config['distribution_mode']!r} contradicts the "
                f"task id; make the id of that mode instead"
            )
    if "env_name" in given and config["env_name"] != own["env_name"]:
        raise ValueError(
            f"{task}: env_name={config['env_name']!r} contradicts the task id, whose game is "
            f"{own['env_name']!r}"
        )


def _resolve(config: dict[str, Any]) -> None:
    """Fill the library's paths and turn exploration mode into what it is:
    hard mode on the game's one exploration level."""
    mode = _mode_code(config["distribution_mode"])
    if mode == EXPLORATION:
        if config["num_levels"] != 0 or config["start_level"] != 0:
            raise ValueError(
                "exploration mode plays one fixed level: it sets num_levels and start_level "
                "itself (leave them at 0)"
            )
        config["num_levels"] = 1
        config["start_level"] = EXPLORATION_LEVEL_SEEDS[config["env_name"]]
        mode = DISTRIBUTION_MODES["hard"]
    config["distribution_mode"] = mode
    if not config.get("library_path") or not config.get("resource_root"):
        folder = data_dir()
        config["library_path"] = config.get("library_path") or str(
            folder / "prebuilt" / "libenv.so"
        )
        config["resource_root"] = config.get("resource_root") or str(folder / "assets")
    config["resource_root"] = _checked_resource_root(config["resource_root"])


#: The sprite folders procgen loads from its resource root (a missing sprite
#: makes procgen end the process, so the root is checked before).
SPRITE_FOLDERS = (
    "kenney",
    "misc_assets",
    "platform_backgrounds",
    "platformer",
    "space_backgrounds",
    "topdown_backgrounds",
    "water_backgrounds",
)
_roots_in_use: list[str] = []


def _checked_resource_root(root: str) -> str:
    """``root`` as procgen reads it (ending in a separator), checked.

    Raises:
        ValueError: ``root`` lacks procgen's sprite folders, or differs from the
            root this process already uses (procgen loads its sprites once per
            process, from the first root it is given).
    """
    missing = [f for f in SPRITE_FOLDERS if not (Path(root) / f).is_dir()]
    if missing:
        raise ValueError(
            f"resource_root {root!r} is not procgen's assets folder (no {', '.join(missing)})"
        )
    root = root if root.endswith(os.sep) else root + os.sep
    if _roots_in_use and _roots_in_use[0] != root:
        raise ValueError(
            f"resource_root {root!r}: this process already uses procgen's sprites from "
            f"{_roots_in_use[0]!r} (procgen loads them once per process)"
        )
    _roots_in_use.append(root)
    del _roots_in_use[1:]
    return root


PROCGEN_OPTIONS: dict[str, OptionTable] = {
    "Procgen": OptionTable(
        {
            "env_name": TEXT,
            "distribution_mode": Option("any", note="easy, hard, extreme, memory, exploration"),
            "num_levels": Int(0, _INT32_MAX, note="0: every level"),
            "start_level": Int(0, _INT32_MAX),
            "use_sequential_levels": BOOL,
            "center_agent": BOOL,
            "use_backgrounds": BOOL,
            "use_monochrome_assets": BOOL,
            "restrict_themes": BOOL,
            "use_generated_assets": BOOL,
            "paint_vel_info": BOOL,
            "use_easy_jump": BOOL,
            "channel_first": BOOL,
            "library_path": TEXT,
            "resource_root": TEXT,
        },
        (_mode_fixed_by_task_id,),
    )
}

# One env: procgen's game object and its libenv handle (each game keeps its own
# mirrored copies of its sprites). RSS growth per env of 512-env pools after 30
# steps: CoinrunHard 1068 KiB, MazeHard 358, StarpilotEasy 251, BigfishEasy 211;
# the largest is the family's, coinrun's platformers among the others.
FAMILY = declare_family(
    Family("procgen", memory=FamilyMemory(env_resident=1088 * KiB), options=PROCGEN_OPTIONS)
).name

BUILD_HINT = (
    "this envpool_x was built without the Procgen family (ENVPOOL_X_PROCGEN=OFF, or the "
    "procgen wheel could not be fetched): rebuild with -DENVPOOL_X_PROCGEN=ON "
    "(pip: --config-settings=cmake.define.ENVPOOL_X_PROCGEN=ON)"
)
TASK_IDS = tuple(task_id(game, mode) for game, _, modes in GAMES for mode in modes)


def has_procgen() -> bool:
    """Return True if this build of envpool_x includes the Procgen family."""
    return hasattr(_core, "Procgen")


def register_procgen_tasks() -> None:
    """Register EnvPool's 50 ``<Game><Mode>-v0`` ids with each game's step limit."""
    for game, timeout, modes in GAMES:
        for mode in modes:
            register(
                task_id(game, mode),
                "Procgen",
                FAMILY,
                timeout,
                resolve=_resolve,
                env_name=game,
                distribution_mode=DISTRIBUTION_MODES[mode],
            )


if has_procgen():
    register_procgen_tasks()
else:
    note_not_built(TASK_IDS, BUILD_HINT)
