"""Shared by the DeepMind Control tests (tests/families/test_dmc*.py): the
spec check against dm_control and the run that proves trajectories do not
depend on the thread count."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import envpool_x


def assert_spec_matches(spec: Any, theirs: Any) -> None:
    """Observation fields (names, order, shapes, dtypes) and action bounds
    equal dm_control's; gymnasium's view is a Dict of the same fields in
    float64 (EnvPool's layout). The time limit is checked by each caller:
    it differs between domains."""
    dm_obs = spec.observation_spec()
    their_obs = theirs.observation_spec()
    assert [o["name"] for o in spec._desc["obs"]] == list(their_obs), "fields and their order"
    for name, s in their_obs.items():
        assert getattr(dm_obs, name).shape == s.shape and getattr(dm_obs, name).dtype == s.dtype
    act = theirs.action_spec()
    assert spec.action_space.shape == act.shape
    np.testing.assert_array_equal(spec.action_space.low, act.minimum.astype(np.float32))
    np.testing.assert_array_equal(spec.action_space.high, act.maximum.astype(np.float32))
    gym_space = spec.observation_space
    assert list(gym_space.spaces) == list(their_obs)
    for name, s in their_obs.items():
        assert gym_space[name].shape == s.shape and gym_space[name].dtype == np.float64


def _trace(task_id: str, num_envs: int, steps: int, threads: int) -> np.ndarray:
    env = envpool_x.make_gymnasium(task_id, num_envs=num_envs, num_threads=threads, seed=3)
    rng = np.random.default_rng(0)
    obs, _ = env.reset()
    trace = [np.concatenate([v.reshape(num_envs, -1) for v in obs.values()], axis=1)]
    for _ in range(steps):
        a = rng.uniform(-1, 1, (num_envs, *env.single_action_space.shape)).astype(np.float32)
        obs, reward, _, _, _ = env.step(a)
        trace.append(np.concatenate([v.reshape(num_envs, -1) for v in obs.values()], axis=1))
        trace.append(reward[:, None].astype(np.float64))
    env.close()
    return np.concatenate(trace, axis=1)


def assert_same_trajectories_for_any_thread_count(task_id: str, num_envs: int, steps: int) -> None:
    """Trajectories depend on the seed and actions only, not on num_threads."""
    np.testing.assert_array_equal(
        _trace(task_id, num_envs, steps, 1), _trace(task_id, num_envs, steps, 2)
    )


@pytest.fixture(autouse=True)
def collect_garbage_between_tests() -> Iterator[None]:
    """Garbage from a failed test is collected here, not inside dm_control: a
    collection that frees a dm_control GL context while dm_control holds its
    executor pool's lock waits on that lock forever. Autouse: a pixel test
    module imports it to have it."""
    yield
    gc.collect()
