"""Errors on the GPU path's kernel body run on the CPU (device="cpu-reference"):
bad host actions raise as on the CPU engine, steps before reset, bad device
actions recorded by the kernel, bad device configs, and device="cuda" without a
usable GPU."""

from __future__ import annotations

import numpy as np
import pytest
from cpu_reference_helpers import make_pair

import envpool_x
from envpool_x import _core


def test_bad_host_actions_raise_like_the_cpu_engine():
    cpu, ref = make_pair("CartPole-v1", num_envs=3)
    cpu.reset()
    ref.reset()
    for bad, exc in [
        (np.array([0, 2, 1]), ValueError),
        (np.array([0.0, 1.0, 1.0]), TypeError),
        (np.array([0, 1]), ValueError),
        (np.zeros((3, 1), dtype=np.int64), ValueError),
    ]:
        with pytest.raises(exc) as e_cpu:
            cpu.step(bad)
        with pytest.raises(exc) as e_ref:
            ref.step(bad)
        assert str(e_cpu.value) == str(e_ref.value)
    pend = envpool_x.make_gymnasium("Pendulum-v1", num_envs=2, device="cpu-reference")
    pend.reset()
    with pytest.raises(ValueError, match="env 1 is not finite"):
        pend.step(np.array([[0.0], [np.nan]], dtype=np.float32))


def test_step_before_reset():
    ref = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, device="cpu-reference")
    with pytest.raises(RuntimeError, match="has not been reset"):
        ref.step(np.zeros(4, dtype=np.int64))
    ref.reset(env_id=[0, 1])
    ref.step(np.zeros(2, dtype=np.int64), env_id=[1, 0])
    with pytest.raises(RuntimeError, match="env 2 has not been reset"):
        ref.step(np.zeros(2, dtype=np.int64), env_id=[0, 2])
    ref.close()


def test_kernel_records_bad_device_actions():
    """A device tensor's values are only seen by the kernel: it records the first
    bad env, ends that episode (truncated), and check_errors() raises later."""
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, device="cpu-reference")
    env.reset()
    pool = env._pool
    out = pool._pool.step(np.array([0, 5, 1, 0]), None, 0, check_host_values=False)
    _, _, term, trunc, _ = pool._pack(out, 0)
    np.testing.assert_array_equal(trunc, [False, True, False, False])
    with pytest.raises(ValueError, match=r"env 1 got an invalid action .*\[0, 2\)"):
        pool.check_errors()
    pool.check_errors()  # cleared
    # The bad env resets on its next step, as after an env error on the CPU.
    _, _, _, _, info = env.step(np.zeros(4, dtype=np.int64))
    np.testing.assert_array_equal(info["elapsed_step"], [2, 0, 2, 2])


def test_device_config_errors():
    with pytest.raises(ValueError, match="'cpu', 'cuda' or 'cuda:K'"):
        envpool_x.make_gymnasium("CartPole-v1", device="gpu")
    with pytest.raises(ValueError, match="array_backend must be one of"):
        envpool_x.make_gymnasium("CartPole-v1", device="cpu-reference", array_backend="tf")
    with pytest.raises(ValueError, match="apply to device='cuda' only"):
        envpool_x.make_gymnasium("CartPole-v1", array_backend="torch")
    env = envpool_x.make_gymnasium("CartPole-v1", device="cpu-reference")
    with pytest.raises(ValueError, match="CPU engine"):
        env.xla()


def test_cuda_unavailable_message():
    """Without a usable GPU (or without a CUDA build) device='cuda' says which."""
    from envpool_x.backends.cuda import cuda_status

    ok, why = cuda_status()
    if ok:
        pytest.skip("a GPU is available here; tests/backends/cuda/test_cuda.py covers it")
    with pytest.raises(RuntimeError) as e:
        envpool_x.make_gymnasium("CartPole-v1", device="cuda:0")
    assert str(e.value) == why
    if _core.built_with_cuda:
        assert "needs a usable NVIDIA GPU" in why
    else:
        assert "built without CUDA support" in why
