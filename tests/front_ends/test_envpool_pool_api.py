"""EnvPool's pool methods on both front ends: ``seed``, ``all_env_ids``,
``is_async``, and EnvPool's dict action form with ``players.env_id`` on the
multi-agent Tag tasks (docs/differences.md, docs/multi_agent.md)."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x as envpool  # the way EnvPool code is pointed at us

SMALL_TAG = {"num_taggers": 2, "num_runners": 3}  # 5 agents per env


def _obs(step):
    return np.asarray(step.observation.obs)


def test_dm_seed_applies_at_the_next_reset():
    env = envpool.make_dm("CartPole-v1", num_envs=3)
    seeds = env.seed(7)
    assert len(seeds) == 3 and len(set(seeds)) == 3
    assert seeds == envpool.make_gymnasium("CartPole-v1", num_envs=3).seed(7)
    first = _obs(env.reset())
    np.testing.assert_array_equal(first, _obs(env.reset(seed=7)))
    assert not np.array_equal(_obs(env.reset()), first)  # the pending seed was used up
    assert env.seed(7) and env.seed(None) == []  # None cancels it
    assert not np.array_equal(_obs(env.reset()), first)
    env.close()


def test_dm_seed_applies_where_a_step_starts_the_sequence():
    """dm_env's step before reset is a reset: it takes the pending seed too."""
    seeded = envpool.make_dm("CartPole-v1", num_envs=2)
    expected = _obs(seeded.reset(seed=11))
    env = envpool.make_dm("CartPole-v1", num_envs=2)
    env.seed(11)
    started = env.step(np.zeros(2, np.int32))
    np.testing.assert_array_equal(started.step_type, [0, 0])  # FIRST
    np.testing.assert_array_equal(_obs(started), expected)
    env.close()
    seeded.close()


def test_seed_applies_to_async_reset_on_both_front_ends():
    gym_env = envpool.make_gymnasium("CartPole-v1", num_envs=2)
    expected, _ = gym_env.reset(seed=5)
    gym_env.seed(5)
    gym_env.async_reset()
    obs, *_, info = gym_env.recv()
    np.testing.assert_array_equal(obs[np.argsort(info["env_id"])], expected)
    dm_env = envpool.make_dm("CartPole-v1", num_envs=2)
    dm_env.seed(5)
    dm_env.async_reset()
    step = dm_env.recv()
    np.testing.assert_array_equal(_obs(step)[np.argsort(step.observation.env_id)], expected)
    gym_env.close()
    dm_env.close()


@pytest.mark.parametrize("make", [envpool.make_gymnasium, envpool.make_dm])
def test_seed_errors_name_the_range(make):
    env = make("CartPole-v1", num_envs=2)
    with pytest.raises(ValueError, match=r"seed must be in \[0, 2\*\*64\), got -1"):
        env.seed(-1)
    with pytest.raises(TypeError, match="seed must be an int or None, got float"):
        env.seed(1.5)
    with pytest.raises(TypeError, match="got bool"):
        env.seed(True)
    env.close()


@pytest.mark.parametrize("make", [envpool.make_gymnasium, envpool.make_dm])
def test_all_env_ids_and_is_async(make):
    env = make("CartPole-v1", num_envs=4, batch_size=2)
    np.testing.assert_array_equal(env.all_env_ids, np.arange(4))
    assert env.all_env_ids.dtype == np.int32
    assert env.is_async
    assert not make("CartPole-v1", num_envs=4).is_async
    env.close()


def test_spec_has_envpools_gymnasium_space_names():
    spec = envpool.make_spec("Pendulum-v1")
    assert spec.gymnasium_observation_space is spec.observation_space
    assert spec.gymnasium_action_space is spec.action_space


# ---- players.env_id on the multi-agent tasks ---------------------------------


TAGS = [("TagGridworld-v0", {}), ("TagContinuous-v0", SMALL_TAG)]


