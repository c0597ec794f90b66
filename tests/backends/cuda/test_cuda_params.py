"""Per-env parameters on the CUDA stepper (docs/params.md), through its kernel
body run on the CPU (device="cpu-reference"): set_params equals an env made
with the values as config, and the same settings (values, distributions drawn
at autoresets on the device, immediate changes, reset options) give the CPU
pool's trajectories and values bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from cpu_reference_helpers import assert_same, draw_actions, make_pair, param_distributions

import envpool_x
from conftest import CLASSIC_PARAM_VALUES as VALUES
from conftest import ci_sample
from envpool_x.params import Choice, Uniform

TASKS = list(VALUES)
SAMPLE = {"CartPole-v1", "Pendulum-v1"}


def _run(env, steps, seed, hook=None):
    """The results of a reset and ``steps`` steps of fixed random actions;
    ``hook(t)`` runs before step t (a result it returns is recorded too)."""
    rng = np.random.default_rng(seed)
    out = [env.reset()]
    for t in range(steps):
        if hook is not None:
            extra = hook(env, t)
            if extra is not None:
                out.append(extra)
        out.append(env.step(draw_actions(env.single_action_space, env.num_envs, rng)))
    return out


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
@pytest.mark.parametrize("task", ci_sample(TASKS, SAMPLE))
def test_set_params_equals_config(task, mode):
    """set_params(p) before the first reset: whole episodes (autoresets
    included) of an env made with p as its config, bit for bit."""
    kw = {"num_envs": 5, "seed": 4, "max_episode_steps": 25, "autoreset_mode": mode}
    made = envpool_x.make_gymnasium(task, device="cpu-reference", **kw, **VALUES[task])
    changed = envpool_x.make_gymnasium(task, device="cpu-reference", **kw)
    changed.set_params(**VALUES[task])
    for t, (a, b) in enumerate(zip(_run(made, 80, 1), _run(changed, 80, 1), strict=True)):
        assert_same(a, b, f"{task} {mode} call {t}")
    for name, value in VALUES[task].items():
        np.testing.assert_array_equal(changed.get_params()[name], np.full(5, value))
        np.testing.assert_array_equal(made.get_params()[name], np.full(5, value))
    made.close()
    changed.close()


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
@pytest.mark.parametrize("task", ci_sample(TASKS, SAMPLE))
def test_settings_equal_the_cpu_pool(task, mode):
    """Distributions drawn at every (auto)reset from each env's parameter
    stream, a reseed, reset options for a subset and immediate values: the
    CPU pool's results and values, bit for bit."""
    kw = {"num_envs": 4, "seed": 7, "max_episode_steps": 15, "autoreset_mode": mode}
    cpu, ref = make_pair(task, num_threads=1, **kw)
    names = list(cpu.spec.params)
    settings = param_distributions(task)

    def hook(env, t):
        if t == 0:
            env.set_params(**settings)
        if t == 20:
            return env.reset(seed=[3, 4, 5, 6])  # restarts both streams of each env
        if t == 33:  # a reset option for a subset
            value = VALUES[task][names[0]]
            return env.reset(env_id=[2, 0], options={"params": {names[0]: value}})
        if t == 41:  # mid-episode, for two envs
            env.set_params(env_ids=[1, 3], immediate=True, **{names[-1]: VALUES[task][names[-1]]})
        return None

    a_run, b_run = _run(cpu, 70, 2, hook), _run(ref, 70, 2, hook)
    for t, (a, b) in enumerate(zip(a_run, b_run, strict=True)):
        assert_same(a, b, f"{task} {mode} call {t}")
    got, want = ref.get_params(), cpu.get_params()
    for name in names:
        np.testing.assert_array_equal(got[name], want[name], name)
    assert len(set(got[names[0]].tolist())) > 1  # drawn per env
    cpu.close()
    ref.close()


def test_values_are_drawn_on_the_device_at_autoresets():
    """get_params changes as episodes end on their own (no host reset), and
    Choice values stay in their list."""
    env = envpool_x.make_gymnasium(
        "CartPole-v1", num_envs=3, seed=0, device="cpu-reference", max_episode_steps=5
    )
    env.set_params(gravity=Choice([9.0, 10.0, 11.0]), tau=Uniform(0.01, 0.03))
    env.reset()
    seen = [env.get_params()["tau"]]
    for _ in range(12):
        env.step(np.zeros(3, dtype=np.int64))
        seen.append(env.get_params()["tau"])
    assert len({tuple(s) for s in seen}) >= 3  # new draws at the autoresets
    assert set(env.get_params()["gravity"].tolist()) <= {9.0, 10.0, 11.0}
    env.close()


def test_errors_change_nothing():
    env = envpool_x.make_gymnasium("Pendulum-v1", num_envs=2, device="cpu-reference")
    with pytest.raises(RuntimeError, match="has not been reset"):
        env.set_params(immediate=True, g=5.0)
    env.reset()
    with pytest.raises(KeyError, match="unknown parameter 'gravity'"):
        env.set_params(g=5.0, gravity=1.0)
    with pytest.raises(ValueError, match="outside its range"):
        env.set_params(g=5.0, m=-1.0)
    with pytest.raises(ValueError, match="values, not distributions"):
        env.set_params(immediate=True, g=Uniform(1.0, 2.0))
    np.testing.assert_array_equal(env.get_params()["g"], [10.0, 10.0])
    with pytest.raises(NotImplementedError, match="params_info"):
        envpool_x.make_gymnasium(
            "CartPole-v1", num_envs=2, device="cpu-reference", params_info=True
        )
    env.close()


def test_unset_pool_reports_its_config():
    """A pool that never sets a parameter makes no tables: get_params gives the
    config's values without reading the device."""
    env = envpool_x.make_gymnasium("Acrobot-v1", num_envs=3, device="cpu-reference", g=9.0)
    assert env._pool._pool.get_params(None).shape == (3, 8)
    np.testing.assert_array_equal(env.get_params()["g"], np.full(3, 9.0))
    env.close()


def test_choice_lists_replaced_many_times():
    """Each Choice's list is kept on the device; lists no setting uses any more
    are dropped as they pile up, and the draws stay the CPU pool's."""
    cpu, ref = make_pair("CartPole-v1", num_envs=3, seed=2, num_threads=1)
    for k in range(6):
        values = list(np.linspace(5.0 + k, 15.0 + k, 300))
        for env in (cpu, ref):
            env.set_params(env_ids=[k % 3], gravity=Choice(values))
            env.set_params(env_ids=[(k + 1) % 3], gravity=Choice(values[:7]))
        assert_same(cpu.reset(), ref.reset(), f"reset {k}")
        np.testing.assert_array_equal(ref.get_params()["gravity"], cpu.get_params()["gravity"])
    cpu.close()
    ref.close()


def test_first_set_params_checks_memory(monkeypatch):
    """The tables a first set_params makes are checked against what is free
    (host memory on cpu-reference): a MemoryError changes nothing."""
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, device="cpu-reference")

    class Tight:
        resident = 100  # bytes: less than 4 envs' tables

    monkeypatch.setattr(envpool_x.memory, "available", lambda spec: Tight())
    with pytest.raises(MemoryError, match="per-env parameter tables"):
        env.set_params(gravity=5.0)
    monkeypatch.undo()
    np.testing.assert_array_equal(env.get_params()["gravity"], np.full(4, 9.8))
    env.set_params(gravity=5.0)
    env.reset()
    np.testing.assert_array_equal(env.get_params()["gravity"], np.full(4, 5.0))
    env.close()
