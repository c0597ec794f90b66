"""CleanRL drop-in: ``env_type="gym"`` follows the installed gym, and CleanRL's
published envpool scripts run unchanged with ``envpool_x`` as ``envpool``.

The rule has two sides. This process has no old gym (the test extra installs
gymnasium only), so it checks the gymnasium side; the classic side runs in
subprocesses that find gym 0.23.1 (CleanRL's pin) on PYTHONPATH, installed by
pip into a temporary folder once per session.
"""

from __future__ import annotations

import importlib.metadata
import textwrap
import zipfile
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import envpool_x
from conftest import pip, run_python
from envpool_x.gymnasium_env import GymnasiumEnvPool
from envpool_x.integrations.classic_gym import classic_gym_version

ROOT = Path(__file__).resolve().parents[2]
CLEANRL = "cleanrl==1.2.0"


@pytest.fixture(scope="session")
def cleanrl_wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """CleanRL's published wheel (its scripts are inside). pip only offers it to
    Python < 3.11, so it is downloaded for 3.10, to read, not to install."""
    dest = tmp_path_factory.mktemp("cleanrl")
    pip(
        "download",
        "--quiet",
        "--no-deps",
        "--only-binary=:all:",
        "--python-version",
        "3.10",
        "--dest",
        str(dest),
        CLEANRL,
    )
    (wheel,) = dest.glob("cleanrl-*.whl")
    return zipfile.ZipFile(wheel)


# ---- the rule --------------------------------------------------------------


@pytest.mark.parametrize(
    ("installed", "classic"),
    [("0.23.1", True), ("0.21.0", True), ("0.25.2", True), ("0.26.0", False), ("0.26.2", False)],
)
def test_classic_api_iff_gym_older_than_0_26(monkeypatch, installed, classic):
    real = importlib.metadata.version

    def version(name: str) -> str:
        return installed if name == "gym" else real(name)

    monkeypatch.setattr(importlib.metadata, "version", version)
    assert (classic_gym_version() == installed) is classic


