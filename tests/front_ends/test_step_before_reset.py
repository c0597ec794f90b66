"""Stepping an env that was never reset: the decision of docs/differences.md and
docs/usage.md, on every front end.

gymnasium's front ends (``make_gymnasium``, ``make_gym`` with the gymnasium API,
``gymnasium.make_vec("envpool_x/...")``, ``single_env``) raise gymnasium's
``ResetNeeded``, as gymnasium's own envs and vector envs do; it is a
``RuntimeError`` too and names the env and the fix. The dm_env front end
(``make_dm``) starts a sequence there, as dm_env's contract says and EnvPool does.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import envpool_x

NOT_RESET = r"env {} has not been reset; call reset\(\) \(or async_reset\(\)\) before stepping"


def _gymnasium_entries():
    yield "make_gymnasium", envpool_x.make_gymnasium("CartPole-v1", num_envs=3)
    yield "make", envpool_x.make("CartPole-v1", env_type="gymnasium", num_envs=3)
    yield (
        "make_vec",
        gymnasium.make_vec(
            "envpool_x/CartPole-v1", num_envs=3, vectorization_mode="vector_entry_point"
        ),
    )


@pytest.mark.parametrize("entry", ["make_gymnasium", "make", "make_vec"])
def test_gymnasium_front_end_raises_resetneeded(entry):
    env = dict(_gymnasium_entries())[entry]
    with pytest.raises(gymnasium.error.ResetNeeded, match=NOT_RESET.format(0)) as caught:
        env.step(np.zeros(3, np.int32))
    assert isinstance(caught.value, RuntimeError)  # what the pools raised before
    with pytest.raises(gymnasium.error.ResetNeeded, match=NOT_RESET.format(0)):
        env.send(np.zeros(3, np.int32))
    env.reset()  # nothing stepped: the pool works on
    assert env.step(np.zeros(3, np.int32))[0].shape == (3, 4)
    env.close()


def test_gymnasiums_own_vector_env_raises_the_same_class():
    """What the decision follows: gymnasium's SyncVectorEnv refuses it too."""
    sync = gymnasium.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
    with pytest.raises(gymnasium.error.ResetNeeded):
        sync.step(np.zeros(2, np.int64))
    sync.close()


def test_the_error_names_the_env_never_reset():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=3)
    env.reset(env_id=[0, 2])
    env.step(np.zeros(2, np.int32), env_id=[0, 2])
    with pytest.raises(gymnasium.error.ResetNeeded, match=NOT_RESET.format(1)):
        env.step(np.zeros(3, np.int32))
    env.close()


def test_other_runtime_errors_keep_their_class():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2, batch_size=1)
    env.async_reset()
    with pytest.raises(RuntimeError) as caught:
        env.async_reset()  # work in flight: not a reset problem
    assert not isinstance(caught.value, gymnasium.error.ResetNeeded)
    env.close()


def test_single_env_view_raises_too():
    view = envpool_x.make_gymnasium("CartPole-v1", num_envs=2).single_env(1)
    with pytest.raises(gymnasium.error.ResetNeeded, match=NOT_RESET.format(1)):
        view.step(0)
    view.reset()
    view.step(0)
    view.close()


def test_dm_front_end_starts_a_sequence():
    env = envpool_x.make_dm("CartPole-v1", num_envs=3)
    first = env.step(np.ones(3, np.int32))  # the action is ignored
    np.testing.assert_array_equal(first.step_type, [0, 0, 0])  # FIRST
    np.testing.assert_array_equal(first.observation.elapsed_step, [0, 0, 0])
    mid = env.step(np.ones(3, np.int32))
    np.testing.assert_array_equal(mid.step_type, [1, 1, 1])
    env.close()


def test_dm_single_env_view_starts_a_sequence():
    view = envpool_x.make_dm("Pendulum-v1", num_envs=2).single_env(0)
    first = view.step(np.zeros(1, np.float32))
    assert first.first() and first.reward is None and first.discount is None
    assert view.step(np.zeros(1, np.float32)).mid()
    view.close()
