"""Memory a pool will take, what this process may still use, and the check that
refuses a pool too big for the machine with MemoryError (before any allocation).

The estimate of a pool of ``N`` envs (``estimate(spec)``) adds up:

- ``envs``: ``N x (sizeof(Env) + what one env allocates)``. sizeof comes from
  C++ (``memory_sizes()``); the allocation per env (an ALE emulator, an
  ``mjData``, frame buffers) is what the family declares (``FamilyMemory``)
  plus what the task declares from its config (``TaskEntry.env_memory``: a
  numba env's state and random buffers),
  measured as the RSS growth per env of pools of 32-3,000,000 envs in fresh
  processes (Python 3.11, ale-py 0.11, MuJoCo 3.x, 2026-11). What is reserved
  but mostly never touched (MuJoCo's 6-15 MB arena per ``mjData``) counts only
  against ``RLIMIT_AS`` (``FamilyMemory.env_address``).
- ``outputs``: the result rows, exactly from the spec's fields: the pool's own
  buffers (N rows in sync mode; ``ceil(N / B) + 1`` blocks of B rows in async
  mode, twice: the pool's own, written by each block's first batch, and the
  arrays later batches are written to and handed on without a copy) plus two
  sets of B rows handed to Python (the result a loop holds while the next one
  is made).
- ``bookkeeping``: the engine's per-env state, queues (one of ``N + 1`` chunk
  cells per worker, plus the caller's), actions and seeds: exact, from
  ``PoolBase::BookkeepingBytes`` in C++.
- ``threads``: per worker thread (its touched stack; its 8 MiB stack and, for
  threads that allocate, glibc's 64 MiB malloc arena count as address space),
  and what the family declares per stepping thread, the caller's included
  (``FamilyMemory.thread_extra``: a pixel env's GL context and scratch ``mjData``).
- on a device backend (``device="cuda"``) the device arrays (state, RNG, flags
  and the result blocks) against the device's free memory; ``cpu-reference``
  keeps them in host memory.

Each backend computes its own estimate (``Backend.estimate``); this module
holds what they share, the check and the messages.

The per-env parameter tables (docs/params.md) are not made with the pool but by
its first ``set_params`` (or ``reset(options={"params": ...})``), for every env:
``num_envs x`` the parameter count ``x`` a setting, a value and a staged
setting (``ParamStore::BytesPerEnv`` in C++, ``param_table_bytes``). That call
checks them (``check_param_tables``) against what is available then, and
``describe`` lists them; counted at make they would over-estimate every pool
never randomised (CartPole's tables are larger than its envs).

Available memory (``available()``): the least of the cgroup's limit minus its
usage (v2 ``memory.max``, v1 ``memory.limit_in_bytes``) and ``MemAvailable``,
for the resident bytes; ``RLIMIT_AS`` minus the current ``VmSize`` for the
address space. ``check_memory=False`` or ``ENVPOOL_X_SKIP_MEMORY_CHECK=1``
skips the check.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_x.backends.contract import Estimate

# Re-exported: callers read these as envpool_x.memory.*.
from envpool_x.memory_available import Available, available

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec

SKIP_ENV_VAR = "ENVPOOL_X_SKIP_MEMORY_CHECK"
MiB = 1 << 20
KiB = 1 << 10
FIXED_RESIDENT = 1 * MiB  # per pool: the pool object, its tables, the first env's caches
# The num_envs a MemoryError suggests fits this fraction less of each limit: the
# process grows a little between the refused make and the next (a MuJoCo pool
# under ulimit -v was refused by one env's worth, 15 MiB, otherwise).
SUGGESTION_HEADROOM = 0.05


def field_bytes(desc: dict[str, Any]) -> int:
    return int(np.dtype(desc["dtype"]).itemsize * math.prod(desc["shape"]))


def row_bytes(spec: EnvSpec) -> int:
    """Bytes of one env's result row, every field (same_step: the final copies)."""
    obs = sum(field_bytes(d) for d in spec._desc["obs"])
    info = 4 + 4 + sum(field_bytes(d) for d in spec._desc["info"])  # env_id, elapsed_step
    agents = int(spec._desc["action"].get("num_agents", 1))
    row = obs + info + 4 * agents + 1 + 1  # reward (one per agent), terminated, truncated
    if spec.config.autoreset_mode == "same_step":
        row += obs + info + 1  # final_obs, final_info, the mask
    return row