def test_no_gym_means_gymnasium_api_rule(monkeypatch):
    def version(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", version)
    assert classic_gym_version() is None


def test_gym_type_without_old_gym_is_the_gymnasium_api():
    if classic_gym_version() is not None:
        pytest.skip("an old gym is installed here; the subprocess tests cover that side")
    for env in (
        envpool_x.make("CartPole-v1", env_type="gym", num_envs=3, max_episode_steps=5),
        envpool_x.make_gym("CartPole-v1", num_envs=3, max_episode_steps=5),
    ):
        assert type(env) is GymnasiumEnvPool
        assert isinstance(env.action_space, gymnasium.spaces.Discrete)
        obs, info = env.reset()
        assert obs.shape == (3, 4)
        for _ in range(5):
            result = env.step(np.zeros(3, dtype=np.int64))
        assert len(result) == 5
        assert result[3].all()  # truncated at the time limit
        env.close()


# ---- the classic side, with gym 0.23.1 -------------------------------------

CLASSIC_CHECKS = """
import gym
import gymnasium
import numpy as np
import envpool_x
from envpool_x.integrations.classic_gym import ClassicGymEnvPool

assert gym.__version__ == "0.23.1", gym.__version__

# CartPole: classic reset/step, gym spaces, the same numbers as gymnasium's API.
env = envpool_x.make("CartPole-v1", env_type="gym", num_envs=3, max_episode_steps=5, seed=3)
ref = envpool_x.make_gymnasium("CartPole-v1", num_envs=3, max_episode_steps=5, seed=3)
assert isinstance(env, ClassicGymEnvPool), type(env)
assert isinstance(env.observation_space, gym.spaces.Box), type(env.observation_space)
assert isinstance(env.action_space, gym.spaces.Discrete) and env.action_space.n == 2
assert not isinstance(env.action_space, gymnasium.spaces.Space)
assert env.observation_space.shape == (4,) and env.observation_space.dtype == np.float32
obs = env.reset()
assert isinstance(obs, np.ndarray) and obs.shape == (3, 4)
np.testing.assert_array_equal(obs, ref.reset()[0])
act = np.zeros(3, dtype=np.int64)
for k in range(1, 6):
    result = env.step(act)
    assert len(result) == 4
    obs, rew, done, info = result
    r_obs, r_rew, r_term, r_trunc, _ = ref.step(act)
    np.testing.assert_array_equal(obs, r_obs)
    np.testing.assert_array_equal(done, r_term | r_trunc)
    assert done.dtype == np.bool_
# Step 5 reached the time limit without a termination: bootstrap.
assert done.all(), done
assert info["TimeLimit.truncated"].all(), info
env.close()
ref.close()

# A real termination is not flagged as a time-limit cut.
env = envpool_x.make_gym("CartPole-v1", num_envs=2, seed=0)
env.reset()
for _ in range(100):
    obs, rew, done, info = env.step(np.ones(2, dtype=np.int64))
    if done.any():
        break
assert done.any() and not info["TimeLimit.truncated"][done].any(), info
env.close()

# reset with info: on request, or made with gym_reset_return_info=True.
env = envpool_x.make_gym("Pendulum-v1", num_envs=2)
assert isinstance(env.action_space, gym.spaces.Box)
obs, info = env.reset(return_info=True)
assert obs.shape == (2, 3) and "env_id" in info
assert isinstance(env.reset(), np.ndarray)
env.close()
env = envpool_x.make_gym("Pendulum-v1", num_envs=2, gym_reset_return_info=True)
obs, info = env.reset()
assert obs.shape == (2, 3)
env.close()

# Async: recv gives the 4-tuple and env ids; send routes actions by id.
env = envpool_x.make_gym("CartPole-v1", num_envs=4, batch_size=2, num_threads=2)
env.async_reset()
for _ in range(20):
    obs, rew, done, info = env.recv()
    assert obs.shape == (2, 4) and done.shape == (2,) and "TimeLimit.truncated" in info
    ids = info["env_id"].tolist()
    assert len(set(ids)) == 2 and set(ids) <= {0, 1, 2, 3}, ids
    env.send(np.zeros(2, dtype=np.int64), info["env_id"])
env.close()

# A Tuple observation space becomes gym's Tuple.
env = envpool_x.make_gym("Blackjack-v1", num_envs=2)
assert isinstance(env.observation_space, gym.spaces.Tuple)
assert all(isinstance(s, gym.spaces.Discrete) for s in env.observation_space.spaces)
env.close()

# What CleanRL's Atari scripts use: attribute assignment, gym.Wrapper, info keys.
envs = envpool_x.make("Pong-v5", env_type="gym", num_envs=2, episodic_life=True,
                      reward_clip=True, seed=1)
envs.num_envs = 2
envs.single_action_space = envs.action_space
envs.single_observation_space = envs.observation_space
wrapped = gym.Wrapper(envs)
assert isinstance(wrapped.action_space, gym.spaces.Discrete)
assert wrapped.single_observation_space.shape == (4, 84, 84)
obs = wrapped.reset()
assert obs.shape == (2, 4, 84, 84) and obs.dtype == np.uint8
obs, rew, done, info = wrapped.step(np.ones(2, dtype=np.int64))
for key in ("reward", "terminated", "lives", "TimeLimit.truncated", "env_id"):
    assert info[key].shape == (2,), key
envs.close()
print("CLASSIC OK")
"""


@pytest.mark.timeout(900)
def test_gym_type_with_gym_0_23_is_the_classic_api(old_gym, tmp_path):
    proc = run_python(["-c", CLASSIC_CHECKS], cwd=tmp_path, pythonpath=old_gym)
    assert "CLASSIC OK" in proc.stdout


# ---- CleanRL's published scripts, unchanged --------------------------------

# ``import envpool`` inside the script gets envpool_x; nothing else changes.
RUN_AS_ENVPOOL = textwrap.dedent(
    """
    import runpy, sys
    import envpool_x
    sys.modules["envpool"] = envpool_x
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    runpy.run_path(script, run_name="__main__")
    """
)


@pytest.mark.timeout(900)
@pytest.mark.parametrize(
    ("script", "extra"),
    [
        ("cleanrl/ppo_atari_envpool.py", []),
        (
            "cleanrl/ppo_rnd_envpool.py",
            ["--env-id", "Pong-v5", "--num-iterations-obs-norm-init", "1"],
        ),
    ],
)
def test_cleanrl_envpool_script_runs_unchanged(old_gym, cleanrl_wheel, tmp_path, script, extra):
    pytest.importorskip("torch")
    pytest.importorskip("tensorboard")
    path = tmp_path / Path(script).name
    path.write_bytes(cleanrl_wheel.read(script))
    num_envs, num_steps, updates = 4, 32, 2
    args = [
        "--cuda",
        "False",
        "--num-envs",
        str(num_envs),
        "--num-steps",
        str(num_steps),
        "--total-timesteps",
        str(num_envs * num_steps * updates),
        "--update-epochs",
        "1",
        *extra,
    ]
    proc = run_python(["-c", RUN_AS_ENVPOOL, str(path), *args], cwd=tmp_path, pythonpath=old_gym)
    # Each PPO update ends by printing its steps per second.
    assert proc.stdout.count("SPS:") == updates, proc.stdout[-3000:]
    assert any((tmp_path / "runs").iterdir())  # tensorboard logs were written


# CleanRL's JAX script builds its TrainState from a ``flax.struct`` dataclass, and
# flax >= 0.7.5 (the only flax that imports under jax 0.10) asks ``key in params``
# of it, which a dataclass cannot answer: the script fails inside flax before it
# ever steps an env (TypeError: argument of type 'AgentParams' is not iterable).
# The runner answers "no" for such dataclasses; the script itself is unchanged.
FLAX_DATACLASS_SHIM = textwrap.dedent(
    """
    import flax.struct
    _dataclass = flax.struct.dataclass
    def dataclass(cls=None, **kwargs):
        out = _dataclass(**kwargs) if cls is None else _dataclass(cls, **kwargs)
        if isinstance(out, type) and "__contains__" not in vars(out):
            out.__contains__ = lambda self, key: False
        return out
    flax.struct.dataclass = dataclass
    """
)


@pytest.mark.slow  # JAX compiles the CNN for a minute; env.xla() has tests of its own
@pytest.mark.timeout(900)
def test_cleanrl_xla_jax_script_runs_unchanged(old_gym, cleanrl_wheel, tmp_path):
    """``ppo_atari_envpool_xla_jax.py``: env.xla() inside jax.jit, gym 0.23.1's
    4-tuple, a few PPO updates on Pong-v5 with jax on the CPU."""
    pytest.importorskip("jax")
    pytest.importorskip("flax")
    pytest.importorskip("tensorboard")
    script = "cleanrl/ppo_atari_envpool_xla_jax.py"
    path = tmp_path / Path(script).name
    path.write_bytes(cleanrl_wheel.read(script))
    num_envs, num_steps, updates = 4, 32, 2
    args = [
        "--num-envs",
        str(num_envs),
        "--num-steps",
        str(num_steps),
        "--total-timesteps",
        str(num_envs * num_steps * updates),
        "--update-epochs",
        "1",
    ]
    runner = FLAX_DATACLASS_SHIM + RUN_AS_ENVPOOL
    proc = run_python(["-c", runner, str(path), *args], cwd=tmp_path, pythonpath=old_gym)
    assert proc.stdout.count("SPS:") == updates, proc.stdout[-3000:]
    steps = [line for line in proc.stdout.splitlines() if line.startswith("global_step=")]
    assert steps[-1].startswith(f"global_step={num_envs * num_steps * updates},"), steps
    assert any((tmp_path / "runs").iterdir())


# ---- our CleanRL-style examples --------------------------------------------


@pytest.mark.timeout(900)
@pytest.mark.parametrize(
    ("script", "args", "updates"),
    [
        ("ppo_cartpole.py", "--num-envs 8 --num-steps 64", 4),
        ("ppo_atari.py", "--num-envs 4 --num-steps 32", 2),
        ("ppo_async.py", "--env-id CartPole-v1 --num-envs 8 --batch-size 4 --num-steps 64", 4),
        ("ppo_async.py", "--env-id Pong-v5 --num-envs 4 --batch-size 2 --num-steps 32", 2),
    ],
)
def test_example_runs_a_few_updates(tmp_path, script, args, updates):
    pytest.importorskip("torch")
    argv = args.split()
    n, steps = int(argv[argv.index("--num-envs") + 1]), int(argv[argv.index("--num-steps") + 1])
    total = ["--total-timesteps", str(n * steps * updates), "--update-epochs", "2"]
    proc = run_python([str(ROOT / "examples" / script), *argv, *total], cwd=tmp_path)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("update ")]
    assert len(lines) == updates, proc.stdout
    fields = dict(f.split("=", 1) for f in lines[-1].split()[2:])
    assert lines[-1].startswith(f"update {updates}/{updates} ")
    assert int(fields["steps"]) == n * steps * updates
    if "CartPole" in script + args:
        # Random-ish CartPole episodes last tens of steps: many end in 256 steps
        # per env, and each return is the episode's length (reward 1 per step).
        assert int(fields["episodes"]) >= n, lines[-1]
        assert 8 <= float(fields["mean_return_last20"]) <= 500, lines[-1]


XLA_CLASSIC_CHECK = """
import jax, numpy as np
import envpool_x
env = envpool_x.make("CartPole-v1", env_type="gym", num_envs=4, seed=0, max_episode_steps=5)
assert type(env).__name__ == "ClassicGymEnvPool"
handle, recv, send, step = env.xla()
env.async_reset()
handle, _ = recv(handle)
step = jax.jit(step)
for _ in range(6):
    handle, out = step(handle, np.zeros(4, np.int32))
    assert len(out) == 4, "xla step of a classic-API env must be gym's 4-tuple"
    obs, reward, done, info = out
    assert "TimeLimit.truncated" in info
print("XLA CLASSIC OK", bool(np.asarray(info["TimeLimit.truncated"]).any()))
"""


@pytest.mark.timeout(900)
def test_xla_of_a_classic_api_env_is_the_4_tuple(old_gym, tmp_path):
    """CleanRL's *_envpool_xla_jax* scripts unpack xla's step as gym's
    4-tuple when an old gym is installed."""
    pytest.importorskip("jax")
    proc = run_python(["-c", XLA_CLASSIC_CHECK], cwd=tmp_path, pythonpath=old_gym)
    assert "XLA CLASSIC OK" in proc.stdout
