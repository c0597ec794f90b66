"""Memory a pool will take, what this process may still use, and the check that
refuses a pool too big for the machine with MemoryError (before any allocation).

The estimate of a pool of ``N`` envs (``estimate(spec)``) adds up:

- ``envs``: ``N x (sizeof(Env) + what one env allocates)``. sizeof comes from
  C++ (``memory_sizes()``); the allocation per env (an ALE emulator, an
  ``mjData``, frame buffers) is a per-family constant measured as the RSS growth
  per env of pools of 32-3,000,000 envs in fresh processes (``ENV_RESIDENT``;
  Python 3.11, ale-py 0.11, MuJoCo 3.x, 2026-11). What is reserved but mostly
  never touched (MuJoCo's 6-15 MB arena per ``mjData``) counts only against
  ``RLIMIT_AS`` (``ENV_ADDRESS``).
- ``outputs``: the result rows, exactly from the spec's fields: the pool's own
  buffers (N rows in sync mode; ``ceil(N / B) + 1`` blocks of B rows in async
  mode) plus two sets of B rows handed to Python (the result a loop holds
  while the next one is made).
- ``bookkeeping``: the engine's per-env state, queues (one of ``N + 1`` chunk
  cells per worker, plus the caller's), actions and seeds: exact, from
  ``PoolBase::BookkeepingBytes`` in C++.
- ``threads``: per worker thread (its touched stack; its 8 MiB stack and, for
  threads that allocate, glibc's 64 MiB malloc arena count as address space).
- on the GPU path (``device="cuda"``) the device arrays (state, RNG, flags and
  the result blocks) against ``cudaMemGetInfo``; ``cpu-reference`` keeps them
  in host memory. MuJoCo Warp pools: envpool_x.mujoco_gpu.memory_estimate.

Available memory (``available()``): the least of the cgroup's limit minus its
usage (v2 ``memory.max``, v1 ``memory.limit_in_bytes``) and ``MemAvailable``,
for the resident bytes; ``RLIMIT_AS`` minus the current ``VmSize`` for the
address space. ``check_memory=False`` or ``ENVPOOL_X_SKIP_MEMORY_CHECK=1``
skips the check.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# Re-exported: callers read both as envpool_x.memory.*.
from envpool_x.memory_available import Available, available  # noqa: F401

SKIP_ENV_VAR = "ENVPOOL_X_SKIP_MEMORY_CHECK"
MiB = 1 << 20
KiB = 1 << 10

# What one env allocates beyond sizeof(Env), resident (measured, see above).
ENV_RESIDENT: dict[str, int] = {
    "classic_control": 0,
    "toy_text": 0,
    "testing": 0,
    "minigrid": 4 * KiB,  # the grid (5 bytes a cell, 25 x 25 at most) and the view
    "babyai": 16 * KiB,  # estimated, not measured: grid, object ids and positions, instruction
    "atari": 780 * KiB,  # ALE's emulator, ROM copy, screens; plus the frame stack (below)
    "mujoco": 200 * KiB,  # mjData's buffer and the touched part of its arena
    "dmc": 184 * KiB,  # the same, for dm_control's models
}
# The same for the envs of a family that differ (Box2D: the world's block
# allocator, bodies and contacts; CarRacing also its ~300 road tiles), by pool
# name; measured as above at 512 envs, 2 threads (2026-11-26).
POOL_RESIDENT: dict[str, int] = {
    "LunarLander": 88 * KiB,
    "BipedalWalker": 192 * KiB,
    "CarRacing": 344 * KiB,
}
# ... and the address space it reserves (RLIMIT_AS), when more than resident.
ENV_ADDRESS: dict[str, int] = {
    "mujoco": 15 * MiB,  # mjData's arena: reserved at once, touched as needed
    "dmc": 30 * MiB,
}
FIXED_RESIDENT = 1 * MiB  # per pool: the pool object, its tables, the first env's caches
THREAD_RESIDENT = 64 * KiB  # per worker: touched stack, thread-local state
THREAD_STACK = 8 * MiB  # per worker, address space only
MALLOC_ARENA = 64 * MiB  # glibc's per-thread arena, address space only
PY_SEED = 8 + 32 + 8  # a seed list entry: list slot, int object, C++ copy


@dataclass(frozen=True)
class Estimate:
    """Bytes a pool of ``num_envs`` envs will take (see the module docstring)."""

    num_envs: int
    resident: int  # RAM the pool touches (its RSS growth)
    address_space: int  # address space it reserves (what RLIMIT_AS counts)
    device: int  # GPU memory (0 off the GPU)
    per_env: dict[str, float]  # the same three, per env: how each grows with num_envs
    parts: dict[str, int] = field(default_factory=dict)  # resident bytes by part


def _field_bytes(desc: dict[str, Any]) -> int:
    return int(np.dtype(desc["dtype"]).itemsize * math.prod(desc["shape"]))


def _row_bytes(spec: Any) -> int:
    """Bytes of one env's result row, every field (same_step: the final copies)."""
    obs = sum(_field_bytes(d) for d in spec._desc["obs"])
    info = 4 + 4 + sum(_field_bytes(d) for d in spec._desc["info"])  # env_id, elapsed_step
    agents = int(spec._desc["action"].get("num_agents", 1))
    row = obs + info + 4 * agents + 1 + 1  # reward (one per agent), terminated, truncated
    if spec.config.autoreset_mode == "same_step":
        row += obs + info + 1  # final_obs, final_info, the mask
    return row


