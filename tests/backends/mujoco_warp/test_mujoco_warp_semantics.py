"""MuJoCo Warp pools (device="cpu-reference"): autoreset modes, env_id subsets,
seeds, results and bad inputs, as the classic GPU path handles them."""

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


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_autoreset_modes(mode):
    env = _make(max_episode_steps=2, autoreset_mode=mode)
    obs0, _ = env.reset(seed=3)
    _, _, _, trunc, info = env.step(_act(3))
    assert not trunc.any() and info["elapsed_step"].tolist() == [1, 1, 1]
    obs, rew, term, trunc, info = env.step(_act(3))
    assert trunc.all() and not term.any() and np.all(rew != 0)
    if mode == "same_step":  # the reset row keeps the ending step's reward and flags
        assert info["_final_obs"].all()
        assert not np.allclose(info["final_obs"], obs)
        assert info["elapsed_step"].tolist() == [0, 0, 0]
        np.testing.assert_allclose(info["final_info"]["reward_ctrl"], -0.1 * 6 * 0.01, rtol=1e-6)
        assert info["final_info"]["_x_velocity"].all()
        assert np.all(info["reward_ctrl"] == 0)  # the reset row's info
        obs, rew, _, trunc, info = env.step(_act(3))
        assert info["elapsed_step"].tolist() == [1, 1, 1] and not trunc.any()
    elif mode == "next_step":
        assert info["elapsed_step"].tolist() == [2, 2, 2]
        obs, rew, term, trunc, info = env.step(_act(3))
        assert info["elapsed_step"].tolist() == [0, 0, 0]
        assert not (term | trunc).any() and np.all(rew == 0)
        assert not np.allclose(obs, obs0)  # the envs continue their random streams
    else:
        assert info["elapsed_step"].tolist() == [2, 2, 2]
        before = env._pool.get_state(0)
        _, _, _, trunc, info = env.step(_act(3))  # the CPU engine raises here
        np.testing.assert_array_equal(env._pool.get_state(0), before)  # not stepped
        assert trunc.all() and info["elapsed_step"].tolist() == [2, 2, 2]
        with pytest.raises(RuntimeError, match="stepped after its episode ended"):
            env._pool.check_errors()
        obs, info = env.reset(options={"reset_mask": np.array([True, False, False])})
        assert obs.shape == (3, 17) and info["_elapsed_step"].tolist() == [True, False, False]
        assert info["elapsed_step"][0] == 0
    env.close()


def test_subset_steps_leave_other_envs_alone():
    env, full = _make(), _make()
    env.reset(seed=1)
    full.reset(seed=1)
    before = [env._pool.get_state(i) for i in range(3)]
    obs, _, _, _, info = env.step(_act(1), np.array([1]))
    assert obs.shape == (1, 17) and info["env_id"].tolist() == [1]
    np.testing.assert_array_equal(env._pool.get_state(0), before[0])
    np.testing.assert_array_equal(env._pool.get_state(2), before[2])
    # Env 1 stepped alone and in a full batch: the same step.
    full_obs, _, _, _, _ = full.step(_act(3))
    np.testing.assert_array_equal(env._pool.get_state(1), full._pool.get_state(1))
    np.testing.assert_array_equal(obs[0], full_obs[1])
    _, _, _, _, info = env.step(_act(3))
    assert info["elapsed_step"].tolist() == [1, 2, 1]
    env.close()
    full.close()


def test_seeds_reproduce_and_differ():
    a, b = _make(seed=5), _make(seed=5)
    oa, _ = a.reset()
    ob, _ = b.reset()
    np.testing.assert_array_equal(oa, ob)
    assert not np.allclose(oa[0], oa[1])  # each env its own stream
    o1, _ = a.reset(seed=9)
    o2, _ = a.reset(seed=9)
    np.testing.assert_array_equal(o1, o2)
    o3, _ = a.reset(seed=10)
    assert not np.allclose(o1, o3)
    o4, _ = a.reset(np.array([2]), seed=9)
    assert o4.shape == (1, 17)


def test_results_copy_and_backends():
    env = _make(copy_results=False)
    o1, _ = env.reset()
    snapshot = o1.copy()
    env.step(_act(3))
    assert not np.array_equal(o1, snapshot)  # a view the next call overwrote
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


def test_bad_inputs():
    env = _make()
    env.reset()
    with pytest.raises(ValueError, match="shape"):
        env.step(_act(2))
    with pytest.raises(TypeError, match="float"):
        env.step(np.zeros((3, 6), dtype=np.int32))
    bad = _act(3)
    bad[1, 2] = np.nan
    with pytest.raises(ValueError, match="not finite"):
        env.step(bad)
    with pytest.raises(ValueError, match="out of range"):
        env.step(_act(1), np.array([5]))
    with pytest.raises(ValueError, match="repeated"):
        env.step(_act(2), np.array([1, 1]))
    with pytest.raises(ValueError, match="has kernels for"):
        envpool_x.make_gymnasium("Swimmer-v5", device=DEV)
    with pytest.raises(ValueError, match="batch_size must equal num_envs"):
        _make(num_envs=4, batch_size=2)
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.step(_act(3))


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
