"""Tianshou 2.x drop-in: an envpool_x gymnasium env is a Collector's vector env.

The Collector steps subsets of envs by id (``step(action, ready_ids)``),
resets the envs that ended by id (``reset(env_id=ids)``), stacks the infos
of reset and step into one buffer (so their keys must match), samples random
actions from ``env.action_space`` (one env's space, as EnvPool's), and refuses
an env whose ``is_async`` is true.
"""

from __future__ import annotations

import numpy as np
import pytest

ts = pytest.importorskip("tianshou")
torch = pytest.importorskip("torch")

from tianshou.algorithm import DQN  # noqa: E402
from tianshou.algorithm.algorithm_base import RandomActionPolicy  # noqa: E402
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Collector, VectorReplayBuffer  # noqa: E402
from tianshou.trainer import OffPolicyTrainerParams  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402

import envpool_x  # noqa: E402

TASKS = [
    # (task, config): short time limits so episodes end inside a short test.
    ("CartPole-v1", {}),
    ("Pendulum-v1", {"max_episode_steps": 30}),
    ("Pong-v5", {"max_episode_steps": 30}),
]
NUM_ENVS = 4


def make(task: str, config: dict, **extra):
    return envpool_x.make_gymnasium(task, num_envs=NUM_ENVS, seed=7, **config, **extra)


def env_buffers(buf: VectorReplayBuffer) -> list:
    return list(buf.buffers)


@pytest.mark.parametrize(("task", "config"), TASKS)
def test_vector_env_protocol(task, config):
    env = make(task, config)
    assert len(env) == NUM_ENVS
    assert env.is_async is False
    assert env.action_space == env.single_action_space  # one env's space
    obs, info = env.reset()
    reset_keys = set(info)
    obs, info = env.reset(env_id=np.array([3, 1]))
    assert obs.shape[0] == 2
    np.testing.assert_array_equal(info["env_id"], [3, 1])
    actions = np.stack([env.action_space.sample() for _ in range(2)])
    obs, rew, term, trunc, info = env.step(actions, np.array([2, 0]))
    np.testing.assert_array_equal(info["env_id"], [2, 0])
    assert obs.shape[0] == rew.shape[0] == term.shape[0] == trunc.shape[0] == 2
    assert set(info) == reset_keys
    env.close()
    async_env = make(task, config, batch_size=2)
    assert async_env.is_async is True
    async_env.close()


def replay_and_compare(task: str, config: dict, buf: VectorReplayBuffer) -> int:
    """Step a fresh env of the same seed with the actions the Collector stored
    (with random=True, the sampled actions it sent, unscaled),
    resetting ended envs by id as the Collector does, and check every stored
    transition (obs, reward, flags, next obs) against it. Returns the steps checked."""
    ref = make(task, config)
    obs, _ = ref.reset()
    bufs = env_buffers(buf)
    steps = len(bufs[0])
    assert all(len(b) == steps for b in bufs)
    for t in range(steps):
        rows = [b[t] for b in bufs]
        for i, row in enumerate(rows):
            np.testing.assert_array_equal(row.obs, obs[i], err_msg=f"step {t} env {i}")
        act = np.stack([row.act for row in rows])
        obs, rew, term, trunc, info = ref.step(act.astype(ref.action_space.dtype))
        for i, row in enumerate(rows):
            np.testing.assert_array_equal(row.obs_next, obs[i], err_msg=f"step {t} env {i}")
            assert row.rew == rew[i] and row.terminated == term[i] and row.truncated == trunc[i]
            assert row.info.env_id == i
        done = np.flatnonzero(term | trunc)
        if done.size:
            new_obs, _ = ref.reset(env_id=done)
            obs = obs.copy()
            obs[done] = new_obs
    ref.close()
    return steps