def _action_bytes(spec: Any) -> int:
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


def resolved_threads(spec: Any) -> int:
    """The worker threads the pool will start (num_threads 0: its default)."""
    cfg = spec.config
    return int(cfg.num_threads) or max(1, min(int(cfg.batch_size), usable_cpus()))


def estimate(spec: Any, num_envs: int | None = None) -> Estimate:
    """What a pool of ``spec`` (an :class:`~envpool_x.spec.EnvSpec`) will take;
    ``num_envs``: of that many envs instead (async: batches of at most as many)."""
    cfg = spec.config
    n = int(cfg.num_envs) if num_envs is None else num_envs
    if cfg.device != "cpu":
        if spec.entry.family == "mujoco":  # MuJoCo Warp (envpool_x.mujoco_gpu)
            from envpool_x.mujoco_gpu import memory_estimate

            return Estimate(**memory_estimate.estimate(spec, n, FIXED_RESIDENT))
        return _device_estimate(spec, n)
    b = n if int(cfg.batch_size) == int(cfg.num_envs) else min(int(cfg.batch_size), n)
    threads = resolved_threads(spec)
    pool_cls = spec.entry.pool_class
    sizes = pool_cls.memory_sizes()
    family = spec.entry.family
    row = _row_bytes(spec)
    pool_rows = n if b == n else b * (-(-n // b) + 1)
    allocated = POOL_RESIDENT.get(spec.entry.pool_name, ENV_RESIDENT.get(family, 0))
    env_res = int(sizes["env"]) + allocated + _frame_bytes(spec)
    env_addr = max(env_res, int(sizes["env"]) + ENV_ADDRESS.get(family, 0))
    # Expensive envs are built on the side (std::optional<Env>, an error slot) first.
    build = 0 if sizes["cheap"] else int(sizes["env"]) + 16
    seeds = PY_SEED if spec.env_seeds is not None else 0
    book = int(pool_cls.bookkeeping_bytes(n, b, threads, _action_bytes(spec)))
    parts = {
        "envs": n * env_res,
        "outputs": row * (pool_rows + 2 * b),
        "bookkeeping": book,
        "build scratch": n * (build + seeds),
        "threads": threads * THREAD_RESIDENT,
        "fixed": FIXED_RESIDENT,
    }
    resident = sum(parts.values())
    arenas = 0 if sizes["cheap"] else min(threads, 8 * usable_cpus()) * MALLOC_ARENA
    address = resident + n * (env_addr - env_res) + threads * THREAD_STACK + arenas
    per_env_res = env_res + row * (pool_rows + 2 * b) / n + book / n + build + seeds
    per_env = {
        "resident": per_env_res,
        "address_space": per_env_res + env_addr - env_res,
        "device": 0.0,
    }
    return Estimate(n, resident, address, 0, per_env, parts)


#: Heap an env keeps beside sizeof(Env), in observations' worth: Atari its frame
#: stack and a frame being resized (a stack of 4 84x84 frames: 56 KiB); the
#: combinatorial envs their state arrays (MaxCut about 13 bytes a node, TSP 21 a
#: city, plus what is shared by the pool).
HEAP_OBSERVATIONS = {"atari": 2, "combinatorial": 3}


def _frame_bytes(spec: Any) -> int:
    """The heap an env keeps that grows with its observation (see above)."""
    k = HEAP_OBSERVATIONS.get(spec.entry.family, 0)
    return k * sum(_field_bytes(d) for d in spec._desc["obs"]) if k else 0


# The GPU pool (cpp/cuda/batched_pool.h): per env, state (at most 4 float64
# words), RNG key and counter, elapsed steps, flags, ids, seeds, a mask and an
# action; the results are blocks of every field (256-byte aligned per field).
_DEVICE_PER_ENV = 8 * 4 + 8 + 8 + 4 + 1 + 4 + 8 + 1 + 8
_HOST_PER_ENV = 4 + 4 + 8 + 8 + 1  # env id tables, seeds (and a copy), started flags


def device_slab_bytes(spec: Any) -> int:
    """Per-env device bytes of the GPU path's array state (the slab laid out
    by the adapters of cpp/cuda/combinatorial_kernels.h and multi_agent_kernels.h;
    0 for word state)."""
    cfg = spec.env_config
    if spec.entry.pool_name == "MaxCut":
        return -(-(24 + 13 * int(spec.action_space.n)) // 8) * 8
    if spec.entry.pool_name == "Tsp":
        cities = len(cfg["coord_values"]) // 2 or int(cfg["num_nodes"])
        own = 0 if cfg["coord_values"] else 16 * cities
        return -(-(32 + own + (4 if cfg["mode"] == "2opt" else 1) * cities) // 8) * 8
    agents = spec.num_agents  # the Tag envs (cpp/cuda/multi_agent_kernels.h)
    if spec.entry.pool_name == "TagGridworld":
        return 8 + -(-12 * agents // 8) * 8
    if spec.entry.pool_name == "TagContinuous":
        threads = min(-(-agents // 32) * 32, 256)  # scratch slots for the nearest agents
        return 8 + 32 * agents + (0 if cfg["use_full_observation"] else 8 * threads * agents)
    return 0


def _device_estimate(spec: Any, n: int) -> Estimate:
    cfg = spec.config
    row = _row_bytes(spec)
    # copy_results: each call makes a block; a loop holds one while the next is made.
    blocks = 2 if cfg.copy_results else 1
    device = n * (_DEVICE_PER_ENV + device_slab_bytes(spec) + row * blocks) + 64 * KiB
    host = n * _HOST_PER_ENV + FIXED_RESIDENT
    on_host = cfg.device == "cpu-reference"
    resident = host + (device if on_host else 0)
    per_dev = _DEVICE_PER_ENV + device_slab_bytes(spec) + row * blocks
    per_host = _HOST_PER_ENV + (per_dev if on_host else 0)
    parts = {"device arrays" if not on_host else "device arrays (host)": device, "host": host}
    return Estimate(
        n,
        resident,
        resident,
        0 if on_host else device,
        {"resident": per_host, "address_space": per_host, "device": 0.0 if on_host else per_dev},
        parts,
    )


def largest_num_envs(spec: Any, kind: str, avail: int) -> int:
    """The most envs (up to ``spec``'s num_envs) whose ``kind`` bytes
    (``"resident"``, ``"address_space"`` or ``"device"``) fit in ``avail``; 0: none."""
    lo, hi = 0, int(spec.config.num_envs)
    while lo < hi:  # the estimate grows with num_envs (queues in powers of two)
        mid = (lo + hi + 1) // 2
        if getattr(estimate(spec, mid), kind) <= avail:
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


def skipped(spec: Any) -> bool:
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


def check(spec: Any) -> Estimate | None:
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
    for kind in ("resident", "address_space", "device"):
        have = getattr(avail, kind)
        need = getattr(est, kind)
        if have is None or need <= have:
            continue
        fit = largest_num_envs(spec, kind, have)
        where = ", ".join(f"{k}: {fmt_bytes(v)}" for k, v in avail.sources.items())
        raise MemoryError(
            f"a pool of num_envs={est.num_envs} {spec.id} envs needs about {fmt_bytes(need)} "
            f"of {_WHAT[kind]} ({fmt_bytes(est.per_env[kind])} per env), but this process "
            f"has {fmt_bytes(have)} ({where}); the largest num_envs that fits is {fit}. "
            f"If you know better, pass check_memory=False or set {SKIP_ENV_VAR}=1"
        )
    return est


def describe(spec: Any) -> list[str]:
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
    lines.append(
        "available: "
        + (", ".join(f"{k}: {fmt_bytes(v)}" for k, v in avail.sources.items()) or "unknown")
    )
    for kind in ("resident", "address_space", "device"):
        have = getattr(avail, kind)
        if have is not None:
            fit = largest_num_envs(spec, kind, have)
            lines.append(f"largest num_envs that fits ({_WHAT[kind]}): {fit}")
    return lines
