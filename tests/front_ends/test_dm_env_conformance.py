"""dm_env's own conformance mixin (dm_env.test_utils.EnvironmentTestMixin) over a
single-env view of make_dm, for a task of every family, plus the batched pool's
"a step on a fresh env, or after LAST, starts a sequence" contract."""

from __future__ import annotations

import dm_env
import numpy as np
import pytest
from absl.testing import absltest
from dm_env import specs, test_utils

import envpool_x

# One task per family; short time limits so the action sequences reach LAST.
FAMILY_TASKS = {
    "classic_control": ("CartPole-v1", {}),
    "classic_control_box": ("Pendulum-v1", {}),
    # observation.params (a dict of float64 scalars) against its specs.
    "params_info": ("Pendulum-v1", {"params_info": True}),
    "toy_text": ("Taxi-v3", {}),
    "toy_text_multi": ("Blackjack-v1", {}),
    "atari": ("Pong-v5", {"episodic_life": True}),
    "mujoco": ("Hopper-v5", {}),
    "dmc": ("CheetahRun-v1", {}),
}


def _random_action(spec: specs.Array, rng: np.random.Generator) -> np.ndarray:
    if isinstance(spec, specs.DiscreteArray):
        return np.asarray(rng.integers(spec.num_values), dtype=spec.dtype)
    low = np.broadcast_to(spec.minimum, spec.shape)
    high = np.broadcast_to(spec.maximum, spec.shape)
    return rng.uniform(low, high).astype(spec.dtype)


class _Conformance(test_utils.EnvironmentTestMixin):
    task: str = ""
    config: dict = {}

    def make_object_under_test(self):
        env = envpool_x.make_dm(self.task, num_envs=2, max_episode_steps=6, **self.config)
        return env.single_env(1)

    def make_action_sequence(self):
        rng = np.random.default_rng(0)
        for _ in range(20):  # crosses LAST at least twice
            yield _random_action(self.environment.action_spec(), rng)


for _family, (_task, _config) in FAMILY_TASKS.items():
    _name = f"TestDmEnvConformance_{_family}"
    globals()[_name] = type(
        _name, (_Conformance, absltest.TestCase), {"task": _task, "config": _config}
    )


def test_the_sequence_reaches_last_and_starts_again():
    """The mixin's longer test only checks LAST -> FIRST if LAST happens."""
    env = envpool_x.make_dm("CartPole-v1", num_envs=1, max_episode_steps=6).single_env()
    kinds = [env.step(np.int32(0)).step_type for _ in range(15)]
    assert kinds[0] is dm_env.StepType.FIRST
    last = [k for k, t in enumerate(kinds) if t is dm_env.StepType.LAST]
    assert last and all(kinds[k + 1] is dm_env.StepType.FIRST for k in last if k + 1 < 15)
    env.close()


@pytest.mark.parametrize("autoreset_mode", ["next_step", "disabled"])
def test_batched_step_on_fresh_envs_starts_them(autoreset_mode):
    env = envpool_x.make_dm("CartPole-v1", num_envs=3, autoreset_mode=autoreset_mode)
    ts = env.step(np.array([1, 1, 1], np.int32))
    np.testing.assert_array_equal(ts.step_type, [0, 0, 0])
    np.testing.assert_array_equal(ts.observation.elapsed_step, [0, 0, 0])
    ts = env.step(np.array([1, 1, 1], np.int32))
    np.testing.assert_array_equal(ts.step_type, [1, 1, 1])
    env.close()


def test_batched_step_starts_only_the_fresh_envs_in_order():
    env = envpool_x.make_dm("CartPole-v1", num_envs=4)
    env.reset(np.array([2]))
    env.step(np.array([0], np.int32), np.array([2]))  # env 2 is one step in
    ts = env.step(np.array([1, 1, 1], np.int32), np.array([3, 2, 0]))
    np.testing.assert_array_equal(ts.observation.env_id, [3, 2, 0])
    np.testing.assert_array_equal(ts.step_type, [0, 1, 0])
    np.testing.assert_array_equal(ts.observation.elapsed_step, [0, 2, 0])
    np.testing.assert_array_equal(ts.reward, [0.0, 1.0, 0.0])
    env.close()


def test_disabled_mode_starts_an_env_again_after_last():
    env = envpool_x.make_dm(
        "CartPole-v1", num_envs=2, autoreset_mode="disabled", max_episode_steps=2
    )
    env.reset()
    kinds = [env.step(np.zeros(2, np.int32)).step_type.tolist() for _ in range(4)]
    assert kinds == [[1, 1], [2, 2], [0, 0], [1, 1]]
    env.close()


def test_async_send_on_fresh_envs_starts_them():
    env = envpool_x.make_dm("CartPole-v1", num_envs=4, batch_size=2)
    env.send(np.zeros(4, np.int32))
    seen = []
    for _ in range(2):
        ts = env.recv()
        np.testing.assert_array_equal(ts.step_type, [0, 0])
        seen += ts.observation.env_id.tolist()
    assert sorted(seen) == [0, 1, 2, 3]
    env.close()


def test_bad_ids_on_a_fresh_env_are_the_pools_errors():
    env = envpool_x.make_dm("CartPole-v1", num_envs=2)
    with pytest.raises(ValueError, match="out of range"):
        env.step(np.zeros(1, np.int32), np.array([5]))
    with pytest.raises(ValueError):
        env.step(np.zeros(2, np.int32), np.array([1, 1]))
    env.close()


def test_single_env_view_checks():
    pool = envpool_x.make_dm("CartPole-v1", num_envs=2)
    with pytest.raises(ValueError, match="out of range"):
        pool.single_env(2)
    with pytest.raises(TypeError):
        pool.single_env(True)
    pool.close()
    async_pool = envpool_x.make_dm("CartPole-v1", num_envs=4, batch_size=2)
    with pytest.raises(ValueError, match="batch_size"):
        async_pool.single_env()
    async_pool.close()


def test_gpu_path_starts_fresh_envs_and_refuses_what_it_cannot():
    """device="cpu-reference" runs the CUDA path's kernel bodies on the CPU."""
    env = envpool_x.make_dm(
        "CartPole-v1", num_envs=3, device="cpu-reference", array_backend="numpy"
    )
    np.testing.assert_array_equal(env.step(np.zeros(3, np.int32)).step_type, [0, 0, 0])
    np.testing.assert_array_equal(env.step(np.zeros(3, np.int32)).step_type, [1, 1, 1])
    env.close()
    env = envpool_x.make_dm(
        "CartPole-v1", num_envs=3, device="cpu-reference", array_backend="numpy"
    )
    env.reset(np.array([0]))
    with pytest.raises(RuntimeError, match="start all the envs it names or none"):
        env.step(np.zeros(3, np.int32))
    env.close()
    with pytest.raises(ValueError, match="next_step"):
        envpool_x.make_dm(
            "CartPole-v1", num_envs=3, device="cpu-reference", autoreset_mode="disabled"
        )
