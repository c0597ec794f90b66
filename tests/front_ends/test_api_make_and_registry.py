"""The public Python API's entry points: make / make_gymnasium / make_gym /
make_dm, list_all_envs, register, and make_spec against gymnasium's specs."""

from __future__ import annotations

import uuid

import dm_env
import gymnasium
import numpy as np
import pytest
from dm_env import specs

import envpool_x
from conftest import CLASSIC_TASKS

CLASSIC = CLASSIC_TASKS

# The registry is global to the process: ids registered here get a suffix
# that no other test (or a second run in the same process) can collide with.
_SUFFIX = uuid.uuid4().hex[:8]


# ---- make* / list_all_envs / register ---------------------------------------


def test_list_all_envs_has_every_classic_task():
    ids = envpool_x.list_all_envs()
    assert isinstance(ids, list)
    assert set(CLASSIC) <= set(ids)
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(
    "factory",
    [
        envpool_x.make,
        envpool_x.make_gymnasium,
        envpool_x.make_gym,
        lambda task, **kw: envpool_x.make(task, env_type="gym", **kw),
    ],
)
def test_make_variants_give_a_gymnasium_vector_env(factory):
    env = factory("CartPole-v1", num_envs=2)
    try:
        assert isinstance(env, envpool_x.GymnasiumEnvPool)
        assert isinstance(env, gymnasium.vector.VectorEnv)
        # EnvPool 1.x: even env_type="gym" speaks the gymnasium API.
        out = env.reset()
        assert isinstance(out, tuple) and len(out) == 2
        assert len(env.step(np.zeros(2, dtype=np.int32))) == 5
    finally:
        env.close()


@pytest.mark.parametrize(
    "factory", [envpool_x.make_dm, lambda task, **kw: envpool_x.make(task, env_type="dm", **kw)]
)
def test_make_dm_variants_give_a_dm_env(factory):
    env = factory("CartPole-v1", num_envs=2)
    try:
        assert isinstance(env, envpool_x.DmEnvPool)
        assert isinstance(env, dm_env.Environment)
        assert isinstance(env.reset(), dm_env.TimeStep)
    finally:
        env.close()


def test_make_rejects_unknown_env_type():
    with pytest.raises(ValueError, match="env_type"):
        envpool_x.make("CartPole-v1", env_type="gym3")


def test_register_new_id_on_existing_pool():
    task = f"CartPoleShort{_SUFFIX}-v0"
    envpool_x.register(task, "CartPole", "classic_control", 50)
    assert task in envpool_x.list_all_envs()
    assert envpool_x.make_spec(task).config.max_episode_steps == 50
    env = envpool_x.make_gymnasium(task, num_envs=2)
    try:
        assert env.spec.id == task
        assert env.spec.config.max_episode_steps == 50
        assert env.config["max_episode_steps"] == 50
        obs, _ = env.reset()
        # Push towards where the pole is falling: this keeps CartPole up for
        # hundreds of steps, so the episode ends by the 50-step truncation.
        for _ in range(50):
            obs, _, term, trunc, info = env.step((obs[:, 2] + obs[:, 3] > 0).astype(np.int32))
            assert not term.any()
        assert trunc.all()
        np.testing.assert_array_equal(info["elapsed_step"], [50, 50])
    finally:
        env.close()


def test_register_with_env_defaults_and_threshold():
    task = f"CartPoleSB{_SUFFIX}-v0"
    envpool_x.register(task, "CartPole", "classic_control", 100, 90.0, sutton_barto_reward=True)
    spec = envpool_x.make_spec(task)
    assert spec.config.sutton_barto_reward is True
    assert spec.reward_threshold == 90.0
    # The original id keeps its defaults.
    assert envpool_x.make_spec("CartPole-v1").config.sutton_barto_reward is False
    env = envpool_x.make_gymnasium(task, num_envs=2)
    try:
        env.reset()
        rewards, terms = [], []
        for _ in range(30):  # always right: terminates within ~10 steps
            _, rew, term, _, _ = env.step(np.ones(2, dtype=np.int32))
            rewards.append(rew)
            terms.append(term)
        rewards, terms = np.stack(rewards), np.stack(terms)
        assert terms.any()
        # Sutton & Barto reward: -1 on termination, 0 otherwise.
        np.testing.assert_array_equal(rewards, np.where(terms, -1.0, 0.0))
    finally:
        env.close()


def test_register_rejects_existing_id_and_bad_pool_or_key():
    with pytest.raises(ValueError, match="CartPole-v1"):
        envpool_x.register("CartPole-v1", "CartPole", "classic_control", 500)
    task = f"Bad{_SUFFIX}-v0"
    with pytest.raises(KeyError, match="NoSuchPool"):
        envpool_x.register(task, "NoSuchPool", "classic_control", 10)
    with pytest.raises(KeyError, match="not_a_key"):
        envpool_x.register(task, "CartPole", "classic_control", 10, not_a_key=1)
    assert task not in envpool_x.list_all_envs()
    # The registry still works for the original.
    assert envpool_x.make_spec("CartPole-v1").config.max_episode_steps == 500


# ---- make_spec -----------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:.*CartPole-v0 is out of date")
@pytest.mark.parametrize("task", CLASSIC)
def test_make_spec_matches_gymnasium(task):
    spec = envpool_x.make_spec(task)
    assert isinstance(spec, envpool_x.EnvSpec)
    ref = gymnasium.make(task)
    try:
        assert spec.id == task
        assert spec.observation_space == ref.observation_space
        assert spec.action_space == ref.action_space
        assert spec.config.max_episode_steps == ref.spec.max_episode_steps
        assert spec.max_episode_steps == ref.spec.max_episode_steps
        assert spec.reward_threshold == ref.spec.reward_threshold
        assert spec.config.reward_threshold == ref.spec.reward_threshold
    finally:
        ref.close()
    obs_spec = spec.observation_spec()
    assert obs_spec.obs.shape == ref.observation_space.shape
    assert obs_spec.obs.dtype == ref.observation_space.dtype
    act_spec = spec.action_spec()
    if isinstance(ref.action_space, gymnasium.spaces.Discrete):
        assert isinstance(act_spec, specs.DiscreteArray)
        assert act_spec.num_values == ref.action_space.n
    else:
        assert act_spec.shape == ref.action_space.shape
        np.testing.assert_array_equal(act_spec.minimum, ref.action_space.low)
        np.testing.assert_array_equal(act_spec.maximum, ref.action_space.high)


def test_make_spec_config_overrides():
    spec = envpool_x.make_spec("Pendulum-v1", num_envs=8, batch_size=4, max_episode_steps=7)
    assert spec.config.num_envs == 8 and spec.config.batch_size == 4
    assert spec.config.max_episode_steps == 7 and spec.max_episode_steps == 7
    assert spec.config_dict()["num_envs"] == 8
    assert envpool_x.make_spec("Pendulum-v1", num_envs=8).config.batch_size == 8
