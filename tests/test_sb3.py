"""Stable-Baselines3 drop-in: a real VecEnv with same-step auto-reset."""

from __future__ import annotations

import numpy as np
import pytest

sb3 = pytest.importorskip("stable_baselines3")

from stable_baselines3 import DQN, PPO, SAC  # noqa: E402
from stable_baselines3.common.evaluation import evaluate_policy  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv, VecMonitor, VecNormalize  # noqa: E402

import envpool_x  # noqa: E402
from envpool_x.integrations.sb3 import SB3VecEnv  # noqa: E402


def test_is_a_vec_env_with_terminal_observation_and_time_limit_flag():
    venv = envpool_x.make_sb3("Pendulum-v1", num_envs=3, max_episode_steps=5, seed=1)
    ref = envpool_x.make_gymnasium("Pendulum-v1", num_envs=3, max_episode_steps=5, seed=1)
    assert isinstance(venv, VecEnv)
    obs = venv.reset()
    ref_obs, _ = ref.reset()
    np.testing.assert_array_equal(obs, ref_obs)
    act = np.zeros((3, 1), dtype=np.float32)
    for k in range(1, 6):
        obs, rew, dones, infos = venv.step(act)
        ref_obs, *_ = ref.step(act)
        assert dones.all() == (k == 5)
    # Step 5 hit the time limit: the terminal obs is what the env reached,
    # flagged as truncation; the returned obs is the next episode's first.
    for i in range(3):
        np.testing.assert_array_equal(infos[i]["terminal_observation"], ref_obs[i])
        assert infos[i]["TimeLimit.truncated"] is True
    ref_next, *_ = ref.step(act)  # next_step mode: this step is the reset
    np.testing.assert_array_equal(obs, ref_next)
    venv.close()
    ref.close()


def test_termination_is_not_flagged_as_truncation():
    venv = envpool_x.make_sb3("CartPole-v1", num_envs=2)
    venv.reset()
    for _ in range(100):
        _, _, dones, infos = venv.step(np.ones(2, dtype=np.int64))
        if dones.any():
            break
    i = int(np.flatnonzero(dones)[0])
    assert infos[i]["TimeLimit.truncated"] is False
    assert infos[i]["terminal_observation"].shape == (4,)
    venv.close()


def test_seed_applies_at_next_reset_only():
    venv = envpool_x.make_sb3("CartPole-v1", num_envs=2)
    venv.seed(10)
    first = venv.reset()
    ref = envpool_x.make_gymnasium("CartPole-v1", num_envs=2, seed=[10, 11])
    np.testing.assert_array_equal(first, ref.reset()[0])
    second = venv.reset()  # the seed was used once
    assert not np.array_equal(first, second)
    assert venv.reset_infos[0]["elapsed_step"] == 0
    venv.close()
    ref.close()


def test_attribute_and_method_access():
    venv = envpool_x.make_sb3("CartPole-v1", num_envs=3)
    assert venv.get_attr("num_envs") == [3, 3, 3]
    assert venv.get_attr("batch_size", indices=[0]) == [3]
    venv.set_attr("my_flag", 7)
    assert venv.get_attr("my_flag") == [7, 7, 7]
    assert venv.env_is_wrapped(object) == [False] * 3
    assert len(venv.env_method("__len__")) == 3
    assert venv.render_mode is None
    assert list(venv.get_images()) == [None] * 3
    venv.close()


def test_wrong_autoreset_mode_is_refused():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2)
    with pytest.raises(ValueError, match="same_step"):
        SB3VecEnv(env)
    env.close()


def test_vec_normalize_save_load_monitor_and_evaluate(tmp_path):
    venv = VecMonitor(envpool_x.make_sb3("Pendulum-v1", num_envs=4, max_episode_steps=20))
    norm = VecNormalize(venv)
    model = SAC("MlpPolicy", norm, learning_starts=50, buffer_size=1000, seed=0)
    model.learn(200)
    path = tmp_path / "vecnorm.pkl"
    norm.save(str(path))
    loaded = VecNormalize.load(str(path), VecMonitor(envpool_x.make_sb3("Pendulum-v1", num_envs=4)))
    np.testing.assert_allclose(loaded.obs_rms.mean, norm.obs_rms.mean)
    mean, _ = evaluate_policy(model, norm, n_eval_episodes=4)
    assert np.isfinite(mean)
    norm.close()
    loaded.close()


def test_dqn_runs():
    venv = envpool_x.make_sb3("CartPole-v1", num_envs=4)
    model = DQN("MlpPolicy", venv, learning_starts=100, buffer_size=2000, seed=0)
    model.learn(600)
    venv.close()


@pytest.mark.timeout(1200)  # 100k PPO steps on a 2-core CPU
def test_ppo_learns_cartpole():
    venv = VecMonitor(envpool_x.make_sb3("CartPole-v1", num_envs=8, seed=0))
    model = PPO(
        "MlpPolicy",
        venv,
        n_steps=256,
        batch_size=256,
        n_epochs=10,
        seed=0,
        learning_rate=1e-3,
        ent_coef=0.0,
        gae_lambda=0.95,
        gamma=0.99,
    )
    model.learn(100_000)
    eval_env = VecMonitor(envpool_x.make_sb3("CartPole-v1", num_envs=8, seed=123))
    mean, _ = evaluate_policy(model, eval_env, n_eval_episodes=8)
    assert mean >= 300, mean
    venv.close()
    eval_env.close()
