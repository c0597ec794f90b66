"""The public Python API: make*, registry, the gymnasium and dm_env front ends,
gymnasium's vector wrappers and dm_env's test mixin on top of them."""

from __future__ import annotations

import copy
import itertools
import pickle
import uuid

import dm_env
import gymnasium
import numpy as np
import pytest
from absl.testing import absltest
from dm_env import specs, test_utils
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import NormalizeObservation, RecordEpisodeStatistics

import envpool_x
from conftest import CLASSIC_TASKS

CLASSIC = CLASSIC_TASKS

# The registry is global to the process: ids registered here get a suffix
# that no other test (or a second run in the same process) can collide with.
_SUFFIX = uuid.uuid4().hex[:8]


def zero_actions(env, n=None):
    n = env.num_envs if n is None else n
    space = env.single_action_space
    if isinstance(space, gymnasium.spaces.Discrete):
        return np.zeros(n, dtype=np.int32)
    return np.zeros((n, *space.shape), dtype=np.float32)


@pytest.fixture
def cartpole():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=3)
    yield env
    env.close()


# ---- make* / list_all_envs / register ---------------------------------------


def test_list_all_envs_has_every_classic_task():
    ids = envpool_x.list_all_envs()
    assert isinstance(ids, list)
    assert set(CLASSIC) <= set(ids)
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(
    "factory",
    [
        envpool_x.make,
        envpool_x.make_gymnasium,
        envpool_x.make_gym,
        lambda task, **kw: envpool_x.make(task, env_type="gym", **kw),
    ],
)
def test_make_variants_give_a_gymnasium_vector_env(factory):
    env = factory("CartPole-v1", num_envs=2)
    try:
        assert isinstance(env, envpool_x.GymnasiumEnvPool)
        assert isinstance(env, gymnasium.vector.VectorEnv)
        # EnvPool 1.x: even env_type="gym" speaks the gymnasium API.
        out = env.reset()
        assert isinstance(out, tuple) and len(out) == 2
        assert len(env.step(np.zeros(2, dtype=np.int32))) == 5
    finally:
        env.close()


@pytest.mark.parametrize(
    "factory", [envpool_x.make_dm, lambda task, **kw: envpool_x.make(task, env_type="dm", **kw)]
)
def test_make_dm_variants_give_a_dm_env(factory):
    env = factory("CartPole-v1", num_envs=2)
    try:
        assert isinstance(env, envpool_x.DmEnvPool)
        assert isinstance(env, dm_env.Environment)
        assert isinstance(env.reset(), dm_env.TimeStep)
    finally:
        env.close()


def test_make_rejects_unknown_env_type():
    with pytest.raises(ValueError, match="env_type"):
        envpool_x.make("CartPole-v1", env_type="gym3")


def test_register_new_id_on_existing_pool():
    task = f"CartPoleShort{_SUFFIX}-v0"
    envpool_x.register(task, "CartPole", "classic_control", 50)
    assert task in envpool_x.list_all_envs()
    assert envpool_x.make_spec(task).config.max_episode_steps == 50
    env = envpool_x.make_gymnasium(task, num_envs=2)
    try:
        assert env.spec.id == task
        assert env.spec.config.max_episode_steps == 50
        assert env.config["max_episode_steps"] == 50
        obs, _ = env.reset()
        # Push towards where the pole is falling: this keeps CartPole up for
        # hundreds of steps, so the episode ends by the 50-step truncation.
        for _ in range(50):
            obs, _, term, trunc, info = env.step((obs[:, 2] + obs[:, 3] > 0).astype(np.int32))
            assert not term.any()
        assert trunc.all()
        np.testing.assert_array_equal(info["elapsed_step"], [50, 50])
    finally:
        env.close()


def test_register_with_env_defaults_and_threshold():
    task = f"CartPoleSB{_SUFFIX}-v0"
    envpool_x.register(task, "CartPole", "classic_control", 100, 90.0, sutton_barto_reward=True)
    spec = envpool_x.make_spec(task)
    assert spec.config.sutton_barto_reward is True
    assert spec.reward_threshold == 90.0
    # The original id keeps its defaults.
    assert envpool_x.make_spec("CartPole-v1").config.sutton_barto_reward is False
    env = envpool_x.make_gymnasium(task, num_envs=2)
    try:
        env.reset()
        rewards, terms = [], []
        for _ in range(30):  # always right: terminates within ~10 steps
            _, rew, term, _, _ = env.step(np.ones(2, dtype=np.int32))
            rewards.append(rew)
            terms.append(term)
        rewards, terms = np.stack(rewards), np.stack(terms)
        assert terms.any()
        # Sutton & Barto reward: -1 on termination, 0 otherwise.
        np.testing.assert_array_equal(rewards, np.where(terms, -1.0, 0.0))
    finally:
        env.close()


