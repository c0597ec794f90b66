"""DeepMind Control's quadruped escape against dm_control 1.0.50 and scipy.

Escape draws a new terrain each episode: uniform bumps on a coarse grid,
upsampled by ``scipy.ndimage.zoom`` (cubic spline, mode 'constant'), times a
bowl. Here: our C++ zoom against the installed scipy on many random arrays;
our terrain from dm_control's own bumps against the heightfield dm_control
writes; whole episodes beside dm_control from its reset state (its terrain
copied in through the task values of ``set_state``); our terrains' distribution
against dm_control's rules and its terrains; one rendered frame.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import envpool_x
from envpool_x.families import dmc

if not dmc.has_dmc():
    pytest.skip("envpool_x was built without MuJoCo (and so without dmc)", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")
pytest.importorskip("dm_control.suite")
ndimage = pytest.importorskip("scipy.ndimage")

from dm_control.suite import quadruped  # noqa: E402
from test_dmc import _load  # noqa: E402
from test_dmc_egocentric_domains import _check_free_orientation, _ncon  # noqa: E402
from test_dmc_more_domains import _check_stats, _run  # noqa: E402

from envpool_x import _core  # noqa: E402

TASK_ID = "QuadrupedEscape-v1"


@pytest.fixture(scope="module")
def dm_control_resets() -> None:
    """dm_control's escape makes an OpenGL context at each reset (to upload its
    terrain): without one, the tests that reset it are skipped."""
    try:
        _load("quadruped", "escape").reset()
    except Exception as e:  # noqa: BLE001 - any GL failure
        pytest.skip(f"dm_control's quadruped escape cannot reset without OpenGL here: {e}")


def _zoom(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    return np.asarray(_core.dmc_zoom_cubic(a, shape[0], shape[1]))


# ---- the spline zoom ------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_zoom_matches_scipy_on_terrain_grids(seed: int) -> None:
    """dm_control's call: 30 x 30 bumps zoomed by 201 / 30 to the heightfield."""
    rng = np.random.default_rng(seed)
    for _ in range(25):
        bumps = rng.uniform(0.15, 1, (30, 30))
        expected = ndimage.zoom(bumps, 201 / 30.0)
        assert expected.shape == (201, 201)
        np.testing.assert_allclose(_zoom(bumps, expected.shape), expected, rtol=0, atol=1e-12)


def test_zoom_matches_scipy_on_other_shapes() -> None:
    """Other sizes and factors (up and down, one-sample axes), values of both
    signs; some output edges fall a rounding beyond the input, where scipy's
    'constant' mode gives cval (0): those are among them."""
    rng = np.random.default_rng(0)
    edges_beyond = 0
    for rows in (1, 2, 3, 4, 7, 13, 30):
        for cols in (1, 2, 5, 11, 30):
            for factor in ((2.0, 3.0), (6.7, 0.5), (0.6, 4.1), (3.3, 7.3), (1.9, 1.37)):
                a = rng.normal(0, 10, (rows, cols))
                expected = ndimage.zoom(a, factor)
                if 0 in expected.shape:
                    continue
                got = _zoom(a, expected.shape)
                scale = max(1.0, float(np.abs(a).max()))
                np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12 * scale)
                for n_in, m in zip(a.shape, expected.shape, strict=True):
                    if m > 1 and (m - 1) * ((n_in - 1) / (m - 1)) > n_in - 1:
                        edges_beyond += 1
    assert edges_beyond > 0, "no case reached scipy's cval at an edge"


# ---- the terrain ------------------------------------------------------------------


