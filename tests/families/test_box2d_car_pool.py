"""CarRacing on the pool: ids, spaces, the three front ends, determinism across
thread counts, render(), refused actions and keys, get_state. Parity with
gymnasium is tests/families/test_box2d_car.py."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x
from envpool_x.families.box2d import BUILD_HINT, has_box2d

pytestmark = pytest.mark.skipif(not has_box2d(), reason=BUILD_HINT)


def _rollout(task: str, num_threads: int, steps: int = 60, **kwargs: object) -> np.ndarray:
    env = envpool_x.make_gymnasium(task, num_envs=3, seed=9, num_threads=num_threads, **kwargs)
    obs, _ = env.reset()
    rows = [obs.astype(np.float32).ravel()]
    rng = np.random.default_rng(0)
    for _ in range(steps):
        if kwargs.get("continuous", True):
            action = rng.uniform([-1, 0, 0], [1, 1, 1], (3, 3)).astype(np.float32)
        else:
            action = rng.integers(0, 5, 3)
        obs, reward, term, trunc, _ = env.step(action)
        rows += [obs.astype(np.float32).ravel(), reward, term.astype(np.float32)]
    return np.concatenate(rows)


def test_ids_spaces_and_front_ends() -> None:
    for task in ("CarRacing-v3", "CarRacing-v2"):
        env = envpool_x.make_gymnasium(task, num_envs=2, seed=0)
        assert env.single_observation_space.shape == (96, 96, 3)
        assert env.single_observation_space.dtype == np.uint8
        np.testing.assert_array_equal(env.single_action_space.low, [-1, 0, 0])
        np.testing.assert_array_equal(env.single_action_space.high, [1, 1, 1])
        obs, info = env.reset()
        assert obs.shape == (2, 96, 96, 3) and obs.dtype == np.uint8
        assert info["lap_finished"].dtype == np.bool_ and not info["lap_finished"].any()
        _, _, terminated, _, info = env.step(np.zeros((2, 3), np.float32))
        assert not (terminated | info["lap_finished"]).any()
    disc = envpool_x.make_gymnasium("CarRacing-v3", num_envs=2, continuous=False)
    assert disc.single_action_space.n == 5
    gym_env = envpool_x.make_gym("CarRacing-v3", num_envs=2, seed=1)
    assert np.asarray(gym_env.reset()[0]).shape == (2, 96, 96, 3)
    dm = envpool_x.make_dm("CarRacing-v3", num_envs=2, seed=1)
    ts = dm.reset()
    assert np.asarray(ts.observation.obs).shape == (2, 96, 96, 3)
    ts = dm.step(np.zeros((2, 3), np.float32))
    assert (ts.reward > 0).all()  # the tiles under the car at reset count at the first step
    ts = dm.step(np.zeros((2, 3), np.float32))
    np.testing.assert_allclose(ts.reward, -0.1, atol=1e-6)  # standing: no new tile
    assert envpool_x.make_spec("CarRacing-v3").max_episode_steps == 1000
    assert {"CarRacing-v3", "CarRacing-v2"} <= set(envpool_x.list_all_envs())


def test_same_results_on_one_and_two_threads() -> None:
    for kwargs in ({}, {"continuous": False, "domain_randomize": True}):
        a, b = _rollout("CarRacing-v3", 1, **kwargs), _rollout("CarRacing-v3", 2, **kwargs)
        np.testing.assert_array_equal(a, b)


def test_seeds_give_different_tracks_and_colours() -> None:
    def first(seed: int, **kw: object) -> np.ndarray:
        return envpool_x.make_gymnasium("CarRacing-v3", num_envs=1, seed=seed, **kw).reset()[0]

    assert not np.array_equal(first(1), first(2))
    np.testing.assert_array_equal(first(3), first(3))
    # domain_randomize: the grass and background colours change with the seed.
    a, b = first(1, domain_randomize=True), first(2, domain_randomize=True)
    assert not np.array_equal(a[:40].reshape(-1, 3).mean(0), b[:40].reshape(-1, 3).mean(0))


def test_episodes_end_by_the_time_limit_and_autoreset() -> None:
    env = envpool_x.make_gymnasium("CarRacing-v3", num_envs=2, seed=4, continuous=False)
    env.reset()
    ended = 0
    for _ in range(1000):
        obs, reward, term, trunc, _ = env.step(np.array([0, 0]))
        assert not term.any()  # standing still: no lap, no leaving the field
        ended += int(trunc.sum())
    assert ended == 2
    np.testing.assert_allclose(reward, -0.1, atol=1e-6)


def test_render_bad_actions_keys_and_state() -> None:
    env = envpool_x.make_gymnasium("CarRacing-v3", num_envs=2, seed=0, render_mode="rgb_array")
    obs, _ = env.reset()
    np.testing.assert_array_equal(env.render(np.array([0, 1])), obs)
    obs, *_ = env.step(np.tile(np.float32([0.2, 0.5, 0]), (2, 1)))
    np.testing.assert_array_equal(env.render(np.array([1])), obs[1:])
    with pytest.raises(ValueError, match="action"):
        env.step(np.array([[0, np.nan, 0], [0, 0, 0]], np.float32))
    disc = envpool_x.make_gymnasium("CarRacing-v3", num_envs=1, continuous=False)
    disc.reset()
    with pytest.raises(ValueError, match="action"):
        disc.step(np.array([5]))
    with pytest.raises(ValueError, match="get_state"):
        env._pool.get_state(0)
    with pytest.raises((KeyError, ValueError, TypeError), match="hardcore"):
        envpool_x.make_gymnasium("CarRacing-v3", num_envs=1, hardcore=True)
    with pytest.raises(ValueError, match="lap_complete_percent"):
        envpool_x.make_gymnasium("CarRacing-v3", num_envs=1, lap_complete_percent=float("nan"))


def test_cli_list_and_info(capsys: pytest.CaptureFixture[str]) -> None:
    from envpool_x import cli

    assert cli.main(["list"]) == 0
    listed = capsys.readouterr().out
    assert "CarRacing-v3" in listed and "CarRacing-v2" in listed
    assert cli.main(["info", "CarRacing-v3"]) == 0
    info = capsys.readouterr().out
    for key in ("continuous", "lap_complete_percent", "domain_randomize"):
        assert key in info
