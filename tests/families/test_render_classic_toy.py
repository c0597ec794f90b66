"""Frames of the classic-control envs (C++, envpool_x.render.classic_control) and
of the toy-text envs (gymnasium's images, envpool_x.render.toy_text), drawn
from state vectors: sizes, and the geometry read back from the pictures."""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import pytest

import envpool_x
from envpool_x.render import toy_text
from envpool_x.render.classic_control import classic_frame
from envpool_x.render.toy_text import toy_text_frame

# pool name: (gymnasium's (H, W), two different states)
CLASSIC: dict[str, tuple[tuple[int, int], list[float], list[float]]] = {
    "CartPole": ((400, 600), [0.0, 0.0, 0.05, 0.0], [1.0, 0.0, -0.2, 0.0]),
    "Pendulum": ((500, 500), [0.0, 0.0], [2.0, 0.0]),
    "MountainCar": ((400, 600), [-0.5, 0.0], [0.2, 0.0]),
    "MountainCarContinuous": ((400, 600), [-0.5, 0.0], [0.2, 0.0]),
    "Acrobot": ((500, 500), [0.0, 0.0, 0.0, 0.0], [1.0, -0.5, 0.0, 0.0]),
}
POLE = (202, 152, 101)
WHEEL = (128, 128, 128)
JOINT = (204, 204, 0)
ROD = (204, 77, 77)


