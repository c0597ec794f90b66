"""Every bad input named in the core issue: a clear, typed exception, and the
env keeps working afterwards."""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pytest

import envpool_x


@pytest.fixture
def cartpole():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4)
    env.reset()
    yield env
    env.close()


@pytest.fixture
def pendulum():
    env = envpool_x.make_gymnasium("Pendulum-v1", num_envs=3)
    env.reset()
    yield env
    env.close()


def still_works(env, n=None):
    n = env.num_envs if n is None else n
    if hasattr(env.single_action_space, "n"):
        act = np.zeros(n, dtype=np.int32)
    else:
        act = np.zeros((n, *env.single_action_space.shape), dtype=np.float32)
    obs, rew, term, trunc, info = env.step(act)
    assert obs.shape[0] == n


def test_unknown_task_suggests_close_matches():
    with pytest.raises(KeyError, match="CartPole-v1"):
        envpool_x.make_gymnasium("CartPole-v2")
    with pytest.raises(KeyError, match="unknown task id 'NoSuchTask-v0'"):
        envpool_x.make_spec("NoSuchTask-v0")


def test_unknown_config_key_lists_valid_ones():
    with pytest.raises(KeyError, match=r"num_evns.*valid keys.*num_envs"):
        envpool_x.make_gymnasium("CartPole-v1", num_evns=4)


def test_env_config_type_errors():
    with pytest.raises(TypeError, match=r"Pendulum-v1: g must be a finite number \(.*\), got str"):
        envpool_x.make_gymnasium("Pendulum-v1", g="strong")
    with pytest.raises(TypeError, match="num_envs must be an int"):
        envpool_x.make_gymnasium("CartPole-v1", num_envs=2.5)


def test_num_envs_below_one():
    with pytest.raises(ValueError, match="num_envs must be >= 1, got 0"):
        envpool_x.make_gymnasium("CartPole-v1", num_envs=0)


def test_batch_size_above_num_envs():
    with pytest.raises(ValueError, match="batch_size=5 must not exceed num_envs=4"):
        envpool_x.make_gymnasium("CartPole-v1", num_envs=4, batch_size=5)


def test_bad_autoreset_mode_and_env_type():
    with pytest.raises(ValueError, match="autoreset_mode must be one of"):
        envpool_x.make_gymnasium("CartPole-v1", autoreset_mode="sometimes")
    with pytest.raises(ValueError, match="env_type must be one of"):
        envpool_x.make("CartPole-v1", env_type="gym3")


def test_seed_list_of_wrong_length():
    with pytest.raises(ValueError, match="seed list has 2 entries but num_envs=3"):
        envpool_x.make_gymnasium("CartPole-v1", num_envs=3, seed=[1, 2])
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=3)
    with pytest.raises(ValueError, match="seed list has 2 entries but 3 envs"):
        env.reset(seed=[1, 2])
    with pytest.raises(ValueError, match=r"seed must be in \[0, 2\*\*64\)"):
        env.reset(seed=-1)
    with pytest.raises(TypeError, match="seed must be an int or a sequence of ints"):
        env.reset(seed=1.5)
    env.reset()
    still_works(env)
    env.close()


def test_wrong_action_length(cartpole):
    with pytest.raises(ValueError, match=r"action has shape \(3,\) but 4 envs need shape \(4,\)"):
        cartpole.step(np.zeros(3, dtype=np.int32))
    still_works(cartpole)


def test_wrong_action_shape(pendulum):
    with pytest.raises(
        ValueError, match=r"action has shape \(3, 2\) but 3 envs need shape \(3, 1\)"
    ):
        pendulum.step(np.zeros((3, 2), dtype=np.float32))
    with pytest.raises(ValueError, match="action has shape"):
        pendulum.step(np.float32(0.0))
    still_works(pendulum)


def test_wrong_action_dtype(cartpole, pendulum):
    with pytest.raises(TypeError, match="discrete actions must be integers, got dtype float32"):
        cartpole.step(np.zeros(4, dtype=np.float32))
    with pytest.raises(TypeError, match="continuous actions must be real numbers"):
        pendulum.step(np.array([["a"], ["b"], ["c"]]))
    with pytest.raises(TypeError, match="got dtype object"):
        cartpole.step(object())
    still_works(cartpole)
    still_works(pendulum)


def test_int64_and_float64_actions_are_cast(cartpole, pendulum):
    _, _, _, _, info = cartpole.step(np.ones(4, dtype=np.int64))
    np.testing.assert_array_equal(info["elapsed_step"], [1] * 4)
    _, _, _, _, info = pendulum.step(np.ones((3, 1), dtype=np.float64))
    np.testing.assert_array_equal(info["elapsed_step"], [1] * 3)
    _, _, _, _, info = cartpole.step([0, 1, 0, 1])  # a plain list works too
    np.testing.assert_array_equal(info["elapsed_step"], [2] * 4)


def test_discrete_action_out_of_range(cartpole):
    with pytest.raises(ValueError, match=r"action 2 for env 1 is out of range \[0, 2\)"):
        cartpole.step(np.array([0, 2, 0, 0]))
    with pytest.raises(ValueError, match=r"action -1 for env 0 is out of range"):
        cartpole.step(np.array([-1, 0, 0, 0], dtype=np.int64))
    with pytest.raises(ValueError, match=r"out of range"):
        cartpole.step(np.array([2**40, 0, 0, 0], dtype=np.int64))
    still_works(cartpole)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_continuous_action(pendulum, bad):
    act = np.zeros((3, 1), dtype=np.float32)
    act[2, 0] = bad
    with pytest.raises(ValueError, match="action for env 2 is not finite"):
        pendulum.step(act)
    still_works(pendulum)


