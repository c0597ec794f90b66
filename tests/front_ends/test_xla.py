"""env.xla(): jitted send / recv / step through XLA custom calls, checked against the
eager API of the same engine (same seeds, same actions), plus async use and errors."""

from __future__ import annotations

import gc
import subprocess
import sys

import numpy as np
import pytest

import envpool_x
from envpool_x.families import atari
from envpool_x.families import mujoco as mj

try:
    import jax
    import jax.numpy as jnp
except ImportError:  # only test_without_jax_xla_says_what_to_install can run
    jax = jnp = None

needs_jax = pytest.mark.skipif(jax is None, reason="env.xla() needs JAX (the [test] extra)")


def assert_same(eager, xla, where: str, from_jax: bool = True) -> None:
    """Same pytree (keys included) and the same values; dtypes equal up to JAX's
    32-bit canonicalisation of 64-bit types when ``xla`` came from JAX."""
    eager_leaves, eager_tree = jax.tree_util.tree_flatten(eager)
    xla_leaves, xla_tree = jax.tree_util.tree_flatten(xla)
    assert eager_tree == xla_tree, f"{where}: pytree {xla_tree} != eager {eager_tree}"
    for k, (e, x) in enumerate(zip(eager_leaves, xla_leaves, strict=True)):
        e = np.asarray(e)
        x = np.asarray(x)
        want = jax.dtypes.canonicalize_dtype(e.dtype) if from_jax else e.dtype
        assert x.dtype == want, f"{where}: leaf {k} dtype"
        # A 64-bit eager value narrowed to JAX's 32 bits is compared as such.
        np.testing.assert_array_equal(x, e.astype(want), err_msg=f"{where}: leaf {k}")


def defined_part(result):
    """A step result with the rows of final_obs / final_info that carry no final
    value (``_final_obs`` False) zeroed: their content is unspecified."""
    *head, info = result
    if "_final_obs" not in info:
        return result
    mask = np.asarray(info["_final_obs"])

    def keep(x):
        x = np.array(x)
        x[~mask] = 0
        return x

    info = dict(info)
    info["final_obs"] = jax.tree_util.tree_map(keep, info["final_obs"])
    info["final_info"] = {
        k: (v if k.startswith("_") else keep(v)) for k, v in info["final_info"].items()
    }
    return (*head, info)


def scan_steps(env, actions: np.ndarray):
    """N jitted steps in one lax.scan; returns the stacked results."""
    handle, _, _, step = env.xla()

    @jax.jit
    def run(handle, actions):
        def body(h, a):
            h, out = step(h, a)
            return h, out

        return jax.lax.scan(body, handle, actions)

    handle, outs = run(handle, actions)
    return jax.tree_util.tree_map(np.asarray, outs)


def compare_scan_with_eager(task: str, steps: int, num_envs: int, **kw) -> int:
    """Two envs of one seed: eager steps vs a jitted scan of the same actions.
    Returns the number of episode ends seen (so callers can check they were covered)."""
    eager = envpool_x.make_gymnasium(task, num_envs=num_envs, seed=3, **kw)
    jitted = envpool_x.make_gymnasium(task, num_envs=num_envs, seed=3, **kw)
    rng = np.random.default_rng(0)
    space = eager.single_action_space
    if hasattr(space, "n"):
        actions = rng.integers(0, int(space.n), size=(steps, num_envs)).astype(np.int32)
    else:
        actions = rng.uniform(space.low, space.high, size=(steps, num_envs, *space.shape))
        actions = actions.astype(np.float32)
    assert_same(eager.reset(), jitted.reset(), "reset", from_jax=False)
    stacked = scan_steps(jitted, actions)
    ends = 0
    for k in range(steps):
        result = defined_part(eager.step(actions[k]))
        xla = defined_part(jax.tree_util.tree_map(lambda x, k=k: x[k], stacked))
        assert_same(result, xla, f"step {k}")
        ends += int(np.sum(result[2] | result[3]))
    eager.close()
    jitted.close()
    return ends


@needs_jax
def test_cartpole_scan_matches_eager_steps() -> None:
    ends = compare_scan_with_eager("CartPole-v1", steps=120, num_envs=6, max_episode_steps=40)
    assert ends > 6  # random actions end episodes; with the limit some are truncations


@needs_jax
def test_pendulum_continuous_actions_match() -> None:
    compare_scan_with_eager("Pendulum-v1", steps=30, num_envs=3, max_episode_steps=12)


@needs_jax
def test_toy_text_scan_matches_eager_steps() -> None:
    # Taxi: int64 obs (int32 here, JAX without x64), float64 prob, int8 action mask.
    ends = compare_scan_with_eager("Taxi-v3", steps=60, num_envs=4, max_episode_steps=15)
    assert ends >= 4


