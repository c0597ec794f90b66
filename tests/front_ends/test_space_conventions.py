"""The two conventions for spaces (docs/usage.md, "Two conventions for spaces"):

- ``gymnasium.make_vec("envpool_x/...")`` is a gymnasium ``VectorEnv`` like any
  other: ``observation_space`` / ``action_space`` are batched (``num_envs`` rows),
  ``single_*`` are one env's, and gymnasium's own vector utilities run on it.
- ``envpool_x.make_gymnasium`` follows EnvPool: ``observation_space`` /
  ``action_space`` are one env's (what code written for EnvPool, Tianshou and
  CleanRL read), so ``action_space.sample()`` is one env's action and a utility
  that samples the batch from it fails. ``single_*`` are there too: code that
  reads ``single_*`` runs on both entries.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.performance import benchmark_vector_step
from gymnasium.vector.utils import batch_space
from gymnasium.wrappers import vector as vector_wrappers

import envpool_x

TASKS = ["CartPole-v1", "Pendulum-v1", "MiniGrid-Empty-5x5-v0", "Blackjack-v1", "TagGridworld-v0"]


def make_vec(task: str, num_envs: int = 3, **config):
    return gymnasium.make_vec(
        f"envpool_x/{task}", num_envs=num_envs, vectorization_mode="vector_entry_point", **config
    )


def _skip_missing(task: str) -> None:
    if task not in envpool_x.list_all_envs():
        pytest.skip(f"{task} is not in this build")


@pytest.mark.parametrize("task", TASKS)
def test_make_vec_spaces_are_batched(task):
    _skip_missing(task)
    env = make_vec(task)
    assert env.observation_space == batch_space(env.single_observation_space, 3)
    assert env.action_space == batch_space(env.single_action_space, 3)
    assert env.single_action_space == envpool_x.make_spec(task).action_space
    assert np.shape(env.action_space.sample())[:1] == (3,)
    env.close()


@pytest.mark.parametrize("task", TASKS)
def test_make_gymnasium_spaces_are_one_envs(task):
    _skip_missing(task)
    env = envpool_x.make_gymnasium(task, num_envs=3)
    assert env.action_space is env.single_action_space
    assert env.observation_space is env.single_observation_space
    assert env.action_space.sample() in env.single_action_space  # one env's action
    env.close()


@pytest.mark.parametrize("task", TASKS)
def test_gymnasium_benchmark_vector_step_runs_on_make_vec(task):
    _skip_missing(task)
    env = make_vec(task, seed=0)
    assert benchmark_vector_step(env, target_duration=0.05, seed=0) > 0  # type: ignore[arg-type]
    env.close()


def test_gymnasium_benchmark_vector_step_fails_on_make_gymnasium():
    """It samples the batch from ``action_space``: one env's action here."""
    env = envpool_x.make_gymnasium("Pendulum-v1", num_envs=3)
    with pytest.raises(ValueError, match=r"action has shape \(1,\) but 3 envs need shape \(3, 1\)"):
        benchmark_vector_step(env, target_duration=0.05)  # type: ignore[arg-type]
    env.close()


def test_gymnasium_vector_wrappers_on_make_vec():
    """RecordEpisodeStatistics, NormalizeObservation and ClipAction stacked on a
    make_vec pool, stepped with samples of the pool's batched ``action_space``
    (scaled past its bounds: ClipAction brings them back)."""
    env = make_vec("Pendulum-v1", num_envs=4, seed=1, max_episode_steps=10)
    wrapped = vector_wrappers.ClipAction(
        vector_wrappers.NormalizeObservation(vector_wrappers.RecordEpisodeStatistics(env))
    )
    assert wrapped.action_space.shape == env.action_space.shape == (4, 1)
    assert wrapped.observation_space.shape == (4, 3)
    env.action_space.seed(0)
    obs, _ = wrapped.reset(seed=1)
    assert obs.shape == (4, 3)
    episodes = 0
    for _ in range(12):
        obs, _, terminated, truncated, info = wrapped.step(env.action_space.sample() * 3)
        assert obs.shape == (4, 3) and np.isfinite(obs).all()
        if "episode" in info:
            episodes += int(info["_episode"].sum())
            np.testing.assert_array_equal(info["episode"]["l"][info["_episode"]], 10)
    assert episodes == 4  # every env truncated once at 10 steps
    wrapped.close()


def test_episode_statistics_of_a_multi_agent_pool_need_one_reward_per_env():
    """docs/multi_agent.md: RecordEpisodeStatistics sums one reward per env."""
    env = make_vec("TagGridworld-v0", episode_length=5)
    wrapped = vector_wrappers.RecordEpisodeStatistics(
        vector_wrappers.TransformReward(env, lambda reward: reward[:, 0])
    )
    wrapped.reset(seed=0)
    lengths = []
    for _ in range(6):
        *_, info = wrapped.step(env.action_space.sample())
        if "episode" in info:
            lengths += info["episode"]["l"][info["_episode"]].tolist()
    assert lengths and set(lengths) <= {1, 2, 3, 4, 5}
    wrapped.close()


def test_flatten_observation_on_make_vec():
    """A wrapper that reads the batched ``observation_space`` (so it needs make_vec)."""
    _skip_missing("MiniGrid-Empty-5x5-v0")
    env = vector_wrappers.FlattenObservation(make_vec("MiniGrid-Empty-5x5-v0"))
    obs, _ = env.reset(seed=0)
    flat = gymnasium.spaces.flatdim(env.unwrapped.single_observation_space)
    assert obs.shape == env.observation_space.shape == (3, flat)
    env.close()


def _portable_rollout(env, steps: int = 20) -> np.ndarray:
    """Code written once for both entries: it reads ``single_*`` and ``num_envs``."""
    actions = batch_space(env.single_action_space, env.num_envs)
    actions.seed(3)
    obs, _ = env.reset(seed=3)
    seen = [obs]
    for _ in range(steps):
        obs, *_ = env.step(actions.sample())
        seen.append(obs)
    env.close()
    return np.stack(seen)


@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1", "TagGridworld-v0"])
def test_code_reading_single_spaces_runs_on_both_entries(task):
    vec = _portable_rollout(make_vec(task))
    ours = _portable_rollout(envpool_x.make_gymnasium(task, num_envs=3))
    np.testing.assert_array_equal(vec, ours)
