"""Per-actor results of a :class:`~envpool_x.distributed.DistributedEnvPool`
joined into one batch along the env axis."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def as_step_result(part: Any) -> Any:
    """An actor's reset result ``(obs, info)`` as a step result: reward 0,
    neither terminated nor truncated. Step results pass through."""
    if len(part) == 5:
        return part
    obs, info = part
    n = len(info["env_id"])
    false = np.zeros(n, dtype=bool)
    return obs, np.zeros(n, dtype=np.float32), false, false.copy(), info


def _zero_rows(template: Any, n: int) -> Any:
    """``n`` rows of zeros shaped like ``template``'s rows (arrays, tuples, dicts)."""
    if isinstance(template, dict):
        return {key: _zero_rows(value, n) for key, value in template.items()}
    if isinstance(template, tuple):
        return tuple(_zero_rows(value, n) for value in template)
    template = np.asarray(template)
    return np.zeros((n, *template.shape[1:]), dtype=template.dtype)


def concat_results(parts: Sequence[Any], rows: Sequence[int]) -> Any:
    """Concatenate per-actor results (``rows[i]`` envs in part i) along the env
    axis: arrays, tuples and dicts.

    An info key that only some parts have (``final_obs`` and its ``_final_obs``
    mask, when a step batch meets a reset batch) gets zero rows, masked off,
    in the others, as gymnasium fills rows without that key."""
    first = parts[0]
    if isinstance(first, dict):
        out = {}
        for key in dict.fromkeys(key for p in parts for key in p):
            template = next(p[key] for p in parts if key in p)
            column = [
                p[key] if key in p else _zero_rows(template, n)
                for p, n in zip(parts, rows, strict=True)
            ]
            out[key] = concat_results(column, rows)
        return out
    if isinstance(first, tuple):
        return tuple(concat_results([p[k] for p in parts], rows) for k in range(len(first)))
    return np.concatenate([np.asarray(p) for p in parts])
