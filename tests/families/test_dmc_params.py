"""Per-env parameters of the DeepMind Control tasks (docs/params.md): set_params
equals the config bit for bit, dm_control's env with its model arrays scaled the
same way is the oracle, draws reproduce by seed, and the values apply at a
reset only (dm_control's legacy step)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from model_param_helpers import VALUES as MODEL_VALUES
from model_param_helpers import scale_model

import envpool_x
from envpool_x import memory
from envpool_x.families import dmc
from envpool_x.params import LogUniform

if not dmc.has_dmc():
    pytest.skip("envpool_x was built without MuJoCo (and so without dmc)", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")
suite = pytest.importorskip("dm_control.suite")

# (task id, domain, task): a sample of the suite (the others share the code).
TASKS = [
    ("CheetahRun-v1", "cheetah", "run"),
    ("WalkerWalk-v1", "walker", "walk"),
    ("CartpoleSwingup-v1", "cartpole", "swingup"),
]
IDS = [t[0] for t in TASKS]
VALUES = {k: v for k, v in MODEL_VALUES.items() if k != "timestep_scale"}


def rows(ts: Any) -> np.ndarray:
    """One row per env of a dm_env TimeStep: its observations, reward, discount
    and step type."""
    obs = ts.observation
    fields = [np.asarray(getattr(obs, name)) for name in obs._fields]
    n = len(ts.reward)
    flat = [f.reshape(n, -1).astype(np.float64) for f in fields]
    return np.concatenate(
        [*flat, ts.reward[:, None], ts.discount[:, None], ts.step_type[:, None]], 1
    )


def trajectory(env: Any, steps: int, seed: int = 0) -> list[np.ndarray]:
    """A reset and `steps` steps of random actions (the dm_env front end
    starts a new episode the step after the last)."""
    rng = np.random.default_rng(seed)
    spec = env.action_spec()
    out = [rows(env.reset())]
    for _ in range(steps):
        a = rng.uniform(spec.minimum, spec.maximum, (env.num_envs, *spec.shape))
        out.append(rows(env.step(a.astype(np.float32))))
    return out


def assert_same(a: list[np.ndarray], b: list[np.ndarray], which: Any = slice(None)) -> None:
    for t, (x, y) in enumerate(zip(a, b, strict=True)):
        np.testing.assert_array_equal(x[which], y[which], f"step {t}")


@pytest.mark.parametrize("task_id,domain,task", TASKS, ids=IDS)
def test_set_params_equals_config(task_id: str, domain: str, task: str) -> None:
    """Envs 0 and 1 set to VALUES step bit for bit as a pool made with them
    over several 40-step episodes; env 2, left at 1, as a default pool's."""
    kw = {"num_envs": 3, "seed": 4, "max_episode_steps": 40}
    made = envpool_x.make_dm(task_id, **kw, **VALUES)
    default = envpool_x.make_dm(task_id, **kw)
    changed = envpool_x.make_dm(task_id, **kw)
    changed.set_params(env_ids=[0, 1], **VALUES)
    ours = trajectory(changed, 100)
    assert_same(ours, trajectory(made, 100), slice(0, 2))
    theirs = trajectory(default, 100)
    assert_same(ours, theirs, slice(2, 3))
    assert not np.array_equal(ours[-1][:2], theirs[-1][:2])  # the values act
    for name, value in VALUES.items():
        np.testing.assert_array_equal(changed.get_params()[name], [value, value, 1.0])
    for env in (made, default, changed):
        env.close()