def pixels_of(frame: np.ndarray, rgb: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) of the pixels of one colour, y growing upwards from the bottom row."""
    rows, cols = np.nonzero(np.all(frame == np.asarray(rgb, np.uint8), axis=2))
    return cols + 0.5, frame.shape[0] - rows - 0.5


@pytest.mark.parametrize("pool", sorted(CLASSIC))
def test_classic_frame_size_and_determinism(pool: str) -> None:
    (h, w), s1, s2 = CLASSIC[pool]
    a = classic_frame(pool, {}, s1)
    assert a.shape == (h, w, 3) and a.dtype == np.uint8
    assert len(np.unique(a.reshape(-1, 3), axis=0)) >= 3  # background and two shapes
    assert np.array_equal(a, classic_frame(pool, {}, list(s1)))
    assert not np.array_equal(a, classic_frame(pool, {}, s2))


def test_classic_frame_errors() -> None:
    with pytest.raises(ValueError, match="no classic-control frame"):
        classic_frame("Taxi", {}, [0.0])
    with pytest.raises(ValueError, match="4 values"):
        classic_frame("CartPole", {}, [0.0, 0.0])


@pytest.mark.parametrize("theta", [-1.0, -0.3, -0.12, -0.05, 0.04, 0.1, 0.2, 0.5, 1.2])
def test_cartpole_pole_angle_read_back(theta: float) -> None:
    frame = classic_frame("CartPole", {}, [0.3, 0.0, theta, 0.0])
    x, y = pixels_of(frame, POLE)
    assert len(x) > 500  # 10 x 125 pixels, less what the axle covers
    pts = np.stack([x - x.mean(), y - y.mean()], axis=1)
    direction = np.linalg.svd(pts, full_matrices=False)[2][0]
    if direction[1] < 0:
        direction = -direction
    # theta > 0 leans the pole to the right (clockwise from upright).
    measured = math.atan2(direction[0], direction[1])
    assert abs(math.degrees(measured - theta)) < 2.0
    # The pole stands on the cart: its centre is above the axle (7.5 pixels over
    # the track at y = 100), not below.
    assert y.mean() > 107.5


# The cart is fully in view for |x| <= 2.2 (its half width is 25 pixels).
@pytest.mark.parametrize("cart_x", [-2.15, -1.1, -0.25, 0.0, 0.6, 1.7, 2.15])
def test_cartpole_cart_position_read_back(cart_x: float) -> None:
    frame = classic_frame("CartPole", {}, [cart_x, 0.0, 0.0, 0.0])
    black = np.all(frame == 0, axis=2)
    black[400 - 1 - 100] = False  # the track line
    rows, cols = np.nonzero(black)
    assert rows.min() >= 400 - 1 - 116 and rows.max() <= 400 - 1 - 84  # 30 pixels tall
    centre = (cols.min() + cols.max() + 1) / 2
    assert abs(centre - (cart_x * 125 + 300)) <= 1.0  # 125 pixels a unit, 0 in the middle
    assert 49 <= cols.max() - cols.min() + 1 <= 51


def test_mountain_car_moves_right_with_position() -> None:
    xs = []
    for pos in [-1.15, -0.9, -0.6, -0.3, 0.0, 0.25, 0.5]:
        x, y = pixels_of(classic_frame("MountainCar", {}, [pos, 0.0]), WHEEL)
        assert len(x) > 0
        xs.append(x.mean())
        # The wheels sit on the track at the car's position (600 / 1.8 px a unit).
        assert abs(x.mean() - (pos + 1.2) * 600 / 1.8) < 12
        height = (math.sin(3 * pos) * 0.45 + 0.55) * 600 / 1.8
        assert abs(y.mean() - (height + 10)) < 12
    assert all(b > a + 20 for a, b in zip(xs, xs[1:], strict=False))


def test_mountain_car_flag_at_the_goal() -> None:
    for pool, goal in [("MountainCar", 0.5), ("MountainCarContinuous", 0.45)]:
        x, _ = pixels_of(classic_frame(pool, {}, [-0.5, 0.0]), JOINT)
        assert abs(x.min() - (goal + 1.2) * 600 / 1.8) <= 2  # the flag's pole side
    moved = classic_frame("MountainCar", {"goal_position": 0.2}, [-0.5, 0.0])
    assert abs(pixels_of(moved, JOINT)[0].min() - 1.4 * 600 / 1.8) <= 2


@pytest.mark.parametrize("th", [0.0, 0.7, -1.5, 3.0])
def test_pendulum_rod_direction(th: float) -> None:
    x, y = pixels_of(classic_frame("Pendulum", {}, [th, 0.0]), ROD)
    dx, dy = x.mean() - 250, y.mean() - 250
    # th = 0 points up; th > 0 turns counter-clockwise.
    error = math.remainder(math.atan2(-dx, dy) - th, 2 * math.pi)
    assert abs(error) < math.radians(2)


@pytest.mark.parametrize("theta1", [0.0, 0.8, -2.0])
def test_acrobot_second_joint(theta1: float) -> None:
    x, y = pixels_of(classic_frame("Acrobot", {}, [theta1, 0.4, 0.0, 0.0]), JOINT)
    scale = 500 / 4.4
    far = np.hypot(x - 250, y - 250) > scale / 2  # the second joint's circle
    expected = (250 + math.sin(theta1) * scale, 250 - math.cos(theta1) * scale)
    assert abs(x[far].mean() - expected[0]) < 2 and abs(y[far].mean() - expected[1]) < 2


# pool name: (env config, gymnasium's (H, W), two different states)
TOY: dict[str, tuple[dict[str, Any], tuple[int, int], list[float], list[float]]] = {
    "FrozenLake": ({"map_name": "4x4", "desc": []}, (256, 256), [0.0], [6.0]),
    "Taxi": ({}, (456, 536), [328.0, 0.0], [17.0, 0.0]),
    "CliffWalking": ({}, (256, 768), [36.0], [12.0]),
    "Blackjack": ({}, (376, 384), [2.0, 1.0, 7.0, 5.0, 9.0], [3.0, 2.0, 9.0, 4.0, 10.0]),
    "Catch": ({"height": 10, "width": 5}, (320, 160), [0.0, 1.0, 2.0], [4.0, 3.0, 0.0]),
    "NChain": ({"n": 5}, (64, 320), [0.0], [3.0]),
}


@pytest.mark.parametrize("pool", sorted(TOY))
def test_toy_text_frame_size_and_determinism(pool: str) -> None:
    config, (h, w), s1, s2 = TOY[pool]
    a = toy_text_frame(pool, config, s1)
    assert a.shape == (h, w, 3) and a.dtype == np.uint8
    assert len(np.unique(a.reshape(-1, 3), axis=0)) >= 3
    assert np.array_equal(a, toy_text_frame(pool, config, np.asarray(s1)))
    assert not np.array_equal(a, toy_text_frame(pool, config, s2))


def test_toy_text_errors() -> None:
    with pytest.raises(ValueError, match="no toy-text frame"):
        toy_text_frame("CartPole", {}, [0.0])
    with pytest.raises(ValueError, match="2 values"):
        toy_text_frame("Taxi", {}, [0.0])


def gym_image(name: str) -> np.ndarray:
    """gymnasium's own PNG, read here independently of the module under test."""
    import imageio.v3 as iio

    folder = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "toy_text", "img")
    return np.asarray(iio.imread(os.path.join(folder, f"{name}.png")))


def sprite_at(frame: np.ndarray, sprite: np.ndarray, x: int, y: int) -> bool:
    """Whether the opaque pixels of RGBA ``sprite`` are in ``frame`` at (x, y)."""
    h, w = sprite.shape[:2]
    opaque = sprite[:, :, 3] == 255
    return bool(np.array_equal(frame[y : y + h, x : x + w][opaque], sprite[:, :, :3][opaque]))


