"""envpool_x tasks in gymnasium's registry (envpool_x/<id>, vector entry point)."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import envpool_x
from envpool_x.gymnasium_registry import GymnasiumVectorEnvPool


def test_every_task_is_registered_with_a_vector_entry_point() -> None:
    ids = [i for i in gymnasium.registry if i.startswith("envpool_x/")]
    assert sorted(ids) == sorted(f"envpool_x/{t}" for t in envpool_x.list_all_envs())
    spec = gymnasium.spec("envpool_x/CartPole-v1")
    assert spec.vector_entry_point is not None
    assert spec.max_episode_steps == 500
    assert spec.reward_threshold == 475.0


@pytest.mark.parametrize("mode", ["vector_entry_point", None])
def test_make_vec_gives_the_same_pool_as_make_gymnasium(mode: str | None) -> None:
    env = gymnasium.make_vec(
        "envpool_x/CartPole-v1", num_envs=6, vectorization_mode=mode, seed=3, num_threads=1
    )
    ref = envpool_x.make_gymnasium("CartPole-v1", num_envs=6, seed=3, num_threads=1)
    try:
        assert isinstance(env, GymnasiumVectorEnvPool)
        assert env.num_envs == 6 and env.config["num_threads"] == 1
        # gymnasium's vector conventions: batched spaces, single_* for one env.
        assert env.observation_space.shape == (6, 4)
        assert env.action_space == gymnasium.spaces.MultiDiscrete([2] * 6)
        assert env.single_observation_space == ref.single_observation_space
        # envpool_x's spec stays env.spec; gymnasium's registry spec is kept apart.
        assert env.spec.id == "CartPole-v1" and env.spec.config.seed == 3
        assert env.gymnasium_spec is not None
        assert env.gymnasium_spec.id == "envpool_x/CartPole-v1"
        assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
        obs, _ = env.reset()
        obs_ref, _ = ref.reset()
        np.testing.assert_array_equal(obs, obs_ref)
        rng = np.random.default_rng(0)
        for _ in range(100):
            action = env.action_space.sample() if rng.random() < 0.5 else rng.integers(0, 2, 6)
            out, out_ref = env.step(action), ref.step(action)
            for a, b in zip(out[:4], out_ref[:4], strict=True):
                np.testing.assert_array_equal(a, b)
    finally:
        env.close()
        ref.close()


def test_make_vec_passes_env_keys_and_time_limit() -> None:
    env = gymnasium.make_vec(
        "envpool_x/CartPole-v1",
        num_envs=2,
        vectorization_mode="vector_entry_point",
        max_episode_steps=7,
        sutton_barto_reward=True,
    )
    try:
        env.reset()
        for t in range(7):
            # Alternate pushes: the pole stays up, only the time limit ends the episode.
            _, reward, terminated, truncated, _ = env.step(np.full(2, t % 2, dtype=np.int64))
            assert not terminated.any()
            assert (truncated == (t == 6)).all()
            np.testing.assert_array_equal(reward, 0.0)  # sutton_barto: 0 until failure
    finally:
        env.close()


def test_make_vec_atari_pool() -> None:
    if "Pong-v5" not in envpool_x.list_all_envs():
        pytest.skip("built without the Atari family")
    env = gymnasium.make_vec(
        "envpool_x/Pong-v5", num_envs=2, vectorization_mode="vector_entry_point", stack_num=2
    )
    try:
        obs, info = env.reset()
        assert obs.shape == (2, 2, 84, 84) and obs.dtype == np.uint8
        assert env.observation_space.shape == (2, 2, 84, 84)
        assert "lives" in info
    finally:
        env.close()


def test_single_env_make_points_to_make_vec() -> None:
    with pytest.raises(gymnasium.error.Error, match=r"make_vec\(\"envpool_x/CartPole-v1\""):
        gymnasium.make("envpool_x/CartPole-v1")


def test_bad_config_key_is_named() -> None:
    with pytest.raises(KeyError, match="no_such_key"):
        gymnasium.make_vec(
            "envpool_x/CartPole-v1",
            num_envs=2,
            vectorization_mode="vector_entry_point",
            no_such_key=1,
        )


def test_tasks_registered_later_are_mirrored() -> None:
    envpool_x.register("CartPoleShort-v0", "CartPole", "classic_control", 9)
    env = gymnasium.make_vec("envpool_x/CartPoleShort-v0", num_envs=2)
    try:
        assert isinstance(env, GymnasiumVectorEnvPool)
        assert env.spec.config.max_episode_steps == 9
    finally:
        env.close()


def test_module_prefix_imports_envpool_x_in_a_fresh_process() -> None:
    # What a Ray worker does: nothing imported yet, gymnasium's "module:id" form.
    code = (
        "import gymnasium, sys\n"
        "assert 'envpool_x' not in sys.modules\n"
        "env = gymnasium.make_vec('envpool_x:envpool_x/Acrobot-v1', num_envs=3, "
        "vectorization_mode='vector_entry_point')\n"
        "print(type(env).__name__, env.reset()[0].shape)\n"
        "env.close()\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.split() == ["GymnasiumVectorEnvPool", "(3,", "6)"]
