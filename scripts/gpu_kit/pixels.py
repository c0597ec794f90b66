"""The pixels step (issue 49): benchmarks/bench_pixels.py with MUJOCO_GL=egl, so the
frames are drawn by the GPU (with OSMesa here, software rasterisation bounds every
stack), and the GL loaders it needs when the image lacks them.

glvnd's libEGL.so.1 and libOpenGL.so.0 (envpool_x's worker threads, MuJoCo's Python
renderer, EnvPool 1.2.7's linked modules) dispatch to the driver's vendor library
(libEGL_nvidia), which glvnd finds through a vendor JSON file. The kit carries the
loaders (config.GL_DEBS) and uses them only where the machine has none: a folder of
its own on LD_LIBRARY_PATH, never files written into /."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpu_kit.steps import Commands, Ctx

TITLE = "Pixel observations (EGL on the GPU machine)"
#: What the GL loaders must provide (the sonames dlopen and DT_NEEDED ask for).
GL_LIBS = ("libEGL.so.1", "libOpenGL.so.0")
#: The driver's EGL, which glvnd's loader dispatches to on the GPU machine.
DRIVER_EGL = "libEGL_nvidia.so.0"
#: Where glvnd looks for vendor files by itself, and where the driver's may be.
GLVND_VENDOR_DIRS = ("/etc/glvnd/egl_vendor.d", "/usr/share/glvnd/egl_vendor.d")
NVIDIA_VENDOR_FILES = (
    "/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json",
    "/usr/local/share/glvnd/egl_vendor.d/10_nvidia.json",
)


def system_libraries() -> set[str]:
    """Sonames the dynamic loader finds without help (``ldconfig -p``), plus
    those in LD_LIBRARY_PATH's folders."""
    found: set[str] = set()
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
    try:
        out = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, timeout=20).stdout
        found.update(re.findall(r"^\s*(\S+) \(", out, re.M))
    except (OSError, subprocess.SubprocessError):
        pass
    for folder in filter(None, os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep)):
        if Path(folder).is_dir():
            found.update(p.name for p in Path(folder).iterdir())
    return found


def gl_env(
    env: Mapping[str, str],
    carried: Path | None,
    have: Callable[[], set[str]] = system_libraries,
    exists: Callable[[str], bool] = os.path.exists,
) -> tuple[dict[str, str], list[str]]:
    """The variables to add to the steps' environment for EGL, and lines saying why:
    the carried loaders (``carried``: a folder of them) first on LD_LIBRARY_PATH
    when the machine lacks one of GL_LIBS; the driver's vendor file named when
    glvnd's own folders hold no NVIDIA one (else EGL may be Mesa's software one)."""
    add: dict[str, str] = {}
    found = have()
    missing = [lib for lib in GL_LIBS if lib not in found]
    driver_lib = "found" if DRIVER_EGL in found else "not found by ldconfig or LD_LIBRARY_PATH"
    lines = [f"NVIDIA's EGL ({DRIVER_EGL}): {driver_lib}"]
    if not missing:
        lines.append(f"GL loaders: the machine's own ({', '.join(GL_LIBS)})")
    elif carried is not None and carried.is_dir():
        path = os.pathsep.join(filter(None, [str(carried), env.get("LD_LIBRARY_PATH")]))
        add["LD_LIBRARY_PATH"] = path
        lines.append(f"GL loaders: the kit's (the machine lacks {', '.join(missing)})")
    else:
        lines.append(f"GL loaders: none (the machine lacks {', '.join(missing)}; none carried)")
    if "__EGL_VENDOR_LIBRARY_FILENAMES" not in env:
        own = [d for d in GLVND_VENDOR_DIRS if exists(d) and any(Path(d).glob("*nvidia*.json"))]
        driver = next((f for f in NVIDIA_VENDOR_FILES if exists(f)), None)
        if not own and driver:
            add["__EGL_VENDOR_LIBRARY_FILENAMES"] = driver
            lines.append(f"EGL vendor file: {driver}")
    return add, lines


def step_env(ctx: Ctx) -> dict[str, str]:
    """MUJOCO_GL (and PyOpenGL's platform, which follows it) for the step:
    EGL on the GPU machine, OSMesa standing in under --dry."""
    backend = "osmesa" if ctx.dry else "egl"
    return {"MUJOCO_GL": backend, "PYOPENGL_PLATFORM": backend}


def commands(ctx: Ctx) -> Commands:
    """bench_pixels.py: issue 49's comparison (2 threads, 8 and 64 envs, the four
    tasks), then our pool and EnvPool's alone at 16 threads (the machine's cores)."""
    cmd = [*ctx.bench("bench_pixels.py"), "--section", TITLE]
    if ctx.dry:  # one task, OSMesa: each frame takes tens of ms here
        cmd += ["--quick", "--tasks", "CheetahRun-v1", "--num-envs", "2", "--python-envs", "2"]
        return [[*cmd, "--threads", "1"]]
    cmd += ["--out", str(ctx.work / "pixels.md"), "--num-envs", "8", "64", "--threads", "2"]
    cmd += ["--expect-gl", "NVIDIA"]  # EGL fell back to software: stop, measure nothing
    if ctx.cpus > 2:
        cmd += ["--scale-threads", str(min(ctx.cpus, 16))]
    return [[*cmd, "--rounds", "3", "--seconds", "0.2"]]


def collect(ctx: Ctx, log: str) -> str:
    """The section bench_pixels.py wrote (or printed, under --dry); cut short,
    the GL line and the rows of the cases it finished."""
    from gpu_kit.steps import from_heading, rows, section_file

    if (ctx.work / "pixels.md").exists():
        return section_file("pixels.md")(ctx, log)
    if f"\n## {TITLE}" in log:
        return from_heading(f"## {TITLE}")(ctx, log)
    gl = [ln for ln in log.splitlines() if ln.startswith("MUJOCO_GL=")]
    return "\n".join([*(f"- {ln}" for ln in gl[:1]), "", rows(log)]).strip()
