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
from envpool_x.registration import Family, FamilyMemory, KiB, declare_family, register

# ALE's emulator, ROM copy and screens (measured); plus the frame stack and a
# frame being resized: two observations' worth.
declare_family(Family("atari", memory=FamilyMemory(env_resident=780 * KiB, heap_observations=2)))

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
    """
    for rom_id in _core.atari_rom_ids():
        register(
            f"{rom_id_to_task_name(rom_id)}-v5",
            "Atari",
            "atari",
            27000,
            resolve=resolve_config,
            task=rom_id,
        )


# The family is optional at build time (a CMake option).
if hasattr(_core, "Atari"):
    register_atari_tasks()
