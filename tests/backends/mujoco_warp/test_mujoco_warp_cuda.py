"""MuJoCo Warp pools on a real GPU (skipped without one): the CUDA-graph path
(stages captured once, conditional nodes for the optional stages, the
caller's stream) against the same pool on warp's CPU device, call by call.

Run on a GPU machine: ``pytest tests/backends/mujoco_warp/test_mujoco_warp_cuda.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("mujoco_warp", reason="the mujoco-gpu extra (mujoco-warp) is not installed")
torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("needs a CUDA GPU", allow_module_level=True)

import envpool_x  # noqa: E402

pytestmark = pytest.mark.timeout(900)
TASK = "HalfCheetah-v5"  # contacts, never terminates: episode ends are the time limit's


def _calls(env, n: int, torch_actions: bool) -> list[tuple]:
    """Flags and observations of a fixed call sequence: full steps, a subset
    step, episode ends (time limit 3), a reset of some envs."""
    rows = []
    act = np.tile(0.3 * np.sin(np.arange(6)), (n, 1)).astype(np.float32)

    def a(x):
        return torch.as_tensor(x, device="cuda") if torch_actions else x

    def row(out):
        obs, rew, term, trunc, info = out
        flags = [np.asarray(torch.as_tensor(v).cpu()).tolist() for v in (term, trunc)]
        flags.append(np.asarray(torch.as_tensor(info["elapsed_step"]).cpu()).tolist())
        return flags, np.asarray(torch.as_tensor(obs).cpu()), np.asarray(torch.as_tensor(rew).cpu())

    env.reset(seed=4)
    for t in range(5):
        rows.append(row(env.step(a(act))))
        if t == 1:
            rows.append(row(env.step(a(act[:2]), np.array([0, 2]))))
    env.reset(np.array([1]))
    rows.append(row(env.step(a(act))))
    return rows


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_cuda_matches_cpu_reference(mode):
    n = 4
    kw = dict(num_envs=n, autoreset_mode=mode, max_episode_steps=3)
    if mode == "disabled":
        kw["max_episode_steps"] = 50  # no finished env is stepped in this sequence
    gpu = envpool_x.make_gymnasium(TASK, device="cuda", array_backend="torch", **kw)
    ref = envpool_x.make_gymnasium(TASK, device="cpu-reference", **kw)
    a, b = _calls(gpu, n, True), _calls(ref, n, False)
    for (fa, oa, ra), (fb, ob, rb) in zip(a, b, strict=True):
        assert fa == fb
        np.testing.assert_allclose(oa, ob, rtol=1e-3, atol=1e-3)  # float32 on two devices
        np.testing.assert_allclose(ra, rb, rtol=1e-3, atol=1e-3)
    gpu.close()
    ref.close()


def test_results_on_a_side_stream_and_with_jax():
    n = 64
    env = envpool_x.make_gymnasium(TASK, num_envs=n, device="cuda", array_backend="torch")
    env.reset(seed=0)
    side = torch.cuda.Stream()
    act = torch.full((n, 6), 0.2, device="cuda")
    with torch.cuda.stream(side):  # the pool launches on the caller's stream
        for _ in range(20):
            obs, rew, *_ = env.step(act)
        total = obs.sum()
    side.synchronize()
    assert torch.isfinite(total)
    np.testing.assert_allclose(
        obs.cpu().numpy(), env._pool.last_obs.numpy()[:, : obs.shape[1]], rtol=0, atol=0
    )
    jax = pytest.importorskip("jax")
    jenv = envpool_x.make_gymnasium(TASK, num_envs=n, device="cuda", array_backend="jax")
    obs, _ = jenv.reset(seed=0)
    for _ in range(20):
        obs, rew, *_ = jenv.step(jax.numpy.full((n, 6), 0.2))
    # JAX's stream waits for warp's (DLPack's stream argument): the values JAX
    # reads are the finished step's.
    np.testing.assert_array_equal(np.asarray(obs), jenv._pool.last_obs.numpy())
    env.close()
    jenv.close()
