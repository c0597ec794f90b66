"""The memory check (envpool_x.memory) of MuJoCo Warp pools: MuJoCo Warp's and
the pool's arrays are estimated before they are allocated, and a pool too big
is refused with MemoryError saying how many envs fit."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("mujoco_warp", reason="the mujoco-gpu extra (mujoco-warp) is not installed")

import envpool_x  # noqa: E402
from envpool_x import memory  # noqa: E402

DEV = "cpu-reference"


def test_too_many_envs_are_refused_before_anything_is_built():
    with pytest.raises(MemoryError, match="largest num_envs that fits is") as e:
        envpool_x.make_gymnasium("Ant-v5", num_envs=10**8, device=DEV)
    assert "Ant-v5" in str(e.value) and "check_memory=False" in str(e.value)
    spec = envpool_x.make_spec("Ant-v5", num_envs=10**8, device=DEV, check_memory=False)
    assert memory.check(spec) is None


def test_the_gpu_estimate_is_checked_against_gpu_memory(monkeypatch):
    # No GPU needed: the estimate of a device="cuda" pool is device bytes,
    # checked against what the GPU has free (here a made-up 256 MiB).
    spec = envpool_x.make_spec("Humanoid-v5", num_envs=10**6, device="cuda")
    est = memory.estimate(spec)
    assert est.device > 10**6 * 30_000 and est.resident < est.device / 10
    avail = memory.Available(None, None, 256 << 20, {"GPU free": 256 << 20})
    monkeypatch.setattr(memory, "available", lambda spec=None: avail)
    with pytest.raises(MemoryError, match="of GPU memory") as e:
        memory.check(spec)
    fit = int(str(e.value).split("fits is ")[1].split(".")[0])
    # The suggestion fits, with the check's headroom below the exact boundary.
    exact = memory.largest_num_envs(spec, "device", 256 << 20)
    assert (
        memory.estimate(spec, exact).device <= 256 << 20 < memory.estimate(spec, exact + 1).device
    )
    assert memory.estimate(spec, fit).device <= 256 << 20 and 0.9 * exact <= fit <= exact
    # same_step's final rows and copy_results' extra blocks count.
    more = envpool_x.make_spec(
        "Humanoid-v5", num_envs=10**6, device="cuda", autoreset_mode="same_step"
    )
    assert memory.estimate(more).device > est.device


def test_estimate_is_within_25_percent_of_the_rss_growth_on_cpu_reference():
    # On warp's CPU device MuJoCo Warp's arrays are host memory: the estimate
    # is checked against the RSS growth of a pool (fresh process, after a warm-up
    # pool that loaded the kernels), after a reset and two held steps.
    code = textwrap.dedent(
        """
        import mujoco, numpy as np, envpool_x
        from envpool_x import memory
        def rss():
            with open("/proc/self/statm") as f:
                return int(f.read().split()[1]) * 4096
        warm = envpool_x.make_gymnasium("Ant-v5", num_envs=2, device="cpu-reference")
        warm.reset()
        n = 4096
        est = memory.estimate(envpool_x.make_spec("Ant-v5", num_envs=n, device="cpu-reference"))
        r0 = rss()
        env = envpool_x.make_gymnasium("Ant-v5", num_envs=n, device="cpu-reference")
        env.reset()
        a = np.zeros((n, 8), np.float32)
        first = env.step(a)
        second = env.step(a)
        print("result", est.resident, rss() - r0)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=os.environ
    )
    assert out.returncode == 0, out.stderr[-3000:]
    est, grew = (int(v) for v in out.stdout.split("result")[-1].split())
    assert 0.75 <= est / grew <= 1.25, (est, grew)
