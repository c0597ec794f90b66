"""The registry of backends: every way of stepping a task, behind one contract.

=============  ==========================  ==============================================
name           device                      what steps the envs
=============  ==========================  ==============================================
``cpu``        ``"cpu"``                   the C++ thread pool (every task)
``cuda``       ``"cuda"``, ``"cpu-reference"``  one CUDA kernel per call (cpp/cuda)
``mujoco_warp``  ``"cuda"``, ``"cpu-reference"``  MuJoCo Warp and our warp kernels
=============  ==========================  ==============================================

A backend module is imported the first time a spec needs it (MuJoCo Warp
imports warp); each one holds a ``BACKEND`` object satisfying
:class:`~envpool_x.backends.contract.Backend`. Which backend runs a task comes
from the ``device`` option and the task's family declaration
(``Family.backends``): the spec asks :func:`select` once, and everything above
(memory check, front ends, render) uses the spec's backend.

``device="cpu-reference"`` is internal: the device backends' very kernels on
the CPU (a host loop over the CUDA kernels' thread indices; warp's CPU
device), which is how the tests check them on machines without a GPU.
"""

from __future__ import annotations

import functools
import importlib
import re
from typing import TYPE_CHECKING, Any

from envpool_x.backends.contract import Backend, Pool
from envpool_x.registration import TaskEntry, families, list_all_envs, lookup

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec

#: Each backend's module, which defines ``BACKEND``; the CPU pool first.
_MODULES = {
    "cpu": "envpool_x.backends.cpu",
    "cuda": "envpool_x.backends.cuda",
    "mujoco_warp": "envpool_x.backends.mujoco_warp",
}
#: Names shown in messages: what each device backend runs.
_RUNS = {"cuda": "kernels", "mujoco_warp": "MuJoCo Warp"}


def names() -> tuple[str, ...]:
    """Every backend's name, the CPU pool first."""
    return tuple(_MODULES)


@functools.cache
def get(name: str) -> Backend:
    """The backend called ``name`` (its module imported on first use).

    Raises:
        KeyError: no backend has that name.
    """
    if name not in _MODULES:
        raise KeyError(f"no backend named {name!r}; the backends are {', '.join(_MODULES)}")
    backend: Backend = importlib.import_module(_MODULES[name]).BACKEND
    return backend


def parse_device(device: Any) -> tuple[str, int]:
    """``"cpu"`` / ``"cuda"`` / ``"cuda:K"`` / ``"cpu-reference"`` -> (kind, index).

    Raises:
        TypeError: not a string.
        ValueError: an unknown device string.
    """
    if not isinstance(device, str):
        raise TypeError(
            f"device must be a str such as 'cpu' or 'cuda:0', got {type(device).__name__}"
        )
    if device in ("cpu", "cpu-reference"):
        return device, 0
    m = re.fullmatch(r"cuda(?::(\d+))?", device)
    if m is None:
        raise ValueError(f"device must be 'cpu', 'cuda' or 'cuda:K', got {device!r}")
    return "cuda", int(m.group(1) or 0)


def select(entry: TaskEntry, device: Any) -> Backend:
    """The backend that runs ``entry``'s task on ``device``.

    Raises:
        TypeError / ValueError: a bad device string, or a device no backend of
            the task serves (the message lists what each device backend runs).
    """
    kind, _ = parse_device(device)
    declaration = entry.declaration
    for name in _MODULES:
        if not declaration.runs_on(name, entry.pool_name):
            continue
        backend = get(name)
        if kind in backend.devices:
            return backend
    raise ValueError(
        f"device={device!r} has {_device_offer()} only; {entry.task_id} runs on device='cpu'"
    )


def _device_offer() -> str:
    """What the device backends run, from the families' declarations (for messages)."""
    parts = []
    for name, what in _RUNS.items():
        declaring = [f for f in families() if f.backends.get(name)]
        pools = [p for f in declaring for p in f.backends[name]]
        if name == "mujoco_warp":  # MuJoCo's pools are per version: name the task ids
            by_pool = {lookup(t).pool_name: t for t in list_all_envs()}
            ids = [by_pool[p] for p in pools if p in by_pool]
            parts.append(f"through {what}, {', '.join(ids)}")
        else:
            titles = ", ".join(f.title or f.name for f in declaring)
            parts.append(f"{what} for {titles} ({', '.join(pools)})")
    return " and, ".join(parts)


def create_pool(spec: EnvSpec, chunk_size: int = 0) -> Pool:
    """The pool of ``spec`` from its backend (workers start at once); its memory
    is checked first unless switched off (``check_memory=False``).

    ``chunk_size`` (the CPU pool's envs per queue entry; 0: its default) is
    for benchmarks and tests.
    """
    return spec.backend.create(spec, chunk_size)


__all__ = ["Backend", "Pool", "create_pool", "get", "names", "parse_device", "select"]