def action_bytes(spec: EnvSpec) -> int:
    act = spec._desc["action"]
    agents = int(act.get("num_agents", 1))
    if act["discrete"]:
        return 4 * agents * max(1, len(act.get("nvec", [])))
    return 4 * agents * math.prod(act["box"]["shape"])


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def resolved_threads(spec: EnvSpec) -> int:
    """The worker threads the pool will start (num_threads 0: its default)."""
    cfg = spec.config
    return int(cfg.num_threads) or max(1, min(int(cfg.batch_size), usable_cpus()))


def observation_bytes(spec: EnvSpec) -> int:
    """Bytes of one env's observation, every field."""
    return sum(field_bytes(d) for d in spec._desc["obs"])


def task_env_bytes(spec: EnvSpec) -> int:
    """Heap bytes one env of ``spec`` allocates that grow with its config, as
    its task declares them (``TaskEntry.env_memory``: a numba env's state and
    random buffers); 0 when the task declares none."""
    env_memory = spec.entry.env_memory
    return 0 if env_memory is None else int(env_memory(spec.env_config))


def estimate(spec: EnvSpec, num_envs: int | None = None) -> Estimate:
    """What a pool of ``spec`` will take, from its backend; ``num_envs``: of
    that many envs instead (async: batches of at most as many)."""
    n = int(spec.config.num_envs) if num_envs is None else num_envs
    return spec.backend.estimate(spec, n)


_KINDS = ("resident", "address_space", "device")


def largest_num_envs(spec: EnvSpec, kind: str, avail: int) -> int:
    """The most envs (up to ``spec``'s num_envs) whose ``kind`` bytes
    (``"resident"``, ``"address_space"`` or ``"device"``) fit in ``avail``; 0: none."""
    return _largest(spec, lambda est: getattr(est, kind) <= avail)


def largest_fitting(spec: EnvSpec, avail: Available, headroom: float = 0.0) -> int:
    """The most envs (up to ``spec``'s num_envs) that fit every limit of
    ``avail`` at once (memory, address space and GPU memory), each less a
    fraction ``headroom`` of it; 0: none.

    The largest count of each limit alone is not enough: under ``ulimit -v`` a
    count that fits the memory can still exceed the address space (MuJoCo
    reserves far more than it touches)."""

    def fits(est: Estimate) -> bool:
        return all(
            getattr(avail, kind) is None
            or getattr(est, kind) <= (1.0 - headroom) * getattr(avail, kind)
            for kind in _KINDS
        )

    return _largest(spec, fits)


def _largest(spec: EnvSpec, fits: Callable[[Estimate], bool]) -> int:
    lo, hi = 0, int(spec.config.num_envs)
    while lo < hi:  # the estimate grows with num_envs (queues in powers of two)
        mid = (lo + hi + 1) // 2
        if fits(estimate(spec, mid)):
            lo = mid
        else:
            hi = mid - 1
    return lo


