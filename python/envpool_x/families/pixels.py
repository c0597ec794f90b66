"""Pixel observations of the MuJoCo and DeepMind Control tasks: their options,
the camera of gymnasium's tasks, and what the frames add to the memory check.

The frames are drawn in C++ (``cpp/envs/mujoco/pixel_observation.h``) by the
worker thread that stepped the env; this module only declares and fills keys.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Mapping
from typing import Any

from envpool_x.options import BOOL, TEXT, Float, Floats, Int, Option, Relation

#: The largest frame side (pixel_observation.h's kMaxSide).
MAX_SIDE = 8192
#: The deepest frame stack (pixel_observation.h's kMaxFrameStack).
MAX_FRAME_STACK = 64

#: The keys every MuJoCo and DeepMind Control pool has (EnvPool's names, and
#: dm_control's pixel wrapper's ``pixels_only``).
PIXEL_OPTIONS: dict[str, Option] = {
    "from_pixels": BOOL,
    "pixels_only": BOOL,
    "render_width": Int(1, MAX_SIDE, note="the frame's width in pixels"),
    "render_height": Int(1, MAX_SIDE, note="the frame's height in pixels"),
    "render_camera_id": Int(-1, note="a camera of the model (-1: the task's free camera)"),
    "render_camera_name": TEXT,
    "frame_stack": Int(1, MAX_FRAME_STACK, note="frames per observation"),
}

#: The free camera of gymnasium's tasks (filled from the task's class).
GYM_CAMERA_OPTIONS: dict[str, Option] = {
    "render_camera_distance": Float(0, note="the free camera's distance (0: the model's extent)"),
    "render_camera_azimuth": Float(note="the free camera's azimuth in degrees"),
    "render_camera_elevation": Float(note="the free camera's elevation in degrees"),
    "render_camera_lookat": Floats(length=(0, 3), note="3 numbers, or none: the geoms' median"),
}

_FRAME_KEYS = (
    "pixels_only",
    "render_width",
    "render_height",
    "render_camera_id",
    "render_camera_name",
    *GYM_CAMERA_OPTIONS,
)


def pixel_relations(options: Mapping[str, Option]) -> tuple[Relation, ...]:
    """The relations of the pixel keys among ``options``: the frame's keys are
    read only with ``from_pixels=True``."""
    from envpool_x.families.option_rules import unused_unless

    if "from_pixels" not in options:
        return ()
    keys = tuple(k for k in _FRAME_KEYS if k in options)
    return (unused_unless("from_pixels", keys, "frames are drawn only for pixel observations"),)


def pixel_bytes(config: Mapping[str, Any]) -> tuple[int, int]:
    """(resident, address space) bytes one pixel env keeps beyond a state env:
    its frame stack (the output rows are counted with the observation)."""
    if not config.get("from_pixels"):
        return 0, 0
    stack = int(config.get("frame_stack", 1))
    frame = 3 * int(config["render_width"]) * int(config["render_height"])
    held = frame * stack if stack > 1 else 0
    return held, held


# ---- gymnasium's camera ------------------------------------------------------

_GYM_DEFAULTS = {
    "render_camera_distance": 0.0,
    "render_camera_azimuth": 90.0,
    "render_camera_elevation": -45.0,
    "render_camera_lookat": [],
}
# gymnasium's camera keys and ours (trackbodyid only moves a tracking camera:
# the free camera gymnasium draws with ignores it).
_GYM_KEYS = {
    "distance": "render_camera_distance",
    "azimuth": "render_camera_azimuth",
    "elevation": "render_camera_elevation",
    "lookat": "render_camera_lookat",
}


@functools.cache
def gym_camera_config(name: str, version: int) -> dict[str, Any]:
    """Our render_camera_* keys for gymnasium's default camera of task ``name``:
    the v5 class's ``default_camera_config`` for a -v5 id, the v4 class's
    ``DEFAULT_CAMERA_CONFIG`` for an older one (as ``render()`` draws them)."""
    import gymnasium

    if version == 5:
        entry = str(gymnasium.spec(f"{name}-v5").entry_point)
        module, cls = entry.split(":")
        init = getattr(importlib.import_module(module), cls).__init__
        camera = inspect.signature(init).parameters["default_camera_config"].default
    else:
        module = str(gymnasium.spec(f"{name}-v4").entry_point).split(":")[0]
        camera = getattr(importlib.import_module(module), "DEFAULT_CAMERA_CONFIG", None)
    keys: dict[str, Any] = {}
    for key, value in dict(camera or {}).items():
        if key == "trackbodyid":
            continue
        if key not in _GYM_KEYS:
            raise NotImplementedError(f"{name}-v{version}: gymnasium camera key {key!r}")
        keys[_GYM_KEYS[key]] = [float(v) for v in value] if key == "lookat" else float(value)
    return keys


def fill_gym_camera(config: dict[str, Any], name: str, version: int) -> None:
    """Give a pixel env of gymnasium's task ``name`` that task's camera, unless
    the config sets a camera key of its own."""
    if not config.get("from_pixels"):
        return
    if any(
        list(config[k]) != v if k.endswith("lookat") else config[k] != v
        for k, v in _GYM_DEFAULTS.items()
    ):
        return
    config.update(gym_camera_config(name, version))
