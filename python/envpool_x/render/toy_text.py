"""Toy-text frames: gymnasium 1.4's pictures, built from an env's state vector.

FrozenLake, Taxi, CliffWalking and Blackjack are composed, as gymnasium's
``render()`` composes them, from gymnasium's own image assets, read at run time
from the installed gymnasium package (``gymnasium/envs/toy_text/img``) with
imageio (``pip install "envpool-x[render]"``). Differences from gymnasium's
frames:

- We do not keep the last action: the taxi faces its default direction (south,
  as right after gymnasium's reset). FrozenLake's agent and CliffWalking's agent
  have no facing direction in gymnasium 1.4, so their pictures are unchanged.
- Blackjack: gymnasium draws the dealer's face-up card's suit (and, for a
  ten-valued card, J / Q / K) at random on reset; we do not keep that draw and
  always show spades and a king for a ten. The sums are gymnasium's own digit
  images, so no font is needed.
- Images are scaled with nearest-neighbour sampling and alpha-blended in
  float, so pixels may differ slightly from pygame's where a tile is scaled.

Catch and NChain (EnvPool's toy tasks) have no gymnasium picture; we draw
simple ones: Catch as its height x width board of 32-pixel squares (dark
cells, a red ball, a white paddle), NChain as a row of circles with the
current state's circle filled.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec

_FROZEN_LAKE_MAPS = {
    "4x4": ["SFFF", "FHFH", "FFFH", "HFFG"],
    "8x8": [
        "SFFFFFFF",
        "FFFFFFFF",
        "FFFHFFFF",
        "FFFFFHFF",
        "FFFHFFFF",
        "FHHFFFHF",
        "FHFFHFHF",
        "FFFHFFFG",
    ],
}


def _img_dir() -> str:
    """gymnasium's toy-text image folder (as gymnasium finds it)."""
    import gymnasium

    return os.path.join(os.path.dirname(gymnasium.__file__), "envs", "toy_text", "img")


@functools.cache
def _load(name: str, size: tuple[int, int] | None = None) -> np.ndarray:
    """The PNG ``img/<name>.png`` as float32 RGBA (H, W, 4) in [0, 1], scaled to
    ``size`` = (width, height) with nearest-neighbour sampling when given."""
    try:
        import imageio.v3 as iio
    except ImportError as e:
        raise ImportError(
            "toy-text frames read gymnasium's PNG images with imageio: "
            'pip install "envpool-x[render]"'
        ) from e
    img = np.asarray(iio.imread(os.path.join(_img_dir(), f"{name}.png")))
    if img.ndim == 2:
        img = img[:, :, None]
    if img.shape[2] in (1, 2):  # grey or grey + alpha
        img = np.concatenate([img[:, :, :1]] * 3 + [img[:, :, 1:]], axis=2)
    if img.shape[2] == 3:
        img = np.concatenate([img, np.full(img.shape[:2] + (1,), 255, img.dtype)], axis=2)
    out = img.astype(np.float32) / 255.0
    if size is not None and (size[1], size[0]) != out.shape[:2]:
        rows = np.arange(size[1]) * out.shape[0] // size[1]
        cols = np.arange(size[0]) * out.shape[1] // size[0]
        out = out[rows][:, cols]
    out.flags.writeable = False
    return out


def _blit(canvas: np.ndarray, img: np.ndarray, x: float, y: float) -> None:
    """Alpha-blends RGBA ``img`` onto float RGB ``canvas`` with its top-left corner
    at (int(x), int(y)), clipped to the canvas (pygame's ``Surface.blit``)."""
    x0, y0 = int(x), int(y)
    h, w = img.shape[:2]
    cx0, cy0 = max(x0, 0), max(y0, 0)
    cx1, cy1 = min(x0 + w, canvas.shape[1]), min(y0 + h, canvas.shape[0])
    if cx0 >= cx1 or cy0 >= cy1:
        return
    src = img[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0]
    alpha = src[:, :, 3:]
    dst = canvas[cy0:cy1, cx0:cx1]
    dst[...] = src[:, :, :3] * alpha + dst * (1.0 - alpha)


