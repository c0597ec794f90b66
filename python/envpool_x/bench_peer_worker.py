"""EnvPool stepped in its own interpreter for ``envpool_x.bench_peer``.

Run as a script by another Python (EnvPool 1.2.7 installs on CPython 3.12+
only): it imports numpy and envpool, never envpool_x. Arguments: task,
num_envs, batch_size, num_threads, and optionally a JSON object of more
keywords for ``make_gymnasium`` (e.g. pixel observations). It prints one JSON line when the pool is
built, then answers each stdin line ``n`` (about n env steps) with the steps
it did and the seconds they took by its own clock, until a line ``quit`` (or
the end of stdin: a process forked later, such as a gymnasium AsyncVectorEnv
worker, may hold the pipe open).

The loops do what ``envpool_x.bench``'s sync and async runners do, so both
sides of a comparison run the same pattern.
"""

from __future__ import annotations

import json
import platform
import sys
import time
import warnings


def random_actions(space, count: int, rounds: int):  # noqa: ANN001, ANN201
    """``rounds`` pre-drawn batches of ``count`` uniform random actions."""
    import numpy as np

    rng = np.random.default_rng(0)
    if hasattr(space, "n"):
        return [rng.integers(0, int(space.n), size=count).astype(np.int32) for _ in range(rounds)]
    if hasattr(space, "nvec"):
        shape = (count, *space.shape)
        return [rng.integers(0, space.nvec, size=shape).astype(np.int32) for _ in range(rounds)]
    low = np.broadcast_to(space.low, space.shape)
    high = np.broadcast_to(space.high, space.shape)
    shape = (count, *space.shape)
    return [rng.uniform(low, high, size=shape).astype(np.float32) for _ in range(rounds)]


def wait_until_idle(limit_s: float = 1.0, window_s: float = 0.02) -> float:
    """Wait until this process's threads have stopped working (under a tenth
    of one core over ``window_s``), for at most ``limit_s``; return the
    seconds waited. The window is long because such work comes in bursts a
    few ms apart.

    A pool may go on working after its step returns: EnvPool fills its next
    result buffers on a thread of its own (for Craftax-Symbolic-v1 at 4,096
    envs, about 70 ms of CPU after each round of 0.15 s). Left running, that
    work is timed as part of whichever runner goes next (it cut our rate by a
    third there). Waiting charges it to nobody, which flatters the runner that
    left it."""
    start = time.perf_counter()
    while time.perf_counter() - start < limit_s:
        used = time.process_time()
        time.sleep(window_s)
        if time.process_time() - used < 0.1 * window_s:
            break
    return time.perf_counter() - start


#: The line that ends a worker (``requests``).
QUIT = "quit"


def requests(lines):  # noqa: ANN001, ANN201
    """The step counts asked on ``lines`` (stdin), up to a ``quit`` line or
    their end."""
    for line in lines:
        if line.strip() == QUIT:
            return
        yield int(line)


def main() -> None:
    import envpool
    import numpy as np

    task, num_envs, batch_size, threads = sys.argv[1], *map(int, sys.argv[2:5])
    config = json.loads(sys.argv[5]) if len(sys.argv) > 5 else {}
    warnings.filterwarnings("ignore", message=r".*Box (low|high)'s precision lowered")
    env = envpool.make_gymnasium(
        task, num_envs=num_envs, batch_size=batch_size, num_threads=threads, **config
    )
    acts = random_actions(env.action_space, batch_size, 64)
    sync = batch_size == num_envs
    parked: list = []  # env ids received at the end of the last call (async)
    if sync:
        env.reset()
    else:
        env.async_reset()
    ready = {"envpool": envpool.__version__, "python": platform.python_version()}
    print(json.dumps(ready), flush=True)
    for n in requests(sys.stdin):
        t0 = time.perf_counter()
        if sync:
            rounds = max(1, n // num_envs)
            for i in range(rounds):
                env.step(acts[i % 64])
            done = rounds * num_envs
        else:
            # As envpool_x.bench.async_step_loop: the pool is idle between calls.
            for k, ids in enumerate(parked):
                env.send(acts[k % 64], ids)
            parked.clear()
            rounds = max(1, n // batch_size)
            for i in range(rounds):
                info = env.recv()[-1]
                env.send(acts[i % 64], info["env_id"])
            drained = num_envs // batch_size
            for _ in range(drained):
                parked.append(np.asarray(env.recv()[-1]["env_id"]))
            done = (rounds + drained) * batch_size
        took = time.perf_counter() - t0
        wait_until_idle()
        print(json.dumps({"n": done, "s": took}), flush=True)
    env.close()


if __name__ == "__main__":
    main()