def _dm_control_terrain(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """dm_control's bumps of its first episode (drawn from a copy of its random
    state) and the heightfield its reset writes."""
    env = _load("quadruped", "escape", seed)
    model = env.physics.model
    res = int(model.hfield_nrow[0])
    bump_res = int(2 * model.hfield_size[0, 0] / quadruped._TERRAIN_BUMP_SCALE)
    copy = np.random.RandomState()
    copy.set_state(env.task.random.get_state())
    bumps = copy.uniform(quadruped._TERRAIN_SMOOTHNESS, 1, (bump_res, bump_res))
    env.reset()
    return bumps, model.hfield_data.reshape(res, res).copy()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_terrain_from_dm_control_bumps(seed: int, dm_control_resets: None) -> None:
    """Our terrain from dm_control's bumps is the heightfield dm_control writes:
    the same float32 values, but where numpy's cos and the C library's round
    a last bit apart across a float32 tie (one ulp)."""
    bumps, theirs = _dm_control_terrain(seed)
    ours = np.asarray(_core.dmc_escape_terrain(bumps, theirs.shape[0])).astype(np.float32)
    np.testing.assert_array_max_ulp(ours, theirs, maxulp=1)
    assert np.mean(ours == theirs) > 0.999


def _bowl(res: int) -> np.ndarray:
    """dm_control's bowl: 0.5 - cos(2 pi r) / 2, r the distance from the
    centre in [-1, 1]^2, clipped to [0.04, 1]."""
    grid = np.linspace(-1, 1, res)
    radius = np.clip(np.hypot(grid[:, None], grid[None, :]), 0.04, 1)
    return 0.5 - np.cos(2 * np.pi * radius) / 2


def _bump_stats(terrains: np.ndarray) -> np.ndarray:
    """The smoothed bumps (terrain over bowl) where the bowl is high: mean,
    std and 1% / 99% quantiles."""
    bowl = _bowl(terrains.shape[-1])
    high = bowl > 0.5
    ratio = terrains[:, high] / bowl[high]
    return np.array([ratio.mean(), ratio.std(), *np.quantile(ratio, [0.01, 0.99])])


def test_terrains_follow_dm_control_rules(dm_control_resets: None) -> None:
    """Each env's terrain: zero outside the bowl's rim circle, bumps of
    dm_control's distribution (compared with dm_control's terrains), a new one
    per env and per episode; the quadruped at the centre at the lowest
    non-contacting height on it."""
    n = 16
    env = envpool_x.make_dm(TASK_ID, num_envs=n, seed=7)
    env.reset()
    dm_env = _load("quadruped", "escape", 0)
    model = dm_env.physics.model.ptr
    res = int(model.hfield_nrow[0])
    size = mujoco.mj_stateSize(model, mujoco.mjtState.mjSTATE_INTEGRATION)
    full = np.stack([env._pool.get_state(i) for i in range(n)])
    states, terrains = full[:, :size], full[:, size:].reshape(n, res, res)
    assert np.all(terrains == terrains.astype(np.float32)), "MuJoCo's float heights"
    assert len({t.tobytes() for t in terrains}) == n
    assert np.all(terrains[:, _bowl(res) == 0] < 1e-12)
    # The spline overshoots the bumps' [0.15, 1) a little (dm_control's too:
    # -0.025 to 1.19 over 20 of its terrains).
    assert np.all((terrains > -0.1) & (terrains < 1.3))
    theirs = []
    for _ in range(8):
        dm_env.reset()
        theirs.append(dm_env.physics.model.hfield_data.reshape(res, res).astype(np.float64))
    ours_stats, their_stats = _bump_stats(terrains), _bump_stats(np.stack(theirs))
    assert abs(ours_stats[0] - (quadruped._TERRAIN_SMOOTHNESS + 1) / 2) < 0.01
    np.testing.assert_allclose(ours_stats, their_stats, atol=0.02)
    # The pose: at x = y = 0, any orientation, 1 cm lower touches the terrain.
    qpos = states[:, 1 : 1 + model.nq]
    assert np.all(qpos[:, :2] == 0.0) and np.all(states[:, 0] == 0.0)
    _check_free_orientation(qpos, 0)
    for s, t in zip(states[:4], terrains[:4], strict=True):
        model.hfield_data[:] = t.ravel()
        assert _ncon(model, s) == 0
        lower = s.copy()
        lower[3] -= 0.01
        assert _ncon(model, lower) > 0, "not the lowest non-contacting height"
    env.close()


def test_new_terrain_each_episode_and_seed() -> None:
    env = envpool_x.make_gymnasium(TASK_ID, num_envs=1, max_episode_steps=2, seed=3)
    env.reset()
    first = env.get_state(0)
    zero = np.zeros((1, *env.single_action_space.shape), np.float32)
    for _ in range(3):  # past the end of the first episode
        env.step(zero)
    second = env.get_state(0)
    res2 = 201 * 201
    assert not np.array_equal(first[-res2:], second[-res2:])
    env.reset(seed=3)
    np.testing.assert_array_equal(env.get_state(0), first)
    env.close()


# ---- episodes beside dm_control ----------------------------------------------------


def test_parity_prefix(dm_control_resets: None) -> None:
    """250 steps from dm_control's reset state (its steps cast rays at the
    terrain: a whole episode takes 14 s, so those are under ``slow``)."""
    stats = _run(TASK_ID, "quadruped", "escape", seed=1, steps=250)
    assert stats["steps"] == 250
    _check_stats(stats)


def _outside_the_bowl(physics: Any) -> None:
    """Upright beyond the terrain's edge (escaped): the reward near 1."""
    edge = float(physics.model.hfield_size[0, 0])
    quadruped._find_non_contacting_height(physics, np.array([1.0, 0, 0, 0]), edge + 1.0, 0.0)


def test_parity_escaped(dm_control_resets: None) -> None:
    """Random episodes stay in the bowl (reward near 0); from outside it the
    escape and upright terms are compared where they are high."""
    stats = _run(TASK_ID, "quadruped", "escape", 2, 100, _outside_the_bowl)
    _check_stats(stats)
    assert stats["reward_max"] > 0.5


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_parity_whole_episodes(seed: int, dm_control_resets: None) -> None:
    stats = _run(TASK_ID, "quadruped", "escape", seed)
    assert stats["steps"] == dmc.EPISODE_STEPS
    _check_stats(stats)


@pytest.mark.skipif(
    not (os.environ.get("MUJOCO_GL") or os.environ.get("DISPLAY")),
    reason="no OpenGL backend: apt-get install libosmesa6 (see docs/render.md)",
)
def test_render_one_frame() -> None:
    env = envpool_x.make_dm(TASK_ID, num_envs=2, render_mode="rgb_array")
    env.reset()
    frames = env.render(env_ids=[0, 1])
    assert frames.shape == (2, 240, 320, 3) and frames.dtype == np.uint8
    assert not np.array_equal(frames[0], frames[1])  # their own terrains and poses
    assert frames.std() > 0
    env.close()
