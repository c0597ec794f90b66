"""Per-env parameters on the CUDA stepper on a real GPU (skipped without one):
the same settings test_cuda_params.py checks on cpu-reference, now through the
device's own tables, draws and launches.

- A pool given p by set_params equals a pool made with p bit for bit: both run
  the same kernel on the same device (one thread per env, no atomics).
- Against the CPU pool, with the tolerance of test_cuda.py (libdevice's float64
  log / exp / sin may differ from glibc's by an ulp): results over short
  horizons, and the values drawn at resets (host and device autoresets) from
  the same per-env streams.
- Errors on the device path change nothing there either.

Run on a GPU machine (scripts/gpu_kit.sh run does):
``pytest tests/backends/cuda/test_cuda_params_gpu.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from cpu_reference_helpers import (
    assert_close,
    assert_same,
    draw_actions,
    param_distributions,
    to_numpy,
)

import envpool_x
from conftest import CLASSIC_PARAM_VALUES as VALUES
from envpool_x.backends.cuda import cuda_status
from envpool_x.params import Choice, Uniform

HAVE_GPU, WHY = cuda_status()
pytestmark = pytest.mark.skipif(not HAVE_GPU, reason=f"no usable GPU: {WHY}")

DEV = "cuda"
TASKS = list(VALUES)
DRAW_RTOL = 1e-12  # a value drawn through log / exp / cos on the device, against glibc's


def _gpu(task, **kw):
    return envpool_x.make_gymnasium(task, device=DEV, array_backend="torch", **kw)


def _on_device(act: np.ndarray):
    torch = pytest.importorskip("torch")
    return torch.from_numpy(act).to(DEV)


def _run(env, actions, hook=None):
    """A reset and a step per action, as host arrays; ``hook(env, t)`` runs
    before step t (a result it returns is kept too). A device env is given
    device tensors."""
    to_env = _on_device if env.spec.config.device == DEV else np.asarray
    out = [to_numpy(env.reset())]
    for t, act in enumerate(actions):
        if hook is not None:
            extra = hook(env, t)
            if extra is not None:
                out.append(to_numpy(extra))
        out.append(to_numpy(env.step(to_env(act))))
    return out


def _actions(env, steps, seed):
    rng = np.random.default_rng(seed)
    return [draw_actions(env.single_action_space, env.num_envs, rng) for _ in range(steps)]


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
@pytest.mark.parametrize("task", TASKS)
def test_gpu_set_params_equals_config(task, mode):
    """Whole episodes, autoresets on the device included, bit for bit."""
    kw = {"num_envs": 64, "seed": 4, "max_episode_steps": 25, "autoreset_mode": mode}
    made = _gpu(task, **kw, **VALUES[task])
    changed = _gpu(task, **kw)
    changed.set_params(**VALUES[task])
    acts = _actions(made, 80, 1)
    for t, (a, b) in enumerate(zip(_run(made, acts), _run(changed, acts), strict=True)):
        assert_same(a, b, f"{task} {mode} call {t}")
    for name, value in VALUES[task].items():
        np.testing.assert_array_equal(changed.get_params()[name], np.full(64, value), name)
    made.close()
    changed.close()


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
@pytest.mark.parametrize("task", TASKS)
def test_gpu_settings_match_the_cpu_pool(task, mode):
    """Distributions drawn at (auto)resets, a reseed, a reset option for a
    subset and an immediate value: the CPU pool's results within the GPU
    tolerance, episode ends and values drawn alike."""
    kw = {"num_envs": 4, "seed": 7, "max_episode_steps": 9, "autoreset_mode": mode}
    cpu = envpool_x.make_gymnasium(task, num_threads=1, **kw)
    gpu = _gpu(task, **kw)
    names = list(cpu.spec.params)
    settings = param_distributions(task)

    def hook(env, t):
        if t == 0:
            env.set_params(**settings)
        if t == 12:
            return env.reset(seed=[3, 4, 5, 6])  # restarts both streams of each env
        if t == 20:
            return env.reset(env_id=[2, 0], options={"params": {names[0]: VALUES[task][names[0]]}})
        if t == 24:
            env.set_params(env_ids=[1, 3], immediate=True, **{names[-1]: VALUES[task][names[-1]]})
        return None

    acts = _actions(cpu, 30, 2)
    cpu_run, gpu_run = _run(cpu, acts, hook), _run(gpu, acts, hook)
    for t, (a, b) in enumerate(zip(cpu_run, gpu_run, strict=True)):
        assert_close(a, b, f"{task} {mode} call {t}")
    got, want = gpu.get_params(), cpu.get_params()
    for name in names:
        np.testing.assert_allclose(got[name], want[name], rtol=DRAW_RTOL, err_msg=name)
    assert len(set(got[names[0]].tolist())) > 1  # drawn per env
    cpu.close()
    gpu.close()


def test_gpu_draws_at_the_devices_autoresets_follow_the_cpu_pool():
    """Many short episodes at 4,096 envs: every env's values after each step
    (drawn on the device at its autoresets) are the CPU pool's; Choice values
    stay in their list."""
    kw = {"num_envs": 4096, "seed": 0, "max_episode_steps": 3}
    cpu = envpool_x.make_gymnasium("CartPole-v1", num_threads=2, **kw)
    gpu = _gpu("CartPole-v1", **kw)
    for env in (cpu, gpu):
        env.set_params(gravity=Choice([9.0, 10.0, 11.0]), tau=Uniform(0.01, 0.03))
    zeros = np.zeros(4096, dtype=np.int64)
    _run(cpu, [zeros] * 10)
    _run(gpu, [zeros] * 10)
    got, want = gpu.get_params(), cpu.get_params()
    np.testing.assert_array_equal(got["gravity"], want["gravity"])
    np.testing.assert_allclose(got["tau"], want["tau"], rtol=DRAW_RTOL)
    assert set(got["gravity"].tolist()) == {9.0, 10.0, 11.0}
    cpu.close()
    gpu.close()


def test_gpu_per_env_arrays_at_a_million_envs():
    """A value per env for 2^20 envs reaches the device tables exactly, and
    the first steps agree with the CPU pool given the same arrays."""
    n = 1 << 20
    kw = {"num_envs": n, "seed": 1}
    rng = np.random.default_rng(0)
    values = {"g": rng.uniform(5.0, 15.0, n), "m": rng.uniform(0.5, 2.0, n)}
    cpu = envpool_x.make_gymnasium("Pendulum-v1", num_threads=2, **kw)
    gpu = _gpu("Pendulum-v1", **kw)
    for env in (cpu, gpu):
        env.set_params(**values)
    acts = _actions(cpu, 5, 3)
    for t, (a, b) in enumerate(zip(_run(cpu, acts), _run(gpu, acts), strict=True)):
        assert_close(a, b, f"call {t}")
    for name, want in values.items():
        np.testing.assert_array_equal(gpu.get_params()[name], want, name)
    cpu.close()
    gpu.close()


def test_gpu_errors_change_nothing():
    env = _gpu("Pendulum-v1", num_envs=2)
    with pytest.raises(RuntimeError, match="has not been reset"):
        env.set_params(immediate=True, g=5.0)
    env.reset()
    with pytest.raises(KeyError, match="unknown parameter 'gravity'"):
        env.set_params(g=5.0, gravity=1.0)
    with pytest.raises(ValueError, match="outside its range"):
        env.set_params(g=5.0, m=-1.0)
    with pytest.raises(ValueError, match="must be finite"):
        env.set_params(g=[5.0, float("nan")])
    with pytest.raises(ValueError, match="values, not distributions"):
        env.set_params(immediate=True, g=Uniform(1.0, 2.0))
    np.testing.assert_array_equal(env.get_params()["g"], [10.0, 10.0])
    env.close()
