"""Pixel observations of the MuJoCo and DeepMind Control tasks: their options,
the camera of gymnasium's tasks, and what pixel envs add to the memory check
(each env's frame stack; each thread's GL context and scratch ``mjData``).

The frames are drawn in C++ (``cpp/envs/mujoco/pixel_observation.h``) by the
worker thread that stepped the env; this module only declares and fills keys.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Mapping
from typing import Any, NamedTuple

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


#: The largest pixel observation of one env (3 x frame_stack x height x width
#: bytes): gymnasium's Box of it holds two arrays of its shape and two masks,
#: and each env a stack, so that a larger one took gigabytes per env while the
#: spec was made, before the memory check (8192 x 8192 x 64 frames: 13 GB each).
MAX_OBSERVATION_BYTES = 1 << 30


def _observation_fits(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
    if not config.get("from_pixels"):
        return
    stack, w, h = (
        int(config["frame_stack"]),
        int(config["render_width"]),
        int(config["render_height"]),
    )
    size = 3 * stack * w * h
    if size > MAX_OBSERVATION_BYTES:
        raise ValueError(
            f"{task_id}: a pixel observation of 3 x frame_stack x render_height x render_width "
            f"= 3 x {stack} x {h} x {w} = {size:,} bytes is above the "
            f"{MAX_OBSERVATION_BYTES >> 20} MiB one env's observation may take: fewer frames "
            "or a smaller frame"
        )


def pixel_relations(options: Mapping[str, Option]) -> tuple[Relation, ...]:
    """The relations of the pixel keys among ``options``: the frame's keys are
    read only with ``from_pixels=True``; one env's observation is at most
    :data:`MAX_OBSERVATION_BYTES`."""
    from envpool_x.families.option_rules import unused_unless

    if "from_pixels" not in options:
        return ()
    keys = tuple(k for k in _FRAME_KEYS if k in options)
    why = "frames are drawn only for pixel observations"
    return (unused_unless("from_pixels", keys, why), _observation_fits)


def pixel_bytes(config: Mapping[str, Any]) -> tuple[int, int]:
    """(resident, address space) bytes one pixel env keeps beyond a state env:
    its frame stack (the output rows are counted with the observation)."""
    if not config.get("from_pixels"):
        return 0, 0
    stack = int(config.get("frame_stack", 1))
    frame = 3 * int(config["render_width"]) * int(config["render_height"])
    held = frame * stack if stack > 1 else 0
    return held, held


class RenderSizes(NamedTuple):
    """What of a model sizes its GL context (scene_renderer.h)."""

    shadow_side: int  # vis.quality.shadowsize: the shadow map is its square
    samples: int  # vis.quality.offsamples: of the multisampled offscreen buffer
    texture_bytes: int  # ntexdata
    mesh_faces: int  # nmeshface: triangles drawn from lists on the GL side
    hfield_points: int  # nhfielddata: two triangles per point on the GL side


def render_sizes(model: Any) -> RenderSizes:
    """The :class:`RenderSizes` of a compiled ``mujoco.MjModel``."""
    quality = model.vis.quality
    return RenderSizes(
        int(quality.shadowsize),
        int(quality.offsamples),
        int(model.ntexdata),
        int(model.nmeshface),
        int(model.nhfielddata),
    )


#: One GL context with nothing uploaded: OSMesa's context and its 16 x 16
#: window, the fonts and an mjvScene of 10,000 geoms.
GL_CONTEXT_BASE = 10 << 20
#: Bytes per pixel and sample of the offscreen buffers (colour and depth-stencil).
GL_SAMPLE_BYTES = 14


def gl_context_bytes(sizes: RenderSizes, width: int, height: int) -> int:
    """Host bytes one thread's GL context takes to draw ``width`` x ``height``
    frames of a model of ``sizes``: with OSMesa all of it is host memory (with
    EGL most of it is on the GPU; it is counted against the host all the same).

    - the offscreen buffers: colour and depth-stencil for each sample of each
      pixel (multisampled), then one more set that they are resolved into;
    - the shadow map: a float depth texture of shadowsize^2;
    - textures, RGB stored as RGBX: 4/3 of MuJoCo's bytes; meshes and
      heightfields as lists of triangles with normals (3 corners of 6 floats);
    - the frame read back (RGB) once per thread.

    Measured (RSS growth per thread, 1 vs 7 threads, OSMesa, 2026-11):
    CheetahRun-v1 41 / 56 MiB at 1 x 1 / 512 x 512 (this gives 41 / 59),
    HalfCheetah-v5 with its scratch mjData 74 / 93 MiB (75 / 93).
    """
    pixels = width * height
    offscreen = GL_SAMPLE_BYTES * pixels * (max(1, sizes.samples) + 1)
    shadow = 4 * sizes.shadow_side**2
    textures = sizes.texture_bytes * 4 // 3
    triangles = 72 * (sizes.mesh_faces + 2 * sizes.hfield_points)
    return GL_CONTEXT_BASE + offscreen + shadow + textures + triangles + 3 * pixels


def pixel_thread_bytes(
    config: Mapping[str, Any], sizes: RenderSizes, scratch: tuple[int, int] = (0, 0)
) -> tuple[int, int]:
    """(resident, address space) bytes each thread that steps pixel envs holds:
    its GL context (:func:`gl_context_bytes`) and, for gymnasium's tasks, its
    scratch ``mjData`` (``scratch``: one env's, where the camera computes the
    state's positions)."""
    if not config.get("from_pixels"):
        return 0, 0
    gl = gl_context_bytes(sizes, int(config["render_width"]), int(config["render_height"]))
    return gl + scratch[0], gl + scratch[1]


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
