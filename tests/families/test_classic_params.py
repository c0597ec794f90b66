"""Classic control's per-env parameters (docs/params.md): every declared constant
against gymnasium with the same constant, and set_params against the config."""

import gymnasium as gym
import numpy as np
import pytest

import envpool_x
from conftest import CLASSIC_PARAM_VALUES as VALUES
from conftest import ci_sample

TASKS = list(VALUES)

# gymnasium's attribute of each parameter (None: a literal in its code, which
# only our version can change).
GYM_ATTRIBUTE = {
    "CartPole-v1": {k: k for k in VALUES["CartPole-v1"]},
    "Pendulum-v1": {k: k for k in VALUES["Pendulum-v1"]},
    "MountainCar-v0": {"force": "force", "gravity": "gravity"},
    "MountainCarContinuous-v0": {"power": "power", "gravity": None},
    "Acrobot-v1": {
        "dt": "dt",
        "link_length_1": "LINK_LENGTH_1",
        "link_mass_1": "LINK_MASS_1",
        "link_mass_2": "LINK_MASS_2",
        "link_com_pos_1": "LINK_COM_POS_1",
        "link_com_pos_2": "LINK_COM_POS_2",
        "link_moi": "LINK_MOI",
        "g": None,
    },
}


def _actions(env, steps, seed):
    """A fixed action sequence, one row per env."""
    rng = np.random.default_rng(seed)
    space = env.action_space
    if isinstance(space, gym.spaces.Discrete):
        return rng.integers(0, space.n, size=(steps, env.num_envs)).astype(np.int32)
    return rng.uniform(space.low, space.high, size=(steps, env.num_envs, *space.shape)).astype(
        np.float32
    )


def _host(array):
    """A numpy copy of a result (numpy, or a device pool's DLPack array)."""
    return np.array(array) if isinstance(array, np.ndarray) else np.from_dlpack(array).copy()


def _trajectory(env, actions):
    """Observations, rewards and episode ends of a reset and len(actions) steps."""
    obs, _ = env.reset()
    rows = [_host(obs)]
    for a in actions:
        obs, rew, term, trunc, _ = (_host(x) if i < 4 else x for i, x in enumerate(env.step(a)))
        rows.append(
            np.concatenate(
                [obs.reshape(len(obs), -1), rew[:, None], term[:, None], trunc[:, None]], axis=1
            )
        )
    return rows


@pytest.mark.parametrize("task", TASKS)
def test_oracle_with_changed_constants(task):
    """Each changed constant steps as gymnasium's env with that attribute."""
    values = VALUES[task]
    theirs = gym.make(task, disable_env_checker=True).unwrapped
    for name, value in values.items():
        attribute = GYM_ATTRIBUTE[task][name]
        if attribute is not None:
            setattr(theirs, attribute, value)
    if task.startswith("CartPole"):  # derived in gymnasium's constructor
        theirs.total_mass = theirs.masspole + theirs.masscart
        theirs.polemass_length = theirs.masspole * theirs.length
    ours_values = {k: v for k, v in values.items() if GYM_ATTRIBUTE[task][k] is not None}
    ours = envpool_x.make_gymnasium(task, num_envs=1, seed=0)
    ours.reset()
    ours.set_params(immediate=True, **ours_values)
    theirs.reset(seed=3)
    ours._pool.set_state(0, np.asarray(theirs.state, dtype=np.float64))
    rng = np.random.default_rng(1)
    for t in range(60):
        if isinstance(theirs.action_space, gym.spaces.Discrete):
            action = int(rng.integers(theirs.action_space.n))
        else:
            action = rng.uniform(-1, 1, size=theirs.action_space.shape).astype(np.float32)
        g_obs, g_rew, g_term, _, _ = theirs.step(action)
        obs, rew, term, _, _ = ours.step(np.array([action]))
        # The same float64 operations in the same order: equal after the float32 cast.
        np.testing.assert_array_equal(obs[0], np.asarray(g_obs, dtype=np.float32), f"step {t}")
        assert rew[0] == np.float32(g_rew) and bool(term[0]) == g_term, f"step {t}"
        if g_term:
            break
    ours.close()


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("batch_size", [0, 3])
def test_set_params_equals_config(task, batch_size):
    """set_params(p) then a reset gives the trajectory of a pool made with p,
    through autoresets, sync and async (bit for bit)."""
    values = VALUES[task]
    kw = {"num_envs": 6, "seed": 5, "max_episode_steps": 40}
    made = envpool_x.make_gymnasium(task, **kw, **values)
    changed = envpool_x.make_gymnasium(task, batch_size=batch_size or 6, num_threads=2, **kw)
    changed.set_params(**values)
    actions = _actions(made, 120, seed=2)
    expected = _trajectory(made, actions)
    if batch_size:
        got = _async_trajectory(changed, actions)
    else:
        got = _trajectory(changed, actions)
    for t, (a, b) in enumerate(zip(expected, got, strict=True)):
        np.testing.assert_array_equal(a, b, f"{task} step {t}")
    for name, value in values.items():
        np.testing.assert_array_equal(changed.get_params()[name], np.full(6, value))
        np.testing.assert_array_equal(made.get_params()[name], np.full(6, value))
    made.close()
    changed.close()