def test_register_rejects_existing_id_and_bad_pool_or_key():
    with pytest.raises(ValueError, match="CartPole-v1"):
        envpool_x.register("CartPole-v1", "CartPole", "classic_control", 500)
    task = f"Bad{_SUFFIX}-v0"
    with pytest.raises(KeyError, match="NoSuchPool"):
        envpool_x.register(task, "NoSuchPool", "classic_control", 10)
    with pytest.raises(KeyError, match="not_a_key"):
        envpool_x.register(task, "CartPole", "classic_control", 10, not_a_key=1)
    assert task not in envpool_x.list_all_envs()
    # The registry still works for the original.
    assert envpool_x.make_spec("CartPole-v1").config.max_episode_steps == 500


# ---- gymnasium env attributes -----------------------------------------------


def test_gymnasium_env_attributes(cartpole):
    env = cartpole
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.num_envs == 3 and len(env) == 3
    expected_obs = gymnasium.make("CartPole-v1").observation_space
    assert env.single_observation_space == expected_obs
    assert env.single_action_space == gymnasium.spaces.Discrete(2)
    # EnvPool: observation_space / action_space are the spaces of ONE env.
    assert env.observation_space == env.single_observation_space
    assert env.observation_space.shape == (4,)
    assert env.action_space == env.single_action_space
    assert env.spec.id == "CartPole-v1"
    cfg = env.spec.config
    assert hasattr(cfg, "_fields") and hasattr(cfg, "_asdict")  # a namedtuple
    assert cfg.num_envs == 3 and cfg.batch_size == 3 and cfg.max_episode_steps == 500
    assert {"num_envs", "batch_size", "num_threads", "seed", "max_episode_steps"} <= set(
        cfg._fields
    )
    assert isinstance(env.config, dict)
    assert env.config == cfg._asdict()
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP


@pytest.mark.parametrize(
    "mode, expected",
    [
        ("next_step", AutoresetMode.NEXT_STEP),
        ("same_step", AutoresetMode.SAME_STEP),
        ("disabled", AutoresetMode.DISABLED),
    ],
)
def test_metadata_autoreset_mode_matches_config(mode, expected):
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2, autoreset_mode=mode)
    try:
        assert isinstance(env.metadata["autoreset_mode"], AutoresetMode)
        assert env.metadata["autoreset_mode"] is expected
        assert env.spec.config.autoreset_mode == mode
    finally:
        env.close()


def test_attributes_accept_assignment_like_cleanrl():
    env = envpool_x.make_gymnasium("Pendulum-v1", num_envs=4)
    try:
        # What CleanRL's envpool scripts do before wrapping.
        env.num_envs = 4
        env.single_action_space = env.action_space
        env.single_observation_space = env.observation_space
        env.is_vector_env = True
        assert env.num_envs == 4 and len(env) == 4
        assert env.single_action_space is env.action_space
        assert env.single_observation_space is env.observation_space
        assert env.is_vector_env is True
        new_space = gymnasium.spaces.Box(-1.0, 1.0, (1,), np.float32)
        env.action_space = new_space
        assert env.action_space is new_space
        obs, _ = env.reset()
        obs, rew, term, trunc, info = env.step(zero_actions(env))
        assert obs.shape == (4, 3) and rew.shape == (4,)
        np.testing.assert_array_equal(info["elapsed_step"], [1, 1, 1, 1])
    finally:
        env.close()


# ---- reset / step ------------------------------------------------------------


def test_reset_returns_obs_and_info(cartpole):
    obs, info = cartpole.reset()
    assert obs.shape == (3, 4) and obs.dtype == np.float32
    np.testing.assert_array_equal(info["env_id"], [0, 1, 2])
    np.testing.assert_array_equal(info["elapsed_step"], [0, 0, 0])
    assert cartpole.single_observation_space.contains(obs[0])


@pytest.mark.parametrize("factory", [envpool_x.make_gymnasium, envpool_x.make_gym])
def test_gym_reset_return_info_false_returns_obs_only(factory):
    env = factory("CartPole-v1", num_envs=2, gym_reset_return_info=False)
    try:
        obs = env.reset()
        assert isinstance(obs, np.ndarray) and obs.shape == (2, 4)
        # step is unchanged.
        assert len(env.step(np.zeros(2, dtype=np.int32))) == 5
    finally:
        env.close()


DISCRETE = ["CartPole-v0", "CartPole-v1", "MountainCar-v0", "Acrobot-v1"]
CONTINUOUS = ["Pendulum-v1", "MountainCarContinuous-v0"]


