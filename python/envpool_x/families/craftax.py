"""Craftax (craftax 1.6.1's JAX games) in C++: Craftax and Craftax-Classic, symbolic and pixels.

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
_FULL_OPTIONS = OptionTable(
    {
        "day_length": Int(1, _INT30),
        "always_diamond": BOOL,
        "mob_despawn_distance": Int(1, _INT30),
        "max_attribute": Int(1, _INT30),
        "god_mode": BOOL,
        # EnvPool's name: render()'s pixels a cell (the observation's are 10).
        "render_tile_size": Int(6, 64),
    }
)
CRAFTAX_OPTIONS: dict[str, OptionTable] = {
    "CraftaxClassic": _CLASSIC_OPTIONS,
    "CraftaxClassicPixels": _CLASSIC_OPTIONS,
    "CraftaxSymbolic": _FULL_OPTIONS,
    "CraftaxPixels": _FULL_OPTIONS,
}
#: Craftax-Classic's achievements, in its order (the engine's ``achievements`` columns).
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
#: The full game's 67 achievements by value (Craftax's Achievement enum; its
#: spelling, ``defeat_orc_solider`` included).
FULL_ACHIEVEMENTS = ACHIEVEMENTS + (
    "make_arrow",
    "make_torch",
    "place_torch",
    "make_diamond_sword",
    "make_iron_armour",
    "make_diamond_armour",
    "enter_gnomish_mines",
    "enter_dungeon",
    "enter_sewers",
    "enter_vault",
    "enter_troll_mines",
    "enter_fire_realm",
    "enter_ice_realm",
    "enter_graveyard",
    "defeat_gnome_warrior",
    "defeat_gnome_archer",
    "defeat_orc_solider",
    "defeat_orc_mage",
    "defeat_lizard",
    "defeat_kobold",
    "defeat_troll",
    "defeat_deep_thing",
    "defeat_pigman",
    "defeat_fire_elemental",
    "defeat_frost_troll",
    "defeat_ice_elemental",
    "damage_necromancer",
    "defeat_necromancer",
    "eat_bat",
    "eat_snail",
    "find_bow",
    "fire_bow",
    "collect_sapphire",
    "learn_fireball",
    "cast_fireball",
    "learn_iceball",
    "cast_iceball",
    "collect_ruby",
    "make_diamond_pickaxe",
    "open_chest",
    "drink_potion",
    "enchant_sword",
    "enchant_armour",
    "defeat_knight",
    "defeat_archer",
)
#: The info keys of each game's achievements.
ACHIEVEMENT_KEYS = tuple(f"Achievements/{name}" for name in ACHIEVEMENTS)
FULL_ACHIEVEMENT_KEYS = tuple(f"Achievements/{name}" for name in FULL_ACHIEVEMENTS)
_KEYS_BY_COUNT = {len(keys): keys for keys in (ACHIEVEMENT_KEYS, FULL_ACHIEVEMENT_KEYS)}


def add_achievement_info(result: Any, xp: Any = np) -> None:
    """EnvPool's (and Craftax's ``compute_score``) info keys, added to a
    gymnasium result's info: ``Achievements/<name>``, 100.0 for each
    achievement the episode unlocked, on the step that ends it (0 on every
    other step), and ``score``, their geometric mean offset by 1:
    ``exp(mean(log(1 + a))) - 1``, all float32. In ``same_step`` mode the ended
    episode's achievements come from ``final_info``, as EnvPool's -AutoReset
    ids give them on that step. ``xp``: numpy, or ``jax.numpy`` inside
    ``env.xla()``'s traced functions (the same values, computed densely)."""
    _, _, terminated, truncated, info = result
    unlocked = info["achievements"]
    ended = terminated | truncated
    final = info.get("final_info")
    if isinstance(final, dict) and "achievements" in final:
        unlocked = xp.where(info["_final_info"][:, None], final["achievements"], unlocked)
    keys = _KEYS_BY_COUNT[unlocked.shape[1]]
    if xp is not np:
        scaled = unlocked.astype(np.float32) * (ended[:, None] * np.float32(100.0))
        mean = xp.sum(xp.log(np.float32(1.0) + scaled), axis=1) / np.float32(len(keys))
        info.update(zip(keys, scaled.T, strict=True))
        info["score"] = xp.where(ended, xp.exp(mean) - np.float32(1.0), np.float32(0.0))
        return
    # Only an ending step has achievements and a score (0 elsewhere): a step
    # ends few episodes, so only those rows are computed.
    scaled = np.zeros(unlocked.shape, np.float32)
    score = np.zeros(len(ended), np.float32)
    rows = np.flatnonzero(ended)
    if rows.size:
        got = unlocked[rows].astype(np.float32) * np.float32(100.0)
        scaled[rows] = got
        logs = np.log(np.float32(1.0) + got)
        # np.mean's float32 sum and division, without its Python-level wrapper.
        mean = np.add.reduce(logs, axis=1) / np.float32(len(keys))
        score[rows] = np.exp(mean) - np.float32(1.0)
    info.update(zip(keys, scaled.T, strict=True))
    info["score"] = score