@needs_jax
def test_toy_text_with_x64_keeps_64_bit_dtypes() -> None:
    code = (
        "import jax; jax.config.update('jax_enable_x64', True)\n"
        "import numpy as np, envpool_x\n"
        "env = envpool_x.make_gymnasium('FrozenLake-v1', num_envs=3, seed=1)\n"
        "env.reset(); h, _, _, step = env.xla()\n"
        "h, (obs, r, term, trunc, info) = jax.jit(step)(h, np.array([1, 2, 3]))\n"
        "print(obs.dtype, info['prob'].dtype)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["int64", "float64"]


@needs_jax
def test_blackjack_tuple_obs_and_same_step_final_obs() -> None:
    ends = compare_scan_with_eager("Blackjack-v1", steps=20, num_envs=5, autoreset_mode="same_step")
    assert ends > 0  # final_obs rows were exercised


@needs_jax
def test_same_step_final_info_matches() -> None:
    compare_scan_with_eager(
        "CartPole-v1", steps=50, num_envs=4, autoreset_mode="same_step", max_episode_steps=9
    )


@pytest.mark.skipif(not atari.has_atari(), reason="built without the Atari family")
@needs_jax
def test_pong_scan_matches_eager_steps() -> None:
    pytest.importorskip("ale_py", reason="Pong's ROM comes from ale-py (the [test] extra)")
    compare_scan_with_eager("Pong-v5", steps=25, num_envs=2, max_episode_steps=10)


@pytest.mark.skipif(not mj.has_mujoco(), reason="built without the MuJoCo family")
@needs_jax
@pytest.mark.parametrize("task", ["HalfCheetah-v5", "Hopper-v5"])
def test_mujoco_scan_matches_eager_steps(task: str) -> None:
    pytest.importorskip("mujoco", reason="libmujoco comes from the mujoco wheel")
    ends = compare_scan_with_eager(task, steps=40, num_envs=3, max_episode_steps=15)
    assert ends >= 3


@needs_jax
def test_dm_env_timesteps_match() -> None:
    eager = envpool_x.make_dm("CartPole-v1", num_envs=3, seed=5, max_episode_steps=7)
    jitted = envpool_x.make_dm("CartPole-v1", num_envs=3, seed=5, max_episode_steps=7)
    actions = np.tile(np.array([0, 1, 1], dtype=np.int32), (20, 1))
    assert_same(eager.reset(), jitted.reset(), "reset", from_jax=False)
    stacked = scan_steps(jitted, actions)
    for k in range(20):
        ts = eager.step(actions[k])
        assert_same(ts, jax.tree_util.tree_map(lambda x, k=k: x[k], stacked), f"step {k}")
    assert set(np.unique(stacked.step_type).tolist()) == {0, 1, 2}


@needs_jax
def test_classic_gym_flavour_gives_done_and_time_limit_key() -> None:
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2, seed=0, max_episode_steps=3)
    env._classic_gym_api = True  # what a classic-API (gym < 0.26) front end sets
    env.reset()
    handle, _, _, step = env.xla()
    step = jax.jit(step)
    dones = []
    for _ in range(3):
        handle, (obs, reward, done, info) = step(handle, np.zeros(2, np.int32))
        assert obs.shape == (2, 4)
        dones.append(np.asarray(done))
    assert "TimeLimit.truncated" in info and "elapsed_step" in info
    np.testing.assert_array_equal(dones[-1], [True, True])
    np.testing.assert_array_equal(info["TimeLimit.truncated"], [True, True])