@pytest.mark.parametrize(
    "task, dtype",
    [(t, d) for t in DISCRETE for d in (np.int32, np.int64)]
    + [(t, d) for t in CONTINUOUS for d in (np.float32, np.float64)],
)
def test_step_types_and_shapes(task, dtype):
    env = envpool_x.make_gymnasium(task, num_envs=3)
    try:
        env.reset()
        act = zero_actions(env).astype(dtype)
        obs, rew, term, trunc, info = env.step(act)
        assert obs.shape == (3, *env.single_observation_space.shape)
        assert obs.dtype == env.single_observation_space.dtype
        assert rew.shape == (3,) and rew.dtype == np.float32
        assert term.shape == (3,) and term.dtype == np.bool_
        assert trunc.shape == (3,) and trunc.dtype == np.bool_
        assert isinstance(info, dict)
        np.testing.assert_array_equal(info["env_id"], [0, 1, 2])
        np.testing.assert_array_equal(info["elapsed_step"], [1, 1, 1])
    finally:
        env.close()


def test_reset_seed_is_honoured(cartpole):
    a, _ = cartpole.reset(seed=123)
    b, _ = cartpole.reset(seed=123)
    c, _ = cartpole.reset(seed=124)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    # Envs of one pool do not start in the same state.
    assert not np.array_equal(a[0], a[1])


def test_close_is_idempotent_and_later_calls_raise():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2)
    env.reset()
    env.close()
    env.close()
    assert env.closed
    with pytest.raises(RuntimeError):
        env.step(np.zeros(2, dtype=np.int32))


# ---- gymnasium vector wrappers -------------------------------------------------


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_record_episode_statistics(mode):
    num_envs, limit = 8, 20
    env = envpool_x.make_gymnasium(
        "CartPole-v1", num_envs=num_envs, max_episode_steps=limit, autoreset_mode=mode, seed=5
    )
    wrapped = RecordEpisodeStatistics(env)
    rng = np.random.default_rng(0)
    try:
        wrapped.reset()
        finished = 0
        truncated_seen = 0
        for _ in range(120):
            _, rew, term, trunc, info = wrapped.step(rng.integers(0, 2, num_envs))
            done = term | trunc
            if not done.any():
                assert "episode" not in info
                continue
            np.testing.assert_array_equal(info["_episode"], done)
            r, length = info["episode"]["r"], info["episode"]["l"]
            # The elapsed step of the terminal step is the episode length.
            if mode == "next_step":
                steps = info["elapsed_step"]
            else:  # the env has already reset; the terminal info is final_info
                np.testing.assert_array_equal(info["_final_info"], done)
                steps = info["final_info"]["elapsed_step"]
            for i in np.flatnonzero(done):
                assert 1 <= length[i] <= limit
                assert r[i] == length[i]  # CartPole: reward 1 per step
                assert length[i] == steps[i]
                if trunc[i] and not term[i]:
                    assert length[i] == limit
                    truncated_seen += 1
            assert (r[~done] == 0).all() and (length[~done] == 0).all()
            finished += int(done.sum())
        assert finished >= num_envs
        assert truncated_seen >= 1
        assert wrapped.episode_count == finished
        assert len(wrapped.length_queue) == min(finished, wrapped.length_queue.maxlen)
    finally:
        wrapped.close()
    assert env.closed


def test_normalize_observation():
    num_envs = 4
    env = envpool_x.make_gymnasium("Pendulum-v1", num_envs=num_envs, seed=1)
    wrapped = NormalizeObservation(env)
    try:
        assert wrapped.single_observation_space.shape == (3,)
        assert wrapped.single_observation_space.dtype == np.float32
        obs, _ = wrapped.reset()
        assert obs.shape == (num_envs, 3) and obs.dtype == np.float32
        mean_after_reset = wrapped.obs_rms.mean.copy()
        assert not np.allclose(mean_after_reset, 0.0)
        normalised = []
        act = np.full((num_envs, 1), 0.5, dtype=np.float32)
        for _ in range(30):
            obs, rew, term, trunc, info = wrapped.step(act)
            assert obs.shape == (num_envs, 3) and obs.dtype == np.float32
            assert np.isfinite(obs).all()
            normalised.append(obs)
        assert not np.allclose(wrapped.obs_rms.mean, mean_after_reset)
        # 1 reset + 30 steps, num_envs observations each (count starts at epsilon).
        assert wrapped.obs_rms.count == pytest.approx(31 * num_envs, abs=1e-3)
        # Normalised observations are roughly centred over the run.
        assert np.abs(np.concatenate(normalised).mean(axis=0)).max() < 2.0
        # The output is our observation normalised with the wrapper's stats:
        # replay the same seed and actions on a bare env to get the raw obs.
        raw_env = envpool_x.make_gymnasium("Pendulum-v1", num_envs=num_envs, seed=1)
        try:
            raw_env.reset()
            for _ in range(30):
                raw = raw_env.step(act)[0]
        finally:
            raw_env.close()
        expected = (raw - wrapped.obs_rms.mean) / np.sqrt(wrapped.obs_rms.var + wrapped.epsilon)
        np.testing.assert_allclose(normalised[-1], expected.astype(np.float32), rtol=1e-6)
    finally:
        wrapped.close()


