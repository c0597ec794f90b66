"""DeepMind Control pixel observations against dm_control itself: dm_control's
suite task and ours start from the same state (dm_control's, copied into ours
with the task's own values: a target that moves per episode, a terrain), get
the same actions, and our frame after each step must equal dm_control's
``Physics.render`` at the same size and camera: identical pixels (the same
libmujoco draws both, through the same OSMesa).

This oracle covers the tasks whose model changes per episode, where
``render()`` (test_pixels.py) draws the target where a freshly loaded task
puts it. A sample runs by default, every task under ``slow``.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import envpool_x
from envpool_x.families import dmc

if not dmc.has_dmc():
    pytest.skip("envpool_x was built without MuJoCo and dmc", allow_module_level=True)
if os.environ.get("MUJOCO_GL") not in ("osmesa", "egl"):
    pytest.skip("no OpenGL backend: apt-get install libosmesa6", allow_module_level=True)
pytest.importorskip("dm_control.suite")

import test_dmc  # noqa: E402
import test_dmc_egocentric_domains as egocentric  # noqa: E402
import test_dmc_more_domains as more  # noqa: E402
from dmc_helpers import collect_garbage_between_tests  # noqa: E402, F401  (autouse)

WIDTH, HEIGHT = 64, 48
TASKS = [(dmc.task_id(p, t), d, t) for d, p, _, ts in dmc.DOMAINS for t in ts]
SAMPLE = {"ReacherHard-v1", "FingerTurnHard-v1", "FishSwim-v1", "CartpoleSwingup-v1"}


def _copy_state(ours: Any, domain: str, task: str, theirs: Any) -> None:
    """dm_control's state and task values into our env 0 (each test file's copy;
    escape's terrain, dm_control's heightfield, is among its task values)."""
    if (domain, task) == ("quadruped", "escape"):
        more._copy_state(ours, domain, theirs)
    elif domain in egocentric.EGOCENTRIC_DOMAINS:
        egocentric._copy_state(ours, domain, task, theirs)
    elif domain in more.DOMAINS:
        more._copy_state(ours, domain, theirs)
    else:
        test_dmc._copy_state(ours, domain, task, theirs)


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("task_id", "domain", "task"),
    [t if t[0] in SAMPLE else pytest.param(*t, marks=pytest.mark.slow) for t in TASKS],
)
def test_frames_equal_dm_controls_render(task_id: str, domain: str, task: str) -> None:
    """The free camera and, where the model has one, camera 0 (DrQ's)."""
    cameras = [-1] if test_dmc._load(domain, task).physics.model.ncam == 0 else [-1, 0]
    for camera in cameras:
        _run(task_id, domain, task, camera)


def _run(task_id: str, domain: str, task: str, camera: int) -> None:
    ours = envpool_x.make_dm(
        task_id, num_envs=1, seed=0, from_pixels=True, render_width=WIDTH, render_height=HEIGHT,
        render_camera_id=camera,
    )  # fmt: skip
    theirs = test_dmc._load(domain, task, seed=0)
    try:
        _compare(ours, theirs, task_id, domain, task, camera)
    finally:
        ours.close()
        theirs.physics.free()  # its GL context now, not in a garbage collection


def _compare(ours: Any, theirs: Any, task_id: str, domain: str, task: str, camera: int) -> None:
    spec = theirs.action_spec()
    rng = np.random.default_rng(0)
    ours.reset()
    theirs.reset()
    _copy_state(ours, domain, task, theirs)
    for step in range(3):
        a = rng.uniform(spec.minimum, spec.maximum, size=spec.shape).astype(np.float32)
        got = ours.step(a[None]).observation.pixels[0]
        theirs.step(a.astype(np.float64))
        want = theirs.physics.render(height=HEIGHT, width=WIDTH, camera_id=camera)
        where = f"{task_id} camera {camera} step {step}"
        np.testing.assert_array_equal(got, want.transpose(2, 0, 1), where)
    assert got.std() > 0
