"""CarRacing against gymnasium 1.4.0's, on the same Box2D 2.3 sources.

As for LunarLander (tests/families/test_box2d_lunar.py), our pool env draws its track
from its own stream, so ``_core.CarRacingSim`` (the pool env's world and
renderer) is fed every number gymnasium's env drew. Then, over whole episodes:
the car's state (hull and wheels, float32 as Box2D holds it; the wheels'
float64 spin, phase and controls), every reward and termination are identical
bit for bit, and the 96x96 observation is identical outside the score's box
(we draw the digits with our own glyphs, not pygame's font); inside it the
difference is bounded (docs/box2d.md states the numbers asserted here).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from test_box2d_lunar import RecordingGenerator

from envpool_x import _core
from envpool_x.families.box2d import BUILD_HINT, has_box2d

pytestmark = pytest.mark.skipif(not has_box2d(), reason=BUILD_HINT)

pytest.importorskip("pygame", reason='gymnasium\'s CarRacing needs pip install "pygame"')
car_racing = pytest.importorskip(
    "gymnasium.envs.box2d.car_racing", reason='the oracle needs pip install "gymnasium[box2d]"'
)

# The score's box in the 96x96 frame: the output cells the rendered text (its
# rect from pygame's font, centred at (60, 750) after the flip) can reach.
# Cells are 1000/96 source pixels wide and 800/96 high; a boundary pixel also
# counts in the next cell.
TEXT_ROWS = slice(87, 94)
TEXT_COLS = slice(0, 12)
# Bounds asserted (measured over these tests' frames: no differing pixel
# outside the box; inside it a mean absolute difference per channel value of
# at most 32 in a frame, 17-21 over an episode; see docs/box2d.md).
MAX_TEXT_BOX_FRAME = 36.0
MAX_TEXT_BOX_EPISODE = 24.0
MAX_FRAME_MEAN = 0.32
MAX_FRAME_FRACTION = 0.0065


def _text_box_from_pygame() -> tuple[slice, slice]:
    import pygame

    pygame.font.init()
    font = pygame.font.Font(pygame.font.get_default_font(), 42)
    rects = []
    for text in ("-000", "0000", "1000", "-100", "8888"):
        rect = font.render(text, True, (255, 255, 255), (0, 0, 0)).get_rect()
        rect.center = (60, int(800 - 800 * 2.5 / 40.0))
        rects.append(rect)
    left, right = min(r.left for r in rects), max(r.right for r in rects)
    top, bottom = min(r.top for r in rects), max(r.bottom for r in rects)
    rows = slice(math.floor(top * 96 / 800), math.ceil(bottom * 96 / 800) + 1)
    cols = slice(math.floor(left * 96 / 1000), math.ceil(right * 96 / 1000) + 1)
    return rows, cols


def test_text_box_covers_the_fonts_text() -> None:
    rows, cols = _text_box_from_pygame()
    assert TEXT_ROWS.start <= rows.start and rows.stop <= TEXT_ROWS.stop
    assert TEXT_COLS.start <= cols.start and cols.stop <= TEXT_COLS.stop


def _flat(draws: list[Any]) -> list[float]:
    return [float(v) for d in draws for v in np.ravel(d)]


def _gym_car_state(env: Any) -> list[float]:
    car = env.car
    out: list[float] = []
    for body in [car.hull, *car.wheels]:
        out += [*body.position, body.angle, *body.linearVelocity, body.angularVelocity]
        if body is not car.hull:
            out += [body.joint.angle, body.omega, body.phase, body.gas, body.brake, body.steer]
    # Our order: the hull, then each wheel with its joint and controls.
    return out


def _pursuit(env: Any, continuous: bool) -> Any:
    """Steers towards the track a few tiles ahead; eases off the gas when fast."""
    hull = env.car.hull
    x, y = hull.position
    track = np.asarray(env.track)[:, 2:4]
    near = int(np.argmin(np.sum((track - (x, y)) ** 2, axis=1)))
    tx, ty = track[(near + 4) % len(track)]
    heading = hull.angle + math.pi / 2
    err = math.atan2(ty - y, tx - x) - heading
    err = (err + math.pi) % (2 * math.pi) - math.pi
    speed = math.hypot(*hull.linearVelocity)
    if continuous:
        gas = 0.6 if speed < 30 else 0.0
        return np.array([np.clip(-2.0 * err, -1, 1), gas, 0.0], np.float32)
    if err < -0.15:
        return 1
    if err > 0.15:
        return 2
    return 3 if speed < 25 else 0


class Episode:
    """gymnasium's env and our sim side by side, fed the same draws."""

    def __init__(self, seed: int, **kwargs: Any) -> None:
        self.kwargs = {"continuous": True, "lap_complete_percent": 0.95, "domain_randomize": False}
        self.kwargs.update(kwargs)
        self.env = car_racing.CarRacing(**self.kwargs)
        self.rec = RecordingGenerator(np.random.default_rng(seed))
        self.env._np_random = self.rec  # reset() without a seed keeps it
        self.sim = _core.CarRacingSim(**self.kwargs)
        self.attempts = 0  # gymnasium's _create_track calls in a reset (its retry loop)
        create = self.env._create_track

        def counted() -> bool:
            self.attempts += 1
            return bool(create())

        self.env._create_track = counted
        self.box_diffs: list[float] = []
        self.frame_means: list[float] = []
        self.frame_fractions: list[float] = []

    def reset(self) -> np.ndarray:
        self.attempts = 0
        obs, _ = self.env.reset()
        assert self.sim.build(_flat(self.rec.take())) == 0
        assert self.sim.track_attempts == self.attempts
        np.testing.assert_array_equal(np.asarray(self.sim.track()), np.asarray(self.env.track))
        assert self.sim.step(None) == (0.0, False)
        self.check(obs, "reset")
        return obs

    def step(self, action: Any, where: str) -> tuple[np.ndarray, float, bool]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        assert not truncated
        ours = [float(action), 0.0, 0.0] if isinstance(action, int) else action.tolist()
        our_reward, our_terminated = self.sim.step(ours)
        assert (our_reward, our_terminated) == (float(reward), terminated), where
        # gymnasium says lap_finished only when the episode ends; ours is a column.
        assert self.sim.lap_finished == info.get("lap_finished", False), where
        self.check(obs, where)
        return obs, float(reward), terminated

    def check(self, obs: np.ndarray, where: str) -> None:
        assert self.sim.car_state() == _gym_car_state(self.env), where
        assert self.sim.reward == self.env.reward, where
        assert self.sim.tile_visited_count == self.env.tile_visited_count, where
        diff = np.abs(self.sim.render().astype(np.int16) - obs.astype(np.int16))
        outside = diff.copy()
        outside[TEXT_ROWS, TEXT_COLS] = 0
        assert outside.max() == 0, f"{where}: pixels differ outside the score's box"
        self.box_diffs.append(float(diff[TEXT_ROWS, TEXT_COLS].mean()))
        self.frame_means.append(float(diff.mean()))
        self.frame_fractions.append(float((diff.max(axis=2) > 0).mean()))

    def assert_pixel_bounds(self) -> None:
        assert max(self.box_diffs) <= MAX_TEXT_BOX_FRAME
        assert np.mean(self.box_diffs) <= MAX_TEXT_BOX_EPISODE
        assert max(self.frame_means) <= MAX_FRAME_MEAN
        assert max(self.frame_fractions) <= MAX_FRAME_FRACTION