def _async_trajectory(env, actions):
    """_trajectory through send / recv in batches: rows reassembled in env order."""
    n = env.num_envs
    env.async_reset()
    first = np.zeros((n, *env.observation_space.shape), dtype=np.float32)
    for _ in range(n // env.batch_size):
        obs, *_, info = env.recv()
        first[info["env_id"]] = obs
    rows = [first]
    for a in actions:
        env.send(a)
        row = None
        for _ in range(n // env.batch_size):
            obs, rew, term, trunc, info = env.recv()
            part = np.concatenate(
                [obs.reshape(len(obs), -1), rew[:, None], term[:, None], trunc[:, None]], axis=1
            )
            if row is None:
                row = np.zeros((n, part.shape[1]), dtype=part.dtype)
            row[info["env_id"]] = part
        rows.append(row)
    return rows


@pytest.mark.parametrize("task", ci_sample(TASKS, {"CartPole-v1", "Acrobot-v1"}))
def test_gpu_kernel_reads_the_same_config(task):
    """The CUDA stepper's kernel (run on the CPU by device='cpu-reference')
    builds its constants from the config as the CPU env does."""
    values = VALUES[task]
    kw = {"num_envs": 4, "seed": 9, "max_episode_steps": 30}
    cpu = envpool_x.make_gymnasium(task, **kw, **values)
    ref = envpool_x.make_gymnasium(
        task, device="cpu-reference", array_backend="dlpack", **kw, **values
    )
    actions = _actions(cpu, 50, seed=4)
    for t, (a, b) in enumerate(
        zip(_trajectory(cpu, actions), _trajectory(ref, actions), strict=True)
    ):
        np.testing.assert_array_equal(a, b, f"{task} step {t}")
    cpu.close()
    ref.close()


def test_immediate_equals_a_pool_made_with_the_values():
    """immediate=True mid-episode: the next steps are those of a pool made with
    the values, from the same state."""
    values = {"gravity": 12.5, "tau": 0.015}
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2, seed=1)
    made = envpool_x.make_gymnasium("CartPole-v1", num_envs=2, seed=1, **values)
    env.reset()
    made.reset()
    for _ in range(5):
        env.step(np.array([0, 1]))
    env.set_params(env_ids=[1], immediate=True, **values)
    for name in ("gravity", "tau"):
        assert env.get_params()[name][1] == values[name]
        assert env.get_params()[name][0] == envpool_x.make_spec("CartPole-v1").params[name].default
    made._pool.set_state(1, env._pool.get_state(1))
    for _ in range(5):
        a = np.array([1, 0])
        obs, *_ = env.step(a)
        m_obs, *_ = made.step(a)
        np.testing.assert_array_equal(obs[1], m_obs[1])
    env.close()
    made.close()


@pytest.mark.parametrize("task", TASKS)
def test_config_values_out_of_range_are_refused(task):
    """A parameter given as config key outside its declared range: ValueError."""
    name = next(iter(VALUES[task]))
    info = envpool_x.make_spec(task).params[name]
    with pytest.raises(ValueError, match=name):
        envpool_x.make_spec(task, **{name: info.high * 2 + 1})
