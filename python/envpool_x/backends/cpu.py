"""The CPU backend: the C++ thread pool (cpp/core), which runs every task."""

from __future__ import annotations

import os
import sys
import types
import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from envpool_x import memory
from envpool_x.backends.contract import Estimate, Pool

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec

# num_threads above this many workers per usable CPU only costs (the threads
# share the CPUs): accepted, with one warning.
THREADS_PER_CPU_WARNING = 4

KiB, MiB = memory.KiB, memory.MiB
THREAD_RESIDENT = 64 * KiB  # per worker: touched stack, thread-local state
THREAD_STACK = 8 * MiB  # per worker, address space only
MALLOC_ARENA = 64 * MiB  # glibc's per-thread arena, address space only
PY_SEED = 8 + 32 + 8  # a seed list entry: list slot, int object, C++ copy


class CpuBackend:
    """The thread-pool engine: numpy results, sync and async batches."""

    name = "cpu"
    devices = ("cpu",)
    host_results = True

    def create(self, spec: EnvSpec, chunk_size: int = 0) -> Pool:
        """Build the C++ pool of ``spec``; its workers start at once."""
        cfg = spec.config
        _warn_many_threads(int(cfg.num_threads))
        # Before anything is allocated: a pool too big for this process is refused.
        memory.check(spec)
        # An int seed is derived per env in C++ (no Python list for a huge pool).
        seeds: Any = spec.env_seeds if spec.env_seeds is not None else int(cfg.seed)
        pool: Pool = spec.entry.pool_class(
            spec.env_config,
            num_envs=cfg.num_envs,
            batch_size=cfg.batch_size,
            num_threads=cfg.num_threads,
            thread_affinity_offset=int(cfg.thread_affinity_offset),
            max_episode_steps=cfg.max_episode_steps,
            autoreset_mode=cfg.autoreset_mode,
            env_seeds=seeds,
            chunk_size=chunk_size,
        )
        return pool

    def check_config(self, task_id: str, config: Mapping[str, Any]) -> None:
        """array_backend and copy_results belong to the device backends."""
        if config["array_backend"] is not None or config["copy_results"] is not True:
            raise ValueError(
                "array_backend and copy_results apply to device='cuda' only (the CPU engine "
                "returns numpy arrays that later steps never overwrite)"
            )

    def device_free(self, spec: EnvSpec) -> int | None:
        """None: the CPU pool uses host memory only."""
        return None

    def estimate(self, spec: EnvSpec, num_envs: int) -> Estimate:
        """What a pool of ``spec`` with ``num_envs`` envs takes (envpool_x.memory):
        the envs (sizeof(Env) from C++, the family's declared allocations and
        the task's, such as a numba env's state, from its config),
        the output rows, the engine's bookkeeping (exact, from C++) and the threads."""
        cfg = spec.config
        n = num_envs
        b = n if int(cfg.batch_size) == int(cfg.num_envs) else min(int(cfg.batch_size), n)
        threads = memory.resolved_threads(spec)
        pool_cls = spec.entry.pool_class
        sizes = pool_cls.memory_sizes()
        family = spec.entry.declaration.memory
        row = memory.row_bytes(spec)
        pool_rows = n if b == n else b * (-(-n // b) + 1)
        # Async: each block also writes into arrays that are handed on without a
        # copy (PyPool::HandOnBlock), beside the pool's own buffers it filled once.
        if b != n:
            pool_rows *= 2
        heap = family.heap_observations * memory.observation_bytes(spec)
        heap += memory.task_env_bytes(spec)
        extra_res, extra_addr = family.extra(spec.entry.pool_name, spec.env_config)
        env_res = int(sizes["env"]) + family.resident(spec.entry.pool_name) + heap + extra_res
        env_addr = max(
            env_res + family.env_reserved, int(sizes["env"]) + family.env_address + extra_addr
        )
        # Expensive envs are built on the side (std::optional<Env>, an error slot) first.
        build = 0 if sizes["cheap"] else int(sizes["env"]) + 16
        seeds = PY_SEED if spec.env_seeds is not None else 0
        book = int(pool_cls.bookkeeping_bytes(n, b, threads, memory.action_bytes(spec)))
        # The caller's thread steps (and draws) envs too.
        thread_res, thread_addr = family.per_thread(spec.entry.pool_name, spec.env_config)
        parts = {
            "envs": n * env_res,
            "outputs": row * (pool_rows + 2 * b),
            "bookkeeping": book,
            "build scratch": n * (build + seeds),
            "threads": threads * THREAD_RESIDENT + (threads + 1) * thread_res,
            "fixed": memory.FIXED_RESIDENT,
        }
        resident = sum(parts.values())
        arenas = 0 if sizes["cheap"] else min(threads, 8 * memory.usable_cpus()) * MALLOC_ARENA
        address = resident + n * (env_addr - env_res) + threads * THREAD_STACK + arenas
        address += (threads + 1) * max(0, thread_addr - thread_res)
        per_env_res = env_res + row * (pool_rows + 2 * b) / n + book / n + build + seeds
        per_env = {
            "resident": per_env_res,
            "address_space": per_env_res + env_addr - env_res,
            "device": 0.0,
        }
        return Estimate(n, resident, address, 0, per_env, parts)


def _warn_many_threads(num_threads: int) -> None:
    cpus = memory.usable_cpus()
    if num_threads > THREADS_PER_CPU_WARNING * cpus:
        warnings.warn(
            f"num_threads={num_threads} is far above the {cpus} CPU(s) this process may use: "
            "the threads share those CPUs, which only adds switching costs (num_threads=0 "
            "picks one per CPU)",
            UserWarning,
            stacklevel=_user_stacklevel(),
        )


def _user_stacklevel() -> int:
    """The ``stacklevel`` of a warning raised by the caller of this function that
    points at the first frame outside envpool_x (the user's ``make_*`` line)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    level = 1
    frame: types.FrameType | None = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        frame = frame.f_back
        level += 1
    return level


BACKEND = CpuBackend()

__all__ = ["BACKEND", "CpuBackend"]
