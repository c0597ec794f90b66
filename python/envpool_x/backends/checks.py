"""The one place for env id and seed checks, for every backend.

The rules and messages are C++'s (``EnvIdArray`` / ``EnvIdSet`` and
``ParseSeeds`` in ``cpp/bindings/conversions.cpp``), which the CPU pool and the
CUDA stepper run on every call; backends written in Python (MuJoCo Warp) call
the same functions through ``_core``, so a bad id or seed reads the same
whatever runs the task.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envpool_x import _core
from envpool_x.backends.arrays import host_ids


def check_env_ids(env_id: Any, num_envs: int) -> np.ndarray:
    """``env_id`` (an int, a sequence, a host or device array) as int32 host ids.

    Raises:
        TypeError: not integers. ValueError: not 1-d, empty, out of
            ``[0, num_envs)`` or repeated.
    """
    return np.asarray(_core.check_env_ids(host_ids(env_id), num_envs), dtype=np.int32)


def check_reset_seeds(seed: Any, num_ids: int) -> list[int] | None:
    """The seeds of a reset of ``num_ids`` envs: one int (the same for every
    env), a sequence of one per env, or None (no reseeding).

    Raises:
        TypeError: not ints. ValueError: outside ``[0, 2**64)``, or a list
            whose length is not ``num_ids``.
    """
    return _core.check_seeds(seed, num_ids)


def seed_list(seed: Any, num_envs: int) -> list[int] | None:
    """A pool's ``seed`` option: None when it is one int (each env's seed is
    derived from it and the env's index), the list when it is one per env.

    Raises:
        TypeError: not an int or a sequence of ints. ValueError: outside
            ``[0, 2**64)``, or a list whose length is not ``num_envs``.
    """
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        if not 0 <= int(seed) < 2**64:
            raise ValueError(f"seed must be in [0, 2**64), got {seed}")
        return None
    if isinstance(seed, (str, bytes)) or not isinstance(seed, (Sequence, np.ndarray)):
        raise TypeError(f"seed must be an int or a sequence of ints, got {type(seed).__name__}")
    seeds = list(seed)
    if len(seeds) != num_envs:
        raise ValueError(f"seed list has {len(seeds)} entries but num_envs={num_envs}")
    out = []
    for s in seeds:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"seeds must be ints, got {type(s).__name__}")
        if not 0 <= int(s) < 2**64:
            raise ValueError(f"seed must be in [0, 2**64), got {s}")
        out.append(int(s))
    return out


def reset_ids(
    num_envs: int, env_id: Any, options: dict[str, Any] | None, family_keys: tuple[str, ...] = ()
) -> Any:
    """Resolve ``env_id`` and gymnasium's ``options={"reset_mask": mask}``
    (``options["params"]``, per-env parameters, is the front end's; a
    family's own keys, ``family_keys``, are its family's).

    Raises:
        ValueError: unknown options, a mask of the wrong dtype or shape, a mask
            beside ``env_id``, or a mask that selects no env.
    """
    if not options:
        return env_id
    known = {"reset_mask", "params", *family_keys}
    unknown = set(options) - known
    if unknown:
        raise ValueError(f"unsupported reset options {sorted(unknown)}; known: {sorted(known)}")
    if "reset_mask" not in options:
        return env_id
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