def _to_uint8(canvas: np.ndarray) -> np.ndarray:
    """A float RGB canvas in [0, 1] as uint8."""
    return np.clip(np.rint(canvas * 255.0), 0, 255).astype(np.uint8)


def _blank(width: int, height: int, rgb: tuple[int, int, int] = (0, 0, 0)) -> np.ndarray:
    """A float RGB canvas of one colour (pygame surfaces start black)."""
    canvas = np.empty((height, width, 3), np.float32)
    canvas[...] = np.asarray(rgb, np.float32) / 255.0
    return canvas


def frozen_lake_desc(env_config: dict[str, Any]) -> list[str]:
    """The map rows of a FrozenLake config, as cpp/envs/toy_text/frozen_lake.h
    reads them: ``desc`` when given, else EnvPool's ``size`` (4 or 8), else
    ``map_name``."""
    desc = env_config.get("desc")
    if desc is not None and len(desc) > 0:
        return [r.decode() if isinstance(r, bytes) else "".join(_chars(r)) for r in desc]
    size = int(env_config.get("size") or 0)
    name = {4: "4x4", 8: "8x8"}.get(size, env_config.get("map_name") or "4x4")
    if name not in _FROZEN_LAKE_MAPS:
        raise ValueError(f"FrozenLake map_name must be '4x4' or '8x8', got {name!r}")
    return _FROZEN_LAKE_MAPS[name]


def _chars(row: Any) -> list[str]:
    """A map row given as a string or as a sequence of one-letter str / bytes."""
    if isinstance(row, str):
        return list(row)
    return [c.decode() if isinstance(c, bytes) else str(c) for c in row]


def _frozen_lake(env_config: dict[str, Any], state: Sequence[float]) -> np.ndarray:
    desc = frozen_lake_desc(env_config)
    nrow, ncol = len(desc), len(desc[0])
    width, height = min(64 * ncol, 512), min(64 * nrow, 512)
    cw, ch = width // ncol, height // nrow
    canvas = _blank(width, height)
    tile = (cw, ch)
    scale = min(cw, ch) / 64

    def overlay(name: str, native: tuple[int, int]) -> np.ndarray:
        size = (max(1, round(native[0] * scale)), max(1, round(native[1] * scale)))
        return _load(name, size)

    def place(img: np.ndarray, col: int, row: int, anchor: str) -> None:
        cx, cy = col * cw, row * ch
        h, w = img.shape[:2]
        if anchor == "corner":
            margin = round(cw * 0.06)
            _blit(canvas, img, cx + margin, cy + margin)
        elif anchor == "flag":  # planted, bottom-centred on the tile
            _blit(canvas, img, cx + (cw - w) / 2, cy + ch - h - round(ch * 0.12))
        else:
            _blit(canvas, img, cx + (cw - w) / 2, cy + (ch - h) / 2)

    cracks = [_load("tile_ice_crack_a", tile), _load("tile_ice_crack_b", tile)]
    for y in range(nrow):
        for x in range(ncol):
            c = desc[y][x]
            _blit(canvas, _load("tile_hole" if c == "H" else "tile_ice", tile), x * cw, y * ch)
            if c == "F" and (x * 3 + y * 5) % 7 < len(cracks):
                _blit(canvas, cracks[(x * 3 + y * 5) % 7], x * cw, y * ch)
            elif c == "S":
                place(overlay("letter_s", (12, 20)), x, y, "corner")
            elif c == "G":
                place(overlay("goal_flag", (24, 32)), x, y, "flag")
                place(overlay("letter_g", (12, 20)), x, y, "corner")
            _outline(canvas, x * cw, y * ch, cw, ch, (180, 200, 230))
    s = int(state[0])
    row, col = divmod(s, ncol)
    if desc[row][col] != "H":  # an agent in a hole is hidden by the hole tile
        place(overlay("agent", (40, 36)), col, row, "center")
    return _to_uint8(canvas)


