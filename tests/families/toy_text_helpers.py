"""Shared by the toy text tests (tests/families/test_toy_text_*.py): gymnasium's
env, the oracle, built without its env checker."""

from __future__ import annotations

import gymnasium as gym


def _gym(gym_id, kwargs):
    return gym.make(gym_id, disable_env_checker=True, **kwargs)
