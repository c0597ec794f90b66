"""The GPU path's kernel body, run on the CPU (device="cpu-reference"), against
the thread-pool engine: same seed, same actions -> bit-identical results, in
every autoreset mode, with time limits, subset steps, seeded and partial resets.

These tests need no GPU: the host loop runs the very ENVPOOL_X_HD row function
that the CUDA kernel runs, so a GPU session only has to confirm the thin CUDA
layer (tests/backends/cuda/test_cuda.py).
"""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x
from conftest import CLASSIC_TASKS
from envpool_x import _core

MODES = ["next_step", "same_step", "disabled"]


def assert_same(a, b, path="result"):
    """Exact equality of nested tuples / dicts of arrays (bit for bit)."""
    if isinstance(a, dict):
        assert set(a) == set(b), f"{path}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            assert_same(a[k], b[k], f"{path}[{k!r}]")
    elif isinstance(a, tuple):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{path}[{i}]")
    else:
        x, y = np.asarray(a), np.asarray(b)
        assert x.dtype == y.dtype, f"{path}: dtype {x.dtype} != {y.dtype}"
        assert x.shape == y.shape, f"{path}: shape {x.shape} != {y.shape}"
        # Compare bits, so that -0.0 vs 0.0 or NaN payloads would show.
        assert x.tobytes() == y.tobytes(), f"{path}: values differ\n{x}\n{y}"


def draw_actions(space, n, rng):
    if hasattr(space, "n"):
        return rng.integers(0, int(space.n), size=n).astype(np.int64)
    # Beyond the bounds too, so the dynamics' clipping is exercised.
    width = float(space.high[0] - space.low[0])
    low, high = float(space.low[0]) - 0.25 * width, float(space.high[0]) + 0.25 * width
    return rng.uniform(low, high, size=(n, *space.shape)).astype(np.float32)


def make_pair(task, **kw):
    cpu = envpool_x.make_gymnasium(task, **kw)
    ref = envpool_x.make_gymnasium(task, device="cpu-reference", **kw)
    return cpu, ref


def ended(result):
    _, _, term, trunc, info = result
    return np.flatnonzero(np.asarray(term) | np.asarray(trunc))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("task", CLASSIC_TASKS)
def test_reference_matches_thread_pool(task, mode):
    n = 16
    cpu, ref = make_pair(
        task, num_envs=n, seed=3, autoreset_mode=mode, max_episode_steps=23, num_threads=2
    )
    rng = np.random.default_rng(0)
    assert_same(cpu.reset(), ref.reset())
    pending: set[int] = set()  # disabled mode: ended envs, to reset before stepping
    ends = 0
    for t in range(120):
        if t == 40:  # re-seed everything mid-run
            assert_same(cpu.reset(seed=11), ref.reset(seed=11))
            pending.clear()
            continue
        if t == 70:  # a partial reset, with per-env seeds
            ids = np.array([5, 1, 9])
            seeds = [7, 8, 9]
            assert_same(cpu.reset(env_id=ids, seed=seeds), ref.reset(env_id=ids, seed=seeds))
            pending -= set(ids.tolist())
            continue
        if t % 5 == 3:  # a subset step, ids out of order
            ids = np.array([i for i in rng.permutation(n)[:6] if i not in pending])
            if ids.size == 0:
                continue
            act = draw_actions(cpu.single_action_space, ids.size, rng)
            a, b = cpu.step(act, env_id=ids), ref.step(act, env_id=ids)
            assert_same(a, b, f"subset step {t}")
            done = ids[ended(a)]
        else:
            if pending:
                ids = np.array(sorted(pending))
                assert_same(cpu.reset(env_id=ids), ref.reset(env_id=ids), f"reset at {t}")
                pending.clear()
            act = draw_actions(cpu.single_action_space, n, rng)
            a, b = cpu.step(act), ref.step(act)
            assert_same(a, b, f"step {t}")
            done = ended(a)
        ends += done.size
        if mode == "disabled":
            pending |= set(done.tolist())
    assert ends > n  # the time limit (23) alone guarantees several ends per env
    for e in range(n):
        np.testing.assert_array_equal(cpu.get_state(e), ref.get_state(e))
    cpu.close()
    ref.close()


