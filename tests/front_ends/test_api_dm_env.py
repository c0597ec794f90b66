"""The dm_env front end: time steps (termination, truncation, auto-reset),
specs, batched rows against the per-env specs, dm_env's EnvironmentTestMixin
on one env of a pool, and the async send / recv round trip."""

from __future__ import annotations

import itertools

import dm_env
import numpy as np
import pytest
from absl.testing import absltest
from dm_env import specs, test_utils

import envpool_x
from conftest import CLASSIC_TASKS

CLASSIC = CLASSIC_TASKS


def test_dm_timestep_termination_cartpole():
    env = envpool_x.make_dm("CartPole-v1", num_envs=2)
    try:
        ts = env.reset()
        assert isinstance(ts, dm_env.TimeStep)
        assert ts.step_type.dtype == np.int32
        np.testing.assert_array_equal(ts.step_type, [dm_env.StepType.FIRST] * 2)
        assert ts.observation._fields == ("obs", "env_id", "elapsed_step")
        assert ts.observation.obs.shape == (2, 4)
        np.testing.assert_array_equal(ts.observation.env_id, [0, 1])
        np.testing.assert_array_equal(ts.observation.elapsed_step, [0, 0])
        push = np.ones(2, dtype=np.int32)  # always right: the pole falls within ~10 steps
        for k in itertools.count(1):
            assert k < 100, "CartPole never terminated"
            ts = env.step(push)
            assert ts.step_type.dtype == np.int32
            assert ts.reward.dtype == np.float32 and ts.discount.dtype == np.float32
            np.testing.assert_array_equal(ts.observation.elapsed_step, [k, k])
            if (ts.step_type == dm_env.StepType.LAST).any():
                break
            np.testing.assert_array_equal(ts.step_type, [dm_env.StepType.MID] * 2)
            np.testing.assert_array_equal(ts.discount, [1.0, 1.0])
            np.testing.assert_array_equal(ts.reward, [1.0, 1.0])
        last = ts.step_type == dm_env.StepType.LAST
        np.testing.assert_array_equal(ts.discount[last], 0.0)  # terminated
        np.testing.assert_array_equal(ts.reward[last], 1.0)
        ts2 = env.step(push)
        # The step after LAST is the auto-reset: FIRST, elapsed_step 0.
        np.testing.assert_array_equal(ts2.step_type[last], dm_env.StepType.FIRST)
        np.testing.assert_array_equal(ts2.observation.elapsed_step[last], 0)
        np.testing.assert_array_equal(ts2.discount[last], 1.0)
        ts3 = env.step(push)
        np.testing.assert_array_equal(ts3.step_type[last], dm_env.StepType.MID)
    finally:
        env.close()


def test_dm_timestep_truncation_pendulum():
    env = envpool_x.make_dm("Pendulum-v1", num_envs=3, max_episode_steps=3)
    try:
        env.reset()
        act = np.zeros((3, 1), dtype=np.float32)
        types = []
        for _ in range(5):
            ts = env.step(act)
            types.append(ts.step_type.copy())
            assert ts.reward.dtype == np.float32 and (ts.reward <= 0).all()
            # Truncation is not termination: discount stays 1.
            np.testing.assert_array_equal(ts.discount, np.ones(3, dtype=np.float32))
        m, last, first = dm_env.StepType.MID, dm_env.StepType.LAST, dm_env.StepType.FIRST
        np.testing.assert_array_equal(
            np.stack(types), [[m] * 3, [m] * 3, [last] * 3, [first] * 3, [m] * 3]
        )
    finally:
        env.close()


def test_dm_specs():
    env = envpool_x.make_dm("Pendulum-v1", num_envs=2)
    try:
        obs_spec = env.observation_spec()
        assert obs_spec._fields == ("obs", "env_id", "elapsed_step")
        assert obs_spec.obs.shape == (3,) and obs_spec.obs.dtype == np.float32
        assert isinstance(obs_spec.obs, specs.BoundedArray)
        np.testing.assert_array_equal(obs_spec.obs.maximum, [1.0, 1.0, 8.0])
        assert obs_spec.env_id.shape == () and obs_spec.env_id.dtype == np.int32
        act_spec = env.action_spec()
        assert isinstance(act_spec, specs.BoundedArray)
        assert act_spec.shape == (1,) and act_spec.dtype == np.float32
        np.testing.assert_array_equal(act_spec.minimum, [-2.0])
        np.testing.assert_array_equal(act_spec.maximum, [2.0])
        assert env.reward_spec().shape == () and env.reward_spec().dtype == np.float32
        disc = env.discount_spec()
        assert disc.dtype == np.float32 and disc.minimum == 0.0 and disc.maximum == 1.0
    finally:
        env.close()
    cp = envpool_x.make_dm("CartPole-v1", num_envs=1)
    try:
        act_spec = cp.action_spec()
        assert isinstance(act_spec, specs.DiscreteArray) and act_spec.num_values == 2
    finally:
        cp.close()


