"""Code written for EnvPool runs on envpool_x: its names, signatures and forms."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import envpool_x
import envpool_x as envpool  # the way EnvPool code is pointed at us


def test_envpool_names_are_public():
    assert envpool_x.EnvPool is envpool_x.GymnasiumEnvPool
    assert envpool_x.DMEnvPool is envpool_x.DmEnvPool
    for name in ("EnvPool", "DMEnvPool", "GymnasiumEnvPool", "EnvSpec", "make_spec"):
        assert name in envpool_x.__all__


def test_vector_env_is_also_a_gymnasium_env():
    env = envpool.make_gymnasium("CartPole-v1", num_envs=2)
    assert isinstance(env, gymnasium.Env)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert isinstance(env, envpool.EnvPool)
    assert isinstance(envpool.make_dm("CartPole-v1"), envpool.DMEnvPool)
    env.close()


def test_reset_takes_env_ids_positionally():
    env = envpool.make_gymnasium("CartPole-v1", num_envs=3)
    env.reset()
    obs, info = env.reset(np.array([2, 0]))
    assert obs.shape == (2, 4)
    np.testing.assert_array_equal(info["env_id"], [2, 0])
    np.testing.assert_array_equal(info["elapsed_step"], [0, 0])
    env.close()


def test_seed_applies_at_the_next_reset():
    env = envpool.make_gymnasium("CartPole-v1", num_envs=3)
    seeds = env.seed(7)
    assert len(seeds) == 3 and len(set(seeds)) == 3
    first, _ = env.reset()
    again, _ = env.reset(seed=7)
    np.testing.assert_array_equal(first, again)
    later, _ = env.reset()  # the pending seed was used up
    assert not np.array_equal(later, first)
    assert env.seed(None) == []
    with pytest.raises(ValueError, match=r"\[0, 2\*\*64\)"):
        env.seed(-1)
    with pytest.raises(TypeError):
        env.seed(1.5)
    env.close()


@pytest.mark.parametrize("seed", [2**31, 2**32 + 5, 2**64 - 1])
def test_large_seeds_are_accepted(seed):
    env = envpool.make_gymnasium("CartPole-v1", num_envs=2, seed=seed)
    obs, _ = env.reset()
    obs2, _ = env.reset(seed=seed)
    assert np.isfinite(obs).all() and obs2.shape == (2, 4)
    env.close()


def test_seed_out_of_range_names_the_range():
    with pytest.raises(ValueError, match=r"seed must be in \[0, 2\*\*64\)"):
        envpool.make_gymnasium("CartPole-v1", seed=2**64)
    with pytest.raises(ValueError, match=r"seed must be in \[0, 2\*\*64\)"):
        envpool.make_gymnasium("CartPole-v1", seed=-1)


@pytest.mark.parametrize("env_type", ["gymnasium", "dm"])
def test_dict_action_form_for_step_and_send(env_type):
    env = envpool.make("CartPole-v1", env_type=env_type, num_envs=4, batch_size=2)
    env.async_reset()
    ids = []
    for _ in range(2):
        out = env.recv()
        got = out[-1]["env_id"] if env_type == "gymnasium" else out.observation.env_id
        ids.append(got)
        env.send({"env_id": got, "players.env_id": got, "action": np.ones(2, np.int32)})
    out = env.recv()
    got = out[-1]["env_id"] if env_type == "gymnasium" else out.observation.env_id
    assert set(got.tolist()) <= {0, 1, 2, 3}
    env.close()


def test_dict_action_form_errors():
    env = envpool.make_gymnasium("CartPole-v1", num_envs=2)
    env.reset()
    out = env.step({"action": np.zeros(2, np.int32)})
    np.testing.assert_array_equal(out[4]["env_id"], [0, 1])
    with pytest.raises(ValueError, match="'action' required"):
        env.step({"env_id": np.array([0])})
    with pytest.raises(ValueError, match="'action' required"):
        env.step({"action": np.zeros(2, np.int32), "other": 1})
    with pytest.raises(ValueError, match="players.env_id"):
        env.step({"env_id": [0, 1], "players.env_id": [1, 0], "action": np.zeros(2, np.int32)})
    with pytest.raises(ValueError, match="twice"):
        env.step({"env_id": [0], "action": np.zeros(1, np.int32)}, np.array([0]))
    env.close()


def test_state_and_action_array_specs():
    spec = envpool.make_spec("Ant-v5")
    state = spec.state_array_spec
    for key in ("info:env_id", "elapsed_step", "done", "reward", "trunc", "obs"):
        assert key in state
    assert state["obs"].shape == spec.observation_space.shape
    assert state["obs"].dtype == spec.observation_space.dtype
    assert state["info:x_position"].dtype == np.float64
    action = spec.action_array_spec
    assert set(action) == {"env_id", "players.env_id", "action"}
    assert action["action"].shape == (-1, 8)  # EnvPool's -1: one row per player
    np.testing.assert_array_equal(action["action"].minimum, spec.action_space.low)
    pong = envpool.make_spec("Pong-v5").action_array_spec["action"]
    assert (pong.minimum, pong.maximum) == (0, 5)
    dmc = envpool.make_spec("CheetahRun-v1").state_array_spec
    assert {"obs:position", "obs:velocity"} <= set(dmc)


def test_atari_dm_observation_bounds_are_scalars():
    obs_spec = envpool.make_spec("Pong-v5").observation_spec().obs
    assert np.ndim(obs_spec.maximum) == 0 and obs_spec.maximum == 255
    assert np.ndim(obs_spec.minimum) == 0 and obs_spec.minimum == 0
    # Bounds that differ per element stay arrays.
    mountain = envpool.make_spec("MountainCar-v0").observation_spec().obs
    assert np.shape(mountain.maximum) == (2,)


@pytest.mark.parametrize(
    "task, env_type", [("Hopper-v5", "gymnasium"), ("Ant-v4", "gymnasium"), ("WalkerWalk-v1", "dm")]
)
def test_initial_state_info(task, env_type):
    env = envpool.make(task, env_type=env_type, num_envs=2, initial_state_info=True)
    plain = envpool.make(task, env_type=env_type, num_envs=2)

    def info_of(result):
        if env_type == "dm":
            return {"qpos0": result.observation.qpos0, "qvel0": result.observation.qvel0}
        return result[-1]

    first = info_of(env.reset())
    state = np.stack([env._pool.get_state(i) for i in range(2)])
    if env_type == "gymnasium":  # the MuJoCo state is qpos then qvel
        nq = first["qpos0"].shape[1]
        np.testing.assert_array_equal(first["qpos0"], state[:, :nq])
        np.testing.assert_array_equal(first["qvel0"], state[:, nq:])
    shape = env.action_spec().shape if env_type == "dm" else env.action_space.shape
    later = info_of(env.step(np.zeros((2, *shape), np.float32)))
    np.testing.assert_array_equal(later["qpos0"], first["qpos0"])  # the episode's, not now
    if env_type == "dm":
        assert "qpos0" not in plain.observation_spec()._fields
    else:
        assert "qpos0" not in plain.reset()[1]
    env.close()
    plain.close()


def test_initial_state_info_follows_a_new_episode():
    env = envpool.make_gymnasium("Hopper-v5", num_envs=1, initial_state_info=True)
    _, info = env.reset(seed=1)
    _, info2 = env.reset(seed=2)
    assert not np.array_equal(info["qpos0"], info2["qpos0"])
    np.testing.assert_array_equal(info2["qpos0"][0], env.get_state(0)[: info2["qpos0"].shape[1]])
    env.close()
