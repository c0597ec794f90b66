"""Lifetime and misuse: close under load, exit without close, garbage
collection with work in flight, many pools, threads, fork, memory."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import envpool_x
from envpool_x.families import atari


def native_threads() -> int:
    return len(os.listdir("/proc/self/task"))


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


# scripts/sanitize_python.sh preloads a sanitizer runtime: RSS then measures
# its shadow memory and the quarantine that holds freed blocks (256 MiB under
# ASan), not the engine; the plain run checks RSS.
UNDER_SANITIZER = any(lib in os.environ.get("LD_PRELOAD", "") for lib in ("libasan", "libtsan"))


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_close_under_load_returns_and_is_idempotent():
    env = envpool_x.make_gymnasium(
        "FaultInjection-v0", num_envs=8, batch_size=2, num_threads=4, stall_ms=100
    )
    env.async_reset()  # 8 stalled resets in flight
    closer = threading.Thread(target=env.close)
    closer.start()
    closer.join(timeout=10)  # a stalled step takes 100 ms: close must not wait for all
    assert not closer.is_alive(), "close() hung with work in flight"
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.recv()


def test_exit_without_close_and_gc_with_work_in_flight_are_clean():
    code = textwrap.dedent(
        """
        import gc, numpy as np, envpool_x
        a = envpool_x.make_gymnasium("CartPole-v1", num_envs=64, batch_size=16, num_threads=3)
        a.async_reset()
        b = envpool_x.make_gymnasium("FaultInjection-v0", num_envs=4, stall_ms=50)
        b.reset()
        b.send(np.zeros(4, dtype=np.int32))
        del b
        gc.collect()
        c = envpool_x.make_dm("Pendulum-v1", num_envs=8, batch_size=4)
        c.async_reset()
        # A seeded reset parses the seed in C++: nothing of it may outlive the
        # interpreter (a static Python int did, a segfault at exit on 3.12).
        envpool_x.make_gymnasium("CartPole-v1", num_envs=2).reset(seed=7)
        print("exiting with work in flight")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "exiting with work in flight" in out.stdout


def test_many_pools_leak_no_threads_fds_or_memory():
    def cycle(k: int) -> None:
        env = envpool_x.make_gymnasium(
            "CartPole-v1", num_envs=32, batch_size=8 if k % 2 else 32, num_threads=3
        )
        _, info = env.reset()
        if k % 3 == 0 and k % 2:  # close some with work in flight
            env.send(np.zeros(8, dtype=np.int32), env_id=info["env_id"])
        env.close()

    for k in range(20):  # warm up allocator and caches
        cycle(k)
    gc.collect()
    threads, fds, rss = native_threads(), open_fds(), rss_bytes()
    for k in range(300):
        cycle(k)
    gc.collect()
    assert native_threads() == threads
    assert open_fds() == fds
    if not UNDER_SANITIZER:  # there RSS counts the sanitizer's quarantine of freed memory
        assert rss_bytes() - rss < 20 * 2**20


def assert_rss_flat(env, actions: np.ndarray, batches: int) -> None:
    """RSS grows < 20 MB over `batches` full steps (after a warm-up)."""
    env.reset()
    for _ in range(50):
        env.step(actions)
    gc.collect()
    before = rss_bytes()
    for _ in range(batches):
        env.step(actions)
    gc.collect()
    assert rss_bytes() - before < 20 * 2**20
    env.close()


def test_rss_flat_over_a_million_cartpole_steps():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=1000, num_threads=2)
    assert_rss_flat(env, np.ones(1000, dtype=np.int32), 1000)  # 10^6 env steps