DEFAULT_4X4 = ["SFFF", "FHFH", "FFFH", "HFFG"]


@pytest.mark.parametrize("s", [0, 1, 6, 9, 14, 5])
def test_frozen_lake_agent_on_its_tile(s: int) -> None:
    frame = toy_text_frame("FrozenLake", {"map_name": "4x4", "desc": []}, [float(s)])
    agent = gym_image("agent")  # 40 x 36, centred on a 64-pixel tile
    found = [t for t in range(16) if sprite_at(frame, agent, t % 4 * 64 + 12, t // 4 * 64 + 14)]
    hole = DEFAULT_4X4[s // 4][s % 4] == "H"
    assert found == ([] if hole else [s])  # in a hole the hole tile hides the agent


def test_frozen_lake_maps() -> None:
    big = toy_text_frame("FrozenLake", {"map_name": "8x8", "desc": []}, [63.0])
    assert big.shape == (512, 512, 3)
    assert toy_text_frame(
        "FrozenLake", {"size": 8, "map_name": "4x4", "desc": []}, [0.0]
    ).shape == (
        512,
        512,
        3,
    )
    assert sprite_at(big, gym_image("agent"), 7 * 64 + 12, 7 * 64 + 14)  # on the goal
    custom = toy_text_frame("FrozenLake", {"desc": ["SFH", "FFG"], "map_name": None}, [4.0])
    assert custom.shape == (128, 192, 3)
    assert sprite_at(custom, gym_image("agent"), 64 + 12, 64 + 14)


@pytest.mark.parametrize("s", [36, 0, 13, 47])
def test_cliff_walking_agent_on_its_tile(s: int) -> None:
    frame = toy_text_frame("CliffWalking", {}, [float(s)])
    agent = gym_image("cliff_walking/agent")
    found = [t for t in range(48) if sprite_at(frame, agent, t % 12 * 64 + 20, t // 12 * 64 + 20)]
    assert found == [s]


def test_taxi_draws_the_taxi_where_the_state_puts_it() -> None:
    taxi = gym_image("taxi/taxi_v")[::-1]  # facing south: we keep no last action
    full = gym_image("taxi/taxi_v_full")[::-1]
    for row, col, passenger in [(0, 0, 1), (2, 3, 2), (4, 4, 4)]:
        s = ((row * 5 + col) * 5 + passenger) * 4 + 3
        frame = toy_text_frame("Taxi", {}, [float(s), 0.0])
        x, y = 48 + col * 88 + 25, 128 + row * 56
        assert sprite_at(frame, full if passenger == 4 else taxi, x, y)
        assert not sprite_at(frame, taxi if passenger == 4 else full, x, y)


def test_blackjack_usable_ace_label() -> None:
    soft = toy_text_frame("Blackjack", {}, [2.0, 1.0, 7.0, 5.0, 9.0])  # 18 with an ace as 11
    hard = toy_text_frame("Blackjack", {}, [2.0, 10.0, 8.0, 5.0, 9.0])  # 18
    rows = np.nonzero(np.any(soft != hard, axis=(1, 2)))[0]
    assert rows.min() >= 328 and rows.max() < 348  # only the "usable ace" label differs
    assert sprite_at(soft, gym_image("blackjack/card_5S"), 96, 72)  # the dealer's card


def test_toy_text_without_imageio_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "imageio.v3", None)
    toy_text._load.cache_clear()
    try:
        with pytest.raises(ImportError, match=r"envpool-x\[render\]"):
            toy_text_frame("Taxi", {}, [0.0, 0.0])
    finally:
        toy_text._load.cache_clear()


def frame_of(task_id: str, state: Sequence[float]) -> np.ndarray:
    spec = envpool_x.make_spec(task_id)
    draw = classic_frame if spec.entry.family == "classic_control" else toy_text_frame
    return draw(spec.entry.pool_name, spec.env_config, state)


@pytest.mark.parametrize(
    "task_id",
    [
        "CartPole-v1",
        "Pendulum-v1",
        "MountainCar-v0",
        "MountainCarContinuous-v0",
        "Acrobot-v1",
        "FrozenLake-v1",
        "FrozenLake8x8-v1",
        "Taxi-v3",
        "CliffWalking-v1",
        "Blackjack-v1",
        "Catch-v0",
        "NChain-v0",
    ],
)
def test_frames_from_a_real_env_state(task_id: str) -> None:
    """The states the envs' GetState() returns are what the drawers read."""
    env = envpool_x.make_gymnasium(task_id, num_envs=1, seed=3)
    env.reset()
    env.step(np.asarray([env.single_action_space.sample()]))
    frame = frame_of(task_id, env.get_state(0))
    env.close()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) >= 3
