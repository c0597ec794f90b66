"""Pixel observations of the MuJoCo and DeepMind Control tasks (``from_pixels=True``),
drawn by the C++ worker threads (cpp/envs/mujoco/pixel_observation.h).

The oracle of a frame is ``render()`` of the same env (gymnasium's MuJoCo
renderer, dm_control's ``Physics.render``, in Python, set to the env's state),
with the pixel env's size and camera: the frames must be identical (the same
libmujoco draws both, through the same OSMesa). One more test builds
gymnasium's renderer afresh for the state, which is what ``render()``'s camera
stands for. The default run checks a sample of tasks; every task is under
``slow`` (ENVPOOL_X_SLOW=1). Errors at make time and the memory check:
test_pixels_make.py.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest
from dmc_helpers import collect_garbage_between_tests  # noqa: F401  (autouse)

import envpool_x
from conftest import ci_sample
from envpool_x.families import dmc

if not dmc.has_dmc():
    pytest.skip("envpool_x was built without MuJoCo and dmc", allow_module_level=True)
if os.environ.get("MUJOCO_GL") not in ("osmesa", "egl"):
    pytest.skip("no OpenGL backend: apt-get install libosmesa6", allow_module_level=True)
gym = pytest.importorskip("gymnasium")
pytest.importorskip("dm_control.suite")

WIDTH, HEIGHT = 64, 48
_BY_FAMILY = envpool_x.registration.envs_by_family()
MUJOCO_TASKS = _BY_FAMILY["mujoco"]
# The domains whose model changes per episode (a target's place): render()
# draws the freshly loaded task's (docs/render.md), so their frames are
# checked against dm_control itself instead (test_pixels_dm_control.py).
_OWN_MODEL = ("finger", "fish", "lqr", "manipulator", "stacker", "point_mass", "reacher", "swimmer")
DMC_TASKS = [dmc.task_id(p, t) for d, p, _, ts in dmc.DOMAINS if d not in _OWN_MODEL for t in ts]
SAMPLE = {"HalfCheetah-v5", "Hopper-v4", "Ant-v3", "CheetahRun-v1", "QuadrupedEscape-v1"}


def _actions(env, rng: np.random.Generator) -> np.ndarray:
    space = env.action_space
    low, high = np.maximum(space.low, -1), np.minimum(space.high, 1)
    return rng.uniform(low, high, size=(env.num_envs, *space.shape)).astype(space.dtype)


def _as_chw(frames: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(frames).transpose(0, 3, 1, 2))


@pytest.mark.parametrize("task_id", ci_sample(MUJOCO_TASKS + DMC_TASKS, SAMPLE))
def test_frame_is_what_render_draws(task_id: str) -> None:
    env = envpool_x.make_gymnasium(
        task_id,
        num_envs=2,
        seed=3,
        from_pixels=True,
        render_width=WIDTH,
        render_height=HEIGHT,
        render_mode="rgb_array",
    )
    rng = np.random.default_rng(0)
    obs, _ = env.reset()
    assert obs.shape == (2, 3, HEIGHT, WIDTH) and obs.dtype == np.uint8
    for step in range(4):
        np.testing.assert_array_equal(obs, _as_chw(env.render(env_ids=[0, 1])), f"step {step}")
        obs, *_ = env.step(_actions(env, rng))
    assert obs.std() > 0  # a picture, not a blank
    assert not np.array_equal(obs[0], obs[1])  # each env draws its own state
    env.close()


def test_free_camera_is_a_fresh_gymnasium_viewer() -> None:
    """The free camera aims where a gymnasium renderer made for the state aims
    (the geoms' median, then the task's camera config)."""
    env = envpool_x.make_gymnasium(
        "HalfCheetah-v5", num_envs=1, seed=1, from_pixels=True, render_width=WIDTH,
        render_height=HEIGHT,
    )  # fmt: skip
    obs, _ = env.reset()
    for _ in range(5):
        obs, *_ = env.step(np.ones((1, 6), np.float32))
    state = env.get_state(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        oracle = gym.make("HalfCheetah-v5", render_mode="rgb_array", width=WIDTH, height=HEIGHT)
    oracle.reset(seed=0)
    nq = oracle.unwrapped.model.nq
    oracle.unwrapped.set_state(state[:nq], state[nq:])
    frame = oracle.render()  # its viewer is made now, for this state
    np.testing.assert_array_equal(obs[0], _as_chw(frame[None])[0])
    oracle.close()
    env.close()


def test_python_gl_context_on_the_calling_thread() -> None:
    """The thread that calls step() also draws frames, and gymnasium's renderer
    keeps its GL context current there (then frees it): both draw right, and
    gymnasium's context is the current one again after our frames."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = gym.make("Hopper-v5", render_mode="rgb_array", width=WIDTH, height=HEIGHT)
    theirs.reset(seed=0)
    before = theirs.render()
    env = envpool_x.make_gymnasium(
        "HalfCheetah-v5", num_envs=1, seed=1, from_pixels=True, render_width=WIDTH,
        render_height=HEIGHT, render_mode="rgb_array",
    )  # fmt: skip
    try:
        obs, _ = env.reset()
        np.testing.assert_array_equal(theirs.render(), before)  # its context is back
        np.testing.assert_array_equal(obs, _as_chw(env.render(env_ids=[0])))
        theirs.close()  # its context is freed while current on this thread
        obs, *_ = env.step(np.ones((1, 6), np.float32))
        np.testing.assert_array_equal(obs, _as_chw(env.render(env_ids=[0])))
    finally:
        env.close()
        theirs.close()


