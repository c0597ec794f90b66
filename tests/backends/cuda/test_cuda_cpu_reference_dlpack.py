"""DLPack on the GPU path's kernel body run on the CPU (device="cpu-reference"):
results exported as legacy and versioned capsules, actions imported from
either (device checks first), and torch tensors as actions and results."""

from __future__ import annotations

import numpy as np
import pytest
from cpu_reference_helpers import assert_same, make_pair

import envpool_x
from envpool_x import _core

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
