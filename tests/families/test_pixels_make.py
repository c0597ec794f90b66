"""Pixel envs at make time: a bad size, camera or frame stack and an OpenGL
that cannot render are clear errors (ValueError / RuntimeError naming the
cause, never a crash), and the memory check counts what pixel envs hold
(frame stacks, output rows, each thread's GL context and scratch mjData)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import envpool_x
from envpool_x import memory
from envpool_x.families import dmc

if not dmc.has_dmc():
    pytest.skip("envpool_x was built without MuJoCo and dmc", allow_module_level=True)

TASKS = ["HalfCheetah-v5", "CheetahRun-v1"]  # a gymnasium task, a DeepMind Control one

BAD_OPTIONS = [
    ({"render_width": 0}, ValueError, "render_width"),
    ({"render_width": -3}, ValueError, "render_width"),
    ({"render_height": -1}, ValueError, "render_height"),
    ({"render_height": 10**5}, ValueError, "render_height"),
    ({"render_width": 16385}, ValueError, "render_width"),  # above OSMesa's largest viewport
    ({"render_width": 2**31}, ValueError, "render_width"),
    ({"render_camera_id": 7}, ValueError, "cameras"),
    ({"render_camera_id": -2}, ValueError, "render_camera_id"),
    ({"render_camera_name": "nope"}, ValueError, "no camera named 'nope'"),
    ({"frame_stack": 0}, ValueError, "frame_stack"),
    ({"frame_stack": -1}, ValueError, "frame_stack"),
    ({"frame_stack": 65}, ValueError, "frame_stack"),
    # Each side allowed, but one env's observation above 1 GiB (its Box alone
    # took gigabytes before the memory check: a crash, killed for memory).
    ({"render_width": 8192, "render_height": 8192, "frame_stack": 64}, ValueError, "1024 MiB"),
    ({"render_width": 8192, "render_height": 8192, "frame_stack": 6}, ValueError, "fewer frames"),
]


@pytest.mark.parametrize("task_id", TASKS)
@pytest.mark.parametrize(("config", "error", "match"), BAD_OPTIONS)
def test_bad_pixel_options_are_refused_at_make(task_id, config, error, match) -> None:
    with pytest.raises(error, match=match):
        envpool_x.make_gymnasium(task_id, num_envs=1, from_pixels=True, **config)


@pytest.mark.parametrize(
    ("config", "match"),
    [
        ({"frame_stack": 3}, "from_pixels"),
        ({"render_width": 64}, "from_pixels"),
        ({"from_pixels": True, "render_camera_lookat": [1.0]}, "3 numbers"),
        ({"from_pixels": True, "render_camera_id": 1, "render_camera_name": "side"}, "side"),
    ],
)
def test_keys_that_do_not_fit_together(config, match) -> None:
    task_id = "CheetahRun-v1" if "render_camera_name" in config else "HalfCheetah-v5"
    with pytest.raises(ValueError, match=match):
        envpool_x.make_gymnasium(task_id, num_envs=1, **config)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("render_width", 0),
        ("render_height", -5),
        ("render_width", 10**5),
        ("frame_stack", 0),
        ("frame_stack", 65),
        ("render_camera_id", 9),
        ("render_camera_id", -2),
    ],
)
@pytest.mark.parametrize("task_id", TASKS)
def test_cpp_refuses_them_too(task_id: str, key: str, value: int) -> None:
    """The C++ env checks the keys itself (a config that skips Python's option
    table, as the pool classes take one)."""
    spec = envpool_x.make_spec(task_id, from_pixels=True)
    config = {**spec.env_config, key: value}
    with pytest.raises(ValueError, match=key):
        spec.entry.pool_class.env_spec(config)


_MAKE = (
    "import sys, envpool_x\n"
    "try:\n"
    "    env = envpool_x.make_gymnasium(sys.argv[1], num_envs=2, from_pixels=True)\n"
    "    env.reset()\n"
    "    print('MADE')\n"
    "except RuntimeError as e:\n"
    "    print('ERR', e)\n"
)


def _make_with_gl(value: str, task_id: str = "HalfCheetah-v5") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MUJOCO_GL": value, "DISPLAY": ""}
    env.pop("PYOPENGL_PLATFORM", None)  # what MUJOCO_GL picks (set by the test process's import)
    return subprocess.run(
        [sys.executable, "-c", _MAKE, task_id], env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("task_id", TASKS)
def test_no_usable_gl_is_an_error_at_make(task_id: str) -> None:
    out = _make_with_gl("glfw", task_id)  # needs a window: not in worker threads
    assert out.returncode == 0, out.stderr[-2000:]
    assert "ERR MUJOCO_GL=glfw cannot render" in out.stdout, out.stdout + out.stderr
    assert "MUJOCO_GL=osmesa" in out.stdout and "MUJOCO_GL=egl" in out.stdout  # what would


@pytest.mark.parametrize("task_id", TASKS)
def test_an_unknown_gl_is_an_error_at_make(task_id: str) -> None:
    """Ours names it; for a DeepMind Control task dm_control, loading the
    task's model, refuses it first."""
    out = _make_with_gl("nonsense", task_id)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "ERR" in out.stdout and "MUJOCO_GL" in out.stdout and "nonsense" in out.stdout