def _outline(canvas: np.ndarray, x: int, y: int, w: int, h: int, rgb: tuple[int, int, int]) -> None:
    """A 1-pixel rectangle border (pygame.draw.rect with width 1)."""
    c = np.asarray(rgb, np.float32) / 255.0
    canvas[y, x : x + w] = c
    canvas[y + h - 1, x : x + w] = c
    canvas[y : y + h, x] = c
    canvas[y : y + h, x + w - 1] = c


_TAXI_LOCS = [(0, 0), (0, 4), (4, 0), (4, 3)]


def _taxi(env_config: dict[str, Any], state: Sequence[float]) -> np.ndarray:
    del env_config  # the picture does not depend on the options
    s = int(state[0])
    s, dest = divmod(s, 4)
    s, passenger = divmod(s, 5)
    row, col = divmod(s, 5)
    canvas = _blank(536, 456, (250, 250, 246))
    _blit(canvas, _load("taxi/background"), 0, 80)
    _blit(canvas, _load("taxi/house"), 403, 36)

    def loc(r: int, c: int) -> tuple[int, int]:
        return 48 + c * 88, 128 + r * 56

    _blit(canvas, _load("taxi/marker_destination"), *loc(*_TAXI_LOCS[dest]))
    if passenger < 4:
        x, y = loc(*_TAXI_LOCS[passenger])
        _blit(canvas, _load("taxi/passenger"), x + 35, y + 19)
    # Orientation 0 (south, gymnasium's default): the vertical taxi upside down.
    taxi = _load("taxi/taxi_v_full" if passenger == 4 else "taxi/taxi_v")[::-1]
    x, y = loc(row, col)
    _blit(canvas, taxi, x + 25, y + 0)
    return _to_uint8(canvas)


def _cliff_walking(env_config: dict[str, Any], state: Sequence[float]) -> np.ndarray:
    del env_config
    nrow, ncol = 4, 12
    canvas = _blank(64 * ncol, 64 * nrow)
    for s in range(nrow * ncol):
        row, col = divmod(s, ncol)
        x, y = col * 64, row * 64
        _blit(canvas, _load("cliff_walking/tile_ground"), x, y)
        if row == nrow - 1 and 0 < col < ncol - 1:
            part = (
                "left"
                if col == 1
                else "right"
                if col == ncol - 2
                else ("mid_a" if col % 2 == 0 else "mid_b")
            )
            _blit(canvas, _load(f"cliff_walking/tile_cliff_{part}"), x, y)
        if s == (nrow - 1) * ncol:
            _blit(canvas, _load("cliff_walking/letter_s"), x + 8, y + 8)
        if s == nrow * ncol - 1:
            _blit(canvas, _load("cliff_walking/letter_g"), x + 8, y + 8)
            _blit(canvas, _load("cliff_walking/goal_flag"), x + 28, y + 16)
        if s == int(state[0]):
            _blit(canvas, _load("cliff_walking/agent"), x + 20, y + 20)
    return _to_uint8(canvas)


def _blackjack(env_config: dict[str, Any], state: Sequence[float]) -> np.ndarray:
    del env_config
    n = int(state[0])
    if n < 1 or len(state) < n + 2:
        raise ValueError(
            "a Blackjack state is [n, player cards (n), dealer cards], got "
            f"{len(state)} values with n={n}"
        )
    player = [int(c) for c in state[1 : n + 1]]
    dealer_card = int(state[n + 1])
    usable_ace = 1 in player and sum(player) + 10 <= 21
    player_sum = sum(player) + (10 if usable_ace else 0)
    width, height = 384, 376
    canvas = _blank(width, height, (196, 216, 158))

    def digits(number: int, size: str, gap: int, x: int, y: int) -> None:
        for d in str(number):
            img = _load(f"blackjack/digit_{size}_{d}")
            _blit(canvas, img, x, y)
            x += img.shape[1] + gap

    def centred_x(w: int) -> int:
        return (width - w) // 2 // 4 * 4  # on the art's 4-pixel grid

    label = _load("blackjack/label_dealer")
    _blit(canvas, label, 40, 32)
    digits(dealer_card, "small", 4, 40 + label.shape[1] + 12, 32)
    face = {1: "A", 10: "K"}.get(dealer_card, str(dealer_card))
    _blit(canvas, _load(f"blackjack/card_{face}S"), 96, 72)
    _blit(canvas, _load("blackjack/card_back"), 208, 72)
    _blit(canvas, _load("blackjack/label_player"), 40, 208)
    text = str(player_sum)
    digit_w = _load("blackjack/digit_big_0").shape[1]
    digits(player_sum, "big", 12, centred_x(len(text) * digit_w + (len(text) - 1) * 12), 248)
    if usable_ace:
        ace = _load("blackjack/label_usable_ace")
        _blit(canvas, ace, centred_x(ace.shape[1]), 328)
    return _to_uint8(canvas)