def test_normalize_observation_rejects_same_step_env():
    # gymnasium's own check, which relies on metadata["autoreset_mode"] being right.
    env = envpool_x.make_gymnasium("Pendulum-v1", num_envs=2, autoreset_mode="same_step")
    try:
        with pytest.raises(ValueError, match="NEXT_STEP"):
            NormalizeObservation(env)
    finally:
        env.close()


# ---- dm_env ------------------------------------------------------------------


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


# ---- make_spec -----------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:.*CartPole-v0 is out of date")
@pytest.mark.parametrize("task", CLASSIC)
def test_make_spec_matches_gymnasium(task):
    spec = envpool_x.make_spec(task)
    assert isinstance(spec, envpool_x.EnvSpec)
    ref = gymnasium.make(task)
    try:
        assert spec.id == task
        assert spec.observation_space == ref.observation_space
        assert spec.action_space == ref.action_space
        assert spec.config.max_episode_steps == ref.spec.max_episode_steps
        assert spec.max_episode_steps == ref.spec.max_episode_steps
        assert spec.reward_threshold == ref.spec.reward_threshold
        assert spec.config.reward_threshold == ref.spec.reward_threshold
    finally:
        ref.close()
    obs_spec = spec.observation_spec()
    assert obs_spec.obs.shape == ref.observation_space.shape
    assert obs_spec.obs.dtype == ref.observation_space.dtype
    act_spec = spec.action_spec()
    if isinstance(ref.action_space, gymnasium.spaces.Discrete):
        assert isinstance(act_spec, specs.DiscreteArray)
        assert act_spec.num_values == ref.action_space.n
    else:
        assert act_spec.shape == ref.action_space.shape
        np.testing.assert_array_equal(act_spec.minimum, ref.action_space.low)
        np.testing.assert_array_equal(act_spec.maximum, ref.action_space.high)


def test_make_spec_config_overrides():
    spec = envpool_x.make_spec("Pendulum-v1", num_envs=8, batch_size=4, max_episode_steps=7)
    assert spec.config.num_envs == 8 and spec.config.batch_size == 4
    assert spec.config.max_episode_steps == 7 and spec.max_episode_steps == 7
    assert spec.config_dict()["num_envs"] == 8
    assert envpool_x.make_spec("Pendulum-v1", num_envs=8).config.batch_size == 8


# ---- async -----------------------------------------------------------------------


def test_gymnasium_async_round_trip():
    num_envs, batch = 6, 2
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=num_envs, batch_size=batch, seed=3)
    try:
        env.async_reset()
        for expected_step in (0, 1, 2):
            # Every env has exactly one result in flight: the batches of one
            # round hold each env once, whichever order they finish in.
            batches = []
            for _ in range(num_envs // batch):
                obs, rew, term, trunc, info = env.recv()
                ids = info["env_id"]
                assert obs.shape == (batch, 4) and obs.dtype == np.float32
                assert rew.shape == (batch,) and rew.dtype == np.float32
                assert term.shape == (batch,) and trunc.shape == (batch,)
                np.testing.assert_array_equal(info["elapsed_step"], expected_step)
                batches.append(ids)
            seen = np.concatenate(batches)
            assert sorted(seen.tolist()) == list(range(num_envs))
            for ids in batches:
                env.send(np.ones(batch, dtype=np.int32), ids)
    finally:
        env.close()


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


# ---- pickling ----------------------------------------------------------------------


@pytest.mark.parametrize("factory", [envpool_x.make_gymnasium, envpool_x.make_dm])
def test_pickling_an_env_raises_type_error(factory):
    env = factory("CartPole-v1", num_envs=2)
    try:
        with pytest.raises(TypeError, match="pickle"):
            pickle.dumps(env)
        with pytest.raises(TypeError):
            copy.deepcopy(env)
        env.reset()  # still usable
    finally:
        env.close()


def test_spec_can_be_pickled_as_the_error_message_advises():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2)
    try:
        with pytest.raises(TypeError, match="pickle the spec"):
            pickle.dumps(env)
        spec = pickle.loads(pickle.dumps(env.spec))
        assert spec.config == env.spec.config
        again = envpool_x.make_gymnasium(spec.id, **spec.config_dict())
        again.close()
    finally:
        env.close()
