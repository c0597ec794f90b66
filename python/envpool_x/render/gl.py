"""Which OpenGL backend MuJoCo's renderer (and dm_control's) uses, chosen before
either package is imported; and the error when none works."""

from __future__ import annotations

import ctypes.util
import os
from typing import Any

GL_HELP = (
    "MuJoCo renders through OpenGL, chosen by MUJOCO_GL: 'egl' on a machine with an NVIDIA "
    "GPU, 'osmesa' on one without (Debian / Ubuntu: apt-get install libosmesa6), 'glfw' "
    "where a display exists. Set it before importing envpool_x or mujoco."
)


def choose_default_backend() -> str | None:
    """Set ``MUJOCO_GL`` when the user has not and there is no display: 'egl'
    where NVIDIA's EGL library exists, else 'osmesa' where OSMesa is installed
    (mujoco and dm_control read the variable when they are imported, so this
    runs at ``import envpool_x``). Returns the backend in force (None: MuJoCo's
    default, GLFW)."""
    if os.environ.get("MUJOCO_GL"):
        return os.environ["MUJOCO_GL"]
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    if ctypes.util.find_library("EGL_nvidia"):
        backend = "egl"
    elif ctypes.util.find_library("OSMesa"):
        backend = "osmesa"
    else:
        return None
    os.environ["MUJOCO_GL"] = backend
    if backend == "osmesa":
        os.environ.setdefault("PYOPENGL_PLATFORM", "osmesa")
    return backend


def no_gl_error(cause: BaseException) -> RuntimeError:
    """The error for a renderer that could not make an OpenGL context."""
    backend = os.environ.get("MUJOCO_GL") or "glfw (MuJoCo's default)"
    return RuntimeError(
        f"could not render with MUJOCO_GL={backend} ({type(cause).__name__}: {cause}). {GL_HELP}"
    )


def draw_in_own_context(renderer: Any, mode: str = "rgb_array") -> Any:
    """A frame of gymnasium's ``MujocoRenderer``, its GL context made current first.

    gymnasium's off-screen viewer draws with whatever context is current on the
    thread. Under EGL, closing any other MuJoCo renderer releases the thread's
    context (mujoco.egl's ``free`` calls ``eglReleaseThread``), and the viewer
    would then draw black frames."""
    renderer._get_viewer(render_mode=mode).make_context_current()
    return renderer.render(mode)
