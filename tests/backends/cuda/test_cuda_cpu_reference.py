"""The GPU path's kernel body, run on the CPU (device="cpu-reference"), against
the thread-pool engine: same seed, same actions -> bit-identical results, in
every autoreset mode, with time limits, subset steps, seeded and partial resets.

These tests need no GPU: the host loop runs the very ENVPOOL_X_HD row function
that the CUDA kernel runs, so a GPU session only has to confirm the thin CUDA
layer (tests/backends/cuda/test_cuda.py). Errors on this path:
test_cuda_cpu_reference_errors.py; DLPack and torch: test_cuda_cpu_reference_dlpack.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from cpu_reference_helpers import assert_same, draw_actions, make_pair

import envpool_x
from conftest import CLASSIC_TASKS
from envpool_x import _core

MODES = ["next_step", "same_step", "disabled"]


def ended(result):
    _, _, term, trunc, info = result
    return np.flatnonzero(np.asarray(term) | np.asarray(trunc))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("task", CLASSIC_TASKS)
def test_reference_matches_thread_pool(task, mode):
    n = 16
    cpu, ref = make_pair(
        task, num_envs=n, seed=3, autoreset_mode=mode, max_episode_steps=23, num_threads=2
    )
    rng = np.random.default_rng(0)
    assert_same(cpu.reset(), ref.reset())
    pending: set[int] = set()  # disabled mode: ended envs, to reset before stepping
    ends = 0
    for t in range(120):
        if t == 40:  # re-seed everything mid-run
            assert_same(cpu.reset(seed=11), ref.reset(seed=11))
            pending.clear()
            continue
        if t == 70:  # a partial reset, with per-env seeds
            ids = np.array([5, 1, 9])
            seeds = [7, 8, 9]
            assert_same(cpu.reset(env_id=ids, seed=seeds), ref.reset(env_id=ids, seed=seeds))
            pending -= set(ids.tolist())
            continue
        if t % 5 == 3:  # a subset step, ids out of order
            ids = np.array([i for i in rng.permutation(n)[:6] if i not in pending])
            if ids.size == 0:
                continue
            act = draw_actions(cpu.single_action_space, ids.size, rng)
            a, b = cpu.step(act, env_id=ids), ref.step(act, env_id=ids)
            assert_same(a, b, f"subset step {t}")
            done = ids[ended(a)]
        else:
            if pending:
                ids = np.array(sorted(pending))
                assert_same(cpu.reset(env_id=ids), ref.reset(env_id=ids), f"reset at {t}")
                pending.clear()
            act = draw_actions(cpu.single_action_space, n, rng)
            a, b = cpu.step(act), ref.step(act)
            assert_same(a, b, f"step {t}")
            done = ended(a)
        ends += done.size
        if mode == "disabled":
            pending |= set(done.tolist())
    assert ends > n  # the time limit (23) alone guarantees several ends per env
    for e in range(n):
        np.testing.assert_array_equal(cpu.get_state(e), ref.get_state(e))
    cpu.close()
    ref.close()


@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1", "MountainCarContinuous-v0"])
def test_reset_mask_matches_thread_pool(task):
    n = 8
    cpu, ref = make_pair(task, num_envs=n, seed=5, autoreset_mode="disabled", max_episode_steps=9)
    rng = np.random.default_rng(1)
    assert_same(cpu.reset(), ref.reset())
    for t in range(30):
        act = draw_actions(cpu.single_action_space, n, rng)
        a, b = cpu.step(act), ref.step(act)
        assert_same(a, b, f"step {t}")
        mask = np.asarray(a[2]) | np.asarray(a[3])
        if t % 4 == 0:
            mask[rng.integers(0, n)] = True
        if mask.any():
            opts = {"reset_mask": mask}
            assert_same(cpu.reset(options=opts, seed=t), ref.reset(options=opts, seed=t))


@pytest.mark.parametrize("task", ["CartPole-v1", "Acrobot-v1", "Pendulum-v1"])
def test_dm_env_matches_thread_pool(task):
    n = 6
    cpu = envpool_x.make_dm(task, num_envs=n, seed=2, max_episode_steps=15)
    ref = envpool_x.make_dm(task, num_envs=n, seed=2, max_episode_steps=15, device="cpu-reference")
    rng = np.random.default_rng(2)
    space = envpool_x.make_spec(task).action_space
    assert_same(tuple(cpu.reset()), tuple(ref.reset()))
    for t in range(40):
        act = draw_actions(space, n, rng)
        a, b = cpu.step(act), ref.step(act)
        assert_same(tuple(a[:3]), tuple(b[:3]), f"dm step {t}")
        assert_same(tuple(a.observation), tuple(b.observation), f"dm obs {t}")


def test_async_send_recv_and_int32_actions():
    cpu, ref = make_pair("CartPole-v1", num_envs=5, seed=9)
    cpu.async_reset()
    ref.async_reset()
    assert_same(cpu.recv(), ref.recv())
    act = np.array([1, 0, 1, 1, 0], dtype=np.int32)
    cpu.send(act)
    ref.send(act)
    assert_same(cpu.recv(), ref.recv())
    with pytest.raises(RuntimeError, match="nothing in flight"):
        ref.recv()


def test_reset_draws_the_documented_philox_numbers():
    """The kernel body draws env e's reset from Philox stream DeriveEnvSeed(seed, e),
    draws 0..3, as uniforms in [-0.05, 0.05): the numbers a GPU must reproduce."""
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=3, seed=17, device="cpu-reference")
    env.reset()
    for e in range(3):
        u = np.asarray(_core.philox_uniform(_core.derive_env_seed(17, e), 0, 4))
        np.testing.assert_array_equal(env.get_state(e), -0.05 + 0.1 * u)
    # A second reset continues the stream (draws 4..7).
    env.reset(env_id=[1])
    u = np.asarray(_core.philox_uniform(_core.derive_env_seed(17, 1), 4, 4))
    np.testing.assert_array_equal(env.get_state(1), -0.05 + 0.1 * u)


def test_philox_known_answer():
    # Philox4x32-10 of counter 0 under key 0 is (0x6627e8d5, 0xe169c58d, ...)
    # (the Random123 known-answer vector); a draw is the first two words.
    assert _core.philox_uniform(0, 0, 1)[0] == (0x6627E8D5E169C58D >> 11) / 2.0**53


def test_set_state_round_trip_and_errors():
    env = envpool_x.make_gymnasium("MountainCarContinuous-v0", num_envs=2, device="cpu-reference")
    env.reset()
    env._pool.set_state(1, [-0.5, 0.01])
    np.testing.assert_array_equal(env.get_state(1), [-0.5, 0.01])
    with pytest.raises(ValueError, match="state must have 2 values, got 3"):
        env._pool.set_state(0, [0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="out of range"):
        env.get_state(2)
