"""Shared helpers for the tests."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _pin_numpy_to_avx2_kernels() -> None:
    """numpy's AVX-512 kernels, and OpenBLAS's (numpy's norms and dot
    products), sum and reduce in another order than their AVX2 ones, so an
    oracle's float64 values (gymnasium-robotics', Meta-World's) differ from
    the same arithmetic on an AVX2 host in the last bit, and the bit-for-bit
    parity tests would depend on the CI host's CPU. On a host with AVX-512 the
    tests run both on their AVX2 kernels: numpy's AVX-512 dispatch targets
    (those of the installed build, asked of a child interpreter, since the
    variables only count before numpy is imported) are disabled and OpenBLAS
    takes its Haswell kernels."""
    if "numpy" in sys.modules or "NPY_DISABLE_CPU_FEATURES" in os.environ:
        return
    probe = (
        "from numpy._core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f;"
        "print(int(f.get('AVX512F', False)), *d)"
    )
    try:
        has_avx512, *dispatched = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
        ).stdout.split()
    except (OSError, subprocess.SubprocessError, ValueError):
        return
    if has_avx512 != "1":
        return
    os.environ["NPY_DISABLE_CPU_FEATURES"] = " ".join(
        name for name in dispatched if name.startswith("AVX512")
    )
    os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")


_pin_numpy_to_avx2_kernels()

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import envpool_x  # noqa: E402
from envpool_x.backends import create_pool  # noqa: E402
from envpool_x.spec import make_spec  # noqa: E402

# The oracles (official implementations driven for parity tests) are helper
# modules, not tests: every test folder imports them by name.
sys.path.insert(0, str(Path(__file__).resolve().parent / "oracles"))

#: Set to run the slow suite too: the exhaustive variants of tests whose
#: sample runs in CI (more tasks, seeds and whole episodes, the long
#: integration runs). Run it before resolving an issue: ENVPOOL_X_SLOW=1 pytest
RUN_SLOW = bool(os.environ.get("ENVPOOL_X_SLOW"))


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_in_pytest_tmp(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Stable-Baselines3 makes a log folder under /tmp for every learn() without
    a logger (SB3-<date>); its SB3_LOGDIR puts them in pytest's temp folder,
    which pytest prunes, so a test run leaves no folders behind."""
    os.environ.setdefault("SB3_LOGDIR", str(tmp_path_factory.mktemp("sb3_logs")))


@pytest.fixture(autouse=True, scope="session")
def _temp_files_in_pytest_tmp(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The test process's temporary files go to pytest's temp folder, which
    pytest prunes: gymnasium-robotics' AntMaze (maze_v4.py) writes each model
    beside its TemporaryDirectory, not in it, and never removes it, so every
    AntMaze oracle the parity tests made left an ant_maze<time>.xml in /tmp."""
    tempfile.tempdir = str(tmp_path_factory.mktemp("tempfile"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the tests marked ``slow`` unless ENVPOOL_X_SLOW is set."""
    if RUN_SLOW:
        return
    skip = pytest.mark.skip(reason="slow suite: set ENVPOOL_X_SLOW=1 to run it")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


def ci_sample(values: list, keep: set) -> list:
    """``values`` as parameters, those not in ``keep`` marked ``slow``: CI runs
    the sample, ENVPOOL_X_SLOW=1 runs them all."""
    missing = set(keep) - set(values)
    assert not missing, f"the CI sample names values that are not there: {sorted(missing)}"
    return [v if v in keep else pytest.param(v, marks=pytest.mark.slow) for v in values]


def sync_steps_spread(task: str, num_envs: int, num_threads: int, **kw) -> tuple[int, list[int]]:
    """(caller_steps, worker_steps) after a reset and 10 sync steps."""
    env = envpool_x.make_gymnasium(task, num_envs=num_envs, num_threads=num_threads, **kw)
    env.reset(seed=0)
    for _ in range(10):
        env.step(np.stack([env.single_action_space.sample() for _ in range(num_envs)]))
    pool = env._pool
    # A worker counts a chunk after publishing its results, so the last count can
    # trail the step's return by a moment (seen under TSan on a loaded machine).
    deadline = time.monotonic() + 5
    while pool.caller_steps + sum(pool.worker_steps) < num_envs * 11:
        if time.monotonic() > deadline:
            break
        time.sleep(0.001)
    spread = pool.caller_steps, list(pool.worker_steps)
    env.close()
    return spread


def one_task_per_pool(families: tuple[str, ...]) -> dict[str, str]:
    """A registered task id of every pool of ``families`` (the first registered)."""
    from envpool_x.registration import envs_by_family, lookup

    tasks: dict[str, str] = {}
    for fam in families:
        for task_id in envs_by_family().get(fam, []):
            tasks.setdefault(lookup(task_id).pool_name, task_id)
    return tasks


def bad_option_cases(tasks: dict[str, str], bad_values) -> list[tuple]:  # type: ignore[no-untyped-def]
    """(task id, key, bad value, exception) for every declared option of each
    pool's task in ``tasks`` (pool -> task id), with ``bad_values(option)``
    giving the (value, exception) pairs to try."""
    from envpool_x.registration import lookup

    cases = []
    for pool, task_id in tasks.items():
        table = lookup(task_id).declaration.option_table(pool)
        assert table is not None, f"{pool} declares no options"
        for key, option in table.options.items():
            cases += [(task_id, key, value, exc) for value, exc in bad_values(option)]
    return cases


CLASSIC_TASKS = [
    "CartPole-v0",
    "CartPole-v1",
    "Pendulum-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Acrobot-v1",
]

# Non-default values of every declared per-env parameter of each classic task: the
# config of one pool, the set_params of another (tests/families/test_classic_params.py,
# the CUDA stepper's tests).
CLASSIC_PARAM_VALUES = {
    "CartPole-v1": {
        "gravity": 12.5,
        "masscart": 1.7,
        "masspole": 0.23,
        "length": 0.61,
        "force_mag": 7.5,
        "tau": 0.015,
    },
    "Pendulum-v1": {"g": 8.1, "m": 1.3, "l": 0.8, "dt": 0.04},
    "MountainCar-v0": {"force": 0.0013, "gravity": 0.0021},
    "MountainCarContinuous-v0": {"power": 0.0021, "gravity": 0.0023},
    "Acrobot-v1": {
        "dt": 0.15,
        "link_length_1": 1.2,
        "link_mass_1": 0.9,
        "link_mass_2": 1.4,
        "link_com_pos_1": 0.45,
        "link_com_pos_2": 0.55,
        "link_moi": 1.1,
        "g": 9.6,
    },
}


def action_for(space, env_id: int, k: int):
    """A fixed, env- and step-dependent action (no RNG state shared across envs)."""
    h = (env_id * 7919 + k * 104729) % 1000
    if hasattr(space, "n"):
        return h % int(space.n)
    low = np.broadcast_to(space.low, space.shape)
    high = np.broadcast_to(space.high, space.shape)
    return (low + (high - low) * (h / 999.0)).astype(np.float32)


# ---- old gym (CleanRL's pin) in subprocesses ------------------------------

OLD_GYM = ("gym==0.23.1", "gym-notices==0.1.0")  # CleanRL 1.x pins gym 0.23.1
PIP_TIMEOUT = 600


def pip(*args: str) -> None:
    cmd = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=PIP_TIMEOUT)
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")