@needs_jax
def test_async_send_recv_matches_per_env_trajectories() -> None:
    num_envs, batch = 8, 3
    policy = lambda env_id, elapsed: (env_id + elapsed // 2) % 2  # noqa: E731

    # Reference: each env's observations in a sync eager pool with the same policy.
    ref = envpool_x.make_gymnasium("CartPole-v1", num_envs=num_envs, seed=11)
    obs, info = ref.reset()
    expected: list[list[np.ndarray]] = [[obs[i]] for i in range(num_envs)]
    for _ in range(60 * batch):  # enough for any env however the batches fall
        a = policy(info["env_id"], info["elapsed_step"]).astype(np.int32)
        obs, _, _, _, info = ref.step(a)
        for i in range(num_envs):
            expected[i].append(obs[i])

    env = envpool_x.make_gymnasium(
        "CartPole-v1", num_envs=num_envs, batch_size=batch, num_threads=2, seed=11
    )
    env.async_reset()
    handle, recv, send, _ = env.xla()

    @jax.jit
    def run(handle):
        def body(h, _):
            h, (obs, _, _, _, info) = recv(h)
            action = policy(info["env_id"], info["elapsed_step"]).astype(jnp.int32)
            h = send(h, action, info["env_id"])
            return h, (obs, info["env_id"])

        return jax.lax.scan(body, handle, None, length=60)

    handle, (obs, ids) = run(handle)
    obs, ids = np.asarray(obs), np.asarray(ids)
    assert obs.shape == (60, batch, 4) and ids.shape == (60, batch)
    seen = [0] * num_envs
    for k in range(60):
        assert len(set(ids[k].tolist())) == batch  # a batch never holds an env twice
        for row, i in enumerate(ids[k]):
            np.testing.assert_array_equal(obs[k, row], expected[i][seen[i]])
            seen[i] += 1
    assert min(seen) > 0 and sum(seen) == 60 * batch


@needs_jax
def test_eager_calls_mix_with_xla_calls() -> None:
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, seed=2)
    twin = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, seed=2)
    env.reset()
    twin.reset()
    handle, _, _, step = env.xla()
    ones = np.ones(4, np.int32)
    handle, out = jax.jit(step)(handle, ones)
    assert_same(twin.step(ones), out, "xla step")
    assert_same(twin.step(ones), env.step(ones), "eager step after it", from_jax=False)


@needs_jax
def test_wrong_action_shape_and_dtype_are_clear_at_trace_time() -> None:
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4)
    env.reset()
    handle, _, send, step = env.xla()
    with pytest.raises(ValueError, match=r"action has shape \(3,\) but 4 envs need shape \(4,\)"):
        jax.jit(step)(handle, np.zeros(3, np.int32))
    with pytest.raises(TypeError, match="discrete actions must be integers"):
        jax.jit(step)(handle, np.zeros(4, np.float32))
    cont = envpool_x.make_gymnasium("Pendulum-v1", num_envs=2)
    cont.reset()
    h2, _, _, step2 = cont.xla()
    with pytest.raises(ValueError, match=r"need shape \(2, 1\)"):
        step2(h2, np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match="must cover every env"):
        send(handle, np.zeros(2, np.int32), np.array([0, 1]))


@needs_jax
def test_runtime_errors_name_the_problem_and_env_keeps_working() -> None:
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2, seed=0)
    handle, recv, _, step = env.xla()
    with pytest.raises(Exception, match="has not been reset"):
        jax.block_until_ready(jax.jit(step)(handle, np.zeros(2, np.int32)))
    env.reset()
    with pytest.raises(Exception, match=r"action 5 for env 1 is out of range \[0, 2\)"):
        jax.block_until_ready(jax.jit(step)(handle, np.array([0, 5], np.int32)))
    with pytest.raises(Exception, match="nothing in flight"):
        jax.block_until_ready(jax.jit(recv)(handle))
    handle, (obs, *_rest) = jax.jit(step)(handle, np.array([0, 1], np.int32))
    assert np.asarray(obs).shape == (2, 4)
    env.close()
    with pytest.raises(Exception, match="the env is closed"):
        jax.block_until_ready(jax.jit(step)(handle, np.array([0, 1], np.int32)))


@needs_jax
def test_stale_or_forged_handle_is_an_error_not_a_crash() -> None:
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2)
    env.reset()
    _, _, _, step = env.xla()
    other = envpool_x.make_gymnasium("CartPole-v1", num_envs=2)
    stale = other.xla()[0]  # the functions, which keep `other` alive, are dropped
    del other
    gc.collect()
    with pytest.raises(Exception, match="names no live env"):
        jax.block_until_ready(step(stale, np.zeros(2, np.int32)))
    with pytest.raises(Exception, match="names no live env"):
        jax.block_until_ready(step(np.array(123456, np.uint32), np.zeros(2, np.int32)))
    with pytest.raises(Exception, match="must be the uint32 array"):
        jax.block_until_ready(step(np.zeros(3, np.int32), np.zeros(2, np.int32)))


def test_without_jax_xla_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['jax'] = None\n"
        "import envpool_x\n"
        "env = envpool_x.make_gymnasium('CartPole-v1', num_envs=2)\n"
        "try:\n"
        "    env.xla()\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 'pip install "envpool-x[jax]"' in out.stdout


@needs_jax
def test_build_without_xla_support_says_how_to_get_it(monkeypatch) -> None:
    from envpool_x import _core

    monkeypatch.delattr(_core, "xla_targets")
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=2)
    with pytest.raises(RuntimeError, match="no XLA support.*ENVPOOL_X_XLA_INCLUDE"):
        env.xla()
