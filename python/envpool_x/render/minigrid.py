"""MiniGrid frames: minigrid's own tile pictures, built from an env's state
vector (cpp/envs/minigrid/minigrid_env.h's layout), drawn by minigrid's
``Grid.render`` (``pip install minigrid``). Difference from minigrid's
``render()``: the cells the agent sees are not highlighted."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec

TILE_PIXELS = 32
_HEADER = 12


def minigrid_frame(state: np.ndarray) -> np.ndarray:
    """The full-grid RGB picture (uint8, height x width x 3) of one state.

    Raises:
        RuntimeError: minigrid is not installed (the message says what to install).
    """
    try:
        from minigrid.core.grid import Grid
        from minigrid.core.world_object import WorldObj
    except ImportError as e:
        raise RuntimeError(
            "drawing MiniGrid frames needs minigrid's tile pictures: pip install minigrid==3.2.0"
        ) from e
    s = np.asarray(state)
    w, h = int(s[0]), int(s[1])
    cells = s[_HEADER : _HEADER + 5 * w * h].astype(int).reshape(h, w, 5)
    grid = Grid(w, h)
    for y in range(h):
        for x in range(w):
            t, c, st, inner_t, inner_c = cells[y, x]
            obj: Any = WorldObj.decode(t, c, st)
            if obj is not None and obj.type == "box":
                obj.contains = WorldObj.decode(inner_t, inner_c, 0)
            grid.set(x, y, obj)
    return np.asarray(
        grid.render(TILE_PIXELS, agent_pos=(int(s[2]), int(s[3])), agent_dir=int(s[4])),
        dtype=np.uint8,
    )


def minigrid_drawer(spec: EnvSpec) -> Callable[[np.ndarray], np.ndarray]:
    """The renderer of MiniGrid and BabyAI (the same grid and state header)."""
    return minigrid_frame
