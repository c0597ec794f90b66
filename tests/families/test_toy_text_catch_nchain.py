"""Catch and NChain against EnvPool's definitions, and EnvPool itself where the
outcome is deterministic (or, for NChain's slips, statistically)."""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
import pytest

import envpool_x


@pytest.mark.parametrize("kwargs", [{}, {"height": 7, "width": 3}])
def test_catch_matches_envpool(kwargs):
    envpool = pytest.importorskip("envpool")
    theirs = envpool.make_gymnasium("Catch-v0", num_envs=1, seed=1, **kwargs)
    ours = envpool_x.make_gymnasium("Catch-v0", num_envs=1, seed=1, **kwargs)
    assert ours.single_observation_space == theirs.observation_space
    assert ours.single_action_space.n == theirs.action_space.n == 3
    height, width = ours.single_observation_space.shape
    rng = np.random.default_rng(0)

    def sync(obs):
        # Start ours from EnvPool's ball column (our draws differ).
        ball_col = int(np.flatnonzero(obs[0][0])[0])
        ours._pool.set_state(0, np.array([0, ball_col, width // 2], dtype=np.float64))

    t_obs, _ = theirs.reset()
    o_obs, _ = ours.reset()
    sync(t_obs)
    episodes = rewards = 0
    while episodes < 60:
        action = rng.integers(3, size=1).astype(np.int32)
        t_obs, t_rew, t_term, t_trunc, t_info = theirs.step(action)
        o_obs, o_rew, o_term, o_trunc, o_info = ours.step(action)
        assert o_info["elapsed_step"][0] == t_info["elapsed_step"][0]
        if t_info["elapsed_step"][0] == 0:  # both reset: ball on row 0, paddle centred
            assert o_obs[0][0].sum() == 1 and o_obs[0][-1][width // 2] == 1
            sync(t_obs)
            continue
        np.testing.assert_array_equal(o_obs, t_obs)
        assert o_rew[0] == t_rew[0] and o_term[0] == t_term[0] and o_trunc[0] == t_trunc[0]
        episodes += bool(t_term[0])
        rewards += int(t_rew[0] == 1)
    assert 0 < rewards < episodes
    # An episode is height - 1 steps, whatever the actions.
    ours.reset()
    for t in range(1, height):
        _, _, term, _, _ = ours.step(np.array([t % 3]))
        assert bool(term[0]) == (t == height - 1)


def _nchain_reference(s, action, n, small, large):
    """gym 0.20's NChain step without the slip."""
    if action == 1:
        return 0, small
    if s < n - 1:
        return s + 1, 0.0
    return s, large


@pytest.mark.parametrize("kwargs", [{}, {"n": 8, "small": 1.0, "large": 50.0}])
def test_nchain_without_slip_follows_the_chain(kwargs):
    cfg = {"n": 5, "small": 2.0, "large": 10.0, **kwargs}
    env = envpool_x.make_gymnasium("NChain-v0", num_envs=16, seed=0, slip=0.0, **kwargs)
    assert env.single_observation_space == gym.spaces.Discrete(cfg["n"])
    obs, _ = env.reset()
    assert (obs == 0).all()
    rng = np.random.default_rng(1)
    for t in range(1, 1001):
        # Mostly forward, so that the end of the chain is reached.
        actions = (rng.random(16) < 0.1).astype(np.int64)
        expected = [
            _nchain_reference(int(s), int(a), **cfg) for s, a in zip(obs, actions, strict=True)
        ]
        obs, rew, term, trunc, _ = env.step(actions)
        assert obs.tolist() == [e[0] for e in expected]
        assert rew.tolist() == [e[1] for e in expected]
        assert not term.any() and trunc.all() == (t == 1000)
    assert (rew == cfg["large"]).any() or (obs == cfg["n"] - 1).any()


def _slip_share(env, num_envs, steps, rng):
    """The share of steps whose effective action was not the one sent."""
    obs = env.reset()[0]
    slips = total = 0
    for _ in range(steps):
        actions = rng.integers(2, size=num_envs).astype(np.int32)
        new, rew, _, _, info = env.step(actions)
        for s, a, s2, r, k in zip(obs, actions, new, rew, info["elapsed_step"], strict=True):
            if k == 0:
                continue
            went_back = s2 == 0 and r == 2.0
            assert went_back or (r in (0.0, 10.0) and s2 == min(s + 1, 4)), (s, a, s2, r)
            slips += int(went_back) != int(a)
            total += 1
        obs = new
    return slips / total, total


def test_nchain_slips_like_envpool():
    envpool = pytest.importorskip("envpool")
    rng = np.random.default_rng(0)
    ours = envpool_x.make_gymnasium("NChain-v0", num_envs=64, seed=0)
    theirs = envpool.make_gymnasium("NChain-v0", num_envs=64, seed=0)
    assert ours.single_observation_space == gym.spaces.Discrete(5)
    assert ours.spec.max_episode_steps == theirs.spec.config.max_episode_steps == 1000
    for env in (ours, theirs):
        share, total = _slip_share(env, 64, 200, rng)
        assert abs(share - 0.2) < 5 * math.sqrt(0.2 * 0.8 / total), share
