"""Engine semantics of episode ends: time limits (max_episode_steps), and the
next_step, same_step and disabled autoreset modes (final_obs / final_info
included)."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x
from envpool_x.spec import make_spec


def test_max_episode_steps_defaults_and_truncation():
    assert make_spec("CartPole-v0").config.max_episode_steps == 200
    assert make_spec("CartPole-v1").config.max_episode_steps == 500
    env = envpool_x.make_gymnasium("Pendulum-v1", num_envs=2, max_episode_steps=5)
    env.reset()
    for k in range(1, 6):
        _, _, term, trunc, info = env.step(np.zeros((2, 1), dtype=np.float32))
        np.testing.assert_array_equal(info["elapsed_step"], [k, k])
        assert not term.any()
        assert trunc.all() == (k == 5)
    env.close()


def test_next_step_autoreset_ignores_action_and_resets():
    kw = dict(num_envs=2, seed=0, max_episode_steps=3)
    a = envpool_x.make_gymnasium("CartPole-v1", **kw)
    b = envpool_x.make_gymnasium("CartPole-v1", **kw)
    a.reset()
    b.reset()
    for _ in range(3):
        oa, ra, ta, tra, ia = a.step(np.array([0, 1]))
        ob, *_ = b.step(np.array([0, 1]))
    assert tra.all()
    # Different actions on the reset step: identical results (action ignored).
    oa, ra, ta, tra, ia = a.step(np.array([0, 0]))
    ob, rb, tb, trb, ib = b.step(np.array([1, 1]))
    np.testing.assert_array_equal(oa, ob)
    np.testing.assert_array_equal(ia["elapsed_step"], [0, 0])
    np.testing.assert_array_equal(ra, [0, 0])
    assert not ta.any() and not tra.any()
    a.close()
    b.close()


# 3 envs run inline on the calling thread; 300 go through the worker queues.
@pytest.mark.parametrize("num_envs", [3, 300])
def test_same_step_autoreset_returns_final_obs(num_envs):
    kw = dict(num_envs=num_envs, seed=0, max_episode_steps=4)
    nxt = envpool_x.make_gymnasium("CartPole-v1", autoreset_mode="next_step", **kw)
    same = envpool_x.make_gymnasium("CartPole-v1", autoreset_mode="same_step", **kw)
    assert same.metadata["autoreset_mode"].name == "SAME_STEP"
    nxt.reset()
    same.reset()
    acts = np.arange(num_envs) % 2
    for k in range(1, 5):
        on, rn, tn, trn, _ = nxt.step(acts)
        os_, rs, ts, trs, info = same.step(acts)
        np.testing.assert_array_equal(rn, rs)
        np.testing.assert_array_equal(tn | trn, ts | trs)
        if k < 4:
            np.testing.assert_array_equal(on, os_)
            assert not info["_final_obs"].any()
    # Step 4 ended every episode (time limit): final_obs is the terminal obs.
    assert info["_final_obs"].all() and info["_final_info"].all()
    np.testing.assert_array_equal(info["final_obs"], on)
    np.testing.assert_array_equal(info["final_info"]["elapsed_step"], [4] * num_envs)
    np.testing.assert_array_equal(info["final_info"]["env_id"], np.arange(num_envs))
    np.testing.assert_array_equal(info["elapsed_step"], [0] * num_envs)
    # The returned obs is the new episode's first obs, as next_step's reset gives it.
    on_reset, *_ = nxt.step(acts)
    np.testing.assert_array_equal(os_, on_reset)
    nxt.close()
    same.close()


def test_disabled_autoreset_requires_explicit_reset():
    env = envpool_x.make_gymnasium(
        "CartPole-v1", num_envs=2, max_episode_steps=2, autoreset_mode="disabled"
    )
    env.reset()
    env.step(np.array([0, 0]))
    final_obs, _, _, trunc, _ = env.step(np.array([0, 0]))
    assert trunc.all()
    with pytest.raises(RuntimeError, match="autoreset_mode='disabled'"):
        env.step(np.array([0, 0]))
    obs, info = env.reset(options={"reset_mask": np.array([True, False])})
    # gymnasium's layout: one row per env, masked rows fresh, others unchanged.
    assert obs.shape == (2, 4)
    np.testing.assert_array_equal(info["_elapsed_step"], [True, False])
    np.testing.assert_array_equal(info["elapsed_step"], [0, 0])
    np.testing.assert_array_equal(obs[1], final_obs[1])
    with pytest.raises(RuntimeError, match="env 1 finished"):
        env.step(np.array([0, 0]))
    _, _, _, _, info = env.step(np.array([1]), env_id=[0])
    np.testing.assert_array_equal(info["elapsed_step"], [1])
    env.close()


@pytest.mark.parametrize("batch_size", [0, 3])
def test_same_step_final_rows_of_live_envs_are_zero(batch_size):
    """final_obs / final_info are dense: rows of envs that did not end this
    step are zero (the output buffers are reused, so stale values would show
    through otherwise), as the README says."""
    env = envpool_x.make_gymnasium(
        "CartPole-v1",
        num_envs=8,
        batch_size=batch_size,
        autoreset_mode="same_step",
        max_episode_steps=3,
        seed=1,
    )
    rows = 0
    if batch_size == 0:
        env.reset()
        results = [env.step(np.ones(8, dtype=np.int32)) for _ in range(12)]
    else:
        env.async_reset()
        results = []
        for _ in range(24):
            out = env.recv()
            results.append(out)
            env.send(np.ones(3, dtype=np.int32), out[4]["env_id"])
    for _, _, term, trunc, info in results:
        mask = info["_final_obs"]
        np.testing.assert_array_equal(mask, term | trunc)
        live = ~mask
        rows += int(live.sum())
        assert np.all(info["final_obs"][live] == 0)
        for key, value in info["final_info"].items():
            if not key.startswith("_"):
                assert np.all(value[live] == 0), key
    assert rows > 0
    env.close()
