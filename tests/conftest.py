"""Shared helpers for the tests."""

from __future__ import annotations

import numpy as np

CLASSIC_TASKS = [
    "CartPole-v0",
    "CartPole-v1",
    "Pendulum-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Acrobot-v1",
]


def action_for(space, env_id: int, k: int):
    """A fixed, env- and step-dependent action (no RNG state shared across envs)."""
    h = (env_id * 7919 + k * 104729) % 1000
    if hasattr(space, "n"):
        return h % int(space.n)
    low = np.broadcast_to(space.low, space.shape)
    high = np.broadcast_to(space.high, space.shape)
    return (low + (high - low) * (h / 999.0)).astype(np.float32)
