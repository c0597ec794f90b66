"""The GPU path on a real GPU (skipped where there is none: the probe asks the
CUDA runtime, so a build without CUDA or a machine without a usable GPU skips).

The logic of the kernel is covered without a GPU by tests/backends/cuda/test_cuda_cpu_reference.py
(the same row function run by a host loop); these tests confirm the thin CUDA
layer: allocation, the launch, streams and DLPack on the device.

Tolerance: the GPU's float64 sin / cos / pow (CUDA's libdevice) may differ from
glibc's by an ulp or two, so observations are compared with a small tolerance
over short horizons (chaotic envs amplify the difference over an episode);
episode boundaries, env ids and elapsed steps must match exactly. Device code is
compiled with --fmad=false so that no fused multiply-adds add to this.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest
from cpu_reference_helpers import assert_close, to_numpy

import envpool_x
from conftest import CLASSIC_TASKS
from envpool_x.backends.cuda import cuda_status

HAVE_GPU, WHY = cuda_status()
pytestmark = pytest.mark.skipif(not HAVE_GPU, reason=f"no usable GPU: {WHY}")

MODES = ["next_step", "same_step", "disabled"]
HORIZON = 20  # steps compared with a tolerance: before chaos can amplify ulps


def draw_actions(space, n, rng):
    if hasattr(space, "n"):
        return rng.integers(0, int(space.n), size=n).astype(np.int64)
    return rng.uniform(space.low[0], space.high[0], size=(n, *space.shape)).astype(np.float32)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("task", CLASSIC_TASKS)
def test_gpu_matches_cpu(task, mode):
    torch = pytest.importorskip("torch")
    n = 1024
    kw = {"num_envs": n, "seed": 7, "autoreset_mode": mode, "max_episode_steps": 9}
    cpu = envpool_x.make_gymnasium(task, **kw)
    gpu = envpool_x.make_gymnasium(task, device="cuda", array_backend="torch", **kw)
    rng = np.random.default_rng(0)
    assert_close(cpu.reset(), to_numpy(gpu.reset()))
    for t in range(HORIZON):
        act = draw_actions(cpu.single_action_space, n, rng)
        a = cpu.step(act)
        b = gpu.step(torch.from_numpy(act).cuda())  # a device tensor, no copy
        assert isinstance(b[0], torch.Tensor) and b[0].is_cuda
        assert_close(a, to_numpy(b), f"step {t}")
        if mode == "disabled":
            done = np.flatnonzero(a[2] | a[3])
            if done.size:
                assert_close(cpu.reset(env_id=done), to_numpy(gpu.reset(env_id=done)))
    gpu._pool.check_errors()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "task, cfg",
    [
        ("MaxCut-v0", {"graph": "er:200:0.05:3"}),
        ("TSP-v0", {"num_nodes": 30, "mode": "2opt"}),
        ("TSP-v0", {"num_nodes": 30}),
    ],
)
def test_gpu_combinatorial_matches_cpu(task, cfg, mode):
    """MaxCut's integer cut arithmetic is exact; TSP's distances are one
    correctly rounded sqrt each on both sides (compared with the tolerance)."""
    torch = pytest.importorskip("torch")
    from cpu_reference_helpers import assert_same

    n = 512
    kw = {"num_envs": n, "seed": 7, "autoreset_mode": mode, "max_episode_steps": 40, **cfg}
    cpu = envpool_x.make_gymnasium(task, **kw)
    gpu = envpool_x.make_gymnasium(task, device="cuda", array_backend="torch", **kw)
    check = assert_same if task == "MaxCut-v0" else assert_close
    rng = np.random.default_rng(0)
    a = cpu.reset()
    check(a, to_numpy(gpu.reset()))
    for t in range(60):
        if "action_mask" in a[-1]:  # construct: a random unvisited city (any when done)
            mask = a[-1]["action_mask"].astype(bool)
            mask[~mask.any(axis=1)] = True
            act = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        else:
            act = draw_actions(cpu.single_action_space, n, rng)
        a = cpu.step(act)
        check(a, to_numpy(gpu.step(torch.from_numpy(act).cuda())), f"step {t}")
        if mode == "disabled":
            done = np.flatnonzero(a[2] | a[3])
            if done.size:
                # A reset env has visited nothing: any city is legal next.
                check(cpu.reset(env_id=done), to_numpy(gpu.reset(env_id=done)))
    gpu._pool.check_errors()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "task, cfg",
    [
        ("TagGridworld-v0", {"num_taggers": 3, "grid_length": 6, "episode_length": 30}),
        ("TagGridworld-v0", {"use_full_observation": False, "grid_length": 8}),
        ("TagContinuous-v0", {"grid_length": 4.0, "episode_length": 40, "tagging_distance": 0.1}),
        ("TagContinuous-v0", {"num_runners": 290, "use_full_observation": True}),
    ],
)
def test_gpu_tag_matches_cpu(task, cfg, mode):
    """One block per env; the grid's integer moves are exact, the continuous
    Tag's cos / sin (float64, rounded to float32) compared with the tolerance.
    300 agents: more than a block's 256 threads, so threads loop over agents."""
    torch = pytest.importorskip("torch")
    from cpu_reference_helpers import assert_same

    n = 16 if cfg.get("num_runners", 0) > 256 else 256
    kw = {"num_envs": n, "seed": 7, "autoreset_mode": mode, **cfg}
    cpu = envpool_x.make_gymnasium(task, **kw)
    gpu = envpool_x.make_gymnasium(task, device="cuda", array_backend="torch", **kw)
    check = assert_same if task == "TagGridworld-v0" else assert_close
    space = cpu.single_action_space
    rng = np.random.default_rng(0)
    check(cpu.reset(), to_numpy(gpu.reset()))
    for t in range(HORIZON * 3):
        act = rng.integers(0, space.nvec, size=(n, *space.shape))
        a = cpu.step(act)
        check(a, to_numpy(gpu.step(torch.from_numpy(act).cuda())), f"step {t}")
        if mode == "disabled":
            done = np.flatnonzero(a[2] | a[3])
            if done.size:
                check(cpu.reset(env_id=done), to_numpy(gpu.reset(env_id=done)))
    gpu._pool.check_errors()