@pytest.mark.parametrize("task_id", ["HalfCheetah-v5", "CheetahRun-v1"])
def test_close_frees_the_renderer_now(task_id: str) -> None:
    """close() frees render()'s GL context at once: left to a garbage
    collection, dm_control's can deadlock (see the fixture above)."""
    env = envpool_x.make_gymnasium(task_id, num_envs=1, render_mode="rgb_array")
    env.reset()
    env.render()
    drawer = env._frames._drawer
    assert drawer is not None and not drawer.closed
    env.close()
    assert drawer.closed


@pytest.mark.parametrize("task_id", ["Hopper-v5", "WalkerWalk-v1"])
def test_frame_stack_rolls_along_channels(task_id: str) -> None:
    env = envpool_x.make_gymnasium(
        task_id, num_envs=2, seed=0, from_pixels=True, frame_stack=3, render_width=WIDTH,
        render_height=HEIGHT, render_mode="rgb_array",
    )  # fmt: skip
    assert env.observation_space.shape == (9, HEIGHT, WIDTH)
    obs, _ = env.reset()
    assert obs.shape == (2, 9, HEIGHT, WIDTH)
    np.testing.assert_array_equal(obs[:, 0:3], obs[:, 3:6])  # a reset fills the stack
    np.testing.assert_array_equal(obs[:, 3:6], obs[:, 6:9])
    rng = np.random.default_rng(1)
    for _ in range(3):
        prev = obs
        obs, *_ = env.step(_actions(env, rng))
        np.testing.assert_array_equal(obs[:, :6], prev[:, 3:])  # the oldest leaves
        np.testing.assert_array_equal(obs[:, 6:], _as_chw(env.render(env_ids=[0, 1])))
        assert not np.array_equal(obs[:, 6:], prev[:, 6:])
    env.close()


@pytest.mark.parametrize("task_id", ["Ant-v4", "CartpoleSwingup-v1"])
def test_state_and_info_stay_the_state_envs(task_id: str) -> None:
    """Same seed, same actions: the info (and, with pixels_only=False, the
    state fields) are the state env's."""
    state_env = envpool_x.make_gymnasium(task_id, num_envs=2, seed=5)
    both = envpool_x.make_gymnasium(
        task_id, num_envs=2, seed=5, from_pixels=True, pixels_only=False, render_width=WIDTH,
        render_height=HEIGHT,
    )  # fmt: skip
    only = envpool_x.make_gymnasium(task_id, num_envs=2, seed=5, from_pixels=True)
    results = [e.reset() for e in (state_env, both, only)]
    rng = np.random.default_rng(2)
    for step in range(4):
        s, b, o = results
        state_obs = s[0] if isinstance(s[0], dict) else {"obs": s[0]}
        for key, value in state_obs.items():
            np.testing.assert_array_equal(b[0][key], value)
        assert b[0]["pixels"].shape == (2, 3, HEIGHT, WIDTH)
        assert o[0].shape == (2, 3, 84, 84)  # EnvPool's default size
        for key, value in s[-1].items():
            np.testing.assert_array_equal(b[-1][key], value, f"{key} at step {step}")
            np.testing.assert_array_equal(o[-1][key], value, f"{key} at step {step}")
        actions = _actions(state_env, rng)
        results = [e.step(actions) for e in (state_env, both, only)]
    for e in (state_env, both, only):
        e.close()


def test_dm_env_and_fixed_camera() -> None:
    env = envpool_x.make_dm(
        "CheetahRun-v1", num_envs=1, from_pixels=True, render_camera_id=0, render_width=WIDTH,
        render_height=HEIGHT, render_mode="rgb_array",
    )  # fmt: skip
    # EnvPool 1.2.7's dm_env field of the frames is "pixels" (gymnasium: a Box).
    assert env.observation_spec().pixels.shape == (3, HEIGHT, WIDTH)
    assert env.observation_spec().pixels.name == "pixels"
    step = env.reset()
    assert step.observation._fields[0] == "pixels" and "obs" not in step.observation._fields
    frame = step.observation.pixels
    np.testing.assert_array_equal(frame, _as_chw(env.render(env_ids=[0])))
    free = envpool_x.make_dm(
        "CheetahRun-v1", num_envs=1, from_pixels=True, render_width=WIDTH, render_height=HEIGHT
    )
    assert not np.array_equal(free.reset().observation.pixels, frame)  # another camera
    named = envpool_x.make_dm(
        "CheetahRun-v1", num_envs=1, from_pixels=True, render_camera_name="side",
        render_width=WIDTH, render_height=HEIGHT,
    )  # fmt: skip
    np.testing.assert_array_equal(named.reset().observation.pixels, frame)  # camera 0 is "side"
    for e in (env, free, named):
        e.close()