@pytest.mark.parametrize("task", CLASSIC)
def test_dm_batched_rows_conform_to_per_env_specs(task):
    # The batched form of the mixin's assertValidStep: every row of every
    # field validates against the per-env spec.
    env = envpool_x.make_dm(task, num_envs=3, max_episode_steps=4)
    try:
        ts = env.reset()
        spec = env.action_spec()
        act = np.stack([spec.generate_value()] * 3)
        for _ in range(6):
            for i in range(3):
                for value, s in zip(ts.observation, env.observation_spec(), strict=True):
                    s.validate(value[i])
                env.reward_spec().validate(ts.reward[i])
                env.discount_spec().validate(ts.discount[i])
            ts = env.step(act)
    finally:
        env.close()


def test_make_dm_rejects_same_step():
    with pytest.raises(ValueError, match="same_step"):
        envpool_x.make_dm("CartPole-v1", num_envs=2, autoreset_mode="same_step")


class SingleDmEnv(dm_env.Environment):
    """One env of a num_envs=1 DmEnvPool, with the batch dimension squeezed.

    dm_env's EnvironmentTestMixin is written for unbatched envs; its checks
    that do not apply to the batched env directly, and why:
    - ``step_type`` must be a ``dm_env.StepType`` (checked with assertIs): a
      batched TimeStep holds an int32 array, one step type per env.
    - a FIRST step must have ``reward`` and ``discount`` None: a batch mixes
      FIRST rows with MID/LAST rows in one float32 array, so FIRST rows hold
      reward 0 and discount 1 instead.
    - observations/rewards are validated against the specs as a whole: the
      batched arrays have a leading batch dimension the per-env specs lack
      (test_dm_batched_rows_conform_to_per_env_specs checks each row).
    - step() on a fresh env must act as reset(): the pool, like EnvPool,
      raises RuntimeError for a step before the first reset (a bad input
      with its own test), so this adapter resets instead.
    """

    def __init__(self, task, **config):
        self._pool = envpool_x.make_dm(task, num_envs=1, **config)
        self._fresh = True

    def _squeeze(self, ts):
        step_type = dm_env.StepType(int(ts.step_type[0]))
        observation = type(ts.observation)(*(field[0] for field in ts.observation))
        if step_type is dm_env.StepType.FIRST:
            return dm_env.TimeStep(step_type, None, None, observation)
        return dm_env.TimeStep(step_type, ts.reward[0], ts.discount[0], observation)

    def reset(self):
        self._fresh = False
        return self._squeeze(self._pool.reset())

    def step(self, action):
        if self._fresh:
            return self.reset()
        return self._squeeze(self._pool.step(np.asarray(action)[None]))

    def observation_spec(self):
        return self._pool.observation_spec()

    def action_spec(self):
        return self._pool.action_spec()

    def reward_spec(self):
        return self._pool.reward_spec()

    def discount_spec(self):
        return self._pool.discount_spec()

    def close(self):
        self._pool.close()


class TestDmEnvMixinCartPole(test_utils.EnvironmentTestMixin, absltest.TestCase):
    def make_object_under_test(self):
        return SingleDmEnv("CartPole-v1")

    def make_action_sequence(self):
        # Always push right: terminates (LAST, then FIRST) within the sequence.
        for _ in range(40):
            yield np.int32(1)

    def test_sequence_reaches_last_then_first(self):
        env = self.environment
        env.reset()
        types = [env.step(a).step_type for a in self.make_action_sequence()]
        k = types.index(dm_env.StepType.LAST)
        self.assertLess(k + 1, len(types))
        self.assertEqual(set(types[:k]), {dm_env.StepType.MID})
        self.assertIs(types[k + 1], dm_env.StepType.FIRST)


class TestDmEnvMixinPendulum(test_utils.EnvironmentTestMixin, absltest.TestCase):
    def make_object_under_test(self):
        return SingleDmEnv("Pendulum-v1", max_episode_steps=5)

    def make_action_sequence(self):
        # Truncated every 5 steps: LAST / FIRST are crossed several times.
        for k in range(20):
            yield np.array([np.sin(k)], dtype=np.float32)

    def test_truncation_keeps_discount(self):
        env = self.environment
        env.reset()
        steps = [env.step(a) for a in self.make_action_sequence()]
        lasts = [s for s in steps if s.last()]
        self.assertGreaterEqual(len(lasts), 3)
        for s in lasts:
            self.assertEqual(float(s.discount), 1.0)


# ---- async -----------------------------------------------------------------------


def test_dm_async_round_trip():
    num_envs, batch = 6, 3
    env = envpool_x.make_dm("Pendulum-v1", num_envs=num_envs, batch_size=batch)
    try:
        env.async_reset()
        for expected_type in (dm_env.StepType.FIRST, dm_env.StepType.MID, dm_env.StepType.MID):
            batches = []
            for _ in range(num_envs // batch):
                ts = env.recv()
                assert isinstance(ts, dm_env.TimeStep)
                assert ts.observation.obs.shape == (batch, 3)
                assert ts.reward.dtype == np.float32 and ts.discount.dtype == np.float32
                np.testing.assert_array_equal(ts.step_type, expected_type)
                batches.append(ts.observation.env_id)
            seen = np.concatenate(batches)
            assert sorted(seen.tolist()) == list(range(num_envs))
            for ids in batches:
                env.send(np.zeros((batch, 1), dtype=np.float32), ids)
    finally:
        env.close()