def test_gpu_subset_steps_seeded_resets_and_numpy_actions():
    pytest.importorskip("torch")  # the default array_backend
    n = 64
    cpu = envpool_x.make_gymnasium("Pendulum-v1", num_envs=n, seed=1)
    gpu = envpool_x.make_gymnasium("Pendulum-v1", num_envs=n, seed=1, device="cuda:0")
    assert_close(cpu.reset(seed=5), to_numpy(gpu.reset(seed=5)))
    rng = np.random.default_rng(1)
    for _ in range(5):
        ids = rng.permutation(n)[:10]
        act = rng.uniform(-2, 2, size=(10, 1)).astype(np.float32)
        assert_close(cpu.step(act, env_id=ids), to_numpy(gpu.step(act, env_id=ids)))
    ids = np.array([3, 60])
    assert_close(cpu.reset(env_id=ids, seed=[1, 2]), to_numpy(gpu.reset(env_id=ids, seed=[1, 2])))


def test_gpu_results_stay_valid_and_views_on_request():
    torch = pytest.importorskip("torch")
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=256, device="cuda")
    first, _ = env.reset()
    kept = first.clone()
    env.step(torch.ones(256, dtype=torch.int64, device="cuda"))
    assert torch.equal(first, kept)
    views = envpool_x.make_gymnasium("CartPole-v1", num_envs=256, device="cuda", copy_results=False)
    a, _ = views.reset()
    b = views.step(torch.ones(256, dtype=torch.int64, device="cuda"))[0]
    assert a.data_ptr() == b.data_ptr()


def test_gpu_bad_inputs():
    torch = pytest.importorskip("torch")
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=8, device="cuda")
    env.reset()
    with pytest.raises(ValueError, match="host memory"):
        env.step(torch.zeros(8, dtype=torch.int64))  # a CPU tensor
    with pytest.raises(TypeError, match="must be integers"):
        env.step(torch.zeros(8, device="cuda"))
    with pytest.raises(ValueError, match="shape"):
        env.step(torch.zeros(7, dtype=torch.int64, device="cuda"))
    env.step(torch.full((8,), 3, dtype=torch.int64, device="cuda"))  # recorded on the device
    with pytest.raises(ValueError, match="invalid action"):
        env._pool.check_errors()
    if torch.cuda.device_count() > 1:
        with pytest.raises(ValueError, match="cuda:1 but this env runs on cuda:0"):
            env.step(torch.zeros(8, dtype=torch.int64, device="cuda:1"))