def test_env_id_out_of_range(cartpole):
    with pytest.raises(ValueError, match=r"env_id 4 is out of range \[0, 4\)"):
        cartpole.step(np.zeros(1, dtype=np.int32), env_id=[4])
    with pytest.raises(ValueError, match=r"env_id -1 is out of range"):
        cartpole.reset(env_id=[-1])
    with pytest.raises(TypeError, match="env_id must be a sequence of integers"):
        cartpole.step(np.zeros(1, dtype=np.int32), env_id=[1.0])
    still_works(cartpole)


def test_env_id_repeated(cartpole):
    with pytest.raises(ValueError, match="env_id 1 appears more than once"):
        cartpole.step(np.zeros(2, dtype=np.int32), env_id=[1, 1])
    with pytest.raises(ValueError, match="env_id 0 appears more than once"):
        cartpole.reset(env_id=[0, 2, 0])
    still_works(cartpole)


def test_send_before_reset():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2)
    with pytest.raises(RuntimeError, match="env 0 has not been reset"):
        env.send(np.zeros(2, dtype=np.int32))
    with pytest.raises(RuntimeError, match="has not been reset"):
        env.step(np.zeros(2, dtype=np.int32))
    env.reset()
    still_works(env)
    env.close()


def test_send_to_env_in_flight():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, batch_size=2)
    env.async_reset()
    with pytest.raises(RuntimeError, match="already has work in flight"):
        env.send(np.zeros(1, dtype=np.int32), env_id=[0])
    env.close()


@pytest.mark.parametrize("autoreset_mode", ["next_step", "disabled"])
def test_send_to_env_in_flight_after_its_worker_ran(autoreset_mode):
    """The check must not read an in-flight env's state: its worker may be
    writing it. The sleep lets the workers finish first, so that under
    ThreadSanitizer (scripts/sanitize_python.sh) such a read is a race every
    time, not only when the timing happens to overlap."""
    env = envpool_x.make_gymnasium(
        "CartPole-v1", num_envs=4, batch_size=2, num_threads=2, autoreset_mode=autoreset_mode
    )
    for _ in range(3):
        env.async_reset()
        time.sleep(0.02)
        for i in range(4):
            with pytest.raises(RuntimeError, match="already has work in flight"):
                env.send(np.zeros(1, dtype=np.int32), env_id=[i])
        assert sorted(env.recv()[4]["env_id"].tolist() + env.recv()[4]["env_id"].tolist()) == [
            0,
            1,
            2,
            3,
        ]
    env.close()


def test_recv_with_nothing_in_flight(cartpole):
    with pytest.raises(RuntimeError, match="recv\\(\\) with nothing in flight"):
        cartpole.recv()
    still_works(cartpole)
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, batch_size=2)
    env.async_reset()
    env.recv()
    env.recv()
    with pytest.raises(RuntimeError, match="recv\\(\\) would wait forever: 0 envs in flight"):
        env.recv()
    env.send(np.zeros(1, dtype=np.int32), env_id=[0])
    with pytest.raises(RuntimeError, match="1 envs in flight but batch_size=2"):
        env.recv()
    env.send(np.zeros(1, dtype=np.int32), env_id=[3])
    _, _, _, _, info = env.recv()
    assert sorted(info["env_id"].tolist()) == [0, 3]
    env.close()


def test_calls_after_close_raise(cartpole):
    cartpole.close()
    cartpole.close()  # idempotent
    for call in (
        lambda: cartpole.step(np.zeros(4, dtype=np.int32)),
        lambda: cartpole.reset(),
        lambda: cartpole.send(np.zeros(4, dtype=np.int32)),
        lambda: cartpole.recv(),
        lambda: cartpole.async_reset(),
    ):
        with pytest.raises(RuntimeError, match="the env is closed"):
            call()


def test_dm_calls_after_close_raise():
    env = envpool_x.make_dm("CartPole-v1", num_envs=2)
    env.reset()
    env.close()
    env.close()
    with pytest.raises(RuntimeError, match="the env is closed"):
        env.step(np.zeros(2, dtype=np.int32))


def test_bad_reset_options(cartpole):
    with pytest.raises(ValueError, match="unsupported reset options"):
        cartpole.reset(options={"foo": 1})
    with pytest.raises(ValueError, match="reset_mask must be a bool array of shape"):
        cartpole.reset(options={"reset_mask": np.ones(3, dtype=bool)})
    still_works(cartpole)


@pytest.fixture
def python_sigint_handler():
    """Python's own SIGINT handler (KeyboardInterrupt) for the test: a library
    imported by an earlier test may have replaced or ignored it."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_ctrl_c_interrupts_blocking_recv(python_sigint_handler):
    # One env that stalls 3 s per step: recv blocks until Ctrl-C arrives.
    env = envpool_x.make_gymnasium("FaultInjection-v0", num_envs=1, stall_ms=3000)
    env.reset()
    env.send(np.zeros(1, dtype=np.int32))
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        env.recv()
    # Interrupted while waiting, not after the step finished (a KeyboardInterrupt
    # raised only when recv returned would take the full 3 s).
    assert time.monotonic() - start < 2.5
    # The result is still owed and arrives on the next recv.
    _, _, _, _, info = env.recv()
    np.testing.assert_array_equal(info["elapsed_step"], [1])
    # The env may stall, so neither the sync reset nor recv ran it on this thread.
    assert env._pool.caller_steps == 0
    env.close()