def _play(ep: Episode, policy: str, steps: int, seed: int) -> tuple[int, float]:
    """One episode (at most ``steps``); returns its length and total reward."""
    rng = np.random.default_rng(seed + 1000)
    cont = bool(ep.kwargs["continuous"])
    ep.reset()
    total = 0.0
    for t in range(steps):
        if policy == "pursuit":
            action = _pursuit(ep.env, cont)
        elif cont:
            action = rng.uniform([-1, 0, 0], [1, 1, 1]).astype(np.float32)
        else:
            action = int(rng.integers(5))
        _, reward, terminated = ep.step(action, f"{policy} {ep.kwargs} step {t}")
        total += reward
        if terminated:
            break
    return t + 1, total


@pytest.mark.parametrize(
    ("continuous", "policy"),
    [
        pytest.param(True, "random", id="random-continuous"),
        # The other combinations: the slow suite (ENVPOOL_X_SLOW=1, tests/conftest.py).
        pytest.param(False, "random", id="random-discrete", marks=pytest.mark.slow),
        pytest.param(True, "pursuit", id="pursuit-continuous", marks=pytest.mark.slow),
        pytest.param(False, "pursuit", id="pursuit-discrete", marks=pytest.mark.slow),
    ],
)
def test_whole_episodes_match_gymnasium(continuous: bool, policy: str) -> None:
    ep = Episode(seed=3 if continuous else 4, continuous=continuous)
    length, total = _play(ep, policy, 1000, seed=7)
    ep.assert_pixel_bounds()
    assert length == 1000
    if policy == "pursuit":  # it follows the road: many tiles, a positive score
        assert ep.env.tile_visited_count > 60 and total > 100


