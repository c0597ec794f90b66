"""Craftax (craftax 1.6.1's JAX games) in C++: Craftax-Classic, symbolic and pixels.

The game is our own C++ (cpp/envs/craftax/); worlds come from each env's seed
stream, so they differ from Craftax's for the same seed, while a step given the
same state and the same random draws matches Craftax's step exactly
(tests/families/test_craftax_classic.py). The pixel view is drawn in C++ with
Craftax's textures, read from the installed craftax package when an env is
made (craftax_textures.py). EnvPool's ``-AutoReset`` ids are the same envs
with ``autoreset_mode="same_step"``; the gymnasium front end adds EnvPool's
``Achievements/<name>`` and ``score`` info keys. The ids exist only in builds
with ``ENVPOOL_X_CRAFTAX`` on (the default).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool_x import _core
from envpool_x.options import BOOL, Float, Int, OptionTable
from envpool_x.registration import Family, declare_family, note_not_built, register, register_alias

_INT30 = 2**30

_CLASSIC_OPTIONS = OptionTable(
    {
        "day_length": Int(1, _INT30),
        "always_diamond": BOOL,
        "zombie_health": Int(1, _INT30),
        "cow_health": Int(1, _INT30),
        "skeleton_health": Int(1, _INT30),
        "mob_despawn_distance": Int(1, _INT30),
        "spawn_cow_chance": Float(0.0, 1.0),
        "spawn_zombie_base_chance": Float(0.0, 1.0),
        "spawn_zombie_night_chance": Float(0.0, 1.0),
        "spawn_skeleton_chance": Float(0.0, 1.0),
        # EnvPool's name: render()'s pixels a cell (the observation's are 7).
        "render_tile_size": Int(6, 64),
    }
)
CRAFTAX_OPTIONS: dict[str, OptionTable] = {
    "CraftaxClassic": _CLASSIC_OPTIONS,
    "CraftaxClassicPixels": _CLASSIC_OPTIONS,
}
#: Craftax's achievements, in its order (the engine's ``achievements`` columns).
ACHIEVEMENTS = (
    "collect_wood",
    "place_table",
    "eat_cow",
    "collect_sapling",
    "collect_drink",
    "make_wood_pickaxe",
    "make_wood_sword",
    "place_plant",
    "defeat_zombie",
    "collect_stone",
    "place_stone",
    "eat_plant",
    "defeat_skeleton",
    "make_stone_pickaxe",
    "make_stone_sword",
    "wake_up",
    "place_furnace",
    "collect_coal",
    "collect_iron",
    "collect_diamond",
    "make_iron_pickaxe",
    "make_iron_sword",
)
_ACHIEVEMENT_KEYS = tuple(f"Achievements/{name}" for name in ACHIEVEMENTS)


def add_achievement_info(result: Any) -> None:
    """EnvPool's (and Craftax's ``compute_score``) info keys, added to a
    gymnasium result's info: ``Achievements/<name>``, 100.0 for each
    achievement the episode unlocked, on the step that ends it (0 on every
    other step), and ``score``, their geometric mean offset by 1:
    ``exp(mean(log(1 + a))) - 1``, all float32. In ``same_step`` mode the ended
    episode's achievements come from ``final_info``, as EnvPool's -AutoReset
    ids give them on that step."""
    _, _, terminated, truncated, info = result
    unlocked = info["achievements"]
    ended = np.logical_or(terminated, truncated)
    final = info.get("final_info")
    if isinstance(final, dict) and "achievements" in final:
        unlocked = np.where(info["_final_info"][:, None], final["achievements"], unlocked)
    scaled = unlocked.astype(np.float32) * (ended[:, None] * np.float32(100.0))
    for index, key in enumerate(_ACHIEVEMENT_KEYS):
        info[key] = scaled[:, index]
    # Only an ending step has a score (0 elsewhere): the logs of those rows only.
    score = np.zeros(len(ended), np.float32)
    rows = np.flatnonzero(ended)
    if rows.size:
        logs = np.log(np.float32(1.0) + scaled[rows])
        score[rows] = np.exp(np.mean(logs, axis=1)) - np.float32(1.0)
    info["score"] = score


FAMILY = declare_family(
    Family("craftax", options=CRAFTAX_OPTIONS, info_extras=add_achievement_info)
).name

BUILD_HINT = (
    "this envpool_x was built without the Craftax family (ENVPOOL_X_CRAFTAX=OFF): rebuild "
    "with -DENVPOOL_X_CRAFTAX=ON"
)
#: Craftax's episode length (EnvParams.max_timesteps).
MAX_TIMESTEPS = 10000
#: id -> (pool, autoreset_mode default or None); EnvPool's aliases are Craftax/<rest>.
_IDS = {
    "Craftax-Classic-Symbolic-v1": ("CraftaxClassic", None),
    "Craftax-Classic-Pixels-v1": ("CraftaxClassicPixels", None),
    "Craftax-Classic-Symbolic-AutoReset-v1": ("CraftaxClassic", "same_step"),
    "Craftax-Classic-Pixels-AutoReset-v1": ("CraftaxClassicPixels", "same_step"),
}
TASK_IDS = tuple(_IDS)
#: The observation's pixels a cell (Craftax's BLOCK_PIXEL_SIZE_AGENT).
OBS_BLOCK_PIXELS = 7


def load_textures(block: int) -> None:
    """Hand Craftax's textures at ``block`` pixels a cell to the C++ renderer
    (once per block size and process).

    Raises:
        ImportError: craftax or Pillow is not installed (the message says what to install).
    """
    if _core.craftax_has_textures(block):
        return
    from envpool_x.families.craftax_textures import classic_textures

    _core.craftax_set_textures(block, [a.ravel() for a in classic_textures(block)])


def _resolve(pixels: bool) -> Any:
    def resolve(config: dict[str, Any]) -> None:
        # The textures an env of this config draws with, before C++ needs them.
        if pixels:
            load_textures(OBS_BLOCK_PIXELS)
        if config.get("render_mode") is not None:
            load_textures(int(config["render_tile_size"]))

    return resolve


def has_craftax() -> bool:
    """Return True if this build of envpool_x includes the Craftax family."""
    return hasattr(_core, "CraftaxClassic")


if has_craftax():
    for _task_id, (_pool, _autoreset) in _IDS.items():
        register(
            _task_id,
            _pool,
            FAMILY,
            MAX_TIMESTEPS,
            resolve=_resolve(_pool == "CraftaxClassicPixels"),
            pool_defaults={"autoreset_mode": _autoreset} if _autoreset else None,
        )
        register_alias("Craftax/" + _task_id.removeprefix("Craftax-"), _task_id)
else:
    note_not_built(TASK_IDS, BUILD_HINT)