def test_two_threads_on_one_env_are_refused_or_serialised():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=256, num_threads=2)
    env.reset()
    errors: list[BaseException] = []
    results: list[np.ndarray] = []

    def worker() -> None:
        for _ in range(200):
            try:
                _, _, _, _, info = env.step(np.zeros(256, dtype=np.int32))
                results.append(info["env_id"])
            except RuntimeError as e:  # the only acceptable failure
                assert "another thread" in str(e)
                errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert all(not t.is_alive() for t in threads)
    # Every step that went through returned a full, ordered batch.
    for ids in results:
        np.testing.assert_array_equal(ids, np.arange(256))
    assert len(results) + len(errors) == 400
    env.step(np.zeros(256, dtype=np.int32))  # still usable
    env.close()


def _race_close_against_steps_and_close() -> None:
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=64, num_threads=2)
    env.reset()
    unexpected: list[str] = []
    stepper_stopped_by: list[str] = []
    closes = []

    def stepper() -> None:
        for _ in range(100_000):
            try:
                _, _, _, _, info = env.step(np.zeros(64, dtype=np.int32))
                if not np.array_equal(info["env_id"], np.arange(64)):
                    unexpected.append(f"mixed batch {info['env_id']}")
            except RuntimeError as e:
                if "another thread" in str(e):
                    continue
                stepper_stopped_by.append(str(e))
                return

    def closer() -> None:
        for _ in range(100_000):
            try:
                env._pool.close()
                closes.append(True)
                return
            except RuntimeError as e:
                if "another thread" not in str(e):
                    unexpected.append(f"close: {e}")
                    return

    threads = [threading.Thread(target=f) for f in (stepper, closer, closer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert all(not t.is_alive() for t in threads), "a step or close hung"
    assert unexpected == []
    assert len(closes) == 2  # close() is idempotent: the second one returns too
    assert len(stepper_stopped_by) == 1 and "closed" in stepper_stopped_by[0]
    assert env._pool.closed


def test_close_racing_steps_and_another_close_is_refused_or_serialised():
    """Two threads retry close() while a third steps: each call either runs
    alone or is refused with RuntimeError; nothing hangs, and once closed the
    stepping thread is told so. (Under TSan, scripts/sanitize.sh, this caught
    two closes racing on the pool's state.)"""
    for _ in range(20):
        _race_close_against_steps_and_close()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_use_after_fork_gives_a_clear_error():
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, num_threads=2)
    env.reset()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: the env's workers do not exist here
        os.close(read)
        try:
            env.step(np.zeros(4, dtype=np.int32))
            msg = b"no error"
        except RuntimeError as e:
            msg = str(e).encode()
        env.close()  # must not hang joining the parent's threads
        os.write(write, msg)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        msg = f.read().decode()
    _, status = os.waitpid(pid, 0)
    assert status == 0
    assert "created before os.fork()" in msg
    env.step(np.zeros(4, dtype=np.int32))  # the parent's env is unaffected
    env.close()


def test_nan_from_an_env_is_returned_not_fatal():
    env = envpool_x.make_gymnasium("FaultInjection-v0", num_envs=3, fault_env_id=1, nan_at_step=2)
    env.reset()
    env.step(np.zeros(3, dtype=np.int32))
    obs, rew, term, trunc, info = env.step(np.zeros(3, dtype=np.int32))
    assert np.isnan(obs[1, 0]) and np.isnan(rew[1])
    assert not np.isnan(obs[[0, 2], 0]).any() and not np.isnan(rew[[0, 2]]).any()
    _, _, _, _, info = env.step(np.zeros(3, dtype=np.int32))
    np.testing.assert_array_equal(info["elapsed_step"], [3, 3, 3])
    env.close()


@pytest.mark.skipif(not atari.has_atari(), reason="built without the Atari family")
def test_rss_flat_over_ten_thousand_pong_steps():
    pytest.importorskip("ale_py", reason="Atari ROMs come from ale-py (the [atari] extra)")
    env = envpool_x.make_gymnasium("Pong-v5", num_envs=8, num_threads=2)
    assert_rss_flat(env, np.zeros(8, dtype=np.int32), 1250)  # 10^4 env steps
