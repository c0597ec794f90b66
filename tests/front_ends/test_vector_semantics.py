"""gymnasium's vector protocol, step by step: our pool against
``gymnasium.make_vec(..., vectorization_mode="sync")`` in each autoreset mode.

Both run CartPole-v1 with a short time limit (terminations and truncations
both happen) from the same states: after every reset, our env's state is
copied into gymnasium's sub-env, so everything but a fresh episode's first
observation (drawn from different random streams) must agree exactly.
"""

from __future__ import annotations

import dataclasses

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import envpool_x

N = 4
STEPS = 60
LIMIT = 12


def _pair(mode: str):
    ours = envpool_x.make_gymnasium(
        "CartPole-v1", num_envs=N, autoreset_mode=mode, max_episode_steps=LIMIT
    )
    spec = dataclasses.replace(gymnasium.spec("CartPole-v1"), max_episode_steps=LIMIT)
    theirs = gymnasium.make_vec(
        spec,
        num_envs=N,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": AutoresetMode(ours.metadata["autoreset_mode"])},
    )
    return ours, theirs


def _copy_states(ours, theirs, rows) -> None:
    """Our state of each env in ``rows`` into gymnasium's."""
    for i in rows:
        theirs.envs[i].unwrapped.state = np.array(ours.get_state(int(i)), dtype=np.float64)


def _actions(rng: np.random.Generator) -> np.ndarray:
    return rng.integers(0, 2, N).astype(np.int64)


def _step_both(ours, theirs, rng: np.random.Generator):
    """One step of both with the same actions; reward, terminated and
    truncated must agree (observations are compared by each mode's rules)."""
    a = _actions(rng)
    result, g_result = ours.step(a), theirs.step(a)
    np.testing.assert_array_equal(result[1], g_result[1].astype(np.float32))
    np.testing.assert_array_equal(result[2], g_result[2])
    np.testing.assert_array_equal(result[3], g_result[3])
    return result, g_result


def test_metadata_modes_match():
    for mode in ("next_step", "same_step", "disabled"):
        ours, theirs = _pair(mode)
        assert ours.metadata["autoreset_mode"] == theirs.metadata["autoreset_mode"]
        assert ours.single_action_space == theirs.single_action_space
        ours.close()
        theirs.close()


def test_next_step_protocol():
    ours, theirs = _pair("next_step")
    ours.reset(seed=1)
    theirs.reset(seed=1)
    _copy_states(ours, theirs, range(N))
    rng = np.random.default_rng(0)
    ended = np.zeros(N, bool)
    resets = 0
    for _ in range(STEPS):
        (obs, rew, term, trunc, _), (g_obs, *_) = _step_both(ours, theirs, rng)
        # The step after an ended one resets: reward 0, not done, both sides.
        np.testing.assert_array_equal(rew[ended], 0.0)
        live = ~ended
        np.testing.assert_array_equal(obs[live], g_obs[live])
        if ended.any():
            resets += int(ended.sum())
            _copy_states(ours, theirs, np.flatnonzero(ended))
        ended = term | trunc
    assert resets >= N  # episodes ended by both terminations and the limit
    ours.close()
    theirs.close()


def test_same_step_protocol():
    ours, theirs = _pair("same_step")
    ours.reset(seed=2)
    theirs.reset(seed=2)
    _copy_states(ours, theirs, range(N))
    rng = np.random.default_rng(1)
    saw_truncation = saw_termination = False
    for _ in range(STEPS):
        (obs, _, term, trunc, info), (g_obs, *_, g_info) = _step_both(ours, theirs, rng)
        done = term | trunc
        np.testing.assert_array_equal(obs[~done], g_obs[~done])
        if done.any():
            np.testing.assert_array_equal(info["_final_obs"], g_info["_final_obs"])
            np.testing.assert_array_equal(info["_final_info"], g_info["_final_info"])
            for i in np.flatnonzero(done):
                np.testing.assert_array_equal(info["final_obs"][i], g_info["final_obs"][i])
            _copy_states(ours, theirs, np.flatnonzero(done))
            saw_truncation |= bool(trunc.any())
            saw_termination |= bool(term.any())
        else:
            assert "final_obs" not in g_info
    assert saw_truncation and saw_termination
    ours.close()
    theirs.close()


def test_disabled_protocol_with_reset_mask():
    ours, theirs = _pair("disabled")
    ours.reset(seed=3)
    theirs.reset(seed=3)
    _copy_states(ours, theirs, range(N))
    rng = np.random.default_rng(2)
    masked_resets = 0
    for _ in range(STEPS):
        (obs, _, term, trunc, _), (g_obs, *_) = _step_both(ours, theirs, rng)
        np.testing.assert_array_equal(obs, g_obs)
        done = term | trunc
        if done.any():
            r_obs, r_info = ours.reset(options={"reset_mask": done})
            g_r_obs, g_r_info = theirs.reset(options={"reset_mask": done})
            assert r_obs.shape == g_r_obs.shape
            # Rows not reset keep their latest observation on both sides.
            np.testing.assert_array_equal(r_obs[~done], g_r_obs[~done])
            _copy_states(ours, theirs, np.flatnonzero(done))
            masked_resets += 1
    assert masked_resets >= 2
    ours.close()
    theirs.close()


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_gymnasium_enum_is_accepted_everywhere(mode):
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2, autoreset_mode=mode)
    assert env.metadata["autoreset_mode"] is mode
    env.close()
    vec = gymnasium.make_vec(
        "envpool_x/CartPole-v1",
        num_envs=2,
        vectorization_mode="vector_entry_point",
        autoreset_mode=mode,
    )
    assert vec.metadata["autoreset_mode"] is mode
    vec.close()
