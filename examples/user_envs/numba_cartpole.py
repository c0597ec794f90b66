"""CartPole written as a user's numba env (envpool_x.register_numba_env), the
same dynamics as the built-in CartPole-v1: the tests check that both give the
same trajectories from the same seed; benchmarks/bench_user_envs.py compares
their speed."""

from __future__ import annotations

import math

import numpy as np
from gymnasium import spaces

GRAVITY, MASS_POLE, TOTAL_MASS, LENGTH = 9.8, 0.1, 0.1 + 1.0, 0.5
POLE_MASS_LENGTH, FORCE_MAG, TAU = 0.1 * 0.5, 10.0, 0.02
X_THRESHOLD, THETA_THRESHOLD = 2.4, 12 * 2 * math.pi / 360


def reset(state, obs, rand):
    for i in range(4):
        state[i] = -0.05 + (0.05 - -0.05) * rand[i]  # the engine's Uniform(-0.05, 0.05)
        obs[i] = state[i]


def step(state, action, obs, rand):
    force = FORCE_MAG if action == 1 else -FORCE_MAG
    costheta = math.cos(state[2])
    sintheta = math.sin(state[2])
    temp = (force + POLE_MASS_LENGTH * (state[3] * state[3]) * sintheta) / TOTAL_MASS
    thetaacc = (GRAVITY * sintheta - costheta * temp) / (
        LENGTH * (4.0 / 3.0 - MASS_POLE * (costheta * costheta) / TOTAL_MASS)
    )
    xacc = temp - POLE_MASS_LENGTH * thetaacc * costheta / TOTAL_MASS
    state[0] = state[0] + TAU * state[1]
    state[1] = state[1] + TAU * xacc
    state[2] = state[2] + TAU * state[3]
    state[3] = state[3] + TAU * thetaacc
    for i in range(4):
        obs[i] = state[i]
    terminated = (
        state[0] < -X_THRESHOLD
        or state[0] > X_THRESHOLD
        or state[2] < -THETA_THRESHOLD
        or state[2] > THETA_THRESHOLD
    )
    return 1.0, terminated


def register(task_id: str = "NumbaCartPole-v1") -> str:
    """Register this CartPole as ``task_id`` (500-step limit, as CartPole-v1)."""
    import envpool_x

    envpool_x.register_numba_env(
        task_id,
        reset,
        step,
        state_size=4,
        reset_random=4,
        observation_space=spaces.Box(-np.inf, np.inf, (4,), np.float32),
        action_space=spaces.Discrete(2),
        max_episode_steps=500,
        reward_threshold=475.0,
    )
    return task_id
