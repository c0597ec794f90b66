"""MuJoCo under threads: determinism across thread counts and batch sizes,
sync steps shared between threads (pair chunks, idle threads taking over
half-stepped envs), the caller stepping while it waits, and sends refused
while envs are in flight."""

from __future__ import annotations

import numpy as np
import pytest
from mujoco_helpers import SAMPLED_TASKS, _assert_step_equal, _gym_make

import envpool_x
from envpool_x.backends import create_pool
from envpool_x.families import mujoco as mj
from envpool_x.spec import make_spec

pytest.importorskip("mujoco")
pytest.importorskip("gymnasium")
if not mj.has_mujoco():
    pytest.skip("envpool_x was built without MuJoCo", allow_module_level=True)


@pytest.mark.parametrize("task", SAMPLED_TASKS)
def test_determinism_across_threads(task: str) -> None:
    """The same seed gives the same observations, rewards and episode ends
    with 1, 2 or 4 threads, sync or async (batch 3 of 6); envs whose episodes
    end within the 60 steps (Hopper, Humanoid, ...) reset on the way."""

    def rollout(num_threads: int, batch_size: int) -> np.ndarray:
        env = envpool_x.make_gymnasium(
            task, num_envs=6, batch_size=batch_size, num_threads=num_threads, seed=11
        )
        rng = np.random.default_rng(0)
        shape = (6, *env.single_action_space.shape)
        # Per step and env: the observation, then reward, terminated, truncated.
        out = np.zeros((60, 6, env.single_observation_space.shape[0] + 3))

        def record(t: int, i: int, obs, rew, term, trunc, row: int) -> None:
            out[t, i] = np.concatenate([obs[row], [rew[row], term[row], trunc[row]]])

        if batch_size == 6:
            env.reset()
            for t in range(60):
                step = env.step(rng.uniform(-1, 1, shape).astype(np.float32))
                for i in range(6):
                    record(t, i, *step[:4], row=i)
        else:
            actions = rng.uniform(-1, 1, (60, *shape)).astype(np.float32)
            count = np.zeros(6, dtype=int)
            env.async_reset()
            while count.min() < 61:
                *step, info = env.recv()
                ids = info["env_id"]
                for row, i in enumerate(ids):
                    if 1 <= count[i] <= 60:
                        record(count[i] - 1, i, *step, row=row)
                    count[i] += 1
                env.send(np.stack([actions[min(count[i] - 1, 59), i] for i in ids]), ids)
        env.close()
        return out

    ref = rollout(1, 6)
    np.testing.assert_array_equal(ref, rollout(2, 6))
    np.testing.assert_array_equal(ref, rollout(4, 6))
    np.testing.assert_array_equal(ref, rollout(2, 3))


@pytest.mark.parametrize("task", SAMPLED_TASKS)
def test_parity_of_sync_steps_shared_between_threads(task: str) -> None:
    """With two threads on a sync step, each thread's last two envs are
    stepped in alternating physics substeps and an idle thread may finish one
    of them (a pair chunk): every row still matches gymnasium's env."""
    n = 8
    ours = envpool_x.make_gymnasium(task, num_envs=n, num_threads=2, seed=0)
    theirs = [_gym_make(task) for _ in range(n)]
    ours.reset()
    for i, env in enumerate(theirs):
        env.reset(seed=i)
        data = env.unwrapped.data
        ours._pool.set_state(i, np.concatenate([data.qpos, data.qvel]))
    space = theirs[0].action_space
    rng = np.random.default_rng(1)
    live = set(range(n))
    for t in range(150):
        actions = rng.uniform(space.low, space.high, (n, *space.shape)).astype(np.float32)
        out = ours.step(actions)
        for i in sorted(live):
            want = theirs[i].step(actions[i])
            _assert_step_equal(task, t, out, want, row=i)
            if want[2] or want[3]:
                live.discard(i)  # ours resets it on the next step
        if not live:
            break
    ours.close()
    for env in theirs:
        env.close()


def _sync_rollout(chunk_size: int, steps: int) -> tuple[np.ndarray, int]:
    """HalfCheetah-v5, 8 envs, 2 threads: (observations, pair_steals)."""
    spec = make_spec("HalfCheetah-v5", num_envs=8, num_threads=2, seed=5)
    pool = create_pool(spec, chunk_size=chunk_size)
    rng = np.random.default_rng(2)
    out = [pool.reset(None, None)[0]]
    for _ in range(steps):
        out.append(pool.step(rng.uniform(-1, 1, (8, 6)).astype(np.float32), None)[0])
    steals = pool.pair_steals
    pool.close()
    return np.stack(out), steals


def test_idle_thread_takes_over_half_stepped_envs_without_changing_results() -> None:
    """A thread out of work finishes an env another thread has half stepped
    (counted in pair_steals); with whole-env chunks (chunk_size=2) no thread
    does. Both give the same trajectories."""
    shared, steals = _sync_rollout(chunk_size=0, steps=300)
    whole, whole_steals = _sync_rollout(chunk_size=2, steps=300)
    np.testing.assert_array_equal(shared, whole)
    assert whole_steals == 0
    assert steals > 0


def test_async_recv_caller_steps_expensive_envs_while_it_waits() -> None:
    """An async recv() whose batch is not ready runs queued envs on the calling
    thread instead of sleeping (a sleeping caller costs a context switch per
    batch, which showed as ~8% of async throughput with a worker per core)."""
    env = envpool_x.make_gymnasium("HalfCheetah-v5", num_envs=16, batch_size=8, num_threads=1)
    pool = env._pool
    rng = np.random.default_rng(0)
    env.async_reset()
    for _ in range(20):
        info = env.recv()[-1]
        env.send(rng.uniform(-1, 1, (8, 6)).astype(np.float32), info["env_id"])
    # One worker for 16 envs: at every recv most of them are still queued.
    assert pool.caller_steps > 0
    env.close()


def test_sync_step_with_a_worker_per_cpu_keeps_the_last_worker_out() -> None:
    """Expensive envs too: with a worker on every CPU a sync step runs on the
    caller and all workers but the last (see the engine test of the same)."""
    import os

    from conftest import sync_steps_spread

    cpus = len(os.sched_getaffinity(0))
    caller, workers = sync_steps_spread("HalfCheetah-v5", 8, cpus)
    assert workers[-1] == 0
    assert caller > 0
    assert caller + sum(workers) == 8 * 11


def test_refused_send_leaves_in_flight_actions_alone() -> None:
    """A send to envs that are in flight is refused before it writes any of
    their actions: a worker reads an env's action when it gets to it, so an
    early write would change a step already sent (env 63 runs last here, ~1 ms
    after the send)."""
    rng = np.random.default_rng(0)
    first = rng.uniform(-1, 1, (64, 3)).astype(np.float32)
    obs = []
    for refuse in (False, True):
        env = envpool_x.make_gymnasium("Hopper-v5", num_envs=64, batch_size=64, num_threads=1)
        env.reset(seed=1)
        env.send(first)
        if refuse:
            with pytest.raises(RuntimeError, match="in flight"):
                env.send(np.full((1, 3), 0.9, np.float32), np.array([63]))
        obs.append(env.recv()[0])
        env.close()
    np.testing.assert_array_equal(obs[0], obs[1])
