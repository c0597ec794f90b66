"""render() of the LunarLander and BipedalWalker pools: the frames through the
front ends (sizes, ids, determinism, the frame shows the env whose observation
the step returned), the errors every family gives, human mode, and
LunarLander's exhaust particles (made only with a render_mode, as gymnasium
does, and without effect on the observations). The frames themselves are
checked against gymnasium's in test_box2d_render.py."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import envpool_x
import envpool_x.render

TASKS = [
    "LunarLander-v3",
    "LunarLanderContinuous-v3",
    "BipedalWalker-v3",
    "BipedalWalkerHardcore-v3",
]
NOT_RESET = r"env 0 has not been reset; call reset\(\) before render"


def _actions(space: Any, num_envs: int, rng: np.random.Generator) -> np.ndarray:
    if hasattr(space, "n"):
        return rng.integers(0, int(space.n), num_envs)
    return rng.uniform(-1, 1, (num_envs, *space.shape)).astype(np.float32)


@pytest.mark.parametrize("task", TASKS)
def test_frames_through_the_front_ends(task: str) -> None:
    env = envpool_x.make_gymnasium(task, num_envs=3, seed=5, render_mode="rgb_array")
    with pytest.raises(RuntimeError, match=NOT_RESET):
        env.render()
    env.reset()
    first = env.render()
    assert first.shape == (1, 400, 600, 3) and first.dtype == np.uint8
    frames = env.render(env_ids=[2, 0])
    assert frames.shape == (2, 400, 600, 3)
    np.testing.assert_array_equal(frames[1], first[0])
    assert not np.array_equal(frames[0], frames[1])  # another terrain
    np.testing.assert_array_equal(env.render(), first)  # drawing changes nothing
    rng = np.random.default_rng(0)
    for _ in range(20):
        env.step(_actions(env.single_action_space, 3, rng))
    moved = env.render()
    assert not np.array_equal(moved, first)
    # The same seed and actions give the same frames (another pool, dm_env).
    dm = envpool_x.make_dm(task, num_envs=3, seed=5, render_mode="rgb_array")
    dm.reset()
    rng = np.random.default_rng(0)
    for _ in range(20):
        dm.step(_actions(env.single_action_space, 3, rng))
    np.testing.assert_array_equal(dm.render(), moved)


def test_lunar_lander_frame_shows_the_observed_lander() -> None:
    # Where the lander's purple fill is, against the observation's position:
    # x = 10 + 10 * obs[0] m, y = obs[1] * 20 / 3 + (100 + 18) / 30 m, 30 px
    # a metre, y up (the frame is flipped). The fill's centre is within 1 px
    # of the origin across and 3.3 px above it, up to 4.3 px off when tilted
    # (measured); a wrong camera, scale or flip misses by far more.
    env = envpool_x.make_gymnasium("LunarLander-v3", num_envs=2, seed=3, render_mode="rgb_array")
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    for step in range(40):
        frames = env.render([0, 1])
        for i in range(2):
            if obs[i, 4] ** 2 > 0.04:  # tilted: its centre moves off the origin
                continue
            ys, xs = np.nonzero((frames[i] == (128, 102, 230)).all(-1))
            x = (10 + 10 * obs[i, 0]) * 30
            y = 400 - (obs[i, 1] * 20 / 3 + 118 / 30) * 30
            assert abs(xs.mean() - x) < 2.5 and abs(ys.mean() - y) < 6, (step, i)
        obs, *_ = env.step(rng.integers(0, 4, 2))


def test_bipedal_walker_view_follows_the_hull() -> None:
    # gymnasium scrolls so that the hull's origin stays 120 px from the left:
    # its purple fill's columns centre there (118.5 to 119.8 px measured; the
    # hull's polygon reaches from -30 to +34 px), wherever the walker is.
    env = envpool_x.make_gymnasium("BipedalWalker-v3", num_envs=1, seed=0, render_mode="rgb_array")
    env.reset()
    for _ in range(120):
        env.step(np.array([[1.0, 0.5, -1.0, 0.5]], np.float32))
        xs = np.nonzero((env.render()[0] == (127, 51, 229)).all(-1))[1]
        assert xs.size > 100
        assert 116 < xs.mean() < 122


def test_exhaust_particles_follow_render_mode() -> None:
    def run(render_mode: str | None) -> tuple[np.ndarray, int]:
        env = envpool_x.make_gymnasium(
            "LunarLander-v3", num_envs=2, seed=9, render_mode=render_mode
        )
        rows = [env.reset()[0]]
        red = 0
        for _ in range(60):
            rows.append(env.step(np.array([2, 2]))[0])  # the main engine
            if render_mode is not None:
                # Particles fade from white through red: pixels of red hue.
                r, g, b = env.render()[0].astype(int).transpose(2, 0, 1)
                red += int(((r > g + 40) & (g == b)).sum())
        return np.stack(rows), red

    plain, _ = run(None)
    drawn, red = run("rgb_array")
    np.testing.assert_array_equal(plain, drawn)  # particles do not move the lander
    assert red > 0
    with pytest.raises(ValueError, match="exhaust_particles is set from render_mode"):
        envpool_x.make_gymnasium("LunarLander-v3", num_envs=1, exhaust_particles=True)
    with pytest.raises(ValueError, match="exhaust_particles is set from render_mode"):
        envpool_x.make_gymnasium(
            "LunarLander-v3", num_envs=1, render_mode="rgb_array", exhaust_particles=False
        )
    # The value render_mode implies stays accepted, as every key's default given again.
    envpool_x.make_gymnasium("LunarLander-v3", num_envs=1, exhaust_particles=False)


def test_render_modes_as_other_families(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="render_mode must be None or one of"):
        envpool_x.make_gymnasium("BipedalWalker-v3", num_envs=1, render_mode="rgb")
    env = envpool_x.make_gymnasium("LunarLander-v3", num_envs=1)
    env.reset()
    with pytest.warns(UserWarning, match="without render_mode"):
        assert env.render() is None
    shown: list[np.ndarray] = []
    monkeypatch.setattr(envpool_x.render, "show", shown.append)
    for task in ("LunarLander-v3", "BipedalWalker-v3"):
        human = envpool_x.make_gymnasium(task, num_envs=2, seed=1, render_mode="human")
        frames = envpool_x.make_gymnasium(task, num_envs=2, seed=1, render_mode="rgb_array")
        human.reset(), frames.reset()
        assert human.render() is None
        np.testing.assert_array_equal(shown[-1], frames.render()[0])