def test_egl_without_a_device_is_an_error_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    """EGL works where a driver gives it a device (a GPU's, or Mesa's software
    one); where none does (glvnd told of no vendor library), making the env
    raises instead."""
    monkeypatch.setenv("__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/egl_vendor.json")
    out = _make_with_gl("egl")
    assert out.returncode == 0, out.stderr[-2000:]
    if "MADE" in out.stdout:
        pytest.skip("this libEGL is not glvnd's: it ignores __EGL_VENDOR_LIBRARY_FILENAMES")
    assert "ERR EGL found no display to render on" in out.stdout, out.stdout + out.stderr[-2000:]


# ---- the memory check ---------------------------------------------------------------


def _estimate(task_id: str = "CheetahRun-v1", threads: int = 2, **config) -> memory.Estimate:
    spec = envpool_x.make_spec(task_id, num_envs=8, num_threads=threads, **config)
    return memory.estimate(spec)


def _pixels(w: int, h: int, stack: int, task_id: str = "CheetahRun-v1", threads: int = 2) -> int:
    est = _estimate(
        task_id, threads, from_pixels=True, render_width=w, render_height=h, frame_stack=stack
    )
    return int(est.resident)


def test_memory_check_counts_the_frame_stack() -> None:
    from envpool_x.families.pixels import pixel_bytes

    spec = envpool_x.make_spec(
        "CheetahRun-v1", from_pixels=True, frame_stack=3, render_width=84, render_height=84
    )
    assert pixel_bytes(spec.env_config) == (3 * 84 * 84 * 3, 3 * 84 * 84 * 3)
    memory = spec.entry.declaration.memory
    plain = envpool_x.make_spec("CheetahRun-v1")
    grown = memory.extra(spec.entry.pool_name, spec.env_config)
    base = memory.extra(plain.entry.pool_name, plain.env_config)
    assert grown[0] - base[0] == 3 * 84 * 84 * 3


@pytest.mark.parametrize("task_id", TASKS)
def test_estimate_grows_with_width_height_and_frame_stack(task_id: str) -> None:
    base = _pixels(32, 32, 2, task_id)
    wider = _pixels(64, 32, 2, task_id)
    # Linear in the pixel count (stacks, rows, GL buffers), whichever side grows.
    assert wider > base
    assert _pixels(96, 32, 2, task_id) - wider == wider - base
    assert _pixels(32, 64, 2, task_id) == wider
    # Each frame more in the stack: in every env's stack and in every output
    # row (8 envs: at least 8 rows).
    deeper = _pixels(32, 32, 3, task_id) - base
    assert deeper == _pixels(32, 32, 4, task_id) - _pixels(32, 32, 3, task_id)
    assert deeper >= 2 * 8 * 3 * 32 * 32


@pytest.mark.parametrize("task_id", TASKS)
def test_each_thread_counts_its_gl_context(task_id: str) -> None:
    """A pixel pool's threads (the workers and the caller's) each hold a GL
    context with the model's textures, a shadow map and the frame's buffers:
    more threads, more memory, and far more than a state pool's threads."""
    state = _estimate(task_id, 4).parts["threads"] - _estimate(task_id, 2).parts["threads"]
    pixels = _pixels(84, 84, 1, task_id, threads=4) - _pixels(84, 84, 1, task_id, threads=2)
    assert pixels - state >= 2 * 16 * memory.MiB  # 2 threads more, each a 2048^2 shadow map
    big = _pixels(1024, 1024, 1, task_id, threads=4) - _pixels(1024, 1024, 1, task_id, threads=2)
    assert big - pixels >= 2 * 8 * (1024 * 1024 - 84 * 84)  # colour and depth, per thread
