"""Pixel observations drawn through EGL (``MUJOCO_GL=egl``) by the worker
threads, in a process of their own, since MUJOCO_GL is read once per process.

Where there is no GPU, Mesa's EGL renders in software (llvmpipe) where it is
installed; elsewhere these tests skip. The frames must be what ``render()``
draws through Python's EGL renderer in the same process, and the process
must exit cleanly without closing the env: Python's EGL renderers terminate
the process's EGL display at exit, before the main thread's renderer (which
draws frames too) is freed.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from envpool_x.families import dmc

if not dmc.has_dmc():
    pytest.skip("envpool_x was built without MuJoCo and dmc", allow_module_level=True)
pytest.importorskip("gymnasium")
pytest.importorskip("dm_control.suite")

_FRAMES = """
import sys, numpy as np, envpool_x
env = envpool_x.make_gymnasium(sys.argv[1], num_envs=2, seed=3, num_threads=2,
                               from_pixels=True, render_width=64, render_height=48,
                               render_mode="rgb_array")
rng = np.random.default_rng(0)
obs, _ = env.reset()
for step in range(4):
    frames = np.asarray(env.render(env_ids=[0, 1])).transpose(0, 3, 1, 2)
    np.testing.assert_array_equal(obs, frames, f"step {step}")
    space = env.action_space
    act = rng.uniform(np.maximum(space.low, -1), np.minimum(space.high, 1),
                      size=(2, *space.shape)).astype(space.dtype)
    obs, *_ = env.step(act)
assert obs.std() > 0 and not np.array_equal(obs[0], obs[1])
print("FRAMES OK", flush=True)
# The env is left open on purpose: the exit path is what is checked.
"""

# Closing one env's renderer under EGL releases the thread's GL context
# (mujoco.egl's free calls eglReleaseThread): the other env's renderer must
# still draw its frames, not black ones.
_TWO_RENDERERS = """
import sys, numpy as np, envpool_x
a = envpool_x.make_gymnasium("Hopper-v5", num_envs=1, render_mode="rgb_array")
b = envpool_x.make_gymnasium(sys.argv[1], num_envs=1, render_mode="rgb_array")
a.reset(seed=0)
b.reset(seed=0)
a.render()
first = b.render()
a.close()
again = b.render()
assert first.std() > 0, "a blank first frame"
np.testing.assert_array_equal(again, first)
print("FRAMES OK", flush=True)
b.close()
"""


_MAKE = """
import sys, envpool_x
try:
    envpool_x.make_gymnasium(sys.argv[1], num_envs=1, from_pixels=True).reset()
    print("FRAMES OK")
except RuntimeError as e:
    print("ERR", e)
"""


def _under_egl(
    task_id: str, script: str = _FRAMES, **variables: str
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MUJOCO_GL": "egl", "PYOPENGL_PLATFORM": "egl", "DISPLAY": ""}
    env.pop("MUJOCO_EGL_DEVICE_ID", None)
    env.update(variables)
    return subprocess.run(
        [sys.executable, "-c", script, task_id],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _check(out: subprocess.CompletedProcess[str]) -> None:
    if "FRAMES OK" not in out.stdout and "EGL" in out.stderr and "RuntimeError" in out.stderr:
        pytest.skip(f"no usable EGL here: {out.stderr.strip().splitlines()[-1][:200]}")
    assert "FRAMES OK" in out.stdout, out.stderr[-3000:]
    assert out.returncode == 0, f"exit status {out.returncode}\n{out.stderr[-3000:]}"
    assert "terminate called" not in out.stderr, out.stderr[-3000:]


@pytest.mark.parametrize("task_id", ["HalfCheetah-v5", "CheetahRun-v1"])
def test_egl_frames_are_what_render_draws_and_exit_is_clean(task_id: str) -> None:
    _check(_under_egl(task_id))


@pytest.mark.parametrize("task_id", ["HalfCheetah-v5", "FetchReach-v4"])
def test_egl_render_survives_another_renderers_close(task_id: str) -> None:
    _check(_under_egl(task_id, _TWO_RENDERERS))


def test_egl_device_is_chosen_as_mujoco_chooses_it() -> None:
    """MUJOCO_EGL_DEVICE_ID picks the device, as in mujoco's and dm_control's
    Python renderers (frames and render() then come from one GPU); a value
    that names no device is a clear error at make."""
    _check(_under_egl("HalfCheetah-v5", MUJOCO_EGL_DEVICE_ID="0"))
    for bad in ("99", "-1", "first"):
        out = _under_egl("HalfCheetah-v5", _MAKE, MUJOCO_EGL_DEVICE_ID=bad)
        assert out.returncode == 0, out.stderr[-3000:]
        assert "ERR" in out.stdout and "MUJOCO_EGL_DEVICE_ID must be an integer" in out.stdout, (
            out.stdout + out.stderr[-2000:]
        )
        assert f"got '{bad}'" in out.stdout, out.stdout
