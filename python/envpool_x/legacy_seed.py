"""The old ``seed(seed)`` method of vector envs (gym's ``VecEnv.seed``, EnvPool's
pools), shared by the gymnasium and dm_env front ends: it leaves a seed for the
next reset instead of seeding anything at once."""

from __future__ import annotations

import numpy as np

from envpool_x import _core


def pending_seed(seed: object, num_envs: int) -> tuple[int | None, list[int]]:
    """``(the seed to keep for the next reset, the seed each env gets from it)``.

    ``None`` cancels a pending seed: ``(None, [])``. Otherwise each env's seed
    is derived from ``seed`` and the env's index, as ``reset(seed=seed)``
    derives them.

    Raises:
        TypeError: ``seed`` is not an int (a bool is refused too).
        ValueError: ``seed`` is outside [0, 2**64).
    """
    if seed is None:
        return None, []
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
    if not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed must be in [0, 2**64), got {seed}")
    value = int(seed)
    return value, [_core.derive_env_seed(value, i) for i in range(num_envs)]
