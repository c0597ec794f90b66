"""Ctrl-C reaches a caller stuck in a long reset, step or recv: a SIGINT sent to
a subprocess waiting on a stalled env (FaultInjection's reset_stall_ms and
stall_ms) ends the call with KeyboardInterrupt at once, not when the env is
done (20 s later)."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

_CHILD = textwrap.dedent(
    """
    import os, signal, sys, time
    import numpy as np
    import envpool_x

    # Python installs no handler for a SIGINT its parent made it ignore.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    kind, stall = sys.argv[1], 20000
    task = "FaultInjection-v0"
    if kind == "reset":
        env = envpool_x.make_gymnasium(task, num_envs=2, reset_stall_ms=stall)
        call = env.reset
    elif kind == "step":
        env = envpool_x.make_gymnasium(task, num_envs=2, stall_ms=stall)
        env.reset()
        call = lambda: env.step(np.zeros(2, dtype=np.int32))
    else:  # a blocking recv of an async pool
        env = envpool_x.make_gymnasium(task, num_envs=2, batch_size=1, stall_ms=stall)
        env.async_reset()
        ids = np.concatenate([env.recv()[4]["env_id"] for _ in range(2)])
        env.send(np.zeros(2, dtype=np.int32), ids)
        call = env.recv
    print("ready", flush=True)
    start = time.monotonic()
    try:
        call()
    except KeyboardInterrupt:
        print(f"interrupted {time.monotonic() - start:.2f}", flush=True)
        os._exit(0)  # the stalled worker would keep the process alive meanwhile
    print("returned", flush=True)
    os._exit(1)
    """
)


@pytest.mark.parametrize("kind", ["reset", "step", "recv"])
def test_sigint_ends_a_long_wait_with_keyboard_interrupt(kind):
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, kind],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        time.sleep(0.5)  # into the wait
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=15)
    finally:
        child.kill()
    assert child.returncode == 0, out + err
    assert out.startswith("interrupted"), out + err
    assert time.monotonic() - sent < 10  # not the 20 s stall
