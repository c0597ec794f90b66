"""MuJoCo Warp pools (device="cpu-reference"): what only this backend has (torch
results, dm_env over warp arrays, float actions, bad device actions, no GPU).
The contract every backend keeps (autoreset modes, env_id subsets, seeds,
copy_results, bad ids and actions) is tests/backends/test_contract.py."""

from __future__ import annotations

import sys

import numpy as np
import pytest

pytest.importorskip("mujoco_warp", reason="the mujoco-gpu extra (mujoco-warp) is not installed")
pytest.importorskip("gymnasium")

import envpool_x  # noqa: E402

DEV = "cpu-reference"
TASK = "HalfCheetah-v5"  # never terminates: episode ends are the time limit's


def _make(**kw):
    kw.setdefault("num_envs", 3)
    return envpool_x.make_gymnasium(TASK, device=DEV, **kw)


def _act(n: int, value: float = 0.1) -> np.ndarray:
    return np.full((n, 6), value, dtype=np.float32)


def test_torch_backend():
    torch = pytest.importorskip("torch")
    tenv = _make(array_backend="torch")
    obs, _ = tenv.reset()
    assert isinstance(obs, torch.Tensor) and obs.dtype == torch.float64
    obs, rew, term, trunc, info = tenv.step(torch.full((3, 6), 0.1, dtype=torch.float64))
    assert rew.shape == (3,) and term.dtype == torch.bool
    tenv.step(torch.full((3, 6), float("nan")))
    with pytest.raises(ValueError, match="not finite"):
        tenv._pool.check_errors()


def test_dm_env_front_end():
    env = envpool_x.make_dm(TASK, num_envs=2, device=DEV)
    ts = env.reset()
    assert ts.observation.obs.shape == (2, 17)
    assert ts.observation.x_position.shape == (2,)
    ts = env.step(_act(2))
    assert ts.reward.shape == (2,) and ts.step_type.tolist() == [1, 1]


def test_integer_actions_are_refused():
    """MuJoCo Warp takes float actions only (ids, shapes, NaN, closed pools:
    tests/backends/test_contract.py)."""
    env = _make()
    env.reset()
    with pytest.raises(TypeError, match="float"):
        env.step(np.zeros((3, 6), dtype=np.int32))
    env.close()


def test_cuda_without_gpu_or_extra(monkeypatch):
    import warp as wp

    wp.init()
    if wp.get_cuda_device_count() == 0:
        with pytest.raises(RuntimeError, match="needs a usable NVIDIA GPU"):
            envpool_x.make_gymnasium(TASK, num_envs=2, device="cuda")
    monkeypatch.setitem(sys.modules, "mujoco_warp", None)
    with pytest.raises(ImportError, match=r"envpool-x\[mujoco-gpu\]"):
        _make()


def _flags(step, action):
    """(elapsed_step, truncated, terminated, reward == 0, _final_obs) of one step."""
    _, rew, term, trunc, info = step(action)
    mask = info.get("_final_obs")
    mask = [False] * len(rew) if mask is None else np.asarray(mask).tolist()
    return (
        np.asarray(info["elapsed_step"]).tolist(),
        np.asarray(trunc).tolist(),
        np.asarray(term).tolist(),
        (np.asarray(rew) == 0).tolist(),
        mask,
    )


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_bad_device_action_is_handled_as_the_classic_gpu_path(mode):
    # The classic GPU path (Pendulum-v1 on its cpu-reference kernel, host
    # checks off as for a device tensor) and the MuJoCo Warp pool (a torch
    # tensor: its values are only seen by the kernels), same calls: the env
    # with a NaN is not stepped, its episode ends truncated with reward 0, it
    # resets at its next step, and check_errors names it.
    torch = pytest.importorskip("torch")
    kw = dict(num_envs=3, autoreset_mode=mode, max_episode_steps=50)
    mj = _make(array_backend="torch", **kw)
    classic = envpool_x.make_gymnasium("Pendulum-v1", device=DEV, **kw)
    steps = {
        mj: mj.step,
        classic: lambda a: classic._pool._pack(
            classic._pool._pool.step(a.numpy(), None, 0, check_host_values=False), 0
        ),
    }
    seen = {}
    for env, nu in ((mj, 6), (classic, 1)):
        env.reset(seed=1)
        bad = torch.full((3, nu), 0.1)
        bad[1, 0] = float("nan")
        rows = [_flags(steps[env], torch.full((3, nu), 0.1))]
        before = env._pool.get_state(1)
        rows.append(_flags(steps[env], bad))
        np.testing.assert_array_equal(env._pool.get_state(1), before)  # not stepped
        with pytest.raises(ValueError, match="env 1 got an invalid action .*finite"):
            env._pool.check_errors()
        env._pool.check_errors()  # cleared
        for _ in range(2):  # env 1 resets, then goes on
            rows.append(_flags(steps[env], torch.full((3, nu), 0.1)))
        seen[env] = rows
    assert seen[mj] == seen[classic], (seen[mj], seen[classic])
    assert seen[mj][1][:2] == ([2, 1, 2], [False, True, False])
    assert seen[mj][2][0] == [3, 0, 3] and seen[mj][3][0] == [4, 1, 4]
    mj.close()
    classic.close()