@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1", "MountainCarContinuous-v0"])
def test_reset_mask_matches_thread_pool(task):
    n = 8
    cpu, ref = make_pair(task, num_envs=n, seed=5, autoreset_mode="disabled", max_episode_steps=9)
    rng = np.random.default_rng(1)
    assert_same(cpu.reset(), ref.reset())
    for t in range(30):
        act = draw_actions(cpu.single_action_space, n, rng)
        a, b = cpu.step(act), ref.step(act)
        assert_same(a, b, f"step {t}")
        mask = np.asarray(a[2]) | np.asarray(a[3])
        if t % 4 == 0:
            mask[rng.integers(0, n)] = True
        if mask.any():
            opts = {"reset_mask": mask}
            assert_same(cpu.reset(options=opts, seed=t), ref.reset(options=opts, seed=t))


@pytest.mark.parametrize("task", ["CartPole-v1", "Acrobot-v1", "Pendulum-v1"])
def test_dm_env_matches_thread_pool(task):
    n = 6
    cpu = envpool_x.make_dm(task, num_envs=n, seed=2, max_episode_steps=15)
    ref = envpool_x.make_dm(task, num_envs=n, seed=2, max_episode_steps=15, device="cpu-reference")
    rng = np.random.default_rng(2)
    space = envpool_x.make_spec(task).action_space
    assert_same(tuple(cpu.reset()), tuple(ref.reset()))
    for t in range(40):
        act = draw_actions(space, n, rng)
        a, b = cpu.step(act), ref.step(act)
        assert_same(tuple(a[:3]), tuple(b[:3]), f"dm step {t}")
        assert_same(tuple(a.observation), tuple(b.observation), f"dm obs {t}")


def test_async_send_recv_and_int32_actions():
    cpu, ref = make_pair("CartPole-v1", num_envs=5, seed=9)
    cpu.async_reset()
    ref.async_reset()
    assert_same(cpu.recv(), ref.recv())
    act = np.array([1, 0, 1, 1, 0], dtype=np.int32)
    cpu.send(act)
    ref.send(act)
    assert_same(cpu.recv(), ref.recv())
    with pytest.raises(RuntimeError, match="nothing in flight"):
        ref.recv()


def test_reset_draws_the_documented_philox_numbers():
    """The kernel body draws env e's reset from Philox stream DeriveEnvSeed(seed, e),
    draws 0..3, as uniforms in [-0.05, 0.05): the numbers a GPU must reproduce."""
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=3, seed=17, device="cpu-reference")
    env.reset()
    for e in range(3):
        u = np.asarray(_core.philox_uniform(_core.derive_env_seed(17, e), 0, 4))
        np.testing.assert_array_equal(env.get_state(e), -0.05 + 0.1 * u)
    # A second reset continues the stream (draws 4..7).
    env.reset(env_id=[1])
    u = np.asarray(_core.philox_uniform(_core.derive_env_seed(17, 1), 4, 4))
    np.testing.assert_array_equal(env.get_state(1), -0.05 + 0.1 * u)


def test_philox_known_answer():
    # Philox4x32-10 of counter 0 under key 0 is (0x6627e8d5, 0xe169c58d, ...)
    # (the Random123 known-answer vector); a draw is the first two words.
    assert _core.philox_uniform(0, 0, 1)[0] == (0x6627E8D5E169C58D >> 11) / 2.0**53


