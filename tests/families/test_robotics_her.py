"""Stable-Baselines3's HerReplayBuffer takes our Fetch pool as its VecEnv
(envpool_x.make_sb3): SAC with HER runs past the first episode of each env, relabelling
goals through our batched compute_reward; and (slow) SAC + HER trains FetchReach
on it until it succeeds."""

from __future__ import annotations

import numpy as np
import pytest

from envpool_x.families import robotics as family

if not family.has_robotics():
    pytest.skip("envpool_x was built without the robotics tasks", allow_module_level=True)
sb3 = pytest.importorskip("stable_baselines3")
pytest.importorskip("gymnasium_robotics")  # the models


def test_sac_with_her_runs_on_our_vec_env() -> None:
    from stable_baselines3 import SAC, HerReplayBuffer

    from envpool_x.integrations.sb3 import make_sb3

    env = make_sb3("FetchReach-v4", num_envs=2, seed=0)
    model = SAC(
        "MultiInputPolicy",
        env,
        replay_buffer_class=HerReplayBuffer,
        replay_buffer_kwargs={"n_sampled_goal": 4, "goal_selection_strategy": "future"},
        learning_starts=100,
        batch_size=32,
        policy_kwargs={"net_arch": [32, 32]},
        seed=0,
    )
    model.learn(total_timesteps=140)
    buffer = model.replay_buffer
    assert buffer.size() * env.num_envs >= 140  # a row holds one step of every env
    # Whole 50-step episodes went in: the buffer knows where each ended.
    assert np.any(buffer.ep_length > 0)
    sample = buffer.sample(64)
    relabelled = env.env_method(
        "compute_reward",
        sample.next_observations["achieved_goal"].cpu().numpy(),
        sample.observations["desired_goal"].cpu().numpy(),
        [{}] * 64,
        indices=[0],
    )[0]
    assert np.array_equal(
        relabelled.astype(np.float32), sample.rewards.cpu().numpy().ravel().astype(np.float32)
    )


def test_terminal_observation_of_a_goal_task_is_a_dict() -> None:
    from envpool_x.integrations.sb3 import make_sb3

    env = make_sb3("FetchPush-v4", num_envs=2, seed=0)
    env.reset()
    for _ in range(family.FETCH_EPISODE_STEPS):
        obs, _, dones, infos = env.step(np.zeros((2, 4), dtype=np.float32))
    assert dones.all()
    for i in range(2):
        last = infos[i]["terminal_observation"]
        assert set(last) == {"achieved_goal", "desired_goal", "observation"}
        assert last["observation"].shape == (25,)
        # The returned observation is already the next episode's first.
        assert not np.array_equal(last["desired_goal"], obs["desired_goal"][i])


def _success_rate(model: object, episodes: int = 20) -> float:
    """The share of ``episodes`` FetchReach episodes (deterministic actions)
    that end in success, on a pool of their own."""
    import envpool_x

    env = envpool_x.make_gymnasium("FetchReach-v4", num_envs=episodes, seed=123)
    obs, _ = env.reset()
    for _ in range(family.FETCH_EPISODE_STEPS):
        action, _ = model.predict(obs, deterministic=True)  # type: ignore[attr-defined]
        obs, _, _, truncated, info = env.step(action)
    env.close()
    assert truncated.all()
    return float(np.mean(info["is_success"]))


@pytest.mark.slow
@pytest.mark.timeout(3600)  # minutes of SAC updates on a CPU
def test_sac_with_her_learns_fetch_reach() -> None:
    """SAC + HER (RL Zoo's FetchReach hyperparameters, smaller buffer) trains on
    our vector env unchanged until 90% of evaluation episodes succeed; a random
    policy succeeds in few (measured: 0-10%). Budget: 20,000 steps."""
    from stable_baselines3 import SAC, HerReplayBuffer

    from envpool_x.integrations.sb3 import make_sb3

    env = make_sb3("FetchReach-v4", num_envs=1, seed=0)
    model = SAC(
        "MultiInputPolicy",
        env,
        replay_buffer_class=HerReplayBuffer,
        replay_buffer_kwargs={"n_sampled_goal": 4, "goal_selection_strategy": "future"},
        buffer_size=100_000,
        learning_starts=1000,
        batch_size=256,
        learning_rate=1e-3,
        gamma=0.95,
        tau=0.05,
        policy_kwargs={"net_arch": [64, 64]},
        seed=0,
    )
    assert _success_rate(model) < 0.5
    rates = []
    for _ in range(10):
        model.learn(total_timesteps=2000, reset_num_timesteps=False)
        rates.append(_success_rate(model))
        print(f"{model.num_timesteps} steps: success {rates[-1]:.0%}", flush=True)
        if rates[-1] >= 0.9:
            break
    print(f"FetchReach success after {model.num_timesteps} steps: {rates}")
    assert rates[-1] >= 0.9, f"success rates every 2,000 steps: {rates}"
