"""Per-env parameters on MuJoCo Warp on a real GPU (skipped without one): each
world's rows of the batched model fields, written and drawn on the device,
against the same pool on warp's CPU device (test_mujoco_warp_params.py checks
that one against the CPU MuJoCo pool), and set_params(p) against a pool made
with p on the GPU.

Run on a GPU machine (scripts/gpu_kit.sh run does):
``pytest tests/backends/mujoco_warp/test_mujoco_warp_params_cuda.py``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("mujoco_warp", reason="the mujoco-gpu extra (mujoco-warp) is not installed")
torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("needs a CUDA GPU", allow_module_level=True)

from test_mujoco_warp_params import TASK, VALUES  # noqa: E402

import envpool_x  # noqa: E402
from envpool_x.params import Choice, Uniform  # noqa: E402

pytestmark = pytest.mark.timeout(900)  # a cold warp cache compiles MuJoCo Warp's kernels
TOL = 1e-3  # float32 on two devices: test_mujoco_warp_cuda.py


def _host(x) -> np.ndarray:
    return np.asarray(torch.as_tensor(x).cpu())


def _calls(env, on_device: bool) -> list[tuple[list, np.ndarray, np.ndarray]]:
    """Flags, observations and rewards of a fixed call sequence with settings:
    values for two worlds and distributions for all at their resets (time
    limit 3: the device's autoresets), then an immediate value mid-episode."""
    n = env.num_envs
    act = np.tile(0.3 * np.sin(np.arange(6)), (n, 1)).astype(np.float32)

    def a(x):
        return torch.as_tensor(x, device="cuda") if on_device else x

    def row(out):
        obs, rew, term, trunc, info = out
        host = [_host(v) for v in (obs, rew, term, trunc)]
        steps = _host(info["elapsed_step"])
        return [host[2].tolist(), host[3].tolist(), steps.tolist()], host[0], host[1]

    env.set_params(env_ids=[1, 3], **VALUES)
    env.set_params(
        env_ids=[0, 2], body_mass_scale=Uniform(0.7, 1.4), gravity_scale=Choice([0.5, 1.5])
    )
    env.reset(seed=4)
    rows = []
    for t in range(8):
        rows.append(row(env.step(a(act))))
        if t == 4:
            env.set_params(env_ids=[0], immediate=True, gravity_scale=1.4, timestep_scale=1.1)
    return rows


def test_gpu_settings_match_cpu_reference():
    gpu = envpool_x.make_gymnasium(
        TASK, num_envs=4, max_episode_steps=3, device="cuda", array_backend="torch"
    )
    ref = envpool_x.make_gymnasium(TASK, num_envs=4, max_episode_steps=3, device="cpu-reference")
    a, b = _calls(gpu, True), _calls(ref, False)
    for t, ((fa, oa, ra), (fb, ob, rb)) in enumerate(zip(a, b, strict=True)):
        assert fa == fb, f"step {t}"
        np.testing.assert_allclose(oa, ob, rtol=TOL, atol=TOL, err_msg=f"step {t}")
        np.testing.assert_allclose(ra, rb, rtol=TOL, atol=TOL, err_msg=f"step {t}")
    got, want = gpu.get_params(), ref.get_params()
    for name in want:  # the same draws from the same streams (warp's generator)
        np.testing.assert_allclose(got[name], want[name], rtol=1e-12, err_msg=name)
    mass = got["body_mass_scale"]
    assert mass[0] != 1.0 and mass[1] == VALUES["body_mass_scale"]
    gpu.close()
    ref.close()


def _episodes(env) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    out = [_host(env.reset()[0])]
    for _ in range(8):
        act = torch.as_tensor(rng.uniform(-1, 1, (2, 6)).astype(np.float32), device="cuda")
        obs, rew, term, trunc, _ = env.step(act)
        out += [_host(v) for v in (obs, rew, term, trunc)]
    return out


def test_gpu_set_params_equals_config():
    """A pool made with the values and one given them by set_params, through
    autoresets: bit for bit where the device repeats itself exactly (two pools
    made alike agree bit for bit), else within what two such pools differ by."""
    kw = {"num_envs": 2, "seed": 3, "device": "cuda", "array_backend": "torch"}
    kw["max_episode_steps"] = 3
    made = _episodes(envpool_x.make_gymnasium(TASK, **kw, **VALUES))
    again = _episodes(envpool_x.make_gymnasium(TASK, **kw, **VALUES))
    changed_env = envpool_x.make_gymnasium(TASK, **kw)
    changed_env.set_params(**VALUES)
    changed = _episodes(changed_env)
    exact = all(np.array_equal(x, y) for x, y in zip(made, again, strict=True))
    for t, (x, y, z) in enumerate(zip(made, changed, again, strict=True)):
        if exact:
            np.testing.assert_array_equal(y, x, f"array {t}")
        else:
            spread = float(np.max(np.abs(z.astype(np.float64) - x), initial=0.0))
            np.testing.assert_allclose(y, x, rtol=0, atol=max(10 * spread, 1e-6), err_msg=f"{t}")
    if not exact:
        warnings.warn(
            "MuJoCo Warp on this GPU is not bit-reproducible between two equal pools; "
            "set_params(p) was compared with a pool made with p within their spread",
            stacklevel=1,
        )
    changed_env.close()
