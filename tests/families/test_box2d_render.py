"""LunarLander's and BipedalWalker's rgb_array frames against gymnasium 1.4.0's.

gymnasium draws them with pygame 2.6 (filled polygons, SDL_gfx and pygame
anti-aliased outlines, lines, discs); ours are drawn in C++ by the same
algorithms (cpp/envs/box2d/pygame_raster.h, pygame_draw.h). The simulators
(``_core.LunarLanderSim`` / ``_core.BipedalWalkerSim``) replay gymnasium's
random draws, as in the parity tests, and both sides are rendered after the
reset and after every step, across an episode's end and the next reset.

The bound: frames are asserted identical, every pixel and channel. Antialiased
pygame polygons usually only come close, but here each primitive reproduces
pygame's integer and float arithmetic, and we measured no differing pixel over
every frame these tests draw (1,100 frames; with the slow ones 6,700, scrolls up
to 30 m, up to 13 live particles), so any looser bound would only hide a
regression. On a mismatch the message gives the share of differing pixels
and of the non-background mask (the bodies) that moved, to tell a
rasterisation slip from a wrong camera, colour or body.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from envpool_x import _core

pytest.importorskip("pygame", reason='gymnasium draws with pygame: pip install "gymnasium[box2d]"')
lunar_lander = pytest.importorskip(
    "gymnasium.envs.box2d.lunar_lander", reason='the oracle needs pip install "gymnasium[box2d]"'
)
bipedal_walker = pytest.importorskip("gymnasium.envs.box2d.bipedal_walker")

from test_box2d_lunar import FULL, RecordingGenerator  # noqa: E402

# Pixels of the plain backgrounds (LunarLander's white ground and black sky,
# BipedalWalker's sky): what the mask of bodies leaves out.
BACKGROUNDS = ((255, 255, 255), (0, 0, 0), (215, 215, 255))


def body_mask(frame: np.ndarray) -> np.ndarray:
    """Pixels that are none of the plain backgrounds."""
    mask = np.ones(frame.shape[:2], bool)
    for colour in BACKGROUNDS:
        mask &= ~(frame == colour).all(-1)
    return mask


def assert_same_frame(ours: np.ndarray, theirs: np.ndarray, where: str) -> None:
    assert ours.shape == theirs.shape == (400, 600, 3), where
    assert ours.dtype == np.uint8, where
    if np.array_equal(ours, theirs):
        return
    differ = (ours != theirs).any(-1)
    moved = body_mask(ours) ^ body_mask(theirs)
    raise AssertionError(
        f"{where}: {differ.mean():.4%} of the pixels differ (largest difference "
        f"{np.abs(ours.astype(int) - theirs.astype(int)).max()}), {moved.sum()} pixels "
        f"in or out of the bodies' mask of {body_mask(theirs).sum()}"
    )


def _lunar(config: dict[str, Any], seed: int, episodes: int = 2) -> tuple[int, int]:
    """``episodes`` consecutive episodes of random actions, rendered at every
    step; returns the frames compared and the most particles alive at once."""
    kwargs = {**FULL, **config}
    env = lunar_lander.LunarLander(render_mode="rgb_array", **kwargs)
    rec = RecordingGenerator(np.random.default_rng(seed))
    env._np_random = rec  # reset() without a seed keeps it
    sim = _core.LunarLanderSim(**kwargs, particles=True)
    actions = np.random.default_rng(seed)
    frames = most = 0
    for episode in range(episodes):
        obs, _ = env.reset()
        draws = rec.take()
        idx = (int(draws[3]), int(draws[4])) if kwargs["enable_wind"] else (0, 0)
        sim.build(list(draws[0]), draws[1], draws[2], *idx)
        sim.step([0.0, 0.0], *draws[-2:])
        for t in range(1000):
            where = f"config {config}, seed {seed}, episode {episode}, step {t}"
            assert_same_frame(sim.render(), env.render(), where)
            frames += 1
            if kwargs["continuous"]:
                action: Any = actions.uniform(-1, 1, 2).astype(np.float32)
                a = [float(action[0]), float(action[1])]
            else:
                # The main engine half the time: many particles.
                action = int(actions.choice(4, p=[0.1, 0.2, 0.5, 0.2]))
                a = [float(action), 0.0]
            obs, _, terminated, _, _ = env.step(action)
            ours, _, our_terminated = sim.step(a, *rec.take())
            # The particles do not disturb the lander: the state is gymnasium's.
            np.testing.assert_array_equal(np.asarray(ours, np.float32), obs, err_msg=where)
            theirs = [(p.position[0], p.position[1], float(p.ttl)) for p in env.particles]
            assert np.array_equal(
                np.asarray(sim.particles(), np.float32).reshape(-1, 3),
                np.asarray(theirs, np.float32).reshape(-1, 3),
            ), where
            most = max(most, len(theirs))
            assert our_terminated == terminated, where
            if terminated:  # the frame of the end, then the next episode's
                assert_same_frame(sim.render(), env.render(), where + " (the end)")
                frames += 1
                break
    return frames, most


LUNAR_CONFIGS = [{}, {"continuous": True}, {"enable_wind": True, "gravity": -6.0}]


@pytest.mark.parametrize("config", LUNAR_CONFIGS, ids=lambda c: ",".join(c) or "default")
def test_lunar_lander_frames_match_gymnasium(config: dict[str, Any]) -> None:
    frames, most = _lunar(config, seed=0)
    assert frames > 60
    assert most >= 3  # particles were drawn, several at once


@pytest.mark.slow
@pytest.mark.parametrize("config", LUNAR_CONFIGS, ids=lambda c: ",".join(c) or "default")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lunar_lander_frames_match_gymnasium_more_seeds(config: dict[str, Any], seed: int) -> None:
    _lunar(config, seed, episodes=3)


def _walker(hardcore: bool, seed: int, steps: int) -> tuple[int, float]:
    """gymnasium's heuristic walker (it walks: the view scrolls) for up to
    ``steps`` steps, then a second episode of random actions in the same world
    until it ends or 120 steps; returns the frames compared and the furthest
    scroll."""
    env = bipedal_walker.BipedalWalker(hardcore=hardcore, render_mode="rgb_array")
    rec = RecordingGenerator(np.random.default_rng(seed))
    env._np_random = rec
    sim = _core.BipedalWalkerSim(hardcore)
    actions = np.random.default_rng(seed + 100)
    frames, furthest = 0, 0.0
    for episode, limit in enumerate((steps, 120)):
        obs, _ = env.reset()
        assert sim.build([float(v) for v in rec.take()]) == 0
        sim.step([0.0] * 4)
        pilot = bipedal_walker.BipedalWalkerHeuristics()
        for t in range(limit):
            where = f"hardcore {hardcore}, seed {seed}, episode {episode}, step {t}"
            assert_same_frame(sim.render(), env.render(), where)
            frames += 1
            furthest = max(furthest, env.scroll)
            if episode == 0:
                action = np.asarray(pilot.step_heuristic(obs), np.float32)
            else:
                action = actions.uniform(-1, 1, 4).astype(np.float32)
            obs, _, terminated, _, _ = env.step(action)
            ours, _, our_terminated = sim.step(action.tolist())
            np.testing.assert_array_equal(np.asarray(ours, np.float32), obs, err_msg=where)
            assert our_terminated == terminated, where
            if terminated:
                break
        assert_same_frame(sim.render(), env.render(), f"{where} (the last frame)")
        frames += 1
    return frames, furthest


@pytest.mark.parametrize("hardcore", [False, True], ids=["normal", "hardcore"])
def test_bipedal_walker_frames_match_gymnasium(hardcore: bool) -> None:
    frames, furthest = _walker(hardcore, seed=0, steps=160)
    assert frames > 150
    assert furthest > 4.0  # more than 120 pixels of scroll


@pytest.mark.slow
@pytest.mark.parametrize("hardcore", [False, True], ids=["normal", "hardcore"])
@pytest.mark.parametrize("seed", [1, 2])
def test_bipedal_walker_frames_match_gymnasium_long(hardcore: bool, seed: int) -> None:
    _walker(hardcore, seed, steps=600)
