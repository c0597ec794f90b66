"""The full Craftax game's textures at a block size, built as craftax 1.6.1 builds them.

Craftax's pixel renderer (``craftax/renderer.py``) draws from textures that
``craftax/constants.py`` makes from the PNGs of ``craftax/assets``: alpha
clamped to 0 / 1, scaled to the block size (icons to ``int(0.8 * block)``,
digits to ``int(0.4 * block)``) with Pillow's nearest-neighbour resize, some
multiplied by their alpha. We read the same PNGs from the installed craftax
package (nothing of it is copied here), make the same arrays with numpy, and
hand them to the C++ renderer (``cpp/envs/craftax/full/pixels_textures.h``),
once per block size. Craftax itself (and JAX) is not imported.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from envpool_x.families import craftax_textures
from envpool_x.families.craftax_textures import BLOCK_FILES as CLASSIC_BLOCK_FILES

#: Craftax's block textures in BlockType order: Craftax-Classic's 17, then the full
#: game's (18, darkness: black).
BLOCK_FILES = CLASSIC_BLOCK_FILES + (
    "wall2.png",
    "debug_tile.png",
    "wall_moss.png",
    "stalagmite.png",
    "sapphire.png",
    "ruby.png",
    "chest.png",
    "fountain.png",
    "fire_grass.png",
    "ice_grass.png",
    "gravel.png",
    "fire_tree.png",
    "ice_shrub.png",
    "enchantment_table_fire.png",
    "enchantment_table_ice.png",
    "necromancer.png",
    "grave.png",
    "grave2.png",
    "grave3.png",
    "necromancer_vulnerable.png",
)
OUT_OF_BOUNDS, DARKNESS = 1, 18
#: ItemType order (0, none, is never drawn).
ITEM_FILES = (
    "debug.png",
    "torch_in_inventory.png",
    "ladder_down.png",
    "ladder_up.png",
    "ladder_down_blocked.png",
)
PLAYER_FILES = (
    "player-left.png",
    "player-right.png",
    "player-up.png",
    "player-down.png",
    "player-sleep.png",
)
#: Mob textures by type id: melee, passive, ranged, then projectiles.
MOB_FILES = (
    "zombie.png",
    "gnome_warrior.png",
    "orc_soldier.png",
    "lizard.png",
    "knight.png",
    "troll.png",
    "pigman.png",
    "frost_troll.png",
    "cow.png",
    "bat.png",
    "snail.png",
    "skeleton.png",
    "gnome_archer.png",
    "orc_mage.png",
    "kobold.png",
    "knight_archer.png",
    "deep_thing.png",
    "fire_elemental.png",
    "ice_elemental.png",
    "arrow-up.png",
    "dagger.png",
    "fireball.png",
    "iceball.png",
    "arrow-up.png",
    "slimeball.png",
    "fireball.png",
    "iceball.png",
)
_ARMOUR = ("helmet", "chestplate", "pants", "boots")
_TIERS = ("wood", "stone", "iron", "diamond")
#: Inventory icons: (file, multiplied by alpha), in pixels_textures.h's Icon order.
ICONS: tuple[tuple[str, bool], ...] = (
    ("health.png", False),
    ("food.png", False),
    ("drink.png", False),
    ("energy.png", False),
    ("mana.png", False),
    ("sapling.png", False),
    ("torch_in_inventory.png", False),
    ("book.png", False),
    ("fireball.png", False),
    ("iceball.png", False),
    ("xp.png", False),
    ("dexterity.png", False),
    ("strength.png", False),
    ("intelligence.png", False),
    ("bow.png", False),
    ("arrow-up.png", True),
    *((f"potion_{c}.png", False) for c in ("red", "green", "blue", "pink", "cyan", "yellow")),
    *((f"{tier}_pickaxe.png", True) for tier in _TIERS),
    *((f"{tier}_sword.png", True) for tier in _TIERS),
    *((f"iron_{part}.png", True) for part in _ARMOUR),
    *((f"diamond_{part}.png", True) for part in _ARMOUR),
)
#: Enchantments drawn over icons (RGB and alpha), in pixels_textures.h's Overlay order.
OVERLAY_FILES = (
    "sword_fire_enchantment.png",
    "sword_ice_enchantment.png",
    "arrow_fire_enchantment.png",
    "arrow_ice_enchantment.png",
    *(f"{part}_fire_enchantment.png" for part in _ARMOUR),
    *(f"{part}_ice_enchantment.png" for part in _ARMOUR),
)
VIEW_ROWS, VIEW_COLS = 9, 11
#: Craftax-Pixels-v1's observation's pixels a cell (Craftax's BLOCK_PIXEL_SIZE_AGENT).
OBS_BLOCK_PIXELS = 10


def load_texture(name: str, size: int) -> np.ndarray:
    """One PNG of the full game's assets, as Craftax's ``load_texture``."""
    return craftax_textures.load_texture(name, size, game="craftax")


def _rgb_times_alpha(rgba: np.ndarray) -> np.ndarray:
    return rgba[:, :, :3] * rgba[:, :, 3:4]


def _alpha(rgba: np.ndarray) -> np.ndarray:
    return np.repeat(rgba[:, :, 3:4], 3, axis=2)


def _night_noise_intensity(block: int) -> np.ndarray:
    # Craftax: each pixel's distance from the view's centre pixel, float32,
    # over the largest, which XLA computes as times its reciprocal.
    rows, cols = VIEW_ROWS * block, VIEW_COLS * block
    x = np.arange(rows)[:, None] - rows // 2
    y = np.arange(cols)[None, :] - cols // 2
    distance = np.sqrt((x * x + y * y).astype(np.float32))
    return distance * (np.float32(1.0) / distance.max())


@functools.cache
def full_textures(block: int) -> list[np.ndarray]:
    """Every texture the renderer needs at ``block`` pixels a cell, as
    float32 arrays, in the order ``craftax::full::SetFullTextures`` reads them.

    Raises:
        ImportError: craftax (its assets) or Pillow is missing.
    """
    small, number = int(block * 0.8), int(block * 0.4)
    blocks = np.stack([load_texture(f, block)[:, :, :3] for f in BLOCK_FILES])
    blocks[OUT_OF_BOUNDS] = 128
    blocks[DARKNESS] = 0
    small_blocks = np.stack([load_texture(f, small)[:, :, :3] for f in BLOCK_FILES])
    items = [load_texture(f, block) for f in ITEM_FILES]
    players = [load_texture(f, block) for f in PLAYER_FILES]
    mobs = [load_texture(f, block) for f in MOB_FILES]
    blank = np.zeros((number, number, 4), np.int32)
    digits = [blank] + [load_texture(f"{i}.png", number) for i in range(1, 10)]
    digits_zero = [load_texture(f"{i}.png", number) for i in range(10)]
    icons = []
    for name, multiply in ICONS:
        rgba = load_texture(name, small)
        icons.append(_rgb_times_alpha(rgba) if multiply else rgba[:, :, :3])
    overlays = [load_texture(f, small) for f in OVERLAY_FILES]
    parts: list[Any] = [
        blocks,
        small_blocks,
        np.stack([i[:, :, :3] for i in items]),
        np.stack([_alpha(i) for i in items]),
        np.stack([p[:, :, :3] for p in players]),
        np.stack([_alpha(p) for p in players]),
        np.stack([_rgb_times_alpha(m) for m in mobs]),
        np.stack([_alpha(m) for m in mobs]),
        np.stack([_rgb_times_alpha(d) for d in digits]),
        np.stack([_alpha(d) for d in digits]),
        np.stack([_rgb_times_alpha(d) for d in digits_zero]),
        np.stack([_alpha(d) for d in digits_zero]),
        np.stack(icons),
        np.stack([o[:, :, :3] for o in overlays]),
        np.stack([_alpha(o) for o in overlays]),
        _night_noise_intensity(block),
    ]
    return [np.ascontiguousarray(p, dtype=np.float32) for p in parts]


def load_textures(block: int) -> None:
    """Hand the full game's textures at ``block`` pixels a cell to the C++
    renderer (once per block size and process).

    Raises:
        ImportError: craftax or Pillow is not installed (the message says what to install).
    """
    from envpool_x import _core

    if _core.craftax_full_has_textures(block):
        return
    _core.craftax_full_set_textures(block, [a.ravel() for a in full_textures(block)])