def test_domain_randomize_two_episodes_in_one_world() -> None:
    ep = Episode(seed=11, domain_randomize=True, continuous=False)
    colors = []
    for episode in range(2):
        _play(ep, "pursuit", 150, seed=episode)
        road, bg, grass = ep.sim.colors()
        np.testing.assert_array_equal(road, ep.env.road_color)
        np.testing.assert_array_equal(bg, ep.env.bg_color)
        np.testing.assert_array_equal(grass, ep.env.grass_color)
        colors.append(road)
    assert colors[0] != colors[1]
    ep.assert_pixel_bounds()


def test_a_track_that_needs_a_second_try() -> None:
    # The first walk of this seed does not close into a lap: gymnasium draws
    # new checkpoints; so do we, from the same draws.
    ep = Episode(seed=36)
    length, _ = _play(ep, "pursuit", 60, seed=0)
    assert ep.attempts == 2 and length == 60
    ep.assert_pixel_bounds()


def test_lap_completion_and_the_tile_count() -> None:
    # lap_complete_percent 0: touching tile 0 at reset completes a lap, so the
    # first step ends the episode (gymnasium's info["lap_finished"]).
    ep = Episode(seed=5, lap_complete_percent=0.0)
    ep.reset()
    assert ep.sim.new_lap and ep.env.new_lap
    _, _, terminated = ep.step(np.zeros(3, np.float32), "lap 0.0")
    assert terminated and ep.sim.lap_finished
    # Every tile but tile 2 marked visited (the hook, and gymnasium's own
    # attributes): driving on, the last new tile ends the episode.
    ep = Episode(seed=6)
    ep.reset()
    marked = [i for i in range(len(ep.env.track)) if i != 2 and not ep.env.road[i].road_visited]
    for i in marked:
        ep.env.road[i].road_visited = True
    ep.env.tile_visited_count += len(marked)
    ep.sim.mark_visited(marked)
    rewards = []
    for t in range(200):
        _, reward, terminated = ep.step(np.array([0.0, 0.5, 0.0], np.float32), f"tiles {t}")
        rewards.append(reward)
        if terminated:
            break
    assert terminated and ep.env.tile_visited_count == len(ep.env.track) and ep.sim.lap_finished
    assert rewards[-1] == pytest.approx(1000.0 / len(ep.env.track) - 0.1)
    assert not ep.sim.new_lap


def test_leaving_the_playfield_costs_100() -> None:
    # Straight on, gas up to a speed it can hold without spinning: the car
    # leaves the road and, at last, the field.
    ep = Episode(seed=2)
    ep.reset()
    for t in range(1000):
        gas = 0.4 if math.hypot(*ep.env.car.hull.linearVelocity) < 50 else 0.0
        _, reward, terminated = ep.step(np.array([0.0, gas, 0.0], np.float32), f"off {t}")
        if terminated:
            break
    x, y = ep.env.car.hull.position
    assert terminated and reward == -100.0 and not ep.sim.lap_finished
    assert max(abs(x), abs(y)) > 2000 / 6.0
