"""Engine semantics: ordering, partial steps, async, seeding, determinism, threads,
errors inside envs, and result arrays that later steps leave alone. Time limits
and auto-reset: test_engine_autoreset.py."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import envpool_x
from conftest import rollout, sync_steps_spread


@pytest.mark.parametrize("task", ["CartPole-v1", "Pendulum-v1", "Acrobot-v1"])
def test_trajectories_identical_across_threads_and_batch_sizes(task):
    num_envs = 8
    ref = rollout(task, num_envs, 60, num_threads=1, seed=3, max_episode_steps=25)
    for threads in (1, 2, 4):
        for batch in (8, 5, 3, 1):
            for chunk in (0, 1, 3):
                got = rollout(
                    task,
                    num_envs,
                    60,
                    chunk_size=chunk,
                    num_threads=threads,
                    batch_size=batch,
                    seed=3,
                    max_episode_steps=25,
                )
                assert got == ref, (threads, batch, chunk)


def test_sync_results_in_env_id_order():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=64, num_threads=2)
    obs, info = env.reset()
    np.testing.assert_array_equal(info["env_id"], np.arange(64))
    for _ in range(20):
        obs, rew, term, trunc, info = env.step(np.ones(64, dtype=np.int32))
        np.testing.assert_array_equal(info["env_id"], np.arange(64))
    assert obs.shape == (64, 4) and obs.dtype == np.float32
    assert rew.dtype == np.float32 and term.dtype == np.bool_ and trunc.dtype == np.bool_
    env.close()


def test_partial_step_and_reset_follow_id_order():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=6, seed=1)
    ref = envpool_x.make_gymnasium("CartPole-v1", num_envs=6, seed=1)
    obs, _ = env.reset()
    ref_obs, _ = ref.reset()
    np.testing.assert_array_equal(obs, ref_obs)
    ids = np.array([5, 2, 0])
    obs, rew, term, trunc, info = env.step(np.array([1, 0, 1]), env_id=ids)
    np.testing.assert_array_equal(info["env_id"], ids)
    np.testing.assert_array_equal(info["elapsed_step"], [1, 1, 1])
    full = np.zeros(6, dtype=np.int32)
    full[ids] = [1, 0, 1]
    ref_obs, *_ = ref.step(full)
    np.testing.assert_array_equal(obs, ref_obs[ids])
    # Untouched envs did not move: their next step is their first.
    _, _, _, _, info = env.step(np.zeros(6, dtype=np.int32))
    np.testing.assert_array_equal(info["elapsed_step"], [2, 1, 2, 1, 1, 2])
    obs, info = env.reset(env_id=[3, 1])
    np.testing.assert_array_equal(info["env_id"], [3, 1])
    np.testing.assert_array_equal(info["elapsed_step"], [0, 0])
    assert obs.shape == (2, 4)
    env.close()
    ref.close()


def test_async_returns_first_finished_with_unique_ids():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=10, batch_size=4, num_threads=2)
    env.async_reset()
    seen = np.zeros(10, dtype=int)
    sent = np.zeros(10, dtype=int)
    sent[:] = 1
    for _ in range(200):
        obs, rew, term, trunc, info = env.recv()
        ids = info["env_id"]
        assert len(ids) == 4 and len(set(ids.tolist())) == 4
        assert obs.shape == (4, 4)
        seen[ids] += 1
        # Every returned env was sent exactly once more than it was received.
        assert (seen[ids] == sent[ids]).all()
        env.send(np.zeros(4, dtype=np.int32), ids)
        sent[ids] += 1
    # In flight: 10 envs, the rest of the results are still owed.
    assert (sent - seen).sum() == 10
    env.close()


def test_reset_in_async_mode_returns_batch_size():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=6, batch_size=2)
    obs, info = env.reset()
    assert obs.shape == (2, 4)
    env.close()


def test_seed_reproduces_and_is_per_env():
    a = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, seed=7)
    b = envpool_x.make_gymnasium("CartPole-v1", num_envs=8, seed=7)
    c = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, seed=8)
    oa, _ = a.reset()
    ob, _ = b.reset()
    oc, _ = c.reset()
    # Env i is seeded from (seed, i) only: the pool size does not matter.
    np.testing.assert_array_equal(oa, ob[:4])
    assert not np.array_equal(oa, oc)
    assert len({row.tobytes() for row in oa}) == 4
    # reset(seed=...) re-seeds: same as a fresh pool with that seed.
    oc2, _ = a.reset(seed=8)
    np.testing.assert_array_equal(oc2, oc)
    # Without a seed the stream continues: a new initial state.
    oa2, _ = a.reset()
    assert not np.array_equal(oa2, oc2)
    # A seed list gives each env its own seed; equal seeds, equal envs.
    d = envpool_x.make_gymnasium("CartPole-v1", num_envs=3, seed=[5, 5, 6])
    od, _ = d.reset()
    np.testing.assert_array_equal(od[0], od[1])
    assert not np.array_equal(od[0], od[2])
    od2, _ = d.reset(seed=[6, 6, 6], env_id=[0, 1, 2])
    np.testing.assert_array_equal(od2[0], od[2])
    for e in (a, b, c, d):
        e.close()


def test_thread_options():
    env = envpool_x.make_gymnasium(
        "CartPole-v1", num_envs=16, num_threads=0, thread_affinity_offset=0
    )
    assert env._pool.num_threads >= 1
    env.reset()
    env.step(np.zeros(16, dtype=np.int32))
    env.close()


def test_default_threads_follow_the_cpu_affinity():
    """num_threads=0 counts the CPUs this process may run on (taskset, a
    container's cpuset), not every CPU of the machine."""
    code = (
        "import os, envpool_x\n"
        "os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})\n"
        "env = envpool_x.make_gymnasium('CartPole-v1', num_envs=16)\n"
        "print(env._pool.num_threads)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1"]


def test_sync_step_with_a_worker_per_cpu_runs_on_the_caller_and_all_workers_but_last():
    """With a worker on every CPU, a sync step (the caller waits anyway) runs
    on the calling thread and all workers but the last, which sits it out:
    three busy threads on two cores time-slice a core and lose ~3% of a round
    to preempted steps. Every env step is counted once, by whoever ran it."""
    cpus = len(os.sched_getaffinity(0))
    caller, workers = sync_steps_spread("CartPole-v1", 512, cpus)  # > 128: not run inline
    assert len(workers) == cpus
    assert workers[-1] == 0
    assert caller > 0
    assert caller + sum(workers) == 512 * 11


def test_sync_step_of_an_env_that_may_stall_runs_on_every_worker():
    """An env whose step may stall never runs on the caller (Ctrl-C would wait
    for it), so no worker sits a sync step out for the caller: with env 0
    stalling 20 ms a step, the other worker runs the rest."""
    code = (
        "import os, sys\n"
        "from conftest import sync_steps_spread\n"
        "os.sched_setaffinity(0, set(sorted(os.sched_getaffinity(0))[:2]))\n"
        "spread = sync_steps_spread('FaultInjection-v0', 16, 2, fault_env_id=0, stall_ms=20)\n"
        "print(spread[0], *spread[1])\n"
    )
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs 2 CPUs")
    here = os.path.dirname(os.path.abspath(__file__))
    tests = os.path.dirname(os.path.dirname(here))  # conftest's folder, imported by this module
    # Prepended, not replaced: scripts/sanitize_python.sh puts the instrumented build first.
    path = [here, tests, *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=here, env=env
    )
    assert out.returncode == 0, out.stderr
    caller, *workers = map(int, out.stdout.split())
    assert caller == 0
    assert len(workers) == 2 and min(workers) > 0
    assert sum(workers) == 16 * 11


def test_error_inside_env_reaches_caller_and_pool_recovers():
    env = envpool_x.make_gymnasium("FaultInjection-v0", num_envs=4, fault_env_id=2, throw_at_step=3)
    env.reset()
    env.step(np.zeros(4, dtype=np.int32))
    env.step(np.zeros(4, dtype=np.int32))
    with pytest.raises(RuntimeError, match="env 2 raised an error: injected fault at step 3"):
        env.step(np.zeros(4, dtype=np.int32))
    # The pool still works; env 2 starts a new episode on its next step.
    _, _, _, _, info = env.step(np.zeros(4, dtype=np.int32))
    np.testing.assert_array_equal(info["elapsed_step"], [4, 4, 0, 4])
    env.close()


@pytest.mark.parametrize("num_envs", [8, 512])
def test_returned_arrays_are_never_overwritten_by_later_steps(num_envs):
    # The engine recycles output arrays the caller has dropped; arrays still
    # referenced (here: kept in a list) must keep their values.
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=num_envs, num_threads=2)
    env.reset()
    kept, copies = [], []
    for k in range(12):
        result = env.step(np.full(num_envs, k % 2, dtype=np.int32))
        if k % 3 == 0:
            kept.append(result)
            copies.append([result[0].copy(), result[1].copy(), result[4]["elapsed_step"].copy()])
        del result
    for (obs, rew, _, _, info), (obs0, rew0, steps0) in zip(kept, copies, strict=True):
        np.testing.assert_array_equal(obs, obs0)
        np.testing.assert_array_equal(rew, rew0)
        np.testing.assert_array_equal(info["elapsed_step"], steps0)
    env.close()


