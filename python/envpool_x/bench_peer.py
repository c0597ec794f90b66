"""EnvPool measured from another Python interpreter.

EnvPool 1.2.7, the newest release, ships wheels for CPython 3.12+ only, and a
build of envpool_x may live on another interpreter (or carry a family the
3.12 build lacks). Setting ``ENVPOOL_X_PEER_PYTHON`` to that interpreter
(e.g. ``/work/venv312/bin/python``, with ``pip install envpool==1.2.7``) makes
``bench.envpool_runner`` step EnvPool there, in a worker process
(``bench_peer_worker.py``), while our pool runs in this one. Each round is
timed by the worker's own clock, so the pipe between the two is not counted;
rounds stay interleaved with ours as in every other comparison.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from envpool_x.bench_peer_worker import QUIT

PEER_PYTHON_VAR = "ENVPOOL_X_PEER_PYTHON"
WORKER = Path(__file__).with_name("bench_peer_worker.py")

#: What the workers reported: {"envpool": version, "python": version} (the last one).
seen: dict[str, str] = {}


def peer_python() -> str | None:
    """The interpreter ``ENVPOOL_X_PEER_PYTHON`` names, or None when unset.

    Raises FileNotFoundError when it names no executable file (a typo would
    otherwise fall back to the local EnvPool without a word)."""
    path = os.environ.get(PEER_PYTHON_VAR)
    if not path:
        return None
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise FileNotFoundError(f"{PEER_PYTHON_VAR}={path!r} is not an executable file")
    return path


@dataclass
class PeerWorker:
    """A running worker: ``measure(n)`` steps about n envs there and returns
    (steps done, steps/s by the worker's clock)."""

    name: str
    proc: subprocess.Popen
    errors: IO[str]  # the worker's stderr, kept in a file

    def measure(self, n: int) -> tuple[int, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{n}\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline()
        if not reply:
            self.errors.seek(0)
            raise RuntimeError(f"the EnvPool worker exited:\n{self.errors.read()}")
        r = json.loads(reply)
        return r["n"], r["n"] / r["s"]

    def close(self, timeout: float = 60.0) -> None:
        """Ask the worker to end (a ``quit`` line: closing our end of its stdin
        is not enough once a forked process holds a copy); stop it if it has
        not ended within ``timeout`` seconds, with a line on stderr."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(f"{QUIT}\n")
            self.proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass  # it already ended
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            print(f"{self.name}: the worker did not end in {timeout:.0f} s", file=sys.stderr)
        self.errors.close()


def start_worker(
    python: str,
    task: str,
    num_envs: int,
    batch_size: int,
    num_threads: int,
    config: dict[str, object] | None = None,
) -> PeerWorker | None:
    """EnvPool's pool for ``task`` in a worker run by ``python``; None (with a
    line on stderr) when that EnvPool cannot make the task. ``config``: more
    keywords for EnvPool's ``make_gymnasium`` (JSON values)."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    env.pop("PYTHONPATH", None)  # ours would shadow the peer's site-packages
    args = [python, str(WORKER), task, str(num_envs), str(batch_size), str(num_threads)]
    if config:
        args.append(json.dumps(config))
    # stderr goes to a file: a pipe nobody reads would stall a chatty worker.
    errors = tempfile.TemporaryFile(mode="w+")
    pipe = subprocess.PIPE
    proc = subprocess.Popen(args, stdin=pipe, stdout=pipe, stderr=errors, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        proc.wait()
        errors.seek(0)
        reason = errors.read().strip().splitlines()[-1:] or ["no message"]
        errors.close()
        print(f"envpool ({python}) cannot make {task}: {reason[0]}", file=sys.stderr)
        return None
    seen.update(json.loads(line))
    return PeerWorker(f"envpool {seen['envpool']}", proc, errors)


def version_text() -> str:
    """EnvPool's version as the last worker reported it, with its Python."""
    if not seen:
        return ""
    return f"{seen['envpool']} (Python {seen['python']}, {PEER_PYTHON_VAR})"