@pytest.fixture(scope="session")
def old_gym(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with gym 0.23.1 in it, for the PYTHONPATH of subprocesses."""
    target = tmp_path_factory.mktemp("old_gym")
    # --no-deps: gym 0.23.1 needs numpy and cloudpickle, which gymnasium brings.
    pip("install", "--quiet", "--no-deps", "--target", str(target), *OLD_GYM)
    return target


def run_python(
    args: list[str], cwd: Path, pythonpath: Path | None = None, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """Run ``python ARGS`` in ``cwd`` (with ``pythonpath`` first on the path);
    fails the test with the output when it exits non-zero."""
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(pythonpath), env.get("PYTHONPATH", "")])
    env.setdefault("OMP_NUM_THREADS", "1")  # small nets: one torch thread is faster here
    proc = subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert proc.returncode == 0, (
        f"exit {proc.returncode}\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    )
    return proc


def ale_oracle(rom_id: str):  # type: ignore[no-untyped-def]
    """A bare ale-py ALE with sticky actions off, reset like our Atari env's
    first reset (the oracle of tests/families/test_atari_frames.py and
    tests/front_ends/test_render.py)."""
    import ale_py

    from envpool_x.families import atari

    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setInt("random_seed", 0)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.loadROM(atari.rom_path(rom_id))
    ale.reset_game()
    return ale


def rollout(task, num_envs, steps_per_env, chunk_size=0, **config):
    """Per-env trajectories (obs, reward, term, trunc per step) under any batch size.

    Env i's k-th action is action_for(space, i, k), so the trajectories must
    not depend on scheduling at all.
    """
    spec = make_spec(task, num_envs=num_envs, **config)
    pool = create_pool(spec, chunk_size=chunk_size)
    space = spec.action_space
    traj = {i: [] for i in range(num_envs)}
    count = np.zeros(num_envs, dtype=int)
    pool.send_reset(None, None)

    def record(result):
        obs, rew, term, trunc, info = result
        for row, env_id in enumerate(info["env_id"]):
            traj[env_id].append(
                (obs[row].tobytes(), float(rew[row]), bool(term[row]), bool(trunc[row]))
            )
        return info["env_id"]

    # Keep every env running until each has steps_per_env results after its
    # reset; envs that are done early just run on (their actions are defined).
    while min(len(t) for t in traj.values()) < steps_per_env + 1:
        ids = record(pool.recv())
        acts = np.stack([np.asarray(action_for(space, i, count[i])) for i in ids])
        count[ids] += 1
        pool.send_step(acts, np.asarray(ids))
    pool.close()
    return {i: t[: steps_per_env + 1] for i, t in traj.items()}
