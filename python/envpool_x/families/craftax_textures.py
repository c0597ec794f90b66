"""Craftax-Classic's textures at a block size, built as craftax 1.6.1 builds them.

Craftax's pixel renderer (``craftax_classic/renderer.py``) draws from textures
that ``craftax_classic/constants.py`` makes from its 16 x 16 PNGs: alpha
clamped to 0 / 1 unless kept, scaled to the block size with Pillow's
nearest-neighbour resize, some with their colour multiplied by their alpha.
We read the same PNGs from the installed craftax package (nothing of it is
copied here), make the same arrays with numpy, and hand them to the C++
renderer (``cpp/envs/craftax/classic_textures.h``), once per block size.
Craftax itself (and JAX) is not imported.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from typing import Any

import numpy as np

#: Craftax's block textures in BlockType order (index 1, out of bounds, is grey 128).
BLOCK_FILES = (
    "debug_tile.png",
    "debug_tile.png",
    "grass.png",
    "water.png",
    "stone.png",
    "tree.png",
    "wood.png",
    "path.png",
    "coal.png",
    "iron.png",
    "diamond.png",
    "table.png",
    "furnace.png",
    "sand.png",
    "lava.png",
    "plant_on_grass.png",
    "ripe_plant_on_grass.png",
)
PLAYER_FILES: tuple[str, ...] = (
    "player-left.png",
    "player-right.png",
    "player-up.png",
    "player-down.png",
    "player-sleep.png",
)
#: Inventory icons: (file, multiplied by alpha), in the order the C++ renderer reads them.
ICON_FILES = (
    ("health.png", False),
    ("food.png", False),
    ("drink.png", False),
    ("energy.png", False),
    ("sapling.png", False),
    ("wood_pickaxe.png", False),
    ("stone_pickaxe.png", True),
    ("iron_pickaxe.png", True),
    ("wood_sword.png", True),
    ("stone_sword.png", True),
    ("iron_sword.png", True),
)
MOB_FILES = ("zombie.png", "cow.png", "skeleton.png")
VIEW_ROWS, VIEW_COLS = 7, 9
INSTALL_HINT = (
    "Craftax's pixel observation and render() draw Craftax's textures: pip install craftax==1.6.1"
)


def assets_dir(game: str = "craftax_classic") -> str:
    """The installed craftax package's assets folder of ``game`` (``craftax_classic``
    or ``craftax``, the full game); craftax is not imported.

    Raises:
        ImportError: craftax is not installed (the message says what to install).
    """
    spec = importlib.util.find_spec("craftax")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(INSTALL_HINT)
    folder = os.path.join(list(spec.submodule_search_locations)[0], game, "assets")
    if not os.path.isdir(folder):
        raise ImportError(f"{INSTALL_HINT} (no {folder})")
    return folder


def load_texture(
    name: str, size: int, clamp_alpha: bool = True, game: str = "craftax_classic"
) -> np.ndarray:
    """One PNG of ``game``'s assets as Craftax's ``load_texture``: RGBA int32,
    alpha clamped to 0 / 1 (``alpha // 255``) unless told not to, then resized
    to ``size`` (nearest)."""
    from PIL import Image

    with Image.open(os.path.join(assets_dir(game), name)) as image:
        img = np.asarray(image.convert("RGBA"), dtype=np.int32)
    if clamp_alpha:
        img[:, :, 3] //= 255
    if size != 16:
        resized = Image.fromarray(img.astype(np.uint8)).resize(
            (size, size), Image.Resampling.NEAREST
        )
        img = np.asarray(resized, dtype=np.int32)
    return img


def _alpha_multiplied(rgba: np.ndarray) -> np.ndarray:
    return rgba[:, :, :3] * rgba[:, :, 3:4]


def _fractional_alpha(rgba: np.ndarray) -> np.ndarray:
    # Craftax: alpha.astype(float) / 255 with JAX's float32.
    return np.repeat(rgba[:, :, 3:4].astype(np.float32) / np.float32(255), 3, axis=2)


def _night_noise_intensity(block: int) -> np.ndarray:
    xs, ys = np.meshgrid(
        np.linspace(-1, 1, VIEW_ROWS * block), np.linspace(-1, 1, VIEW_COLS * block)
    )
    return (1 - np.exp(-0.5 * (xs**2 + ys**2) / (0.5**2))).T.astype(np.float32)


@functools.cache
def classic_textures(block: int) -> list[np.ndarray]:
    """Every texture the renderer needs at ``block`` pixels a cell, as float32
    arrays, in the order ``craftax::SetPixelTextures`` reads them.

    Raises:
        ImportError: craftax (its assets) or Pillow is missing.
    """
    small, number = int(block * 0.8), int(block * 0.6)
    blocks = np.stack([load_texture(f, block)[:, :, :3] for f in BLOCK_FILES])
    blocks[1] = 128
    small_blocks = np.stack([load_texture(f, small)[:, :, :3] for f in BLOCK_FILES])
    players = [load_texture(f, block, clamp_alpha=False) for f in PLAYER_FILES]
    numbers = [np.zeros((number, number, 4), np.int32)]
    numbers += [load_texture(f"{i}.png", number) for i in range(1, 10)]
    icons = []
    for name, multiply in ICON_FILES:
        rgba = load_texture(name, small)
        icons.append(_alpha_multiplied(rgba) if multiply else rgba[:, :, :3])
    mobs = [load_texture(f, block, clamp_alpha=False) for f in MOB_FILES]
    arrow = load_texture("arrow-up.png", block)
    parts: list[Any] = [
        blocks,
        small_blocks,
        np.stack([p[:, :, :3] for p in players]),
        np.stack([_fractional_alpha(p) for p in players]),
        np.stack([_alpha_multiplied(n) for n in numbers]),
        np.stack([np.repeat(n[:, :, 3:4], 3, axis=2) for n in numbers]),
        np.stack(icons),
        np.stack([m[:, :, :3] for m in mobs]),
        np.stack([_fractional_alpha(m) for m in mobs]),
        _alpha_multiplied(arrow),
        np.repeat(arrow[:, :, 3:4], 3, axis=2),
        _night_noise_intensity(block),
    ]
    return [np.ascontiguousarray(p, dtype=np.float32) for p in parts]