def _catch(env_config: dict[str, Any], state: Sequence[float]) -> np.ndarray:
    height, width = int(env_config.get("height", 10)), int(env_config.get("width", 5))
    cell = 32
    frame = np.full((height * cell, width * cell, 3), 40, np.uint8)
    frame[::cell, :] = frame[:, ::cell] = 70  # grid lines
    ball_row, ball_col, paddle = (int(v) for v in state[:3])
    frame[
        ball_row * cell + 4 : (ball_row + 1) * cell - 4,
        ball_col * cell + 4 : (ball_col + 1) * cell - 4,
    ] = (220, 50, 50)
    bottom = (height - 1) * cell
    frame[bottom + cell // 2 : bottom + cell - 2, paddle * cell + 1 : (paddle + 1) * cell - 1] = 255
    return frame


def _nchain(env_config: dict[str, Any], state: Sequence[float]) -> np.ndarray:
    n, cell = int(env_config.get("n", 5)), 64
    frame = np.full((cell, n * cell, 3), 255, np.uint8)
    yy, xx = np.mgrid[0:cell, 0 : n * cell] + 0.5
    cx = (np.floor(xx / cell) + 0.5) * cell
    dist = np.hypot(xx - cx, yy - cell / 2)
    frame[(dist >= 22) & (dist <= 26)] = (40, 40, 40)
    current = (dist < 22) & (np.floor(xx / cell) == int(state[0]))
    frame[current] = (60, 110, 200)
    return frame


# The drawer of each pool and its state's length (None: Blackjack's varies).
_DRAWERS: dict[str, tuple[Callable[[dict[str, Any], Sequence[float]], np.ndarray], int | None]] = {
    "FrozenLake": (_frozen_lake, 1),
    "Taxi": (_taxi, 2),
    "CliffWalking": (_cliff_walking, 1),
    "Blackjack": (_blackjack, None),
    "Catch": (_catch, 3),
    "NChain": (_nchain, 1),
}


def toy_text_frame(
    pool_name: str, env_config: dict[str, Any], state: Sequence[float]
) -> np.ndarray:
    """The frame (uint8, (H, W, 3), gymnasium's rgb_array size) of a toy-text env.

    ``pool_name`` is the C++ pool class ("FrozenLake", "Taxi", "CliffWalking",
    "Blackjack", "Catch", "NChain"), ``env_config`` the env's config and ``state``
    what the env's GetState() returns: FrozenLake [s], Taxi [s, fickle_step],
    CliffWalking [s], Blackjack [n, player cards..., dealer cards...], Catch
    [ball row, ball column, paddle column], NChain [s]. See the module's
    docstring for what differs from gymnasium's pictures (the taxi faces south:
    we do not keep the last action).
    """
    if pool_name not in _DRAWERS:
        raise ValueError(f"no toy-text frame for pool {pool_name!r} (one of {sorted(_DRAWERS)})")
    draw, length = _DRAWERS[pool_name]
    if length is not None and len(state) != length:
        raise ValueError(f"a {pool_name} state has {length} values, got {len(state)}")
    return draw(env_config, state)


def toy_text_drawer(spec: EnvSpec) -> Callable[[np.ndarray], np.ndarray]:
    """The toy text family's renderer: frames of ``spec``'s envs from their states."""
    pool_name, config = spec.entry.pool_name, spec.env_config
    return lambda state: toy_text_frame(pool_name, config, state.tolist())
