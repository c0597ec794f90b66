"""Parity of the classic-control envs with gymnasium 1.4.0, step by step."""

import gymnasium as gym
import numpy as np
import pytest

import envpool_x
from conftest import CLASSIC_TASKS

# Observations are float32 casts of the same float64 state: the C++ dynamics
# repeat gymnasium's float64 operations in the same order (and numpy's float32
# promotions where gymnasium has them), so they agree bit for bit on x86-64
# with glibc. The tolerance only leaves room for a last-bit difference in
# float64 arithmetic order (another libm or compiler) flipping a float32
# rounding.
ATOL = 1e-6

TASKS = CLASSIC_TASKS
STATE_SIZE = {"CartPole": 4, "Pendulum": 2, "MountainCar": 2, "Acrobot": 4}


def _make_pair(task, kwargs):
    ours = envpool_x.make_gymnasium(task, num_envs=1, seed=0, **kwargs)
    theirs = gym.make(task, disable_env_checker=True, **kwargs)
    return ours, theirs


def _guided_action(task, state):
    """A simple controller, so that episodes also balance long enough to be
    truncated (CartPole) or reach the goal and terminate (the others)."""
    if task.startswith("CartPole"):
        return 1 if 3 * state[2] + state[3] > 0 else 0
    if task.startswith("MountainCarContinuous"):
        return np.array([1.0 if state[1] >= 0 else -1.0], dtype=np.float32)
    if task.startswith("MountainCar"):
        return 2 if state[1] >= 0 else 0
    if task.startswith("Acrobot"):
        return 2 if state[3] > 0 else 0
    return None


def _random_action(space, rng):
    if isinstance(space, gym.spaces.Discrete):
        return int(rng.integers(space.n))
    # Some actions out of bounds: gymnasium clips them inside step (and
    # MountainCarContinuous's energy penalty uses the unclipped one).
    scale = 1.5 if rng.random() < 0.1 else 1.0
    return rng.uniform(space.low * scale, space.high * scale).astype(np.float32)


def _assert_same_episodes(task, kwargs, num_episodes=4):
    ours, theirs = _make_pair(task, kwargs)
    rng = np.random.default_rng(0)
    for episode in range(num_episodes):
        ours.reset()
        theirs.reset(seed=episode)
        # The two envs draw initial states from different random streams, so
        # start ours from gymnasium's.
        state = np.asarray(theirs.unwrapped.state, dtype=np.float64)
        ours._pool.set_state(0, state)
        np.testing.assert_array_equal(ours._pool.get_state(0), state)
        for t in range(1, 10_000):
            where = f"{task} {kwargs} episode {episode} step {t}"
            # Episode 0 is random; the others mostly follow the controller.
            action = _guided_action(task, theirs.unwrapped.state)
            if action is None or episode == 0 or rng.random() < 0.2:
                action = _random_action(theirs.action_space, rng)
            g_obs, g_rew, g_term, g_trunc, _ = theirs.step(action)
            obs, rew, term, trunc, info = ours.step(np.array([action]))
            np.testing.assert_allclose(obs[0], g_obs, rtol=0, atol=ATOL, err_msg=where)
            # Our rewards are float32: compare with gymnasium's rounded alike.
            np.testing.assert_allclose(rew[0], np.float32(g_rew), rtol=0, atol=ATOL, err_msg=where)
            assert bool(term[0]) == g_term, where
            assert bool(trunc[0]) == g_trunc, where
            assert info["elapsed_step"][0] == t, where
            if g_term or g_trunc:
                break
    ours.close()
    theirs.close()


@pytest.mark.parametrize("task", TASKS)
def test_episodes_match_gymnasium(task):
    _assert_same_episodes(task, {})


@pytest.mark.parametrize(
    "task, kwargs",
    [
        ("CartPole-v1", {"sutton_barto_reward": True}),
        ("Pendulum-v1", {"g": 9.81}),
        ("MountainCar-v0", {"goal_velocity": 0.01}),
        ("MountainCarContinuous-v0", {"goal_velocity": 0.01}),
    ],
)
def test_config_kwargs_match_gymnasium(task, kwargs):
    _assert_same_episodes(task, kwargs)


@pytest.mark.parametrize(
    "task, state, action",
    [
        ("MountainCar-v0", [0.499, 0.005], 1),
        ("MountainCarContinuous-v0", [0.449, 0.005], np.array([0.0], dtype=np.float32)),
    ],
)
def test_goal_velocity_decides_termination(task, state, action):
    # The car crosses the goal at a speed of about 0.005: a goal there with the
    # default goal_velocity (0), not with goal_velocity=0.01.
    for kwargs, expected in [({}, True), ({"goal_velocity": 0.01}, False)]:
        ours, theirs = _make_pair(task, kwargs)
        ours.reset()
        theirs.reset(seed=0)
        theirs.unwrapped.state = np.array(state, dtype=np.float64)
        ours._pool.set_state(0, np.array(state, dtype=np.float64))
        g_obs, g_rew, g_term, _, _ = theirs.step(action)
        obs, rew, term, _, _ = ours.step(np.array([action]))
        assert g_term is expected
        assert bool(term[0]) is expected
        np.testing.assert_allclose(obs[0], g_obs, rtol=0, atol=ATOL)
        np.testing.assert_allclose(rew[0], np.float32(g_rew), rtol=0, atol=ATOL)


@pytest.mark.parametrize("task", TASKS)
def test_spaces_match_gymnasium(task):
    ours, theirs = _make_pair(task, {})
    obs_space, g_obs_space = ours.single_observation_space, theirs.observation_space
    assert isinstance(obs_space, gym.spaces.Box)
    assert obs_space.dtype == g_obs_space.dtype == np.float32
    assert obs_space.shape == g_obs_space.shape
    np.testing.assert_array_equal(obs_space.low, g_obs_space.low)
    np.testing.assert_array_equal(obs_space.high, g_obs_space.high)
    act_space, g_act_space = ours.single_action_space, theirs.action_space
    assert type(act_space) is type(g_act_space)
    if isinstance(g_act_space, gym.spaces.Discrete):
        assert (act_space.n, act_space.start) == (g_act_space.n, g_act_space.start)
    else:
        assert act_space.dtype == g_act_space.dtype == np.float32
        assert act_space.shape == g_act_space.shape
        np.testing.assert_array_equal(act_space.low, g_act_space.low)
        np.testing.assert_array_equal(act_space.high, g_act_space.high)
    ours.close()


@pytest.mark.parametrize("task", TASKS)
def test_set_state_rejects_wrong_length(task):
    ours = envpool_x.make_gymnasium(task, num_envs=1, seed=0)
    ours.reset()
    size = STATE_SIZE[task.split("-")[0].replace("Continuous", "")]
    with pytest.raises(ValueError, match=f"must have {size} values"):
        ours._pool.set_state(0, np.zeros(size + 1))
    ours.close()