def fmt_bytes(n: float) -> str:
    """``n`` bytes in the largest binary unit that keeps it >= 1 (``"1.5 GiB"``)."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(n) < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


def skipped(spec: EnvSpec) -> bool:
    """Whether the user turned the check off (config key or env var)."""
    if os.environ.get(SKIP_ENV_VAR, "") not in ("", "0"):
        return True
    value = getattr(spec.config, "check_memory", True)
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"check_memory must be a bool, got {type(value).__name__}")
    return not value


_WHAT = {
    "resident": "memory",
    "address_space": "address space (RLIMIT_AS)",
    "device": "GPU memory",
}


def check(spec: EnvSpec) -> Estimate | None:
    """Raise MemoryError if a pool of ``spec`` would not fit (unless skipped).

    Returns the estimate (None when skipped).

    Raises:
        MemoryError: how much the pool needs, how much there is, and the
            largest num_envs that would fit.
    """
    if skipped(spec):
        return None
    est = estimate(spec)
    avail = available(spec)
    short = [
        kind
        for kind in _KINDS
        if getattr(avail, kind) is not None and getattr(est, kind) > getattr(avail, kind)
    ]
    if not short:
        return est
    kind = short[0]
    have, need = getattr(avail, kind), getattr(est, kind)
    fit = largest_fitting(spec, avail, SUGGESTION_HEADROOM)
    limits = " and ".join(_WHAT[k] for k in _KINDS if getattr(avail, k) is not None)
    where = ", ".join(f"{k}: {fmt_bytes(v)}" for k, v in avail.sources.items())
    raise MemoryError(
        f"a pool of num_envs={est.num_envs} {spec.id} envs needs about {fmt_bytes(need)} "
        f"of {_WHAT[kind]} ({fmt_bytes(est.per_env[kind])} per env), but this process "
        f"has {fmt_bytes(have)} ({where}); within {limits}, leaving "
        f"{SUGGESTION_HEADROOM:.0%} for what the process allocates meanwhile, the largest "
        f"num_envs that fits is {fit}. If you know better, pass check_memory=False or set "
        f"{SKIP_ENV_VAR}=1"
    )


def param_copy_bytes(spec: EnvSpec) -> int:
    """Bytes one env of ``spec`` takes while its parameter values differ from
    1: the MuJoCo and DeepMind Control envs' own model arrays (a shallow
    ``mjModel`` and the scaled arrays; envs at 1 share the task's model); 0
    for other tasks."""
    copy = getattr(spec.entry.pool_class, "param_copy_bytes", None)
    return 0 if copy is None else int(copy(dict(spec.env_config)))


def param_table_bytes(spec: EnvSpec, num_envs: int | None = None) -> int:
    """Bytes the first ``set_params`` may add to a pool of ``spec`` (``num_envs``
    envs instead of its own): ``num_envs x`` the parameter tables (the
    parameter count ``x`` about 100 bytes) and, where an env whose values
    differ takes a model copy of its own, one copy per env (any env may
    diverge once values or distributions are set); 0 for a task without
    parameters."""
    n = int(spec.config.num_envs) if num_envs is None else num_envs
    tables = int(spec.entry.pool_class.memory_sizes().get("params_per_env", 0))
    return n * (tables + (param_copy_bytes(spec) if tables else 0))


def check_param_tables(spec: EnvSpec) -> None:
    """Raise MemoryError if the parameter tables a first ``set_params`` makes
    would not fit what this process may still use (unless the check is off).

    Raises:
        MemoryError: how much the tables need, how much there is.
    """
    if skipped(spec):
        return
    need = param_table_bytes(spec)
    avail = available(spec)
    for kind in ("resident", "address_space"):
        have = getattr(avail, kind)
        if have is not None and need > have:
            where = ", ".join(f"{k}: {fmt_bytes(v)}" for k, v in avail.sources.items())
            raise MemoryError(
                f"set_params on a pool of num_envs={spec.config.num_envs} {spec.id} envs makes "
                f"its per-env parameter tables ({len(spec.params)} parameters"
                + (", and a model copy per env that diverges" if param_copy_bytes(spec) else "")
                + "), about "
                f"{fmt_bytes(need)} of {_WHAT[kind]}, but this process has {fmt_bytes(have)} "
                f"({where}); nothing was changed. Use fewer envs, or pass "
                f"check_memory=False or set {SKIP_ENV_VAR}=1 if you know better"
            )


def describe(spec: EnvSpec) -> list[str]:
    """Lines for ``envpool-x info --num-envs N``: the estimate and what is available."""
    est = estimate(spec)
    avail = available(spec)
    lines = [
        f"memory estimate for num_envs={est.num_envs}: {fmt_bytes(est.resident)} resident "
        f"({fmt_bytes(est.per_env['resident'])} per env), "
        f"{fmt_bytes(est.address_space)} address space"
        + (f", {fmt_bytes(est.device)} GPU memory" if est.device else "")
    ]
    lines += [f"  {name}: {fmt_bytes(v)}" for name, v in est.parts.items()]
    tables = param_table_bytes(spec)
    if tables:
        copies = param_copy_bytes(spec)
        lines.append(
            f"  per-env parameter tables (made by the first set_params): {fmt_bytes(tables)}"
            + (
                f", with a model copy of {fmt_bytes(copies)} per env that diverges"
                if copies
                else ""
            )
        )
    lines.append(
        "available: "
        + (", ".join(f"{k}: {fmt_bytes(v)}" for k, v in avail.sources.items()) or "unknown")
    )
    limited = [kind for kind in _KINDS if getattr(avail, kind) is not None]
    for kind in limited:
        fit = largest_num_envs(spec, kind, getattr(avail, kind))
        lines.append(f"largest num_envs that fits ({_WHAT[kind]}): {fit}")
    if len(limited) > 1:
        fit = largest_fitting(spec, avail, SUGGESTION_HEADROOM)
        lines.append(
            f"largest num_envs that fits them all (with {SUGGESTION_HEADROOM:.0%} headroom): {fit}"
        )
    return lines


__all__ = [
    "Available",
    "Estimate",
    "available",
    "check",
    "check_param_tables",
    "describe",
    "estimate",
    "fmt_bytes",
    "largest_fitting",
    "largest_num_envs",
    "param_copy_bytes",
    "param_table_bytes",
    "usable_cpus",
]