@pytest.mark.parametrize(("task", "config"), TAGS)
def test_envpool_player_rows_step_like_the_agent_axis(task, config):
    """EnvPool's form, one action row per player with ``players.env_id`` naming
    each row's env, steps the same as our ``(n, num_agents, ...)`` actions."""
    ours = envpool.make_gymnasium(task, num_envs=3, seed=4, **config)
    theirs = envpool.make_gymnasium(task, num_envs=3, seed=4, **config)
    ours.reset()
    theirs.reset()
    agents = ours.num_agents
    rng = np.random.default_rng(0)
    for _ in range(5):
        action = np.stack([ours.action_space.sample() for _ in range(3)])
        rows = action.reshape(3 * agents, *action.shape[2:])
        a = ours.step(action)
        players = np.repeat(np.arange(3), agents)  # each row's env, EnvPool's layout
        b = theirs.step({"action": rows, "env_id": np.arange(3), "players.env_id": players})
        for x, y in zip(a[:4], b[:4], strict=True):
            np.testing.assert_array_equal(x, y)
        ids = rng.permutation(3)[:2].astype(np.int32)
        sub = action[ids]
        players = np.repeat(ids, agents).reshape(2, agents)  # the agent axis form
        np.testing.assert_array_equal(
            ours.step(sub, ids)[0], theirs.step({"action": sub, "players.env_id": players}, ids)[0]
        )
    ours.close()
    theirs.close()


def test_players_env_id_must_name_every_agent_of_each_env():
    env = envpool.make_gymnasium("TagGridworld-v0", num_envs=2)
    env.reset()
    action = np.zeros((2, env.num_agents), np.int64)
    with pytest.raises(ValueError, match="must list each env id 5 times .* got \\[0, 1\\]"):
        env.step({"action": action, "players.env_id": np.arange(2)})
    with pytest.raises(ValueError, match="expected \\[1, 1, 1, 1, 1\\]"):
        env.step({"action": action[:1], "env_id": [1], "players.env_id": [0] * 5})
    env.send({"action": action.reshape(-1), "players.env_id": np.repeat(np.arange(2), 5)})
    obs, *_ = env.recv()
    assert obs.shape == (2, 5, 21)
    env.close()


def test_dm_front_end_takes_player_rows():
    env = envpool.make_dm("TagGridworld-v0", num_envs=2)
    rows = {"action": np.zeros(10, np.int64), "players.env_id": np.repeat([0, 1], 5)}
    np.testing.assert_array_equal(env.step(rows).step_type, [0, 0])  # starts them (dm_env)
    step = env.step(rows)
    np.testing.assert_array_equal(step.step_type, [1, 1])
    assert step.reward.shape == (2, 5)
    env.close()


def test_single_agent_players_env_id_covers_every_env():
    env = envpool.make_gymnasium("CartPole-v1", num_envs=3)
    env.reset()
    env.step({"action": np.zeros(3, np.int32), "players.env_id": np.arange(3)})
    with pytest.raises(ValueError, match="players.env_id must equal env_id row for row"):
        env.step({"action": np.zeros(3, np.int32), "players.env_id": np.arange(2)})
    env.close()


def test_tag_array_specs_carry_the_agent_axis():
    spec = envpool.make_spec("TagContinuous-v0", **SMALL_TAG)
    state, action = spec.state_array_spec, spec.action_array_spec
    assert state["obs"].shape == spec.observation_space.shape
    assert state["reward"].shape == state["info:players.env_id"].shape == (5,)
    assert state["discount"].shape == state["done"].shape == ()  # one per env
    assert state["info:active"].shape == (5,)
    assert action["players.env_id"].shape == (5,)
    assert action["action"].shape == (5, 2)
    assert (action["action"].minimum, action["action"].maximum) == (0, 20)
    grid = envpool.make_spec("TagGridworld-v0").action_array_spec["action"]
    assert grid.shape == (5,) and (grid.minimum, grid.maximum) == (0, 4)
