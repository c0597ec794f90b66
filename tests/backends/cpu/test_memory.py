"""A pool too big for the machine is refused with MemoryError before it allocates
(envpool_x.memory), its estimate tracks the real RSS growth, and a failed
allocation leaves the process usable."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
import threading
import warnings

import pytest

import envpool_x
from envpool_x import _core, memory
from envpool_x.registration import envs_by_family

# Measures a pool in a fresh process: RSS growth from after a warm-up pool
# (first-use caches: ROMs, compiled models; kept open) to after a reset and two steps whose
# results are both still held, the state of a training loop.
_MEASURE = textwrap.dedent(
    """
    import gc, json, logging, sys, warnings
    warnings.filterwarnings("ignore"); logging.disable(logging.WARNING)
    import numpy as np
    import envpool_x
    from envpool_x import memory

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * 4096

    task, n, kw = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
    # Kept open: freeing its memory would move glibc's mmap threshold and
    # change how the measured pool's big blocks (mjData arenas) are placed.
    warm = envpool_x.make_gymnasium(task, num_envs=2, num_threads=2)
    warm.reset(); gc.collect()
    spec = envpool_x.make_spec(task, num_envs=n, num_threads=2, **kw)
    est = memory.estimate(spec)
    r0 = rss()
    env = envpool_x.make_gymnasium(task, num_envs=n, num_threads=2, **kw)
    env.reset()
    space = env.single_action_space
    action = np.stack([space.sample() for _ in range(min(n, 64))])
    action = np.resize(action, (n,) + action.shape[1:])
    first = env.step(action)
    second = env.step(action)
    print(json.dumps({"estimate": est.resident, "rss": rss() - r0}))
    """
)


def _measure(task: str, n: int, **kw: object) -> dict[str, int]:
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, task, str(n), json.dumps(kw)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


_SIZES = [
    ("CartPole-v1", [200_000, 1_000_000, 3_000_000]),
    ("Pong-v5", [32, 96]),
    ("Ant-v5", [256, 1024]),
    # Small DMC pools grow less (about 95 KiB per env at 256 envs, where glibc
    # places the 14 MB mjData arenas differently): the estimate is high there.
    ("CheetahRun-v1", [1024, 2048]),
    # Below ~200 envs the pool's fixed 1 MiB dominates LunarLander's estimate
    # (64 envs: 6.7 MiB against 5.1 measured, conservative).
    ("LunarLander-v3", [256, 1024]),
    ("CarRacing-v3", [64, 512]),
    ("FetchPush-v4", [64, 256]),
]


@pytest.mark.parametrize(
    ("task", "n"), [(t, n) for t, sizes in _SIZES for n in sizes], ids=lambda v: str(v)
)
def test_estimate_is_within_25_percent_of_the_rss_growth(task: str, n: int) -> None:
    if task not in envpool_x.list_all_envs():
        pytest.skip(f"{task} is not in this build")
    # The RSS reading is the noisy side: under a busy machine (another xdist
    # worker; this VM's DAMON reclaim) it has read 35 MiB low once in a dozen
    # runs (CheetahRun at 1024 envs: 139 MiB, against 171-184). A second
    # measurement decides; a wrong estimate fails both.
    readings = []
    for _ in range(2):
        m = _measure(task, n)
        ratio = m["estimate"] / m["rss"]
        readings.append(f"{memory.fmt_bytes(m['rss'])} (ratio {ratio:.2f})")
        if 0.75 <= ratio <= 1.25:
            return
    raise AssertionError(
        f"{task} num_envs={n}: estimate {memory.fmt_bytes(m['estimate'])}, "
        f"measured RSS growth {' then '.join(readings)}"
    )


# Runs `code` in a child whose address space is capped at `limit` bytes, so
# that a regression (a pool that allocates after all) cannot take the machine
# down; prints what the code prints.
def _under_rlimit(code: str, limit: int = 4 << 30, stack: int | None = None, **env: str) -> str:
    """Run ``code`` in a fresh interpreter under an address-space limit.

    ``stack``: the stack size of the threads it starts (glibc takes a new
    thread's default stack size from RLIMIT_STACK when the process starts)."""
    prelude = f"import resource\nresource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))\n"

    def set_stack() -> None:
        resource.setrlimit(
            resource.RLIMIT_STACK, (stack, resource.getrlimit(resource.RLIMIT_STACK)[1])
        )

    out = subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **env},
        preexec_fn=set_stack if stack else None,
    )
    assert out.returncode == 0, f"rc={out.returncode}\n{out.stdout}\n{out.stderr[-3000:]}"
    return out.stdout


def _one_task_per_family() -> list[str]:
    fams = envs_by_family()
    return [ids[0] for fam, ids in sorted(fams.items()) if ids and fam != "testing"] + [
        "FaultInjection-v0"
    ]