def achievement_info_fields(info_fields: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The arrays :func:`add_achievement_info` adds, one float32 per env each
    (the family's ``info_extra_fields``)."""
    count = next(f["shape"][0] for f in info_fields if f["name"] == "achievements")
    names = [*_KEYS_BY_COUNT[count], "score"]
    return [
        {"name": n, "dtype": "float32", "shape": (), "low": [0.0], "high": [100.0]} for n in names
    ]


FAMILY = declare_family(
    Family(
        "craftax",
        options=CRAFTAX_OPTIONS,
        info_extras=add_achievement_info,
        info_extra_fields=achievement_info_fields,
    )
).name

BUILD_HINT = (
    "this envpool_x was built without the Craftax family (ENVPOOL_X_CRAFTAX=OFF): rebuild "
    "with -DENVPOOL_X_CRAFTAX=ON"
)
#: Craftax-Classic's episode length (EnvParams.max_timesteps).
MAX_TIMESTEPS = 10000
#: The full game's (its EnvParams.max_timesteps).
FULL_MAX_TIMESTEPS = 100000
#: id -> (pool, autoreset_mode default or None); EnvPool's aliases are Craftax/<rest>.
_FULL_IDS = {
    "Craftax-Symbolic-v1": ("CraftaxSymbolic", None),
    "Craftax-Pixels-v1": ("CraftaxPixels", None),
    "Craftax-Symbolic-AutoReset-v1": ("CraftaxSymbolic", "same_step"),
    "Craftax-Pixels-AutoReset-v1": ("CraftaxPixels", "same_step"),
}
_IDS = {
    "Craftax-Classic-Symbolic-v1": ("CraftaxClassic", None),
    "Craftax-Classic-Pixels-v1": ("CraftaxClassicPixels", None),
    "Craftax-Classic-Symbolic-AutoReset-v1": ("CraftaxClassic", "same_step"),
    "Craftax-Classic-Pixels-AutoReset-v1": ("CraftaxClassicPixels", "same_step"),
}
TASK_IDS = tuple(_IDS) + tuple(_FULL_IDS)
#: The observation's pixels a cell (Craftax-Classic's BLOCK_PIXEL_SIZE_AGENT).
OBS_BLOCK_PIXELS = 7
#: The full game's.
FULL_OBS_BLOCK_PIXELS = 10


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


def _load(block: int, full: bool) -> None:
    if full:
        from envpool_x.families import craftax_full_textures

        craftax_full_textures.load_textures(block)
    else:
        load_textures(block)


def _resolve(pixels: bool, full: bool = False) -> Any:
    obs_block = FULL_OBS_BLOCK_PIXELS if full else OBS_BLOCK_PIXELS

    def resolve(config: dict[str, Any]) -> None:
        # The textures an env of this config draws with, before C++ needs them.
        if pixels:
            _load(obs_block, full)
        if config.get("render_mode") is not None:
            _load(int(config["render_tile_size"]), full)

    return resolve


def has_craftax() -> bool:
    """Return True if this build of envpool_x includes the Craftax family."""
    return hasattr(_core, "CraftaxClassic")


def _register(ids: dict[str, tuple[str, str | None]], max_steps: int, full: bool) -> None:
    for task_id, (pool, autoreset) in ids.items():
        register(
            task_id,
            pool,
            FAMILY,
            max_steps,
            resolve=_resolve(pool.endswith("Pixels"), full),
            pool_defaults={"autoreset_mode": autoreset} if autoreset else None,
        )
        register_alias("Craftax/" + task_id.removeprefix("Craftax-"), task_id)


if has_craftax():
    _register(_IDS, MAX_TIMESTEPS, full=False)
    _register(_FULL_IDS, FULL_MAX_TIMESTEPS, full=True)
else:
    note_not_built(TASK_IDS, BUILD_HINT)
