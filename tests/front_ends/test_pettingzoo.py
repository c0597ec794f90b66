"""envpool_x.make_pettingzoo: one env of a multi-agent task as a PettingZoo
ParallelEnv (PettingZoo's own API test; agents leave when tagged; the same
rows as the batched pool)."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x

pettingzoo_test = pytest.importorskip("pettingzoo.test")

GRID = dict(num_taggers=3, grid_length=4, episode_length=30)
CONT = dict(
    num_taggers=2,
    num_runners=4,
    grid_length=2.0,
    episode_length=50,
    num_other_agents_observed=3,
    tagging_distance=0.3,
)


@pytest.mark.parametrize(
    ("task_id", "config"), [("TagGridworld-v0", GRID), ("TagContinuous-v0", CONT)]
)
def test_parallel_api(task_id: str, config: dict) -> None:
    env = envpool_x.make_pettingzoo(task_id, **config)
    pettingzoo_test.parallel_api_test(env, num_cycles=200)


def test_agents_are_named_taggers_then_runners() -> None:
    env = envpool_x.make_pettingzoo("TagContinuous-v0", **CONT)
    assert env.possible_agents == [
        "tagger_0", "tagger_1", "runner_0", "runner_1", "runner_2", "runner_3"
    ]  # fmt: skip
    grid = envpool_x.make_pettingzoo("TagGridworld-v0", **GRID)
    assert grid.possible_agents[-1] == "runner_0" and len(grid.possible_agents) == 4


def test_rows_match_the_pool_and_tagged_runners_leave() -> None:
    par = envpool_x.make_pettingzoo("TagContinuous-v0", seed=9, **CONT)
    pool = envpool_x.make_gymnasium("TagContinuous-v0", num_envs=1, seed=9, **CONT)
    obs, _ = par.reset()
    ref, _ = pool.reset()
    for k, name in enumerate(par.possible_agents):
        np.testing.assert_array_equal(obs[name], ref[0, k])
    rng = np.random.default_rng(0)
    left = set()
    while par.agents:
        act = rng.integers(0, 21, size=(1, 6, 2))
        live = list(par.agents)
        obs, rew, term, trunc, _ = par.step(
            {a: act[0, k] for k, a in enumerate(par.possible_agents) if a in live}
        )
        ref = pool.step(act)
        assert set(obs) == set(live)
        for a in live:
            k = par.possible_agents.index(a)
            np.testing.assert_array_equal(obs[a], ref[0][0, k])
            assert rew[a] == ref[1][0, k]
            if term[a] and not (ref[2][0] or ref[3][0]):
                left.add(a)
                assert not ref[4]["active"][0, k] and a.startswith("runner")
        assert not left & set(par.agents)
    assert left, "no runner was tagged before the episode ended"
    with pytest.raises(RuntimeError, match="call reset"):
        par.step({})


def test_one_env_only() -> None:
    with pytest.raises(ValueError, match="one env"):
        envpool_x.make_pettingzoo("TagGridworld-v0", num_envs=4)


@pytest.mark.parametrize("task_id", ["CartPole-v1", "Pendulum-v1", "Taxi-v3", "MaxCut-v0"])
def test_a_single_agent_task_is_refused_at_once(task_id: str) -> None:
    with pytest.raises(ValueError, match=rf"multi-agent task, but {task_id} has one agent"):
        envpool_x.make_pettingzoo(task_id)


def test_a_tag_config_with_agents_stays_accepted() -> None:
    env = envpool_x.make_pettingzoo("TagGridworld-v0", num_taggers=1)
    assert env.possible_agents == ["tagger_0", "runner_0"]
    env.close()