@pytest.mark.parametrize("task", _one_task_per_family())
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_billion_envs_is_refused_at_once_with_how_many_fit(task: str, mode: str) -> None:
    batch = 10**9 if mode == "sync" else 1024
    out = _under_rlimit(
        f"""
        import time, envpool_x
        t = time.time()
        try:
            envpool_x.make_gymnasium({task!r}, num_envs=10**9, batch_size={batch})
        except MemoryError as e:
            print("refused in", time.time() - t, "s:", e)
        """
    )
    assert "refused in" in out, out
    seconds = float(out.split()[2])
    assert seconds < 30, out  # at once: nothing was built
    msg = out.split(":", 1)[1]
    assert "needs about" in msg and "largest num_envs that fits is" in msg, msg
    assert "check_memory=False" in msg and memory.SKIP_ENV_VAR in msg, msg


def test_the_gpu_pool_and_xla_are_checked_too() -> None:
    # The GPU path (cpu-reference runs it on the host) is checked before its arrays exist.
    out = _under_rlimit(
        """
        import envpool_x
        try:
            envpool_x.make_gymnasium("CartPole-v1", num_envs=2**30, device="cpu-reference")
        except MemoryError as e:
            print("refused:", e)
        """
    )
    assert "refused:" in out and "largest num_envs that fits" in out, out


def test_gpu_estimate_on_cpu_reference_matches_the_rss_growth() -> None:
    n = 2_000_000
    out = _under_rlimit(
        f"""
        import numpy as np, envpool_x
        from envpool_x import memory
        def rss():
            with open("/proc/self/statm") as f:
                return int(f.read().split()[1]) * 4096
        spec = envpool_x.make_spec("CartPole-v1", num_envs={n}, device="cpu-reference")
        est = memory.estimate(spec)
        r0 = rss()
        env = envpool_x.make_gymnasium("CartPole-v1", num_envs={n}, device="cpu-reference")
        env.reset()
        a = np.zeros({n}, np.int64)
        first = env.step(a)
        second = env.step(a)
        print(est.resident, rss() - r0, est.device)
        """
    )
    est, grew, device = (int(v) for v in out.split())
    assert device == 0  # on the host: all of it is resident memory
    assert 0.75 <= est / grew <= 1.25, (est, grew)


def test_an_allocation_that_fails_anyway_is_memory_error_and_leaks_no_thread() -> None:
    # With the check off, a pool bigger than the address space fails inside C++:
    # MemoryError naming the pool, and the process goes on (no abort, no thread left).
    for task in ("CartPole-v1", "Pong-v5", "Ant-v5"):
        if task not in envpool_x.list_all_envs():
            continue
        out = _under_rlimit(
            f"""
            import os, envpool_x
            # The task's model compiled first: MuJoCo's compiler may keep threads of its own.
            envpool_x.make_gymnasium({task!r}, num_envs=1, num_threads=1).close()
            before = len(os.listdir("/proc/self/task"))
            for n in (10**8, 2 * 10**7):
                try:
                    envpool_x.make_gymnasium({task!r}, num_envs=n, num_threads=2,
                                             check_memory=False)
                except MemoryError as e:
                    print("MemoryError:", e)
            env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4)
            env.reset(); env.step([0, 1, 0, 1]); env.close()
            print("threads left", len(os.listdir("/proc/self/task")) - before)
            """,
            limit=3 << 30,
        )
        assert out.count("MemoryError:") == 2, out
        assert "pool of 100000000 " in out and "pool of 20000000 " in out, out
        assert "threads left 0\n" in out, out


def test_a_gpu_pool_that_fails_halfway_frees_what_it_allocated() -> None:
    # cpu-reference runs the GPU pool's code with host memory: its first arrays
    # fit under the limit, a later one does not; the earlier ones must be freed.
    out = _under_rlimit(
        """
        import envpool_x

        def vm_mib():
            for line in open("/proc/self/status"):
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) // 1024

        before = vm_mib()
        try:
            envpool_x.make_gymnasium("CartPole-v1", num_envs=2**25, device="cpu-reference",
                                     array_backend="numpy", check_memory=False)
        except MemoryError as e:
            print("MemoryError:", e)
        print("grown MiB", vm_mib() - before)
        env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, device="cpu-reference",
                                       array_backend="numpy")
        env.reset(); env.step([0, 1, 0, 1]); env.close()
        print("ok")
        """,
        limit=2 << 30,
    )
    assert "MemoryError:" in out and out.endswith("ok\n"), out
    grown = int(out.split("grown MiB")[1].split()[0])
    assert grown < 256, out  # the pool's arrays would be over 1 GiB


