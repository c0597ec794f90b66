"""Per-env parameters of the Meta-World tasks (docs/params.md): set_params
equals the config bit for bit (single tasks and a benchmark's set), Meta-World's
own env with its model arrays scaled the same way is the oracle over a whole
episode, distributions reproduce by seed, and the memory estimate counts the
scaled arrays."""

from __future__ import annotations

import numpy as np
import pytest
from metaworld_helpers import load_oracle, make_oracle, make_ours
from model_param_helpers import VALUES, assert_same, scale_model, trajectory

import envpool_x
from envpool_x import memory
from envpool_x.families import metaworld as family
from envpool_x.params import LogUniform, Uniform

if not family.has_metaworld():
    pytest.skip("envpool_x was built without the Meta-World tasks", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")
metaworld = pytest.importorskip("metaworld")
load_oracle(mujoco, metaworld, pytest.importorskip("metaworld.policies"))

KW = {"num_envs": 3, "seed": 3, "max_episode_steps": 30, "task_index": 5}


@pytest.mark.parametrize("task_id", ["MetaWorldPickPlace-v3", "MetaWorldDoorOpen-v3"])
def test_set_params_equals_config(task_id: str) -> None:
    """Envs 0 and 1 set to VALUES step bit for bit as a pool made with them,
    over several episodes (autoreset); env 2, left at 1, as a default pool's.
    Back at 1, all step as the default pool's again."""
    made = envpool_x.make_gymnasium(task_id, **KW, **VALUES)
    default = envpool_x.make_gymnasium(task_id, **KW)
    changed = envpool_x.make_gymnasium(task_id, **KW)
    changed.set_params(env_ids=[0, 1], **VALUES)
    ours = trajectory(changed, 70)
    assert_same(ours, trajectory(made, 70), rows=slice(0, 2))
    theirs = trajectory(default, 70)
    assert_same(ours, theirs, rows=slice(2, 3))
    assert not np.array_equal(ours[-1][:2], theirs[-1][:2])  # the values act
    for name, value in VALUES.items():
        np.testing.assert_array_equal(changed.get_params()[name], [value, value, 1.0])
    changed.set_params(**dict.fromkeys(VALUES, 1.0))
    assert_same(trajectory(changed, 40, reset_seed=9), trajectory(default, 40, reset_seed=9))
    for env in (made, default, changed):
        env.close()


def test_a_benchmark_set_passes_values_to_each_task() -> None:
    """MT10's pool: env k runs the set's k-th task; set_params on some envs
    equals a set made with the values, and each task's env equals its single
    task pool's made with them (the set's one-hot aside)."""
    kw = {"num_envs": 10, "seed": 4, "max_episode_steps": 20, "task_index": 2}
    made = envpool_x.make_gymnasium("MetaWorld/MT10-v3", **kw, **VALUES)
    changed = envpool_x.make_gymnasium("MetaWorld/MT10-v3", **kw)
    changed.set_params(env_ids=[1, 4, 7], **VALUES)
    ours, theirs = trajectory(changed, 45), trajectory(made, 45)
    assert_same(ours, theirs, rows=[1, 4, 7])
    assert not np.array_equal(ours[-1][[0, 2]], theirs[-1][[0, 2]])
    np.testing.assert_array_equal(changed.get_params()["gravity_scale"][[0, 1]], [1.0, 0.6])
    for env in (made, changed):
        env.close()


@pytest.mark.parametrize("name", ["pick-place-v3", "door-open-v3"])
def test_matches_metaworld_with_the_model_scaled(name: str) -> None:
    """Our env made with VALUES against Meta-World's with its model arrays
    scaled so before its reset: the reset (its 50 hand warm-up steps run with
    the values) and a whole 500-step episode of random actions agree (the
    tolerances of tests/families/test_metaworld.py)."""
    (suffix,) = [s for n, s, _, _ in family.TASKS if n == name]
    ours = envpool_x.make_gymnasium(
        family.task_id(suffix),
        num_envs=1,
        task_seed=2,
        task_index=11,
        partially_observable=False,
        **VALUES,
    )
    theirs = make_oracle(name, seed=2, index=11, hidden=False)
    scale_model(theirs.model, VALUES)
    obs, _ = ours.reset(seed=0)
    t_obs, _ = theirs.reset()
    np.testing.assert_array_equal(obs[0], t_obs)
    rng = np.random.default_rng(5)
    for step in range(family.EPISODE_STEPS):
        a = rng.uniform(-1, 1, 4).astype(np.float32)
        obs, reward, _, truncated, info = ours.step(a[None])
        t_obs, t_reward, _, t_truncated, t_info = theirs.step(a)
        np.testing.assert_array_equal(obs[0], t_obs, f"step {step}")
        assert abs(reward[0] - np.float32(t_reward)) <= np.spacing(np.float32(t_reward))
        assert info["success"][0] == t_info["success"] and bool(truncated[0]) == t_truncated
    ours.close()


def test_distributions_reproduce_by_seed() -> None:
    def run(seed: int) -> tuple[list[np.ndarray], np.ndarray]:
        env = envpool_x.make_gymnasium("MetaWorldReach-v3", **{**KW, "seed": seed})
        env.set_params(body_mass_scale=LogUniform(0.5, 2.0), gravity_scale=Uniform(0.5, 1.5))
        out = trajectory(env, 65)
        mass = env.get_params()["body_mass_scale"]
        env.close()
        return out, mass

    out, mass = run(2)
    again, mass_again = run(2)
    assert_same(out, again)
    np.testing.assert_array_equal(mass, mass_again)
    assert len(set(mass.tolist())) == 3 and np.all((mass >= 0.5) & (mass <= 2.0))
    assert not np.array_equal(run(3)[1], mass)


def test_declared_and_checked() -> None:
    spec = envpool_x.make_spec("MetaWorldPush-v3")
    assert set(VALUES) <= set(spec.params)
    with pytest.raises(ValueError, match="gravity_scale"):
        envpool_x.make_spec("MetaWorldPush-v3", gravity_scale=50.0)
    env = make_ours("push-v3", 0, 0, False, num_envs=2)
    with pytest.raises(ValueError, match="timestep_scale"):
        env.set_params(timestep_scale=float("nan"))
    np.testing.assert_array_equal(env.get_params()["timestep_scale"], [1.0, 1.0])
    env.close()


def test_memory_counts_the_scaled_arrays() -> None:
    spec = envpool_x.make_spec("MetaWorldPickPlace-v3", num_envs=6)
    copy = memory.param_copy_bytes(spec)
    assert copy > 0
    scaled = envpool_x.make_spec("MetaWorldPickPlace-v3", num_envs=6, body_mass_scale=2.0)
    assert memory.estimate(scaled).resident - memory.estimate(spec).resident == 6 * copy
