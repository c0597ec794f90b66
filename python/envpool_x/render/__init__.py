"""Frames of envs (``render_mode="rgb_array"``): where each family's come from.

- envs that draw their own (Atari: ALE's screen): the C++ pool's ``render``;
- every other family declares a renderer (``Family.renderer``): a function
  that, given the spec, returns a drawer of one env's frame from its state
  (classic control: drawn in C++; toy text: gymnasium's image assets; MiniGrid
  and BabyAI: the grid; MuJoCo / DeepMind Control: MuJoCo's renderer).

Nothing here runs inside ``step``: frames cost only when asked for.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_x.backends.contract import FramePool
from envpool_x.render.human import show

if TYPE_CHECKING:
    from envpool_x.backends.contract import Pool
    from envpool_x.spec import EnvSpec

RENDER_MODES = ("rgb_array", "human")


def check_render_mode(mode: Any) -> None:
    """Raises ValueError unless ``mode`` is None or one of :data:`RENDER_MODES`."""
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {mode!r}")


class FrameSource:
    """The frames of one pool's envs, drawn only when :meth:`frames` is called."""

    def __init__(self, spec: EnvSpec, pool: Pool) -> None:
        self._spec = spec
        self._pool = pool
        # Built on first use (MuJoCo loads a model): the family's declared renderer.
        self._drawer: Callable[[np.ndarray], np.ndarray] | None = None

    def _draw_from_state(self) -> Callable[[np.ndarray], np.ndarray]:
        if self._drawer is None:
            make = self._spec.entry.declaration.renderer
            if make is None:
                raise NotImplementedError(f"{self._spec.id} draws no frames (render_mode)")
            self._drawer = make(self._spec)
        return self._drawer

    def frames(self, env_ids: Any = None) -> np.ndarray:
        """uint8 frames ``(k, H, W, 3)`` of ``env_ids`` (default: env 0).

        Raises:
            ValueError: bad ids; RuntimeError: an env with work in flight, a
            closed env, or no OpenGL for MuJoCo (the message says what to
            install); NotImplementedError: a task that draws no frames.
        """
        ids = np.atleast_1d(np.asarray(0 if env_ids is None else env_ids))
        if ids.ndim != 1 or ids.dtype.kind not in "iu":
            raise ValueError(f"env_ids must be ints, got {env_ids!r}")
        pool = self._pool
        if isinstance(pool, FramePool) and pool.render_shape[0] > 0:
            return np.asarray(pool.render(ids.astype(np.int32)))
        draw = self._draw_from_state()
        return np.stack([draw(np.asarray(self._pool.get_state(int(i)))) for i in ids])

    def close(self) -> None:
        """Free the renderer now, if it holds anything (MuJoCo's GL contexts):
        left to a garbage collection, dm_control's can deadlock (it frees them
        under a lock that a collection inside that lock waits on)."""
        drawer, self._drawer = self._drawer, None
        close = getattr(drawer, "close", None)
        if callable(close):
            close()


def render(source: FrameSource, mode: str | None, env_ids: Any) -> np.ndarray | None:
    """What a front end's ``render`` returns: the frames for 'rgb_array'; for
    'human' the first frame shown in a window (None returned), as gymnasium's
    envs do; None, with a warning, when the env was made without a render_mode."""
    if mode is None:
        warnings.warn(
            "render() on an env made without render_mode: pass render_mode='rgb_array' "
            "(or 'human') to make_*",
            UserWarning,
            stacklevel=3,
        )
        return None
    frames = source.frames(env_ids)
    if mode == "human":
        show(frames[0])
        return None
    return frames
