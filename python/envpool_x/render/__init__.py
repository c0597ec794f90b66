"""Frames of envs (``render_mode="rgb_array"``): where each family's come from.

- envs that draw their own (Atari: ALE's screen): the C++ pool's ``render``;
- classic control: drawn in C++ from the env's state (``render_classic``);
- toy text: gymnasium's image assets, composed from the env's state;
- MuJoCo / DeepMind Control: MuJoCo's renderer, set to the env's state.

Nothing here runs inside ``step``: frames cost only when asked for.
"""

from __future__ import annotations

from typing import Any

import numpy as np

RENDER_MODES = ("rgb_array", "human")


def check_render_mode(mode: Any) -> None:
    """Raises ValueError unless ``mode`` is None or one of :data:`RENDER_MODES`."""
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {mode!r}")


class FrameSource:
    """The frames of one pool's envs, drawn only when :meth:`frames` is called."""

    def __init__(self, spec: Any, pool: Any) -> None:
        self._spec = spec
        self._pool = pool
        self._drawer: Any = None  # built on first use (MuJoCo loads a model)

    def _draw_from_state(self) -> Any:
        if self._drawer is not None:
            return self._drawer
        entry, config = self._spec.entry, self._spec.env_config
        if entry.family == "classic_control":
            from envpool_x.render.classic_control import classic_frame

            self._drawer = lambda s: classic_frame(entry.pool_name, config, s)
        elif entry.family == "toy_text":
            from envpool_x.render.toy_text import toy_text_frame

            self._drawer = lambda s: toy_text_frame(entry.pool_name, config, s)
        elif entry.family in ("minigrid", "babyai"):  # the same grid, the same state header
            from envpool_x.render.minigrid import minigrid_frame

            self._drawer = minigrid_frame
        elif entry.family == "mujoco":
            from envpool_x.render.physics import MujocoFrames

            self._drawer = MujocoFrames(self._spec.id, config).frame
        elif entry.family == "dmc":
            from envpool_x.families.dmc import DOMAINS
            from envpool_x.render.physics import DmcFrames

            (domain,) = [d for d, _, pool, _ in DOMAINS if pool == entry.pool_name]
            self._drawer = DmcFrames(domain, str(config["task_name"])).frame
        else:
            raise NotImplementedError(f"{self._spec.id} draws no frames (render_mode)")
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
        shape = getattr(self._pool, "render_shape", (0, 0))
        if shape[0] > 0:
            return np.asarray(self._pool.render(ids.astype(np.int32)))
        draw = self._draw_from_state()
        return np.stack([draw(np.asarray(self._pool.get_state(int(i)))) for i in ids])


def render(source: FrameSource, mode: str | None, env_ids: Any) -> np.ndarray | None:
    """What a front end's ``render`` returns: the frames for 'rgb_array'; for
    'human' the first frame shown in a window (None returned), as gymnasium's
    envs do; None, with a warning, when the env was made without a render_mode."""
    if mode is None:
        import warnings

        warnings.warn(
            "render() on an env made without render_mode: pass render_mode='rgb_array' "
            "(or 'human') to make_*",
            UserWarning,
            stacklevel=3,
        )
        return None
    frames = source.frames(env_ids)
    if mode == "human":
        from envpool_x.render.human import show

        show(frames[0])
        return None
    return frames
