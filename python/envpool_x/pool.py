"""Creating the C++ pool of a spec; shared by every front end."""

from __future__ import annotations

import os
import sys
import types
import warnings
from typing import Any

import numpy as np

from envpool_x import memory
from envpool_x.spec import EnvSpec

# num_threads above this many workers per usable CPU only costs (the threads
# share the CPUs): accepted, with one warning.
THREADS_PER_CPU_WARNING = 4


def create_pool(spec: EnvSpec, chunk_size: int = 0) -> Any:
    """Build the C++ pool (workers start at once) for ``spec``; with
    ``device="cuda"`` (or the internal ``"cpu-reference"``) the GPU stepper."""
    cfg = spec.config
    if cfg.device != "cpu":
        from envpool_x.device import DevicePool
        from envpool_x.mujoco_gpu import supported as mujoco_gpu_supported

        if mujoco_gpu_supported(spec.entry.pool_name):
            from envpool_x.mujoco_gpu.pool import MujocoDevicePool

            return MujocoDevicePool(spec)

        return DevicePool(spec)
    _warn_many_threads(int(cfg.num_threads))
    # Before anything is allocated: a pool too big for this process is refused.
    memory.check(spec)
    # An int seed is derived per env in C++ (no Python list for a huge pool).
    seeds: Any = spec.env_seeds if spec.env_seeds is not None else int(cfg.seed)
    return spec.entry.pool_class(
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
    package = os.path.dirname(os.path.abspath(__file__))
    level = 1
    frame: types.FrameType | None = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        frame = frame.f_back
        level += 1
    return level


def reset_ids(num_envs: int, env_id: Any, options: dict[str, Any] | None) -> Any:
    """Resolve ``env_id`` and gymnasium's ``options={"reset_mask": mask}``."""
    if not options:
        return env_id
    unknown = set(options) - {"reset_mask"}
    if unknown:
        raise ValueError(f"unsupported reset options {sorted(unknown)}; only 'reset_mask' is known")
    mask = np.asarray(options["reset_mask"])
    if mask.dtype != np.bool_ or mask.shape != (num_envs,):
        raise ValueError(
            f"reset_mask must be a bool array of shape ({num_envs},), got {mask.dtype} {mask.shape}"
        )
    if env_id is not None:
        raise ValueError("pass either env_id or options['reset_mask'], not both")
    ids = np.flatnonzero(mask)
    if ids.size == 0:
        raise ValueError("reset_mask selects no env")
    return ids