def test_set_state_round_trip_and_errors():
    env = envpool_x.make_gymnasium("MountainCarContinuous-v0", num_envs=2, device="cpu-reference")
    env.reset()
    env._pool.set_state(1, [-0.5, 0.01])
    np.testing.assert_array_equal(env.get_state(1), [-0.5, 0.01])
    with pytest.raises(ValueError, match="state must have 2 values, got 3"):
        env._pool.set_state(0, [0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="out of range"):
        env.get_state(2)


# ---- errors -------------------------------------------------------------------


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


# ---- results: DLPack export and copy_results ---------------------------------


def capsule_name(capsule) -> str:
    import ctypes

    get = ctypes.pythonapi.PyCapsule_GetName
    get.restype = ctypes.c_char_p
    get.argtypes = [ctypes.py_object]
    return get(capsule).decode()


def test_results_export_legacy_and_versioned_capsules():
    env = envpool_x.make_gymnasium(
        "CartPole-v1", num_envs=3, device="cpu-reference", array_backend="dlpack"
    )
    env.reset()
    obs, reward, term, trunc, info = env.step(np.zeros(3, dtype=np.int64))
    assert obs.shape == (3, 4) and obs.dtype == "float32"
    assert obs.__dlpack_device__() == (1, 0)
    assert capsule_name(obs.__dlpack__()) == "dltensor"
    assert capsule_name(obs.__dlpack__(max_version=(1, 0))) == "dltensor_versioned"
    assert capsule_name(obs.__dlpack__(max_version=(0, 8))) == "dltensor"
    a = np.from_dlpack(obs)
    assert a.dtype == np.float32 and a.shape == (3, 4)
    assert np.from_dlpack(term).dtype == np.bool_
    assert np.from_dlpack(info["env_id"]).tolist() == [0, 1, 2]
    with pytest.raises(BufferError, match="without copying"):
        obs.__dlpack__(copy=True)
    with pytest.raises(BufferError, match="no stream"):
        obs.__dlpack__(stream=5)
    # The memory outlives the env and the DeviceArray (the capsule owns it).
    expected = a.copy()
    del obs
    env.close()
    np.testing.assert_array_equal(a, expected)


# ---- actions: DLPack import ---------------------------------------------------


class LegacyProducer:
    """A DLPack producer from before DLPack 1.0: no max_version argument."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


class FakeDevice:
    """Claims to live on a device; the device check must refuse it before
    __dlpack__ is ever called."""

    def __init__(self, device):
        self.device = device

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, **kw):
        raise AssertionError("must not be called")


def test_dlpack_import_of_versioned_and_legacy_capsules():
    info = _core._dlpack_inspect(np.arange(6, dtype=np.int32).reshape(2, 3), 1, 0)
    assert info["versioned"] is True  # numpy 2 speaks DLPack 1.0
    assert info["dtype"] == "int32" and info["shape"] == (2, 3) and info["device"] == (1, 0)
    env = envpool_x.make_gymnasium(
        "CartPole-v1", num_envs=3, device="cpu-reference", array_backend="dlpack"
    )
    obs, _ = env.reset()
    legacy = _core._dlpack_inspect(LegacyProducer(obs), 1, 0)
    assert legacy["versioned"] is False and legacy["dtype"] == "float32"


def test_dlpack_device_checks():
    with pytest.raises(ValueError, match=r"host memory \(the CPU\) but this env runs on cuda:0"):
        _core._dlpack_inspect(np.zeros(3, dtype=np.int64), 2, 0)
    with pytest.raises(ValueError, match="action is on cuda:1 but this env runs on cuda:0"):
        _core._dlpack_inspect(FakeDevice((2, 1)), 2, 0)
    with pytest.raises(ValueError, match=r"on cuda:0 but this env runs on the CPU"):
        _core._dlpack_inspect(FakeDevice((2, 0)), 1, 0)


def test_tensor_actions_through_dlpack_on_the_reference_device():
    torch = pytest.importorskip("torch")
    cpu, ref = make_pair("CartPole-v1", num_envs=4, seed=4)
    assert_same(cpu.reset(), ref.reset())
    act = torch.tensor([1, 0, 1, 1])  # int64, through __dlpack__
    assert_same(cpu.step(act.numpy()), ref.step(act))
    assert_same(cpu.step(act.numpy()[:2], env_id=[3, 0]), ref.step(act[:2], env_id=[3, 0]))
    with pytest.raises(ValueError, match="contiguous"):
        ref.step(torch.tensor([[1, 0], [1, 1], [0, 0], [1, 0]]).T[0])
    with pytest.raises(TypeError, match="int32 or int64, got dtype int16"):
        ref.step(torch.zeros(4, dtype=torch.int16))
    with pytest.raises(TypeError, match="must be integers, got dtype float32"):
        ref.step(torch.zeros(4))
    with pytest.raises(ValueError, match=r"action has shape \(3,\)"):
        ref.step(torch.zeros(3, dtype=torch.int64))
    with pytest.raises(ValueError, match="action 2 for env 1 is out of range"):
        ref.step(torch.tensor([0, 2, 0, 0]))
    pend_cpu, pend_ref = make_pair("Pendulum-v1", num_envs=3, seed=4)
    assert_same(pend_cpu.reset(), pend_ref.reset())
    act64 = torch.tensor([[0.5], [-3.0], [1.25]], dtype=torch.float64)
    assert_same(pend_cpu.step(act64.numpy()), pend_ref.step(act64))


def test_torch_backend_on_the_reference_device():
    torch = pytest.importorskip("torch")
    env = envpool_x.make_gymnasium(
        "CartPole-v1", num_envs=4, device="cpu-reference", array_backend="torch", seed=0
    )
    cpu = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, seed=0)
    obs, info = env.reset()
    assert isinstance(obs, torch.Tensor) and obs.dtype == torch.float32
    np.testing.assert_array_equal(obs.numpy(), cpu.reset()[0])
    obs, rew, term, trunc, info = env.step(torch.ones(4, dtype=torch.int64))
    assert term.dtype == torch.bool and info["elapsed_step"].dtype == torch.int32
    np.testing.assert_array_equal(obs.numpy(), cpu.step(np.ones(4, dtype=np.int64))[0])


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_torch_backend_matches_numpy_and_results_stay_valid(mode):
    """The torch backend hands our capsules to torch's importer itself: every
    field (final_obs / final_info included) must equal the numpy backend's,
    and earlier results must survive later steps."""
    torch = pytest.importorskip("torch")
    kw = dict(num_envs=5, device="cpu-reference", seed=4, autoreset_mode=mode)
    tv = envpool_x.make_gymnasium("Acrobot-v1", array_backend="torch", max_episode_steps=7, **kw)
    ref = envpool_x.make_gymnasium("Acrobot-v1", array_backend="numpy", max_episode_steps=7, **kw)

    def flat(x, path=""):
        if isinstance(x, dict):
            return {f"{path}/{k}": v for kk, vv in x.items() for k, v in flat(vv, kk).items()}
        return {path: x}

    def check(got, want):
        got, want = flat({"r": got}), flat({"r": want})
        assert set(got) == set(want)
        for k in want:
            g = got[k]
            assert isinstance(g, torch.Tensor), k
            np.testing.assert_array_equal(g.numpy(), want[k], err_msg=k)

    kept = []
    first = tv.reset()
    check(dict(zip("oi", first, strict=True)), dict(zip("oi", ref.reset(), strict=True)))
    kept.append((first[0].clone(), first[0]))
    rng = np.random.default_rng(0)
    for _ in range(16):  # crosses two time limits
        a = rng.integers(0, 3, size=5)
        got = tv.step(torch.from_numpy(a))
        check(dict(zip("ortui", got, strict=True)), dict(zip("ortui", ref.step(a), strict=True)))
        kept.append((got[0].clone(), got[0]))
    for copy, live in kept:
        assert torch.equal(copy, live)
