"""Creating the C++ pool of a spec; shared by every front end."""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool_x import _core
from envpool_x.spec import EnvSpec


def create_pool(spec: EnvSpec, chunk_size: int = 0) -> Any:
    """Build the C++ pool (workers start at once) for ``spec``; with
    ``device="cuda"`` (or the internal ``"cpu-reference"``) the GPU stepper."""
    cfg = spec.config
    if cfg.device != "cpu":
        from envpool_x.device import DevicePool

        return DevicePool(spec)
    if spec.env_seeds is not None:
        seeds = spec.env_seeds
    else:
        seeds = [_core.derive_env_seed(int(cfg.seed), i) for i in range(cfg.num_envs)]
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