def test_gpu_respects_the_callers_stream():
    torch = pytest.importorskip("torch")
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4096, device="cuda", seed=3)
    cpu = envpool_x.make_gymnasium("CartPole-v1", num_envs=4096, seed=3)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        obs, _ = env.reset()
        act = (obs[:, 2] > 0).to(torch.int64)  # produced on s, read by the kernel on s
        obs2 = env.step(act)[0]
    torch.cuda.synchronize()
    ref, _ = cpu.reset()
    ref2 = cpu.step((ref[:, 2] > 0).astype(np.int64))[0]
    np.testing.assert_allclose(obs2.cpu().numpy(), ref2, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("backend", ["cupy", "jax"])
def test_gpu_other_backends_round_trip(backend):
    mod = pytest.importorskip(backend)
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=32, device="cuda", array_backend=backend)
    cpu = envpool_x.make_gymnasium("CartPole-v1", num_envs=32)
    obs, _ = env.reset()
    np.testing.assert_allclose(to_numpy(obs), cpu.reset()[0], rtol=1e-6)
    if backend == "cupy":
        act = mod.ones(32, dtype=mod.int64)
    else:
        import jax.numpy as jnp

        act = jnp.ones(32, dtype=jnp.int32)
    obs = env.step(act)[0]
    np.testing.assert_allclose(
        to_numpy(obs), cpu.step(np.ones(32, dtype=np.int64))[0], rtol=1e-5, atol=1e-6
    )


def test_gpu_dm_env():
    pytest.importorskip("torch")
    env = envpool_x.make_dm("Acrobot-v1", num_envs=16, device="cuda")
    ts = env.reset()
    assert ts.step_type.is_cuda and (ts.step_type == 0).all()
    ts = env.step(np.ones(16, dtype=np.int64))
    assert (ts.step_type == 1).all()


def test_gpu_two_to_the_24_envs():
    """2^24 envs in one launch: sampled rows match CPU envs seeded as those rows
    (env i's seed is derive_env_seed(seed, i)), so large-index arithmetic holds."""
    torch = pytest.importorskip("torch")
    from envpool_x import _core

    n = 1 << 24
    rows = np.array([0, 1, 12345, n // 2 + 7, n - 2, n - 1])
    gpu = envpool_x.make_gymnasium("CartPole-v1", num_envs=n, device="cuda", seed=3)
    cpu = envpool_x.make_gymnasium(
        "CartPole-v1", num_envs=rows.size, seed=[_core.derive_env_seed(3, int(r)) for r in rows]
    )
    obs, _ = gpu.reset()
    np.testing.assert_allclose(obs[torch.from_numpy(rows).cuda()].cpu().numpy(), cpu.reset()[0])
    act = torch.ones(n, dtype=torch.int64, device="cuda")
    for _ in range(3):
        obs, _, _, _, info = gpu.step(act)
        ref = cpu.step(np.ones(rows.size, dtype=np.int64))
        sel = torch.from_numpy(rows).cuda()
        np.testing.assert_allclose(obs[sel].cpu().numpy(), ref[0], rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(info["env_id"][sel].cpu().numpy(), rows)


@pytest.mark.parametrize("backend", ["torch", "dlpack"])
def test_gpu_exit_without_close_is_clean(backend):
    """Exiting with a GPU env open and its tensors alive (their DLPack deleters
    run during interpreter shutdown) must exit 0, not crash."""
    if backend == "torch":
        pytest.importorskip("torch")
    code = textwrap.dedent(
        f"""
        import numpy as np, envpool_x
        env = envpool_x.make_gym("CartPole-v1", num_envs=1024, device="cuda",
                                 array_backend="{backend}")
        obs, info = env.reset(seed=5)
        out = env.step(np.zeros(1024, np.int64))
        print("exiting")
        """
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "exiting" in r.stdout


def test_gpu_step_does_not_wait_for_the_device():
    """No device-to-host synchronisation inside step: with the stream kept busy
    by a long kernel queued first, step (and reset) must return while that
    kernel still runs; the results are then ready once the stream drains."""
    torch = pytest.importorskip("torch")
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4096, device="cuda", seed=2)
    cpu = envpool_x.make_gymnasium("CartPole-v1", num_envs=4096, seed=2)
    act = torch.ones(4096, dtype=torch.int64, device="cuda")
    env.reset()
    torch.cuda.synchronize()
    torch.cuda._sleep(2_000_000_000)  # about a second of GPU time on the current stream
    obs = env.reset()[0]
    for _ in range(3):
        obs = env.step(act)[0]
    busy = torch.cuda.Event()
    busy.record()
    assert not busy.query(), "step waited for the device (a host synchronisation)"
    torch.cuda.synchronize()
    cpu.reset()
    cpu.reset()  # as the GPU env: two resets, the second continuing the streams
    for _ in range(3):
        ref = cpu.step(np.ones(4096, dtype=np.int64))[0]
    np.testing.assert_allclose(obs.cpu().numpy(), ref, rtol=1e-5, atol=1e-6)