def test_async_results_are_never_overwritten_by_later_recvs():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=64, batch_size=16, num_threads=2)
    env.async_reset()
    kept, copies = [], []
    for k in range(40):
        result = env.recv()
        if k % 5 == 0:
            kept.append(result)
            copies.append((result[0].copy(), result[4]["env_id"].copy()))
        env.send(np.zeros(16, dtype=np.int32), result[4]["env_id"])
        del result
    for (obs, _, _, _, info), (obs0, ids0) in zip(kept, copies, strict=True):
        np.testing.assert_array_equal(obs, obs0)
        np.testing.assert_array_equal(info["env_id"], ids0)
    env.close()


@pytest.mark.parametrize("num_threads", [0, 1, 2])
def test_async_no_env_starves_under_cpu_contention(num_threads):
    """First-finished mode serves envs in the order they were sent: with the
    CPUs busy (workers preempted), envs sent back at once must not keep
    overtaking the others. (Before the shared FIFO queue, envs 2 and 3 here got
    ~0.3% of the steps while a worker owning them was descheduled.)"""
    import subprocess
    import sys
    from collections import Counter

    hogs = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(os.cpu_count() or 2)
    ]
    try:
        env = envpool_x.make_gymnasium(
            "CartPole-v1", num_envs=4, batch_size=2, num_threads=num_threads
        )
        env.async_reset()
        counts: Counter = Counter()
        for _ in range(4000):
            _, _, _, _, info = env.recv()
            counts.update(info["env_id"].tolist())
            env.send(np.zeros(2, dtype=np.int64), info["env_id"])
        env.close()
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    # FIFO order gives each env about a quarter of the 8000 results.
    assert min(counts[i] for i in range(4)) > 8000 / 4 / 3, counts


def test_pool_seed_of_inverts_derive_env_seed():
    rng = np.random.default_rng(0)
    for seed, env_id in [
        (0, 0),
        (2**64 - 1, 7),
        *zip(rng.integers(0, 2**63, 20).tolist(), rng.integers(0, 10**6, 20).tolist(), strict=True),
    ]:
        assert (
            envpool_x._core.pool_seed_of(envpool_x._core.derive_env_seed(seed, env_id), env_id)
            == seed
        )


def test_async_result_memory_stays_bounded():
    """A first-finished batch is handed on as the arrays its rows were written
    to (no copy); once the caller drops a result, its arrays take later rows,
    so memory stays bounded however many batches pass."""
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=64, batch_size=16, num_threads=2)
    env.async_reset()
    seen = set()
    for _ in range(300):
        obs, _, _, _, info = env.recv()
        seen.add(obs.__array_interface__["data"][0])
        ids = info["env_id"].copy()
        del obs, info
        env.send(np.zeros(16, dtype=np.int32), ids)
    # 5 blocks (64 / 16 + 1): at most a few arrays each, never one per batch.
    assert len(seen) <= 2 * 5 + 3, len(seen)
    env.close()