@pytest.mark.timeout(600)
@pytest.mark.parametrize(("task", "config"), TASKS)
def test_collector_n_step_random(task, config):
    env = make(task, config)
    policy = RandomActionPolicy(env.action_space)
    buf = VectorReplayBuffer(4000, NUM_ENVS)
    collector = Collector(policy, env, buf)
    collector.reset()
    stats = collector.collect(n_step=200, random=True)
    assert stats.n_collected_steps == 200
    assert len(buf) == 200
    # Every env stepped in each vector step; episodes ended and were reset.
    assert stats.n_collected_episodes > 0
    if task != "CartPole-v1":  # these only end at the time limit
        assert set(stats.lens.tolist()) == {30}
        assert not buf.terminated[: len(buf)].any()
    assert replay_and_compare(task, config, buf) == 200 // NUM_ENVS
    env.close()


@pytest.mark.timeout(600)
@pytest.mark.parametrize(("task", "config"), TASKS)
@pytest.mark.filterwarnings("ignore:n_episode=2 should be larger")  # what we test
def test_collector_fewer_episodes_than_envs(task, config):
    env = make(task, config)
    policy = RandomActionPolicy(env.action_space)
    buf = VectorReplayBuffer(4000, NUM_ENVS)
    collector = Collector(policy, env, buf)
    collector.reset()
    stats = collector.collect(n_episode=2, random=True)
    # Only envs 0 and 1 run (Tianshou steps the subset [0, 1] by id).
    assert stats.n_collected_episodes == 2
    bufs = env_buffers(buf)
    assert len(bufs[0]) > 0 and len(bufs[1]) > 0
    assert len(bufs[2]) == len(bufs[3]) == 0
    for i in (0, 1):
        b = bufs[i]
        assert (b.info.env_id[: len(b)] == i).all()
        assert b.done[len(b) - 1]  # each ran to the end of an episode
        # Consecutive transitions chain: next obs is the following obs.
        np.testing.assert_array_equal(b.obs_next[: len(b) - 1], b.obs[1 : len(b)])
    assert stats.lens.sum() == len(buf)
    # A later collect continues from where the envs were: buffer 2 fills too.
    stats = collector.collect(n_step=40, random=True)
    assert len(bufs[2]) == len(bufs[3]) == 10
    env.close()


def test_collector_refuses_async_env():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, batch_size=2)
    collector = Collector(RandomActionPolicy(env.action_space), env, VectorReplayBuffer(100, 4))
    with pytest.raises(ValueError, match="AsyncCollector"):
        collector.collect(n_step=8, random=True, reset_before_collect=True)
    env.close()


@pytest.mark.timeout(600)
# Tianshou stores the dict that reset(env_id=ended) returns into its object
# array of per-env infos (collector.py, "Step 12"), so the info batch it builds
# for the policy mixes scalars and length-1 arrays and warns; EnvPool's env
# triggers the same. The replay buffer keeps the step infos, unaffected.
@pytest.mark.filterwarnings("ignore:You are using tensors with different shape")
@pytest.mark.slow  # tianshou's numba kernels compile for ~15 s; the collector tests stay in CI
def test_short_dqn_run():
    torch.manual_seed(0)
    train_env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, seed=0)
    test_env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2, seed=100)
    net = Net(state_shape=4, action_shape=2, hidden_sizes=[64, 64])
    policy = DiscreteQLearningPolicy(
        model=net, action_space=train_env.action_space, eps_training=0.1, eps_inference=0.0
    )
    algorithm = DQN(
        policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=0.99, target_update_freq=50
    )
    before = [p.detach().clone() for p in net.parameters()]
    train = Collector(algorithm, train_env, VectorReplayBuffer(5000, 4), exploration_noise=True)
    test = Collector(algorithm, test_env)
    train.reset()
    train.collect(n_step=256, random=True)
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=train,
            test_collector=test,
            max_epochs=1,
            epoch_num_steps=400,
            collection_step_num_env_steps=20,
            test_step_num_episodes=2,
            batch_size=64,
            update_step_num_gradient_steps_per_sample=0.1,
            verbose=False,
            show_progress=False,
        )
    )
    assert result.update_step > 0
    assert any(not p.equal(b) for p, b in zip(net.parameters(), before, strict=True))
    assert result.best_score is not None and np.isfinite(result.best_score)
    train_env.close()
    test_env.close()