def test_a_thread_that_cannot_start_is_memory_error_and_the_others_are_joined() -> None:
    # Builder threads (Ant: envs are built on num_threads threads) and workers
    # (CartPole) that cannot get a stack: before, the started ones were left
    # joinable and the process aborted ("terminate called without an active
    # exception"). Stacks of 512 MiB and a limit 1.25 GiB above what the process
    # maps: the third thread finds no room for its stack, while 256 MiB stay for
    # everything else (with 8 MiB stacks the limit leaves almost nothing, and
    # glibc aborts a started thread whose first use of thread-local data finds
    # no memory: "cannot allocate memory for thread-local data").
    tasks = [t for t in ("Ant-v5", "CartPole-v1") if t in envpool_x.list_all_envs()]
    out = _under_rlimit(
        f"""
        import os, resource, warnings, envpool_x
        warnings.simplefilter("ignore")
        # Keeps Ant's compiled model cached: MuJoCo's compiler starts threads of its own.
        keep = envpool_x.make_gymnasium("CartPole-v1", num_envs=2, num_threads=1)
        keep_ant = [envpool_x.make_gymnasium(t, num_envs=2, num_threads=1) for t in {tasks!r}]
        before = len(os.listdir("/proc/self/task"))
        vm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize"))
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (vm * 1024 + (1280 << 20), hard))
        for task in {tasks!r}:
            try:
                envpool_x.make_gymnasium(task, num_envs=256, num_threads=256, check_memory=False)
                print("built", task)
            except MemoryError as e:
                print("MemoryError:", e)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        env = envpool_x.make_gymnasium("CartPole-v1", num_envs=4, num_threads=2)
        env.reset(); env.step([0, 1, 0, 1]); env.close()
        print("threads left", len(os.listdir("/proc/self/task")) - before)
        """,
        limit=64 << 30,
        stack=512 << 20,
        OPENBLAS_NUM_THREADS="1",
    )
    assert out.count("MemoryError: could not start a thread") == len(tasks), out
    assert "threads left 0\n" in out, out


def test_the_env_var_and_the_config_key_skip_the_check() -> None:
    spec = envpool_x.make_spec("CartPole-v1", num_envs=10**9, check_memory=False)
    assert memory.check(spec) is None
    with pytest.raises(MemoryError):
        memory.check(envpool_x.make_spec("CartPole-v1", num_envs=10**9))
    os.environ[memory.SKIP_ENV_VAR] = "1"
    try:
        assert memory.check(envpool_x.make_spec("CartPole-v1", num_envs=10**9)) is None
    finally:
        del os.environ[memory.SKIP_ENV_VAR]
    with pytest.raises(TypeError, match="check_memory must be a bool"):
        memory.check(envpool_x.make_spec("CartPole-v1", check_memory="no"))


def test_largest_num_envs_fits_and_one_more_does_not() -> None:
    for kw in ({}, {"batch_size": 100}, {"device": "cpu-reference"}):
        spec = envpool_x.make_spec("Pong-v5" if not kw else "CartPole-v1", num_envs=10**6, **kw)
        avail = 100 << 20
        fit = memory.largest_num_envs(spec, "resident", avail)
        assert 0 < fit < 10**6
        assert memory.estimate(spec, fit).resident <= avail
        assert memory.estimate(spec, fit + 1).resident > avail


def test_available_memory_is_known_here() -> None:
    avail = memory.available()
    assert avail.resident is not None and avail.resident > 0
    assert "MemAvailable" in avail.sources


def test_many_threads_are_accepted_with_one_warning() -> None:
    n = memory.usable_cpus() * 4 + 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = envpool_x.make_gymnasium("CartPole-v1", num_envs=8, num_threads=n)
        env.reset()
        env.step([0] * 8)
        env.close()
    msgs = [str(w.message) for w in caught if "far above" in str(w.message)]
    assert len(msgs) == 1, msgs
    assert caught[0].filename == __file__  # points at the make call
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        envpool_x.make_gymnasium("CartPole-v1", num_envs=8, num_threads=2).close()


def test_estimate_counts_threads_and_same_step_rows() -> None:
    base = memory.estimate(envpool_x.make_spec("CartPole-v1", num_envs=1000, num_threads=1))
    more = memory.estimate(envpool_x.make_spec("CartPole-v1", num_envs=1000, num_threads=8))
    same = memory.estimate(
        envpool_x.make_spec("CartPole-v1", num_envs=1000, num_threads=1, autoreset_mode="same_step")
    )
    assert more.parts["bookkeeping"] > base.parts["bookkeeping"]  # a queue per worker
    assert same.parts["outputs"] > base.parts["outputs"]  # final rows
    assert threading.active_count() >= 1 and hasattr(_core, "CartPole")
