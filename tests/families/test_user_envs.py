"""Users' own envs: C++ compiled at run time (register_cpp_env) and numba
(register_numba_env), through every front end, against the built-in CartPole."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import uuid
from pathlib import Path

import dm_env
import numpy as np
import pytest
from gymnasium import spaces

import envpool_x
from envpool_x.user_envs import CompilerNotFoundError, CppEnvCompileError, cpp_env

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "user_envs"
MODES = ["next_step", "same_step", "disabled"]
pytest.importorskip("numba")


def _unique(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:8]}-v0"


def _load_numba_cartpole():
    spec = importlib.util.spec_from_file_location("numba_cartpole", EXAMPLES / "numba_cartpole.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("envpool_x_cache")
    old = os.environ.get("ENVPOOL_X_CACHE_DIR")
    os.environ["ENVPOOL_X_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        del os.environ["ENVPOOL_X_CACHE_DIR"]
    else:
        os.environ["ENVPOOL_X_CACHE_DIR"] = old


@pytest.fixture(scope="module")
def user_tasks(cache) -> dict[str, str]:
    cpp = _unique("UserCartPole")
    envpool_x.register_cpp_env(
        cpp, EXAMPLES / "cartpole.h", "user::CartPole", max_episode_steps=500
    )
    numba_task = _load_numba_cartpole().register(_unique("NumbaCartPole"))
    return {"cpp": cpp, "numba": numba_task}


def _rollout(task: str, mode: str, steps: int = 120, **config):
    env = envpool_x.make_gymnasium(task, num_envs=6, seed=3, autoreset_mode=mode, **config)
    rng = np.random.default_rng(0)
    obs, _ = env.reset()
    out = [obs]
    for _ in range(steps):
        obs, rew, term, trunc, info = env.step(rng.integers(0, 2, 6).astype(np.int32))
        out += [obs, rew, term, trunc, info["elapsed_step"]]
        if mode == "same_step" and "final_obs" in info:
            out.append(info["final_obs"])
        if mode == "disabled" and (term | trunc).any():
            obs, _ = env.reset(env_id=np.flatnonzero(term | trunc))
            out.append(obs)
    env.close()
    return out


@pytest.mark.parametrize("kind", ["cpp", "numba"])
@pytest.mark.parametrize("mode", MODES)
def test_same_trajectories_as_the_builtin_cartpole(user_tasks, kind, mode):
    ours = _rollout(user_tasks[kind], mode, max_episode_steps=40)
    builtin = _rollout("CartPole-v1", mode, max_episode_steps=40)
    assert len(ours) == len(builtin)
    for a, b in zip(ours, builtin, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("kind", ["cpp", "numba"])
def test_every_front_end_and_async(user_tasks, kind):
    task = user_tasks[kind]
    dm = envpool_x.make_dm(task, num_envs=3)
    ts = dm.step(np.zeros(3, np.int32))  # dm_env: a fresh env starts a sequence
    assert (ts.step_type == dm_env.StepType.FIRST).all()
    assert dm.observation_spec().obs.shape == (4,)
    dm.close()
    gym = envpool_x.make_gym(task, num_envs=2)
    assert gym.reset()[0].shape == (2, 4)
    gym.close()
    env = envpool_x.make_gymnasium(task, num_envs=8, batch_size=4, num_threads=2)
    env.async_reset()
    seen = set()
    for _ in range(10):
        obs, _, _, _, info = env.recv()
        assert obs.shape == (4, 4)
        seen |= set(info["env_id"].tolist())
        env.send(np.ones(4, np.int32), info["env_id"])
    assert seen == set(range(8))
    env.close()


def test_seeding_and_threads_are_deterministic(user_tasks):
    def run(threads: int, seed: int):
        env = envpool_x.make_gymnasium(user_tasks["numba"], num_envs=16, num_threads=threads)
        obs, _ = env.reset(seed=seed)
        for _ in range(50):
            obs, *_ = env.step(np.ones(16, np.int32))
        env.close()
        return obs

    np.testing.assert_array_equal(run(1, 5), run(2, 5))
    assert not np.array_equal(run(1, 5), run(1, 6))


def test_config_keys_and_sb3(user_tasks):
    env = envpool_x.make_gymnasium(user_tasks["cpp"], num_envs=2, force_mag=0.0)
    assert env.config["force_mag"] == 0.0
    env.close()
    with pytest.raises(KeyError, match="set by register_numba_env"):
        envpool_x.make_gymnasium(user_tasks["numba"], reset_fn=1)
    sb3 = pytest.importorskip("stable_baselines3")
    venv = envpool_x.make_sb3(user_tasks["cpp"], num_envs=2)
    assert isinstance(venv, sb3.common.vec_env.VecEnv)
    venv.reset()
    venv.step(np.zeros(2, np.int64))
    venv.close()


def test_cached_module_is_reused(cache):
    first = cpp_env.build_module(EXAMPLES / "cartpole.h", "user::CartPole")
    stamp = first.stat().st_mtime_ns
    again = cpp_env.build_module(EXAMPLES / "cartpole.h", "user::CartPole")
    assert again == first and again.stat().st_mtime_ns == stamp
    other = cpp_env.build_module(EXAMPLES / "cartpole.h", "user::CartPole", version="0.0.1")
    assert other != first  # a version bump is another key


def test_a_module_for_another_version_is_refused(cache):
    path = cpp_env.build_module(EXAMPLES / "cartpole.h", "user::CartPole", version="0.0.1")
    with pytest.raises(ValueError, match="built for another envpool_x"):
        envpool_x._core.ExternalEnvLibrary(str(path))


def test_compile_error_shows_the_compilers_diagnostics(cache, tmp_path):
    header = tmp_path / "broken.h"
    header.write_text('#include "core/env.h"\nclass Broken { int x = undefined_name; };\n')
    with pytest.raises(CppEnvCompileError) as err:
        envpool_x.register_cpp_env(_unique("Broken"), header, "Broken")
    assert f"{header}:2" in str(err.value) and "undefined_name" in str(err.value)


def test_contract_violation_is_named(cache):
    source = (
        '#include "core/env.h"\nstruct NoReset { static constexpr const char* kName = "X"; };\n'
    )
    with pytest.raises(CppEnvCompileError, match="breaks the envpool_x env contract: the class"):
        envpool_x.register_cpp_env(_unique("NoReset"), source, "NoReset")


def test_missing_compiler(cache, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CXX", raising=False)
    with pytest.raises(CompilerNotFoundError, match="no C\\+\\+ compiler found"):
        envpool_x.register_cpp_env(_unique("X"), EXAMPLES / "cartpole.h", "user::CartPole")


def test_two_processes_compiling_at_once(tmp_path):
    code = (
        "import envpool_x.user_envs.cpp_env as c, sys;"
        f"p = c.build_module({str(EXAMPLES / 'cartpole.h')!r}, 'user::CartPole');"
        "lib = c.CppEnvPoolClass(p); print(p)"
    )
    env = dict(os.environ, ENVPOOL_X_CACHE_DIR=str(tmp_path))
    procs = [
        subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    paths = {p.communicate(timeout=300)[0].strip() for p in procs}
    assert all(p.returncode == 0 for p in procs)
    assert len(paths) == 1
    folder = Path(paths.pop()).parent
    assert sorted(f.suffix for f in folder.iterdir() if f.suffix == ".so") == [".so"]


def _numba_env(name: str, step) -> str:
    def reset(state, obs, rand):
        state[0] = 0.0
        obs[0] = 0.0

    task = _unique(name)
    envpool_x.register_numba_env(
        task,
        reset,
        step,
        state_size=1,
        observation_space=spaces.Box(-np.inf, np.inf, (1,), np.float32),
        action_space=spaces.Discrete(2),
    )
    return task


def test_exception_and_nan_in_a_numba_env_behave_as_in_a_builtin_env():
    def step(state, action, obs, rand):
        if action == 1:
            raise ValueError("bad action")
        state[0] += 1.0
        obs[0] = np.nan if state[0] > 2 else state[0]
        return 1.0, False

    env = envpool_x.make_gymnasium(_numba_env("Raises", step), num_envs=2)
    env.reset()
    with pytest.raises(RuntimeError, match="env 1 raised an error: the numba env's step raised"):
        env.step(np.array([0, 1], np.int32))
    obs, *_ = env.step(np.zeros(2, np.int32))  # the pool goes on; env 1 restarted
    for _ in range(3):
        obs, *_ = env.step(np.zeros(2, np.int32))
    assert np.isnan(obs[0, 0])  # a NaN is data, passed on as the built-in envs do
    env.close()


def test_numba_env_errors():
    with pytest.raises(TypeError, match="Discrete or a float32 Box"):
        envpool_x.register_numba_env(
            _unique("X"),
            lambda s, o, r: None,
            lambda s, a, o, r: (0.0, False),
            state_size=1,
            observation_space=spaces.Box(0, 1, (1,), np.float32),
            action_space=spaces.MultiBinary(2),
        )
    with pytest.raises(ValueError, match="state_size"):
        envpool_x.register_numba_env(
            _unique("X"),
            lambda s, o, r: None,
            lambda s, a, o, r: (0.0, False),
            state_size=0,
            observation_space=spaces.Box(0, 1, (1,), np.float32),
            action_space=spaces.Discrete(2),
        )


def test_continuous_numba_env():
    def reset(state, obs, rand):
        state[0] = rand[0]
        obs[0] = state[0]
        obs[1] = 0.0

    def step(state, action, obs, rand):
        state[0] += action[0] + action[1]
        obs[0] = state[0]
        obs[1] = action[1]
        return -abs(state[0]), False

    task = _unique("Box")
    envpool_x.register_numba_env(
        task,
        reset,
        step,
        state_size=1,
        reset_random=1,
        observation_space=spaces.Box(-np.inf, np.inf, (2,), np.float64),
        action_space=spaces.Box(-1, 1, (2,), np.float32),
    )
    env = envpool_x.make_gymnasium(task, num_envs=2)
    obs, _ = env.reset()
    assert obs.dtype == np.float64 and ((obs[:, 0] >= 0) & (obs[:, 0] < 1)).all()
    obs2, rew, *_ = env.step(np.array([[0.5, 0.25], [0.0, -1.0]], np.float32))
    np.testing.assert_allclose(obs2[:, 0], obs[:, 0] + [0.75, -1.0])
    np.testing.assert_allclose(rew, -np.abs(obs2[:, 0]).astype(np.float32))
    with pytest.raises(ValueError):
        env.step(np.array([[2.0, 0.0], [0.0, np.nan]], np.float32))
    env.close()


def test_two_modules_with_the_same_class_name_stay_apart(cache):
    source = (EXAMPLES / "cartpole.h").read_text()
    a, b = _unique("SameA"), _unique("SameB")
    envpool_x.register_cpp_env(a, source, "user::CartPole")
    envpool_x.register_cpp_env(
        b, source.replace("*out.reward = 1.0f;", "*out.reward = 2.0f;"), "user::CartPole"
    )
    rewards = []
    for task in (a, b):
        env = envpool_x.make_gymnasium(task, num_envs=1)
        env.reset()
        rewards.append(float(env.step(np.zeros(1, np.int32))[1][0]))
        env.close()
    assert rewards == [1.0, 2.0]


def test_the_key_door_example_runs_and_keeps_its_rules():
    spec = importlib.util.spec_from_file_location("key_door", EXAMPLES / "key_door_grid.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    env = envpool_x.make_gymnasium(module.register(_unique("KeyDoor")), num_envs=64)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    solved = 0
    for _ in range(300):
        assert ((obs == module.AGENT).sum(axis=(1, 2)) == 1).all()
        assert (obs[:, :, module.WALL_COL] != module.EMPTY).all()  # wall, door or agent
        obs, reward, terminated, _, info = env.step(rng.integers(0, 4, 64))
        stepped = info["elapsed_step"] > 0  # the others reset (reward 0)
        assert set(np.unique(reward[stepped])) <= {np.float32(-0.01), np.float32(1.0)}
        np.testing.assert_array_equal(reward == 1.0, terminated)
        solved += int(terminated.sum())
    assert solved > 0
    env.close()


def test_xla_step_of_a_user_env(user_tasks):
    jax = pytest.importorskip("jax")
    env = envpool_x.make_gymnasium(user_tasks["cpp"], num_envs=3)
    handle, _, _, step = env.xla()
    env.reset()

    @jax.jit
    def one_step(h):
        h, (obs, reward, *_) = step(h, jax.numpy.ones(3, jax.numpy.int32))
        return h, obs, reward

    _, obs, reward = one_step(handle)
    assert obs.shape == (3, 4)
    np.testing.assert_array_equal(np.asarray(reward), [1.0, 1.0, 1.0])
    env.close()


def test_without_numba_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)
    with pytest.raises(ImportError, match=r"pip install 'envpool-x\[numba\]'"):
        _numba_env("NoNumba", lambda s, a, o, r: (0.0, False))
