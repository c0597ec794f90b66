"""Scale-out on Ray: the distributed helper and RLlib's PPO over envpool_x pools.

Every test runs on a local cluster this module starts on loopback: a head node
and a second node process, one CPU and a 100 MB object store each, so actors and
env runners land on two nodes. Skipped only when Ray (or, for the RLlib tests,
RLlib and torch) is not installed.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import envpool_x

ray = pytest.importorskip("ray")
from ray.cluster_utils import Cluster  # noqa: E402

from envpool_x.distributed import ActorDiedError, DistributedEnvPool  # noqa: E402

NODE = {"num_cpus": 1, "object_store_memory": 100 * 2**20}


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    # On Linux Ray turns 127.0.0.1 into the machine's address; with "clusters"
    # off (its setting for laptops) every process stays on loopback. The
    # variable reaches the node processes; the constant is the driver's copy.
    mp = pytest.MonkeyPatch()
    mp.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    mp.setattr(ray._private.ray_constants, "ENABLE_RAY_CLUSTER", False)
    c = Cluster(initialize_head=True, head_node_args={**NODE, "include_dashboard": False})
    c.add_node(**NODE)
    ray.init(address=c.address, include_dashboard=False, log_to_driver=False)
    c.wait_for_nodes(timeout=60)
    try:
        yield c
    finally:
        ray.shutdown()
        c.shutdown()
        mp.undo()


def test_the_cluster_is_two_nodes_on_loopback(cluster: Any) -> None:
    nodes = [n for n in ray.nodes() if n["Alive"]]
    assert len(nodes) == 2
    assert {n["NodeManagerAddress"] for n in nodes} == {"127.0.0.1"}
    assert cluster.address.startswith("127.0.0.1:")


def _assert_same(a: Any, b: Any) -> None:
    for x, y in zip(a[:4], b[:4], strict=True):
        np.testing.assert_array_equal(x, y)
    np.testing.assert_array_equal(a[4]["elapsed_step"], b[4]["elapsed_step"])


@pytest.mark.timeout(120)
@pytest.mark.parametrize("task, steps", [("CartPole-v1", 400), ("Pong-v5", 30)])
def test_helper_matches_one_pool_with_the_same_seed(cluster: Any, task: str, steps: int) -> None:
    if task not in envpool_x.list_all_envs():
        pytest.skip("built without the Atari family")
    env = DistributedEnvPool(task, num_actors=2, envs_per_actor=3, seed=11)
    ref = envpool_x.make_gymnasium(task, num_envs=6, seed=11, num_threads=1)
    try:
        nodes = {ray.get(a.location.remote())[0] for a in env.actors}
        assert len(nodes) == 2, "the two actors should run on the two nodes"
        obs, info = env.reset()
        obs_ref, _ = ref.reset()
        np.testing.assert_array_equal(obs, obs_ref)
        np.testing.assert_array_equal(info["env_id"], np.arange(6))
        rng = np.random.default_rng(0)
        n_actions = ref.single_action_space.n
        for _ in range(steps):
            action = rng.integers(0, n_actions, 6)
            _assert_same(env.step(action), ref.step(action))
        # Re-seeding follows the single pool's reset(seed=...) too.
        np.testing.assert_array_equal(env.reset(seed=5)[0], ref.reset(seed=5)[0])
    finally:
        env.close()
        ref.close()
    assert env.closed_cleanly == [0, 1]


@pytest.mark.timeout(120)
def test_async_recv_returns_ready_actors_with_global_ids(cluster: Any) -> None:
    env = DistributedEnvPool("CartPole-v1", num_actors=2, envs_per_actor=4, seed=2)
    ref = envpool_x.make_gymnasium("CartPole-v1", num_envs=8, seed=2, num_threads=1)
    try:
        env.async_reset()
        obs_ref, _ = ref.reset()
        rng = np.random.default_rng(1)
        seen: set[int] = set()
        last_actions = np.zeros(8, dtype=np.int64)
        i = 0
        # An actor on a fresh node may answer its first batch late: go on until
        # both actors have answered (the test's timeout bounds it), 60 rounds at least.
        while i < 60 or len(seen) < 8:
            out = env.recv(timeout_s=60)
            ids = out[4]["env_id"]
            # Whole actors' batches, with global ids; a late actor's reset batch may
            # come with the other actor's step batch.
            assert len(ids) in (4, 8) and set(np.asarray(ids) // 4) <= {0, 1}
            for rows in (slice(0, 4), slice(4, len(ids))):
                part = ids[rows]
                if not len(part):
                    continue
                if not seen.issuperset(part.tolist()):  # a reset batch
                    np.testing.assert_array_equal(out[0][rows], obs_ref[part])
                    assert not out[1][rows].any() and not out[2][rows].any()
                else:  # replay what these envs were sent on the single pool, by id
                    out_ref = ref.step(last_actions[part], env_id=part)
                    _assert_same(tuple(x[rows] for x in out[:4]) + (_rows(out[4], rows),), out_ref)
            seen.update(ids.tolist())
            actions = rng.integers(0, 2, len(ids))
            last_actions[ids] = actions
            env.send(actions, ids)
            i += 1
        with pytest.raises(RuntimeError, match="in flight"):
            env.step(np.zeros(8, dtype=np.int64))
        with pytest.raises(ValueError, match="out of range"):
            env.send(np.zeros(1, dtype=np.int64), [8])
    finally:
        env.close()
        ref.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.reset()


def _rows(info: dict[str, Any], rows: slice) -> dict[str, Any]:
    return {key: value[rows] for key, value in info.items() if isinstance(value, np.ndarray)}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("autoreset_mode", ["next_step", "same_step"])
def test_a_late_actors_reset_batch_joins_another_actors_step_batch(
    cluster: Any, autoreset_mode: str, tmp_path: Path
) -> None:
    env = DistributedEnvPool(
        "CartPole-v1", num_actors=2, envs_per_actor=4, seed=3, autoreset_mode=autoreset_mode
    )
    ref = envpool_x.make_gymnasium(
        "CartPole-v1", num_envs=8, seed=3, num_threads=1, autoreset_mode=autoreset_mode
    )
    try:
        # Actor 1 is kept busy until actor 0's reset has come back, so its reset
        # answers after actor 0's first step (the cluster's nodes share this disk).
        release = tmp_path / "release"

        def wait_for_release(_actor: Any, path: str) -> None:  # shipped by value
            deadline = time.monotonic() + 60
            while not os.path.exists(path) and time.monotonic() < deadline:
                time.sleep(0.01)

        busy = env.actors[1].__ray_call__.remote(wait_for_release, str(release))
        env.async_reset()
        first = env.recv(timeout_s=60)
        release.touch()
        np.testing.assert_array_equal(first[4]["env_id"], np.arange(4))
        obs_ref, _ = ref.reset()
        actions = np.array([0, 1, 0, 1])
        env.send(actions, np.arange(4))
        ray.get(busy)
        in_flight = [p for p in env._pending if p is not None]
        assert len(ray.wait(in_flight, num_returns=2, timeout=60)[0]) == 2
        obs, reward, terminated, truncated, info = env.recv(timeout_s=60)
        np.testing.assert_array_equal(info["env_id"], np.arange(8))
        step_ref = ref.step(actions, env_id=np.arange(4))
        _assert_same(
            (obs[:4], reward[:4], terminated[:4], truncated[:4], _rows(info, slice(0, 4))),
            step_ref,
        )
        np.testing.assert_array_equal(obs[4:], obs_ref[4:])
        assert not reward[4:].any() and not terminated[4:].any() and not truncated[4:].any()
        np.testing.assert_array_equal(info["elapsed_step"][4:], 0)
        if autoreset_mode == "same_step":
            # Rows without a final observation: masked off, as gymnasium fills them.
            assert info["final_obs"].shape == obs.shape and not info["_final_obs"][4:].any()
    finally:
        env.close()
        ref.close()


@pytest.mark.timeout(120)
def test_killed_actor_gives_a_clear_error_and_the_others_are_closed(cluster: Any) -> None:
    env = DistributedEnvPool("CartPole-v1", num_actors=2, envs_per_actor=4, seed=0)
    env.reset()
    env.step(np.zeros(8, dtype=np.int64))
    _, pid = ray.get(env.actors[1].location.remote())
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(ActorDiedError, match=r"actor 1 of 2 \(envs 4\.\.7 of CartPole-v1\) died"):
        env.step(np.zeros(8, dtype=np.int64))
    # The live actor closed its pool, then was ended; the helper refuses more calls.
    assert env.closed_cleanly == [0]
    # ray.kill is asynchronous: the live actor's end shows within moments.
    deadline = time.monotonic() + 30
    while True:
        try:
            ray.get(env.actors[0].location.remote(), timeout=5)
        except ray.exceptions.RayActorError:
            break
        assert time.monotonic() < deadline, "the live actor was not ended"
        time.sleep(0.2)
    with pytest.raises(RuntimeError, match="closed"):
        env.step(np.zeros(8, dtype=np.int64))
    env.close()  # idempotent


def test_bad_arguments_are_refused_before_any_actor_starts(cluster: Any) -> None:
    with pytest.raises(KeyError, match="no_such_key"):
        DistributedEnvPool("CartPole-v1", 2, 2, no_such_key=1)
    with pytest.raises(ValueError, match="num_envs"):
        DistributedEnvPool("CartPole-v1", 2, 2, num_envs=3)
    with pytest.raises(ValueError, match=">= 1"):
        DistributedEnvPool("CartPole-v1", 0, 2)


# A hang guard, not a speed bound: starting RLlib's two env-runner actors (each
# importing torch) took 15 s alone, and over 240 s beside a second test worker
# and two compilers on a 2-core machine.
@pytest.mark.timeout(900)
@pytest.mark.parametrize(
    "task",
    ["CartPole-v1", pytest.param("Pong-v5", marks=pytest.mark.slow)],  # ENVPOOL_X_SLOW=1
)
def test_rllib_ppo_samples_from_envpool_x_pools_on_two_nodes(cluster: Any, task: str) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("ray.rllib")
    if task not in envpool_x.list_all_envs():
        pytest.skip("built without the Atari family")
    from ray.rllib.algorithms.ppo import PPOConfig

    from envpool_x.integrations.rllib import configure_env_runners

    config = (
        PPOConfig()
        .training(train_batch_size_per_learner=64, minibatch_size=32, num_epochs=1)
        .rl_module(
            model_config={
                "fcnet_hiddens": [16],
                "head_fcnet_hiddens": [16],
                # Small filters for a cheap test (84x84 in, 1x1 out).
                "conv_filters": [[4, [8, 8], 4], [8, [4, 4], 2], [8, [9, 9], 1]],
            }
        )
        .debugging(seed=0)
    )
    configure_env_runners(
        config,
        task,
        num_envs_per_env_runner=4,
        env_config={"seed": 0},
        num_env_runners=2,
        num_cpus_per_env_runner=1,
        rollout_fragment_length=8,
    )
    algo = config.build_algo()
    try:
        where = algo.env_runner_group.foreach_env_runner(
            lambda r: (
                type(r.env.unwrapped).__name__,
                r.env.unwrapped.spec.id,
                ray.get_runtime_context().get_node_id(),
            ),
            local_env_runner=False,
        )
        assert [w[:2] for w in where] == [("GymnasiumVectorEnvPool", task)] * 2
        assert len({w[2] for w in where}) == 2, "one env runner per node"
        for _ in range(2):
            result = algo.train()
        sampled = result["env_runners"]["num_env_steps_sampled_lifetime"]
        assert sampled >= 2 * 64
        assert np.isfinite(result["learners"]["default_policy"]["total_loss"])
    finally:
        algo.stop()
