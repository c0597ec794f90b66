"""The Atari family: task ids and ROM paths.

ALE's emulator is compiled into ``envpool_x._core`` (from the ale-py source
distribution of :data:`ALE_VERSION`); the ROMs come at run time from the
installed ale-py of the same version, which the ``atari`` extra installs
(``pip install 'envpool-x[atari]'``). It is an extra, not a hard dependency:
the other families do not need it, and importing ale_py is slow, so it is only
imported when an Atari env is made.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any

from envpool_x import _core
from envpool_x.families.option_rules import fixed_by_task_id
from envpool_x.options import BOOL, TEXT, Float, Int, OptionTable
from envpool_x.registration import (
    Family,
    FamilyMemory,
    KiB,
    declare_family,
    list_all_envs,
    note_not_ported,
    register,
    register_alias,
)

_INT32_MAX = 2**31 - 1
#: The largest side of a resized frame (ALE's screen is 210 x 160).
MAX_IMAGE_SIDE = 1024
#: The most frames a step may emulate, and the deepest frame stack.
MAX_FRAME_SKIP = 1000
MAX_STACK_NUM = 1024


def _game_id(rom_id: Any) -> str | None:
    """The registered id of the ROM ``rom_id`` (None: no registered id plays it)."""
    task_id = f"{rom_id_to_task_name(str(rom_id))}-v5"
    return task_id if task_id in list_all_envs() else None


#: The declared options of the Atari pool (EnvPool's keys): the bounds C++
#: checks, sides and stacks within what its resizer and frame stack are made
#: for, and the game fixed by the task id. ``mode`` and ``difficulty`` are
#: checked against the ROM's own by C++ when the spec is made.
ATARI_OPTIONS: dict[str, OptionTable] = {
    "Atari": OptionTable(
        {
            "task": TEXT,
            "rom_path": TEXT,
            "stack_num": Int(1, MAX_STACK_NUM, note="frames stacked in an observation"),
            "frame_skip": Int(1, MAX_FRAME_SKIP, note="emulator frames per step"),
            "noop_max": Int(0, _INT32_MAX - 1, note="the most no-op actions after a reset"),
            "episodic_life": BOOL,
            "zero_discount_on_life_loss": BOOL,
            "reward_clip": BOOL,
            "use_fire_reset": BOOL,
            "img_height": Int(1, MAX_IMAGE_SIDE),
            "img_width": Int(1, MAX_IMAGE_SIDE),
            "gray_scale": BOOL,
            "use_inter_area_resize": BOOL,
            "repeat_action_probability": Float(0, 1, note="sticky actions"),
            "full_action_space": BOOL,
            "mode": Int(-1, _INT32_MAX, note="-1: the game's default; else one of the ROM's"),
            "difficulty": Int(-1, _INT32_MAX, note="-1: the game's default; else one of the ROM's"),
        },
        (fixed_by_task_id("task", _game_id),),
    )
}

# ALE's emulator, ROM copy and screens (measured); plus the frame stack and a
# frame being resized: two observations' worth.
declare_family(
    Family(
        "atari",
        memory=FamilyMemory(env_resident=780 * KiB, heap_observations=2),
        options=ATARI_OPTIONS,
    )
)

#: The ale-py release the C++ core is built from and whose ROMs are used.
ALE_VERSION = "0.12.1"
INSTALL_HINT = f"pip install 'envpool-x[atari]' (or: pip install ale-py=={ALE_VERSION})"


def has_atari() -> bool:
    """Return True if this build of envpool_x includes the Atari family."""
    return hasattr(_core, "Atari")


def rom_id_to_task_name(rom_id: str) -> str:
    """Return the CamelCase game name of an ALE ROM id, as ale-py names them.

    ``"pong"`` -> ``"Pong"``, ``"montezuma_revenge"`` -> ``"MontezumaRevenge"``,
    ``"tic_tac_toe_3d"`` -> ``"TicTacToe3D"``.
    """
    return rom_id.title().replace("_", "")


def envpool_task_name(rom_id: str) -> str:
    """Return EnvPool's CamelCase name of an ALE ROM id: each ``_``-separated
    piece capitalized (``"tic_tac_toe_3d"`` -> ``"TicTacToe3d"``, where ale-py's
    is ``"TicTacToe3D"``)."""
    return "".join(piece.capitalize() for piece in rom_id.split("_"))


@functools.cache
def rom_path(rom_id: str) -> str:
    """Return the path of the ROM ``rom_id`` in the installed ale-py.

    Raises:
        ImportError: ale-py is not installed (the message says what to install).
        ValueError: the installed ale-py has no valid ROM of that name.
    """
    try:
        import ale_py.roms
    except ImportError as e:
        raise ImportError(
            f"Atari envs need the ROMs of ale-py {ALE_VERSION}, which is not installed: "
            f"{INSTALL_HINT}"
        ) from e
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            path = ale_py.roms.get_rom_path(rom_id)
    except OSError as e:
        raise ValueError(
            f"the ROM {rom_id!r} of the installed ale-py is missing or damaged ({e}); "
            f"reinstall it: {INSTALL_HINT}"
        ) from e
    if path is None or not path.is_file():
        version = getattr(ale_py, "__version__", "?")
        raise ValueError(
            f"the installed ale-py {version} has no ROM {rom_id!r}; envpool_x was built with "
            f"ALE {ALE_VERSION}: {INSTALL_HINT}"
        )
    return str(path)


def resolve_config(config: dict[str, Any]) -> None:
    """Fill ``config["rom_path"]`` from the installed ale-py unless it is given.

    Raises:
        ImportError / ValueError: see :func:`rom_path`.
    """
    if not config.get("rom_path"):
        config["rom_path"] = rom_path(config["task"])


def register_atari_tasks() -> None:
    """Register ``<Game>-v5`` for every ROM of the ALE this module was built with.

    The ROM ids come from the module itself (generated from the ale-py sdist at
    build time), so registering needs neither ale_py nor any hard-coded list.
    Where EnvPool names the game otherwise (``TicTacToe3d-v5``), its id is an
    alias of ours (:func:`envpool_task_name`).
    """
    for rom_id in _core.atari_rom_ids():
        task_id = f"{rom_id_to_task_name(rom_id)}-v5"
        register(task_id, "Atari", "atari", 27000, resolve=resolve_config, task=rom_id)
        envpool_id = f"{envpool_task_name(rom_id)}-v5"
        if envpool_id != task_id:
            register_alias(envpool_id, task_id)


#: EnvPool's multi-player games: ale-py ships their ROMs, this build does not play them.
MULTI_PLAYER_TASK_IDS = ("Combat-v5", "Joust-v5", "MazeCraze-v5", "Warlords-v5")

# The family is optional at build time (a CMake option).
if hasattr(_core, "Atari"):
    register_atari_tasks()
    note_not_ported(
        [task_id for task_id in MULTI_PLAYER_TASK_IDS if task_id not in list_all_envs()],
        "a multi-player game (EnvPool's rows of players); it waits for multi-agent Atari "
        "pools, docs/differences.md",
    )
