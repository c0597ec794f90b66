"""Per-env parameters on MuJoCo Warp (docs/params.md), through warp's CPU device
(device="cpu-reference"): each world's scales in MuJoCo Warp's batched model
fields agree with the CPU MuJoCo pool given the same values (one step from the
same state, the tolerances of test_mujoco_warp.py), apply at resets the device
does on its own and at once with immediate=True, equal a pool made with the
values as config bit for bit, and distributions reproduce by seed."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("mujoco_warp", reason="the mujoco-gpu extra (mujoco-warp) is not installed")
pytest.importorskip("gymnasium")

import envpool_x  # noqa: E402
from envpool_x.families import mujoco as mujoco_family  # noqa: E402
from envpool_x.params import Choice, Uniform  # noqa: E402

if not mujoco_family.has_mujoco():
    pytest.skip("envpool_x was built without MuJoCo", allow_module_level=True)

DEV = "cpu-reference"
TASK = "HalfCheetah-v5"
pytestmark = pytest.mark.timeout(900)  # a cold warp cache compiles MuJoCo Warp's kernels
TOL = 1e-4  # one step, MuJoCo (float64) against MuJoCo Warp (float32): test_mujoco_warp.py
# Every parameter away from 1 (mild, so that the step stays physical).
VALUES = {
    "body_mass_scale": 1.3,
    "body_inertia_scale": 0.8,
    "geom_friction_scale": 0.7,
    "dof_damping_scale": 1.5,
    "dof_armature_scale": 1.2,
    "actuator_gear_scale": 0.9,
    "gravity_scale": 0.6,
    "timestep_scale": 0.9,
}


def _pair(**kw):
    cpu = envpool_x.make_gymnasium(TASK, num_envs=2, seed=0, **kw)
    gpu = envpool_x.make_gymnasium(TASK, num_envs=2, seed=0, device=DEV, **kw)
    return cpu, gpu


def _step_from_the_same_state(cpu, gpu, env: int, seed: int, warmup: int = 3) -> None:
    """After ``warmup`` steps (into contact, where friction acts), env ``env``
    of both pools put in the same state (float32 values, what MuJoCo Warp
    holds), then one step with the same action: equal within TOL."""
    for _ in range(warmup):
        act = np.full((2, 6), 0.5, dtype=np.float32)
        cpu.step(act)
        gpu.step(act)
    state = gpu._pool.get_state(env)  # float32 values as float64
    cpu._pool.set_state(env, state)
    gpu._pool.set_state(env, state)
    action = np.random.default_rng(seed).uniform(-0.8, 0.8, (2, 6)).astype(np.float32)
    obs_c, rew_c, *_ = cpu.step(action)
    obs_g, rew_g, *_ = gpu.step(action)
    np.testing.assert_allclose(obs_g[env], obs_c[env], rtol=TOL, atol=TOL)
    np.testing.assert_allclose(rew_g[env], rew_c[env], rtol=TOL, atol=10 * TOL)
    np.testing.assert_allclose(
        gpu._pool.get_state(env), cpu._pool.get_state(env), rtol=TOL, atol=TOL
    )


def test_values_match_the_cpu_pool_at_a_reset_and_immediately():
    cpu, gpu = _pair()
    for env in (cpu, gpu):
        env.set_params(env_ids=[1], **VALUES)
        env.reset()
    _step_from_the_same_state(cpu, gpu, 1, seed=1)
    _step_from_the_same_state(cpu, gpu, 0, seed=2)  # env 0 kept the model's values
    for env in (cpu, gpu):  # mid-episode, env 0 only
        env.set_params(env_ids=[0], immediate=True, gravity_scale=1.4, timestep_scale=1.1)
    _step_from_the_same_state(cpu, gpu, 0, seed=3)
    for name, got in gpu.get_params().items():
        np.testing.assert_array_equal(got, cpu.get_params()[name], name)
    cpu.close()
    gpu.close()


def test_settings_apply_at_the_devices_own_resets():
    """A setting waits for each world's next reset, also an autoreset, and then
    writes that world's rows of the model fields (the host model x scale,
    rounded once to float32)."""
    env = envpool_x.make_gymnasium(TASK, num_envs=2, seed=0, device=DEV, max_episode_steps=2)
    model = env._pool.physics.model
    assert model.body_mass.shape[0] == 1  # no parameters set: one shared row
    env.reset()
    env.set_params(body_mass_scale=1.3, actuator_gear_scale=[0.5, 2.0])
    act = np.zeros((2, 6), dtype=np.float32)
    env.step(act)
    assert env.get_params()["body_mass_scale"].tolist() == [1.0, 1.0]  # not reset yet
    for _ in range(2):  # the second ends the episodes, the third resets them
        env.step(act)
    assert env.get_params()["body_mass_scale"].tolist() == [1.3, 1.3]
    assert env.get_params()["actuator_gear_scale"].tolist() == [0.5, 2.0]
    mjm = env._pool.physics.mj_model
    mass = model.body_mass.numpy()
    assert mass.shape[0] == 2
    np.testing.assert_array_equal(mass[1], (mjm.body_mass * 1.3).astype(np.float32))
    gear = model.actuator_gear.numpy()
    np.testing.assert_array_equal(gear[1], (mjm.actuator_gear * 2.0).astype(np.float32))
    env.close()


def test_set_params_equals_config():
    """A pool made with the values as config and one given them by set_params:
    the same results, bit for bit, through autoresets."""
    kw = {"num_envs": 2, "seed": 3, "device": DEV, "max_episode_steps": 3}
    made = envpool_x.make_gymnasium(TASK, **kw, **VALUES)
    changed = envpool_x.make_gymnasium(TASK, **kw)
    changed.set_params(**VALUES)
    rng = np.random.default_rng(0)
    for t in range(8):
        if t == 0:
            a, b = made.reset(), changed.reset()
        else:
            act = rng.uniform(-1, 1, (2, 6)).astype(np.float32)
            a, b = made.step(act), changed.step(act)
        arrays = 1 if t == 0 else 4  # reset: obs (then info); step: obs, rew, term, trunc
        for x, y in zip(a[:arrays], b[:arrays], strict=True):
            np.testing.assert_array_equal(np.asarray(x), np.asarray(y), f"call {t}")
    made.close()
    changed.close()


def test_distributions_reproduce_by_seed():
    def values(seed):
        env = envpool_x.make_gymnasium(TASK, num_envs=3, seed=seed, device=DEV)
        env.set_params(body_mass_scale=Uniform(0.5, 2.0), gravity_scale=Choice([0.5, 1.0]))
        env.reset()
        first = env.get_params()
        env.reset(seed=seed)  # restarts the parameter streams too
        again = env.get_params()
        env.close()
        for name in first:
            np.testing.assert_array_equal(first[name], again[name])
        return first

    a, b = values(5), values(5)
    np.testing.assert_array_equal(a["body_mass_scale"], b["body_mass_scale"])
    mass = a["body_mass_scale"]
    assert np.all((mass >= 0.5) & (mass < 2.0)) and len(set(mass.tolist())) == 3
    assert set(a["gravity_scale"].tolist()) <= {0.5, 1.0}


def test_errors_change_nothing_and_reset_options():
    env = envpool_x.make_gymnasium(TASK, num_envs=2, device=DEV)
    with pytest.raises(RuntimeError, match="has not been reset"):
        env.set_params(immediate=True, gravity_scale=0.5)
    env.reset()
    with pytest.raises(KeyError, match="unknown parameter 'mass'"):
        env.set_params(gravity_scale=0.5, mass=1.0)
    with pytest.raises(ValueError, match=r"outside its range \[0.01, 100\]"):
        env.set_params(gravity_scale=0.5, body_mass_scale=0.0)
    with pytest.raises(ValueError, match="values, not distributions"):
        env.set_params(immediate=True, gravity_scale=Uniform(0.5, 1.0))
    assert env.get_params()["gravity_scale"].tolist() == [1.0, 1.0]
    assert env._pool.physics.model.body_mass.shape[0] == 1  # no tables were made
    env.reset(env_id=[1], options={"params": {"gravity_scale": 0.5}})  # the envs reset only
    assert env.get_params()["gravity_scale"].tolist() == [1.0, 0.5]
    env.close()


def test_first_set_params_checks_memory(monkeypatch):
    env = envpool_x.make_gymnasium(TASK, num_envs=2, device=DEV)

    class Tight:
        resident = 100  # bytes: less than 2 worlds' tables and model rows

    monkeypatch.setattr(envpool_x.memory, "available", lambda spec: Tight())
    with pytest.raises(MemoryError, match="per-world parameter tables"):
        env.set_params(gravity_scale=0.5)
    monkeypatch.undo()
    assert env._pool.physics.model.body_mass.shape[0] == 1  # nothing was made
    env.set_params(gravity_scale=0.5)
    env.close()
