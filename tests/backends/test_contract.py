"""The backend contract (envpool_x.backends.contract), run against every backend.

Each backend steps a task whose episodes end only by the time limit, so the
same script checks them all: the CPU thread pool, the CUDA kernels through
``cpu-reference`` (their host loop) and MuJoCo Warp on warp's CPU device. On a
machine with a GPU, the ``cuda`` cases run on it too. Per-backend tests test
what only that backend has; autoreset, ids, seeds, results and errors are
tested here once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import envpool_x
from envpool_x import backends
from envpool_x.backends.contract import AutoresetMode, Backend, DevicePool, Pool
from envpool_x.backends.cuda import cuda_status
from envpool_x.spec import make_spec


@dataclass(frozen=True)
class Case:
    backend: str
    task: str
    device: str
    action_dim: int

    def action(self, n: int, value: float = 0.1) -> np.ndarray:
        return np.full((n, self.action_dim), value, dtype=np.float32)

    def make(self, **config: Any) -> Pool:
        config.setdefault("num_envs", 3)
        if self.device != "cpu":
            config.setdefault("array_backend", "numpy")
        return backends.create_pool(make_spec(self.task, device=self.device, **config))


def _cases() -> list[Any]:
    cases = [
        pytest.param(Case("cpu", "Pendulum-v1", "cpu", 1), id="cpu"),
        pytest.param(Case("cuda", "Pendulum-v1", "cpu-reference", 1), id="cuda-cpu-reference"),
    ]
    if cuda_status()[0]:
        cases.append(pytest.param(Case("cuda", "Pendulum-v1", "cuda", 1), id="cuda-gpu"))
    try:
        import mujoco_warp  # noqa: F401
    except ImportError:
        marks: Any = pytest.mark.skip(reason="mujoco-warp is not installed")
    else:
        marks = ()
    # HalfCheetah never terminates: its episodes end by the time limit, as Pendulum's.
    cases.append(
        pytest.param(
            Case("mujoco_warp", "HalfCheetah-v5", "cpu-reference", 6),
            id="mujoco_warp-cpu-reference",
            marks=marks,
        )
    )
    return cases


CASES = _cases()


def _host(a: Any) -> np.ndarray:
    return np.asarray(a)


def _finished_step_raises(case: Case, pool: Pool) -> None:
    """A step of a finished env in disabled mode is an error: the CPU pool
    raises at the step; a device pool records it and raises at check_errors."""
    if isinstance(pool, DevicePool):
        pool.step(case.action(3))
        with pytest.raises(RuntimeError, match="episode ended"):
            pool.check_errors()
    else:
        with pytest.raises(RuntimeError):
            pool.step(case.action(3))


@pytest.mark.parametrize("case", CASES)
def test_backend_is_registered_and_pools_follow_the_protocol(case: Case) -> None:
    backend: Backend = backends.get(case.backend)
    assert backend.name == case.backend
    assert case.device in backend.devices
    spec = make_spec(case.task, num_envs=2, device=case.device)
    assert spec.backend is backend
    pool = case.make(num_envs=2)
    assert isinstance(pool, Pool)
    assert isinstance(pool, DevicePool) == (not backend.host_results)
    assert backend.estimate(spec, 2).num_envs == 2
    pool.close()
    assert pool.closed


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_autoreset_modes(case: Case, mode: AutoresetMode) -> None:
    pool = case.make(max_episode_steps=2, autoreset_mode=mode.value)
    pool.reset(seed=3)
    _, _, term, trunc, info = pool.step(case.action(3))
    assert not _host(trunc).any() and _host(info["elapsed_step"]).tolist() == [1, 1, 1]
    obs, rew, term, trunc, info = pool.step(case.action(3))
    assert _host(trunc).all() and not _host(term).any()
    if mode is AutoresetMode.SAME_STEP:  # reset at once; the last row as final_*
        assert _host(info["_final_obs"]).all() and _host(info["_final_info"]).all()
        assert not np.allclose(_host(info["final_obs"]), _host(obs))
        assert _host(info["elapsed_step"]).tolist() == [0, 0, 0]
        assert _host(info["final_info"]["elapsed_step"]).tolist() == [2, 2, 2]
        _, _, _, trunc, info = pool.step(case.action(3))
        assert _host(info["elapsed_step"]).tolist() == [1, 1, 1] and not _host(trunc).any()
    elif mode is AutoresetMode.NEXT_STEP:  # the next step resets, its action ignored
        assert "final_obs" not in info
        assert _host(info["elapsed_step"]).tolist() == [2, 2, 2]
        _, rew, term, trunc, info = pool.step(case.action(3))
        assert _host(info["elapsed_step"]).tolist() == [0, 0, 0]
        assert not (_host(term) | _host(trunc)).any() and np.all(_host(rew) == 0)
    else:  # disabled: nothing resets until asked
        assert _host(info["elapsed_step"]).tolist() == [2, 2, 2]
        _finished_step_raises(case, pool)
        _, _, _, _, info = pool.reset(np.array([0]))
        assert _host(info["env_id"]).tolist() == [0]
        assert _host(info["elapsed_step"]).tolist() == [0]
    pool.close()


@pytest.mark.parametrize("case", CASES)
def test_env_id_subsets_leave_other_envs_alone(case: Case) -> None:
    pool, full = case.make(), case.make()
    pool.reset(seed=1)
    full.reset(seed=1)
    before = [np.asarray(pool.get_state(i)) for i in range(3)]
    obs, _, _, _, info = pool.step(case.action(1), np.array([1]))
    assert _host(obs).shape[0] == 1 and _host(info["env_id"]).tolist() == [1]
    np.testing.assert_array_equal(np.asarray(pool.get_state(0)), before[0])
    np.testing.assert_array_equal(np.asarray(pool.get_state(2)), before[2])
    full_obs, _, _, _, _ = full.step(case.action(3))
    np.testing.assert_array_equal(_host(obs)[0], _host(full_obs)[1])
    _, _, _, _, info = pool.step(case.action(3))
    assert _host(info["elapsed_step"]).tolist() == [1, 2, 1]
    pool.close()
    full.close()


@pytest.mark.parametrize("case", CASES)
def test_seeds_reproduce_and_differ(case: Case) -> None:
    a, b = case.make(seed=5), case.make(seed=5)
    oa, ob = _host(a.reset()[0]), _host(b.reset()[0])
    np.testing.assert_array_equal(oa, ob)
    assert not np.allclose(oa[0], oa[1])  # each env its own stream
    o1 = _host(a.reset(seed=9)[0])
    o2 = _host(a.reset(seed=9)[0])
    np.testing.assert_array_equal(o1, o2)
    assert not np.allclose(o1, _host(a.reset(seed=10)[0]))
    assert _host(a.reset(np.array([2]), seed=[9])[0]).shape[0] == 1
    with pytest.raises(ValueError, match=r"seed must be in \[0, 2\*\*64\)"):
        a.reset(seed=-1)
    with pytest.raises(ValueError, match="seed list has 2 entries but 3 envs are being reset"):
        a.reset(seed=[1, 2])
    with pytest.raises(TypeError, match="seed must be an int or a sequence of ints"):
        a.reset(seed=1.5)
    a.close()
    b.close()


@pytest.mark.parametrize("case", CASES)
def test_send_recv_returns_the_step(case: Case) -> None:
    a, b = case.make(), case.make()
    b.send_reset()
    np.testing.assert_array_equal(_host(b.recv()[0]), _host(a.reset()[0]))
    b.send_step(case.action(3))
    with pytest.raises(RuntimeError, match="in flight"):
        b.send_step(case.action(3))
    got, want = b.recv(), a.step(case.action(3))
    np.testing.assert_array_equal(_host(got[0]), _host(want[0]))
    np.testing.assert_array_equal(_host(got[1]), _host(want[1]))
    a.close()
    b.close()


@pytest.mark.parametrize("case", CASES)
def test_bad_ids_and_actions_read_the_same_on_every_backend(case: Case) -> None:
    pool = case.make()
    pool.reset()
    with pytest.raises(ValueError, match=r"env_id 5 is out of range \[0, 3\)"):
        pool.step(case.action(1), np.array([5]))
    with pytest.raises(ValueError, match="env_id 1 appears more than once"):
        pool.step(case.action(2), np.array([1, 1]))
    with pytest.raises(ValueError, match="env_id must not be empty"):
        pool.step(case.action(0), np.array([], dtype=np.int64))
    with pytest.raises(TypeError, match="env_id must be a sequence of integers"):
        pool.step(case.action(1), np.array([0.5]))
    with pytest.raises(ValueError, match="shape"):
        pool.step(case.action(2))
    bad = case.action(3)
    bad[1, 0] = np.nan
    with pytest.raises(ValueError, match="not finite"):
        pool.step(bad)
    pool.close()
    with pytest.raises(RuntimeError, match="closed"):
        pool.step(case.action(3))


@pytest.mark.parametrize("case", CASES)
def test_copy_results(case: Case) -> None:
    if case.device == "cpu":
        with pytest.raises(ValueError, match="apply to device='cuda' only"):
            case.make(copy_results=False)
        return
    pool = case.make(copy_results=False)
    first = pool.reset()[0]
    snapshot = _host(first).copy()
    pool.step(case.action(3))
    assert not np.array_equal(_host(first), snapshot)  # a view the next call overwrote
    kept = case.make()  # copy_results=True: every call's arrays are its own
    first = kept.reset()[0]
    snapshot = _host(first).copy()
    kept.step(case.action(3))
    np.testing.assert_array_equal(_host(first), snapshot)
    pool.close()
    kept.close()


def test_registry_refuses_what_no_backend_runs() -> None:
    with pytest.raises(ValueError, match="has kernels for the classic control tasks, MaxCut"):
        make_spec("Swimmer-v5", device="cpu-reference")
    with pytest.raises(KeyError, match="no backend named 'tpu'"):
        backends.get("tpu")
    with pytest.raises(ValueError, match="batch_size must equal num_envs"):
        envpool_x.make_gymnasium("CartPole-v1", num_envs=4, batch_size=2, device="cpu-reference")


def test_every_family_declares_backends_that_exist() -> None:
    """The families' declarations agree with what C++ and the backends have."""
    from envpool_x import _core
    from envpool_x.backends.mujoco_warp import tasks
    from envpool_x.registration import families, lookup

    declared = {p for f in families() for p in f.backends.get("cuda", ())}
    assert declared == set(_core.CudaPool.kinds())
    for f in families():
        assert set(f.backends) <= set(backends.names())
    registered = {lookup(t).pool_name for t in envpool_x.list_all_envs()}
    for pool in (p for f in families() for p in f.backends.get("mujoco_warp", ())):
        assert pool in registered
        assert tasks.constants(pool, dict(getattr(_core, pool).default_config()), 1).frame_skip > 0
