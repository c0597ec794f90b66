"""The gymnasium front end: the vector env's attributes and metadata (and the
assignments CleanRL makes), reset / step types and shapes, seeding, close,
and the async send / recv round trip."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import envpool_x


def zero_actions(env, n=None):
    n = env.num_envs if n is None else n
    space = env.single_action_space
    if isinstance(space, gymnasium.spaces.Discrete):
        return np.zeros(n, dtype=np.int32)
    return np.zeros((n, *space.shape), dtype=np.float32)


@pytest.fixture
def cartpole():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=3)
    yield env
    env.close()


# ---- gymnasium env attributes -----------------------------------------------


def test_gymnasium_env_attributes(cartpole):
    env = cartpole
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.num_envs == 3 and len(env) == 3
    expected_obs = gymnasium.make("CartPole-v1").observation_space
    assert env.single_observation_space == expected_obs
    assert env.single_action_space == gymnasium.spaces.Discrete(2)
    # EnvPool: observation_space / action_space are the spaces of ONE env.
    assert env.observation_space == env.single_observation_space
    assert env.observation_space.shape == (4,)
    assert env.action_space == env.single_action_space
    assert env.spec.id == "CartPole-v1"
    cfg = env.spec.config
    assert hasattr(cfg, "_fields") and hasattr(cfg, "_asdict")  # a namedtuple
    assert cfg.num_envs == 3 and cfg.batch_size == 3 and cfg.max_episode_steps == 500
    assert {"num_envs", "batch_size", "num_threads", "seed", "max_episode_steps"} <= set(
        cfg._fields
    )
    assert isinstance(env.config, dict)
    assert env.config == cfg._asdict()
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP


@pytest.mark.parametrize(
    "mode, expected",
    [
        ("next_step", AutoresetMode.NEXT_STEP),
        ("same_step", AutoresetMode.SAME_STEP),
        ("disabled", AutoresetMode.DISABLED),
    ],
)
def test_metadata_autoreset_mode_matches_config(mode, expected):
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2, autoreset_mode=mode)
    try:
        assert isinstance(env.metadata["autoreset_mode"], AutoresetMode)
        assert env.metadata["autoreset_mode"] is expected
        assert env.spec.config.autoreset_mode == mode
    finally:
        env.close()


def test_attributes_accept_assignment_like_cleanrl():
    env = envpool_x.make_gymnasium("Pendulum-v1", num_envs=4)
    try:
        # What CleanRL's envpool scripts do before wrapping.
        env.num_envs = 4
        env.single_action_space = env.action_space
        env.single_observation_space = env.observation_space
        env.is_vector_env = True
        assert env.num_envs == 4 and len(env) == 4
        assert env.single_action_space is env.action_space
        assert env.single_observation_space is env.observation_space
        assert env.is_vector_env is True
        new_space = gymnasium.spaces.Box(-1.0, 1.0, (1,), np.float32)
        env.action_space = new_space
        assert env.action_space is new_space
        obs, _ = env.reset()
        obs, rew, term, trunc, info = env.step(zero_actions(env))
        assert obs.shape == (4, 3) and rew.shape == (4,)
        np.testing.assert_array_equal(info["elapsed_step"], [1, 1, 1, 1])
    finally:
        env.close()


# ---- reset / step ------------------------------------------------------------


def test_reset_returns_obs_and_info(cartpole):
    obs, info = cartpole.reset()
    assert obs.shape == (3, 4) and obs.dtype == np.float32
    np.testing.assert_array_equal(info["env_id"], [0, 1, 2])
    np.testing.assert_array_equal(info["elapsed_step"], [0, 0, 0])
    assert cartpole.single_observation_space.contains(obs[0])


@pytest.mark.parametrize("factory", [envpool_x.make_gymnasium, envpool_x.make_gym])
def test_gym_reset_return_info_false_returns_obs_only(factory):
    env = factory("CartPole-v1", num_envs=2, gym_reset_return_info=False)
    try:
        obs = env.reset()
        assert isinstance(obs, np.ndarray) and obs.shape == (2, 4)
        # step is unchanged.
        assert len(env.step(np.zeros(2, dtype=np.int32))) == 5
    finally:
        env.close()


DISCRETE = ["CartPole-v0", "CartPole-v1", "MountainCar-v0", "Acrobot-v1"]
CONTINUOUS = ["Pendulum-v1", "MountainCarContinuous-v0"]


@pytest.mark.parametrize(
    "task, dtype",
    [(t, d) for t in DISCRETE for d in (np.int32, np.int64)]
    + [(t, d) for t in CONTINUOUS for d in (np.float32, np.float64)],
)
def test_step_types_and_shapes(task, dtype):
    env = envpool_x.make_gymnasium(task, num_envs=3)
    try:
        env.reset()
        act = zero_actions(env).astype(dtype)
        obs, rew, term, trunc, info = env.step(act)
        assert obs.shape == (3, *env.single_observation_space.shape)
        assert obs.dtype == env.single_observation_space.dtype
        assert rew.shape == (3,) and rew.dtype == np.float32
        assert term.shape == (3,) and term.dtype == np.bool_
        assert trunc.shape == (3,) and trunc.dtype == np.bool_
        assert isinstance(info, dict)
        np.testing.assert_array_equal(info["env_id"], [0, 1, 2])
        np.testing.assert_array_equal(info["elapsed_step"], [1, 1, 1])
    finally:
        env.close()


def test_reset_seed_is_honoured(cartpole):
    a, _ = cartpole.reset(seed=123)
    b, _ = cartpole.reset(seed=123)
    c, _ = cartpole.reset(seed=124)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    # Envs of one pool do not start in the same state.
    assert not np.array_equal(a[0], a[1])


def test_close_is_idempotent_and_later_calls_raise():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2)
    env.reset()
    env.close()
    env.close()
    assert env.closed
    with pytest.raises(RuntimeError):
        env.step(np.zeros(2, dtype=np.int32))


# ---- async -----------------------------------------------------------------------


def test_gymnasium_async_round_trip():
    num_envs, batch = 6, 2
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=num_envs, batch_size=batch, seed=3)
    try:
        env.async_reset()
        for expected_step in (0, 1, 2):
            # Every env has exactly one result in flight: the batches of one
            # round hold each env once, whichever order they finish in.
            batches = []
            for _ in range(num_envs // batch):
                obs, rew, term, trunc, info = env.recv()
                ids = info["env_id"]
                assert obs.shape == (batch, 4) and obs.dtype == np.float32
                assert rew.shape == (batch,) and rew.dtype == np.float32
                assert term.shape == (batch,) and trunc.shape == (batch,)
                np.testing.assert_array_equal(info["elapsed_step"], expected_step)
                batches.append(ids)
            seen = np.concatenate(batches)
            assert sorted(seen.tolist()) == list(range(num_envs))
            for ids in batches:
                env.send(np.ones(batch, dtype=np.int32), ids)
    finally:
        env.close()
