"""Toy text spaces, registry entries and options against gymnasium's (FrozenLake's
maps included), and the dm_env specs."""

from __future__ import annotations

import dm_env
import gymnasium as gym
import numpy as np
import pytest
from toy_text_helpers import _gym

import envpool_x


@pytest.mark.parametrize(
    "task, gym_id",
    [
        ("FrozenLake-v1", "FrozenLake-v1"),
        ("FrozenLake8x8-v1", "FrozenLake8x8-v1"),
        ("Taxi-v4", "Taxi-v4"),
        ("Taxi-v3", "Taxi-v4"),
        ("CliffWalking-v1", "CliffWalking-v1"),
        ("CliffWalkingSlippery-v1", "CliffWalkingSlippery-v1"),
        ("CliffWalking-v0", "CliffWalking-v1"),
    ],
)
def test_spaces_and_registry_match_gymnasium(task, gym_id):
    g = gym.spec(gym_id)
    genv = _gym(gym_id, {})
    spec = envpool_x.make_spec(task)
    # Discrete stays Discrete, int64 as gymnasium's (equality checks the dtype).
    assert spec.observation_space == genv.observation_space
    assert spec.action_space == genv.action_space
    assert spec.max_episode_steps == (g.max_episode_steps or 2**31 - 1)
    assert spec.reward_threshold == g.reward_threshold
    env = envpool_x.make_gymnasium(task, num_envs=3)
    obs, info = env.reset()
    assert obs.dtype == np.int64 and all(env.single_observation_space.contains(o) for o in obs)
    assert info["prob"].dtype == np.float64


def test_frozen_lake_options():
    # EnvPool's size key, map_name, and a map given as gymnasium's char array.
    assert envpool_x.make_spec("FrozenLake-v1", size=8).observation_space.n == 64
    assert envpool_x.make_spec("FrozenLake-v1", map_name="8x8").observation_space.n == 64
    assert envpool_x.make_spec("FrozenLake8x8-v1", size=4).observation_space.n == 16
    desc = _gym("FrozenLake-v1", {"desc": ["SFF", "FHG"]}).unwrapped.desc
    spec = envpool_x.make_spec("FrozenLake-v1", desc=desc)
    assert spec.observation_space.n == 6
    env = envpool_x.make_gymnasium("FrozenLake-v1", desc=desc, is_slippery=False)
    env.reset()
    obs, rew, term, _, _ = env.step(np.array([2]))  # right
    obs, rew, term, _, _ = env.step(np.array([1]))  # down: the hole
    assert obs[0] == 4 and term[0] and rew[0] == 0.0


def test_dm_env_specs_and_observations():
    env = envpool_x.make_dm("Taxi-v4", num_envs=4)
    spec = env.observation_spec()
    assert isinstance(spec.obs, dm_env.specs.DiscreteArray)
    assert spec.obs.num_values == 500 and spec.obs.dtype == np.int64
    assert spec.action_mask.shape == (6,) and spec.action_mask.dtype == np.int8
    assert env.action_spec().num_values == 6
    ts = env.reset()
    assert ts.observation.obs.dtype == np.int64
    spec.obs.validate(ts.observation.obs[0])
    spec.action_mask.validate(ts.observation.action_mask[0])
    ts = env.step(np.zeros(4, dtype=np.int32))
    assert (ts.step_type == dm_env.StepType.MID).all()
    bj = envpool_x.make_dm("Blackjack-v1", num_envs=2).observation_spec().obs
    assert bj.shape == (3,) and bj.maximum.tolist() == [31, 10, 1]


def test_frozen_lake_random_map_like_gymnasium_map_name_none():
    # gymnasium: desc=None and map_name=None draw a random valid 8x8 map.
    from gymnasium.envs.toy_text.frozen_lake import is_valid

    env = envpool_x.make_gymnasium("FrozenLake-v1", num_envs=2, map_name=None, desc=None, seed=5)
    desc = [list(row) for row in env.spec.config.desc]
    assert len(desc) == 8 and all(len(row) == 8 for row in desc)
    assert desc[0][0] == "S" and desc[7][7] == "G" and is_valid(desc, 8)
    assert env.single_observation_space.n == 64
    # The pool's seed picks the map: same seed, same map; another seed, another map.
    again = envpool_x.make_spec("FrozenLake-v1", map_name=None, seed=5)
    other = envpool_x.make_spec("FrozenLake-v1", map_name=None, seed=6)
    assert list(again.config.desc) == list(env.spec.config.desc)
    assert list(other.config.desc) != list(env.spec.config.desc)
    obs, _ = env.reset()
    np.testing.assert_array_equal(obs, [0, 0])
    env.close()
