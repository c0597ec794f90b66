"""The mujoco package's default profiling timer stays off our simulations.

Importing ``mujoco`` installs ``mjcb_time`` in the MuJoCo library we share with
it, and MuJoCo then reads the clock around every stage of every step in the
process (see ``envpool_x.families.mujoco.drop_default_timer``). Our envs drop that
default before each step; a timer the user installs is kept and called.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import envpool_x
from envpool_x import _core
from envpool_x.families import mujoco as mj

mujoco = pytest.importorskip("mujoco")
pytest.importorskip("gymnasium")
if not mj.has_mujoco():
    pytest.skip("envpool_x was built without MuJoCo", allow_module_level=True)


@pytest.fixture
def default_timer() -> Iterator[int]:
    """The package's default timer installed (set_mjcb_time(None) restores
    it); restored again afterwards, as the test found it."""
    mujoco.set_mjcb_time(None)
    installed = _core.mujoco_timer()
    assert installed != 0, "the mujoco package installs a default timer"
    yield installed
    mujoco.set_mjcb_time(None)


def step_once(task: str) -> None:
    env = envpool_x.make_gymnasium(task, num_envs=2, num_threads=2)
    try:
        env.reset(seed=0)
        # Installed again after make() (a Python MjData or set_mjcb_time(None)
        # does that): the step must drop it again.
        mujoco.set_mjcb_time(None)
        assert _core.mujoco_timer() != 0
        env.step(np.zeros((2, *env.action_space.shape), np.float32))
    finally:
        env.close()


def test_default_timer_is_dropped_before_each_step(default_timer: int) -> None:
    step_once("HalfCheetah-v5")
    assert _core.mujoco_timer() == 0
    mujoco.MjData(mujoco.MjModel.from_xml_string("<mujoco/>"))
    assert _core.mujoco_timer() == 0, "a Python MjData installs it only where none is"


def test_dmc_steps_drop_the_default_timer(default_timer: int) -> None:
    pytest.importorskip("dm_control")
    step_once("CheetahRun-v1")
    assert _core.mujoco_timer() == 0


def test_a_timer_the_user_sets_is_kept_and_called(default_timer: int) -> None:
    calls = []

    def user_timer() -> float:
        calls.append(1)
        return float(len(calls))

    env = envpool_x.make_gymnasium("HalfCheetah-v5", num_envs=2, num_threads=2)
    try:
        env.reset(seed=0)
        mujoco.set_mjcb_time(user_timer)
        installed = _core.mujoco_timer()
        assert installed not in (0, default_timer)
        env.step(np.zeros((2, *env.action_space.shape), np.float32))
        assert _core.mujoco_timer() == installed
        assert mujoco.get_mjcb_time() is user_timer
        assert calls, "MuJoCo called the user's timer during our step"
    finally:
        mujoco.set_mjcb_time(None)
        env.close()
