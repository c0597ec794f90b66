"""Bad input to the toy text envs: out-of-range and non-integer actions, bad
config values and bad states are refused with clear errors."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x

ALL_TASKS = [
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "Taxi-v4",
    "Taxi-v3",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
    "CliffWalking-v0",
    "Blackjack-v1",
    "Catch-v0",
    "NChain-v0",
]


@pytest.mark.parametrize("task", ALL_TASKS)
def test_bad_actions_are_rejected(task):
    env = envpool_x.make_gymnasium(task, num_envs=2)
    env.reset()
    n = int(env.single_action_space.n)
    for dtype in (np.int32, np.int64):
        for bad in (n, -1):
            with pytest.raises(ValueError, match=f"action {bad} for env 1 is out of range"):
                env.step(np.array([0, bad], dtype=dtype))
    with pytest.raises(TypeError, match="discrete actions must be integers"):
        env.step(np.array([0.0, 1.0]))
    obs, *_ = env.step(np.array([0, n - 1]))  # still usable
    assert (obs[0] if isinstance(obs, tuple) else obs).shape[0] == 2  # Blackjack: a tuple


@pytest.mark.parametrize(
    "task, config, error, match",
    [
        (
            "FrozenLake-v1",
            {"map_name": "5x5"},
            ValueError,
            r"map_name must be one of \['4x4', '8x8'\] or None",
        ),
        ("FrozenLake-v1", {"size": 5}, ValueError, "size must be 4 or 8"),
        ("FrozenLake-v1", {"desc": ["SFF", "FG"]}, ValueError, "same length"),
        ("FrozenLake-v1", {"desc": ["SXF"]}, ValueError, "got 'X'"),
        ("FrozenLake-v1", {"desc": ["FFG"]}, ValueError, "start tile"),
        ("FrozenLake-v1", {"desc": "SFFG"}, TypeError, "expects a sequence of str"),
        ("FrozenLake-v1", {"desc": [1, 2]}, TypeError, "item of type int"),
        (
            "FrozenLake-v1",
            {"success_rate": 1.5},
            ValueError,
            r"success_rate must be a finite number in \[0, 1\]",
        ),
        ("FrozenLake-v1", {"reward_schedule": (1, 0)}, ValueError, "has 2 values: .* list of 3"),
        (
            "FrozenLake-v1",
            {"reward_schedule": ("a", 0, 0)},
            TypeError,
            r"reward_schedule\[0\] must be a number",
        ),
        ("Taxi-v4", {"rainy_probability": -0.1}, ValueError, "rainy_probability must be"),
        ("Taxi-v4", {"fickle_probability": 2.0}, ValueError, "fickle_probability must be"),
        ("Catch-v0", {"height": 1}, ValueError, r"height must be an int in \[2, "),
        ("NChain-v0", {"n": 0}, ValueError, r"n must be an int in \[1, 1073741824\]"),
        ("NChain-v0", {"slip": 1.5}, ValueError, r"slip must be a finite number in \[0, 1\]"),
        ("CliffWalking-v1", {"is_slippery": "yes"}, TypeError, "is_slippery must be a bool"),
    ],
)
def test_bad_config_is_rejected(task, config, error, match):
    with pytest.raises(error, match=match):
        envpool_x.make_gymnasium(task, num_envs=1, **config)


@pytest.mark.parametrize(
    "task, state, match",
    [
        ("FrozenLake-v1", [16], r"must be an integer in \[0, 15\]"),
        ("FrozenLake-v1", [1, 2], "must have 1 value"),
        ("Taxi-v4", [3], "must have 2 values"),
        ("Taxi-v4", [500, 0], r"in \[0, 499\]"),
        ("CliffWalking-v1", [0.5], "must be an integer"),
        ("Blackjack-v1", [2, 1, 10], "1 to 21 cards"),
        ("Blackjack-v1", [2, 1, 11, 5], "Blackjack card"),
        ("Catch-v0", [9, 0, 0], "ball_row"),
        ("NChain-v0", [5], r"in \[0, 4\]"),
    ],
)
def test_bad_state_is_rejected(task, state, match):
    env = envpool_x.make_gymnasium(task, num_envs=1)
    env.reset()
    with pytest.raises(ValueError, match=match):
        env._pool.set_state(0, np.array(state, dtype=np.float64))
