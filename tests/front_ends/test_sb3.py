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


@pytest.fixture(autouse=True)
def one_torch_thread():
    """Small MLPs on a shared 2-core machine: one torch thread is several times
    faster than two fighting the env workers (and other jobs) for the cores."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


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


def test_sac_replay_buffer_gets_terminal_obs_and_timeouts():
    """Off-policy SB3 stores infos' terminal_observation as the next obs of the
    last transition and marks TimeLimit.truncated as a timeout (no bootstrap
    cut). Pendulum never terminates: every done is a time-limit cut."""
    venv = envpool_x.make_sb3("Pendulum-v1", num_envs=4, max_episode_steps=20, seed=5)
    model = SAC("MlpPolicy", venv, learning_starts=50, buffer_size=1000, seed=0)
    model.learn(200)
    rb = model.replay_buffer
    n = rb.pos  # rows written, one per vector step
    assert n == 50
    dones, timeouts = rb.dones[:n].astype(bool), rb.timeouts[:n].astype(bool)
    assert dones.sum() == 4 * 2  # steps 20 and 40 of each env
    np.testing.assert_array_equal(dones, timeouts)
    obs, next_obs = rb.observations[:n], rb.next_observations[:n]
    cont = ~dones[:-1]
    np.testing.assert_array_equal(next_obs[:-1][cont], obs[1:][cont])
    # At a cut, next_obs is where the episode stopped (|theta| features are a
    # unit circle), not the next episode's first obs stored in the row after.
    ended = dones[:-1]
    assert not np.any(np.all(next_obs[:-1][ended] == obs[1:][ended], axis=-1))
    np.testing.assert_allclose(
        np.hypot(next_obs[:-1][ended][:, 0], next_obs[:-1][ended][:, 1]), 1, rtol=1e-5
    )
    venv.close()


def test_dqn_runs_and_trains():
    venv = envpool_x.make_sb3("CartPole-v1", num_envs=4)
    model = DQN("MlpPolicy", venv, learning_starts=100, buffer_size=2000, train_freq=1, seed=0)
    before = [p.detach().clone() for p in model.q_net.parameters()]
    model.learn(600)
    # The replay buffer holds what the envs produced, one row per env per step.
    assert model.replay_buffer.size() == 600 // 4
    assert model.replay_buffer.dones[: model.replay_buffer.size()].any()
    assert any(not p.equal(b) for p, b in zip(model.q_net.parameters(), before, strict=True))
    venv.close()


@pytest.mark.timeout(900)  # a few minutes of CPU at most; CI machines are slow and shared
def test_ppo_learns_cartpole_within_100k_steps():
    """PPO on 8 envs reaches a mean evaluation return >= 300 (of 500) within
    100k env steps. It learns in chunks of 10k steps and evaluates the policy
    on separate envs after each, stopping once it gets there (here after 20k
    steps: 20 -> 149 -> 441), so the test does not pay for steps it does not
    need. The evaluation samples actions: a freshly initialised network's
    greedy action can balance the pole by chance (376 for this seed)."""
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
    eval_env = VecMonitor(envpool_x.make_sb3("CartPole-v1", num_envs=8, seed=123))
    untrained, _ = evaluate_policy(model, eval_env, n_eval_episodes=10, deterministic=False)
    assert untrained < 100, untrained  # so reaching 300 is the learning's doing
    means = []
    while model.num_timesteps < 100_000:
        model.learn(10_000, reset_num_timesteps=False)
        mean, _ = evaluate_policy(model, eval_env, n_eval_episodes=10, deterministic=False)
        means.append(mean)
        if mean >= 300:
            break
    assert model.num_timesteps <= 100_000 + 8 * 256  # learn() ends on a full rollout
    assert means[-1] >= 300, means
    venv.close()
    eval_env.close()


def test_vec_check_nan_passes_clean_steps_and_catches_a_nan_action():
    from stable_baselines3.common.vec_env import VecCheckNan

    env = VecCheckNan(envpool_x.make_sb3("Pendulum-v1", num_envs=2), raise_exception=True)
    env.reset()
    for _ in range(5):
        env.step(np.zeros((2, 1), np.float32))
    with pytest.raises(ValueError, match="nan"):
        env.step(np.array([[np.nan], [0.0]], np.float32))
    env.close()


def test_vec_frame_stack_on_atari_stacks_the_pools_frames():
    from stable_baselines3.common.vec_env import VecFrameStack

    inner = envpool_x.make_sb3("Pong-v5", num_envs=2, stack_num=1, img_height=42, img_width=42)
    assert inner.observation_space.shape == (1, 42, 42)
    env = VecFrameStack(inner, n_stack=4, channels_order="first")
    obs = env.reset()
    assert obs.shape == (2, 4, 42, 42)
    np.testing.assert_array_equal(obs[:, :3], 0)  # nothing before the first frame
    frames = [obs[:, 3].copy()]
    for _ in range(3):
        obs, _, _, _ = env.step(np.zeros(2, np.int64))
        frames.append(obs[:, 3].copy())
    # After four steps the stack is the last four frames, oldest first.
    np.testing.assert_array_equal(obs, np.stack(frames, axis=1))
    env.close()


def test_vec_monitor_records_episode_returns():
    env = VecMonitor(envpool_x.make_sb3("CartPole-v1", num_envs=2, max_episode_steps=5))
    env.reset()
    episodes = []
    for _ in range(6):
        _, _, dones, infos = env.step(np.zeros(2, np.int64))
        episodes += [info["episode"] for info, done in zip(infos, dones, strict=True) if done]
    assert episodes and all(ep["l"] <= 5 and ep["r"] == ep["l"] for ep in episodes)
    env.close()