def async_trajectory(env: Any, steps: int, seed: int = 0) -> list[np.ndarray]:
    """`trajectory` through async_reset / send / recv (batch_size < num_envs):
    the rows of each round reassembled in env order."""
    rng = np.random.default_rng(seed)
    spec = env.action_spec()
    n = env.num_envs
    out: list[np.ndarray] = []
    env.async_reset()
    for step in range(steps + 1):
        if step:
            a = rng.uniform(spec.minimum, spec.maximum, (n, *spec.shape))
            env.send(a.astype(np.float32), np.arange(n))
        row = None
        for _ in range(n // env.batch_size):
            ts = env.recv()
            part = rows(ts)
            if row is None:
                row = np.zeros((n, part.shape[1]))
            row[np.asarray(ts.observation.env_id)] = part
        out.append(row)
    return out


def test_async_set_params_equals_config() -> None:
    """The async path (batches of 2 of 4 envs): set_params equals the config,
    and both equal the sync pool's rows."""
    kw = {"num_envs": 4, "seed": 2, "max_episode_steps": 30}
    made = envpool_x.make_dm("WalkerWalk-v1", batch_size=2, **kw, **VALUES)
    changed = envpool_x.make_dm("WalkerWalk-v1", batch_size=2, **kw)
    changed.set_params(**VALUES)
    sync = envpool_x.make_dm("WalkerWalk-v1", **kw, **VALUES)
    ours = async_trajectory(changed, 70)
    assert_same(ours, async_trajectory(made, 70))
    assert_same(ours, trajectory(sync, 70))
    for env in (made, changed, sync):
        env.close()


@pytest.mark.parametrize("task_id,domain,task", TASKS, ids=IDS)
def test_matches_dm_control_with_the_model_scaled(task_id: str, domain: str, task: str) -> None:
    """Our env made with VALUES against dm_control's with its model arrays
    scaled the same way, from dm_control's reset state, for 300 steps."""
    ours = envpool_x.make_dm(task_id, num_envs=1, seed=1, **VALUES)
    theirs = suite.load(domain, task, task_kwargs={"random": 1})
    scale_model(theirs.physics.model, VALUES)
    theirs.reset()
    ours.reset()
    sig = mujoco.mjtState.mjSTATE_INTEGRATION
    ours._pool.set_state(0, theirs.physics.get_state(sig=sig))
    spec = theirs.action_spec()
    rng = np.random.default_rng(1)
    for t in range(300):
        a = rng.uniform(spec.minimum, spec.maximum).astype(np.float32)
        ts1 = ours.step(a[None])
        ts2 = theirs.step(a.astype(np.float64))
        for name, value in ts2.observation.items():
            np.testing.assert_array_equal(getattr(ts1.observation, name)[0], value, f"{t} {name}")
        assert abs(float(ts1.reward[0]) - ts2.reward) <= 1e-6, f"step {t}: reward"
    ours.close()


def test_distributions_reproduce_by_seed() -> None:
    def run(seed: int) -> tuple[list[np.ndarray], np.ndarray]:
        env = envpool_x.make_dm("CartpoleSwingup-v1", num_envs=3, seed=seed, max_episode_steps=25)
        env.set_params(actuator_gear_scale=LogUniform(0.5, 2.0), gravity_scale=LogUniform(0.5, 2))
        out = trajectory(env, 60)
        gear = env.get_params()["actuator_gear_scale"]
        env.close()
        return out, gear

    out, gear = run(2)
    again, gear_again = run(2)
    assert_same(out, again)
    np.testing.assert_array_equal(gear, gear_again)
    assert len(set(gear.tolist())) == 3 and np.all((gear >= 0.5) & (gear <= 2.0))
    assert not np.array_equal(run(3)[1], gear)


def test_values_apply_at_a_reset_only() -> None:
    """No timestep (a task's control timestep is a multiple of it) and no
    immediate=True (the legacy step keeps mj_step1's results for the next)."""
    env = envpool_x.make_dm("CheetahRun-v1", num_envs=1, seed=0)
    assert "timestep_scale" not in envpool_x.make_spec("CheetahRun-v1").params
    assert not any(p.mid_episode for p in envpool_x.make_spec("CheetahRun-v1").params.values())
    env.reset()
    with pytest.raises(ValueError, match="reset"):
        env.set_params(immediate=True, body_mass_scale=2.0)
    env.close()


def test_memory_counts_one_model_copy_per_env() -> None:
    spec = envpool_x.make_spec("WalkerWalk-v1", num_envs=6)
    copy = memory.param_copy_bytes(spec)
    tables = spec.entry.pool_class.memory_sizes()["params_per_env"]
    assert copy > 0
    assert memory.param_table_bytes(spec, 7) - memory.param_table_bytes(spec, 6) == tables + copy
    scaled = envpool_x.make_spec("WalkerWalk-v1", num_envs=6, gravity_scale=0.5)
    assert memory.estimate(scaled).resident - memory.estimate(spec).resident == 6 * copy
