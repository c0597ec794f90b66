"""The per-env parameter API (docs/params.md): set_params / get_params, reset
options, randomisation by seed, params_info, and refused calls that change nothing."""

import math
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import envpool_x
from envpool_x.params import Choice, LogUniform, Normal, Uniform

DEFAULT_GRAVITY = 9.8


def _cartpole(**kw):
    kw.setdefault("num_envs", 4)
    kw.setdefault("seed", 3)
    return envpool_x.make_gymnasium("CartPole-v1", **kw)


def _run(env, steps=60, seed=0):
    """Observations of a reset and `steps` fixed-action steps (sync)."""
    rng = np.random.default_rng(seed)
    out = [env.reset()[0].copy()]
    for _ in range(steps):
        out.append(env.step(rng.integers(0, 2, env.num_envs).astype(np.int32))[0].copy())
    return np.stack(out)


def test_spec_and_cli_list_the_parameters():
    spec = envpool_x.make_spec("CartPole-v1", gravity=11.0)
    params = spec.params
    assert list(params) == ["gravity", "masscart", "masspole", "length", "force_mag", "tau"]
    assert params["gravity"].default == 11.0
    assert params["gravity"].low == 0.0 and params["gravity"].mid_episode
    out = subprocess.run(
        [sys.executable, "-m", "envpool_x", "info", "CartPole-v1"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "per-env parameters" in out and "masspole" in out


def test_values_apply_at_the_next_reset_per_env():
    env = _cartpole()
    env.reset()
    env.set_params(env_ids=[1, 3], gravity=[11.0, 12.0])
    # Not yet: the envs run their episodes with the old values.
    np.testing.assert_array_equal(env.get_params()["gravity"], [DEFAULT_GRAVITY] * 4)
    env.reset(env_id=[1])
    np.testing.assert_array_equal(
        env.get_params()["gravity"], [DEFAULT_GRAVITY, 11.0, DEFAULT_GRAVITY, DEFAULT_GRAVITY]
    )
    env.reset()
    np.testing.assert_array_equal(
        env.get_params()["gravity"], [DEFAULT_GRAVITY, 11.0, DEFAULT_GRAVITY, 12.0]
    )
    # Values stay across later resets.
    env.reset()
    assert env.get_params(env_ids=[3])["gravity"].tolist() == [12.0]
    env.close()


def test_reset_options_params_equals_set_params():
    a, b = _cartpole(), _cartpole()
    a.reset(options={"params": {"masspole": 0.3, "length": [0.4, 0.5, 0.6, 0.7]}})
    b.set_params(masspole=0.3, length=[0.4, 0.5, 0.6, 0.7])
    b.reset()
    np.testing.assert_array_equal(_run(a), _run(b))
    # With reset_mask only the masked envs take the values.
    c = _cartpole(autoreset_mode="disabled")
    c.reset()
    mask = np.array([False, True, False, False])
    c.reset(options={"reset_mask": mask, "params": {"gravity": 15.0}})
    np.testing.assert_array_equal(
        c.get_params()["gravity"], [DEFAULT_GRAVITY, 15.0, DEFAULT_GRAVITY, DEFAULT_GRAVITY]
    )
    for env in (a, b, c):
        env.close()


@pytest.mark.parametrize(
    "setting",
    [
        Uniform(5.0, 15.0),
        LogUniform(1.0, 20.0),
        Normal(9.8, 2.0),
        Choice([5.0, 9.8, 20.0]),
        {"uniform": [5.0, 15.0]},
    ],
    ids=["uniform", "log_uniform", "normal", "choice", "dict"],
)
def test_randomisation_is_drawn_at_each_reset_by_seed(setting):
    """Draws depend on the seeds only: sync with 1 thread and async with 2
    give every env the same values, and they change from reset to reset."""
    sync = _cartpole(num_envs=6, num_threads=1)
    part = _cartpole(num_envs=6, batch_size=2, num_threads=2)
    sync.set_params(gravity=setting)
    part.set_params(gravity=setting)
    draws_sync, draws_async = [], []
    for _ in range(3):
        sync.reset()
        draws_sync.append(sync.get_params()["gravity"])
        part.async_reset()
        for _ in range(3):
            part.recv()
        draws_async.append(part.get_params()["gravity"])
    np.testing.assert_array_equal(np.stack(draws_sync), np.stack(draws_async))
    draws = np.stack(draws_sync)
    assert np.all((draws >= 0.0) & (draws <= 1000.0))
    # Drawn per env and per reset.
    assert len(np.unique(draws)) > (2 if isinstance(setting, Choice) else 10)
    assert np.any(draws[0] != draws[1])
    if isinstance(setting, Choice):
        assert set(draws.ravel()) <= {5.0, 9.8, 20.0}
    elif not isinstance(setting, Normal):
        assert np.all((draws >= 1.0) & (draws < 20.0))
    # Reseeding restarts the parameter stream too.
    sync.reset(seed=7)
    first = sync.get_params()["gravity"]
    sync.reset()
    sync.reset(seed=7)
    np.testing.assert_array_equal(sync.get_params()["gravity"], first)
    sync.close()
    part.close()


def test_randomising_leaves_the_initial_states_alone():
    """Parameter draws have their own stream: the first observations match an
    untouched pool's."""
    a, b = _cartpole(), _cartpole()
    a.set_params(gravity=Uniform(5.0, 15.0))
    np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
    a.close()
    b.close()


def test_settings_made_while_in_flight_wait_for_the_result():
    """Async: an env with work in flight keeps its values for that work; the
    first reset sent after its result is received uses the new ones."""
    env = _cartpole(num_envs=4, batch_size=2, num_threads=2)
    env.async_reset()
    obs, *_, info = env.recv()
    env.set_params(gravity=20.0)  # two envs are still in flight
    in_flight = sorted(set(range(4)) - set(info["env_id"].tolist()))
    *_, info2 = env.recv()
    assert sorted(info2["env_id"].tolist()) == in_flight
    np.testing.assert_array_equal(
        env.get_params(env_ids=in_flight)["gravity"], [DEFAULT_GRAVITY] * 2
    )
    env.async_reset(env_id=in_flight)
    env.recv()
    np.testing.assert_array_equal(env.get_params(env_ids=in_flight)["gravity"], [20.0, 20.0])
    env.close()


BAD_CALLS = [
    ({"gravty": 1.0}, KeyError, "unknown parameter 'gravty'"),
    ({"gravity": [1.0, 2.0]}, ValueError, r"shape \(4,\)"),
    ({"gravity": math.nan}, ValueError, "finite"),
    ({"gravity": -1.0}, ValueError, "outside its range"),
    ({"tau": [0.01, 0.01, 0.01, 2.0]}, ValueError, "for env 3"),
    ({"gravity": Uniform(5.0, 2000.0)}, ValueError, "high"),
    ({"gravity": LogUniform(0.0, 2.0)}, ValueError, "low > 0"),
    ({"gravity": Normal(9.8, -1.0)}, ValueError, "standard deviation"),
    ({"gravity": Choice([])}, ValueError, "non-empty"),
    ({"gravity": {"beta": [1, 2]}}, ValueError, "unknown distribution"),
    ({"gravity": "heavy"}, TypeError, "numbers"),
]


@pytest.mark.parametrize(("values", "error", "match"), BAD_CALLS)
def test_refused_calls_change_nothing(values, error, match):
    env, untouched = _cartpole(), _cartpole()
    env.reset()
    untouched.reset()
    # A valid value beside the bad one: refused with it.
    with pytest.raises(error, match=match):
        env.set_params(masspole=0.5, **values)
    with pytest.raises(error, match=match):
        env.reset(options={"params": {"masspole": 0.5, **values}})
    np.testing.assert_array_equal(env.get_params()["masspole"], [0.1] * 4)
    np.testing.assert_array_equal(_run(env), _run(untouched))
    env.close()
    untouched.close()


def test_immediate_refusals():
    env = _cartpole()
    with pytest.raises(RuntimeError, match="has not been reset"):
        env.set_params(immediate=True, gravity=5.0)
    env.reset()
    with pytest.raises(ValueError, match="not distributions"):
        env.set_params(immediate=True, gravity=Uniform(1.0, 2.0))
    part = _cartpole(batch_size=2, num_threads=2)
    part.async_reset()
    part.recv()
    with pytest.raises(RuntimeError, match="in flight"):
        part.set_params(immediate=True, gravity=5.0)
    with pytest.raises(RuntimeError, match="in flight"):  # a reset's params, env in flight
        part.reset(options={"params": {"gravity": 5.0}})
    np.testing.assert_array_equal(part.get_params()["gravity"], [DEFAULT_GRAVITY] * 4)
    env.close()
    part.close()


def test_params_info():
    env = _cartpole(num_envs=4, batch_size=2, num_threads=2, params_info=True)
    env.set_params(gravity=Uniform(5.0, 15.0))
    env.async_reset()
    for _ in range(2):
        *_, info = env.recv()
        np.testing.assert_array_equal(
            info["params"]["gravity"], env.get_params(info["env_id"])["gravity"]
        )
    env.close()
    plain = _cartpole()
    assert "params" not in plain.reset()[1]
    plain.close()


def test_dm_env_params_info():
    """make_dm(params_info=True): the values ride in observation.params, as
    info fields (env_id) do, for the returned rows; the spec says so too."""
    env = envpool_x.make_dm(
        "CartPole-v1", num_envs=4, batch_size=2, num_threads=2, params_info=True
    )
    env.set_params(gravity=Uniform(5.0, 15.0), env_ids=[1, 3], tau=0.03)
    env.async_reset()
    seen = set()
    for _ in range(2):
        ts = env.recv()
        ids = ts.observation.env_id
        assert set(ts.observation.params) == set(env.spec.params)
        for name, values in ts.observation.params.items():
            assert values.dtype == np.float64 and values.shape == (2,)
            np.testing.assert_array_equal(values, env.get_params(ids)[name])
        seen.update(ids.tolist())
    assert seen == {0, 1, 2, 3}
    gravity = env.get_params()["gravity"]
    assert gravity[0] == gravity[2] == DEFAULT_GRAVITY and 5.0 <= gravity[1] < 15.0
    with pytest.raises(ValueError, match="observation.params"):
        env.xla()
    spec = env.observation_spec().params["gravity"]
    assert (spec.dtype, spec.shape) == (np.float64, ())
    assert spec.minimum <= DEFAULT_GRAVITY <= spec.maximum
    env.close()
    single = envpool_x.make_dm("CartPole-v1", num_envs=1, params_info=True, gravity=11.0)
    one = single.single_env()
    assert one.reset().observation.params["gravity"] == 11.0
    assert one.step(0).observation.params["gravity"] == 11.0
    single.close()
    assert "params" not in envpool_x.make_dm("CartPole-v1").observation_spec()._fields
    with pytest.raises(NotImplementedError, match="params_info"):
        envpool_x.make_dm(
            "CartPole-v1",
            num_envs=2,
            device="cpu-reference",
            params_info=True,
            array_backend="dlpack",
        )


def test_dm_env_set_and_get():
    env = envpool_x.make_dm("Pendulum-v1", num_envs=2)
    env.set_params(g=[5.0, 6.0], l=1.5)
    env.reset()
    assert env.get_params()["g"].tolist() == [5.0, 6.0]
    assert env.get_params()["l"].tolist() == [1.5, 1.5]
    env.close()


@pytest.mark.slow  # torch and three PPO updates: tens of seconds
def test_curriculum_example_widens_the_ranges(tmp_path):
    """examples/ppo_cartpole_curriculum.py: with a low bar every update passes it,
    so each update line reports a wider level."""
    pytest.importorskip("torch")
    root = pathlib.Path(__file__).resolve().parents[2]
    args = ["--num-envs", "8", "--num-steps", "64", "--total-timesteps", "1536"]
    args += ["--update-epochs", "1", "--widen-at", "5"]
    proc = subprocess.run(
        [sys.executable, str(root / "examples" / "ppo_cartpole_curriculum.py"), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    levels = [
        int(line.split("level=")[1].split()[0])
        for line in proc.stdout.splitlines()
        if line.startswith("update ")
    ]
    assert levels == [1, 2, 3], proc.stdout
