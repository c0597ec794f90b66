"""EnvPool's ``spec.state_array_spec`` / ``spec.action_array_spec``: the arrays of one
env's step and action, by EnvPool's key names, for code written against EnvPool."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

_INT32 = np.iinfo(np.int32)


@dataclass(frozen=True)
class ArraySpec:
    """One array of one env: dtype, shape and bounds (scalars or arrays).

    EnvPool's ``ArraySpec`` has the same fields. A shape here has no player
    axis: every registered task has one agent per env (EnvPool writes ``[-1]``
    for its per-player arrays, here those are scalars).
    """

    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    minimum: Any
    maximum: Any


def _limits(dtype: np.dtype[Any]) -> tuple[Any, Any]:
    if dtype == np.bool_:
        return False, True
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return int(info.min), int(info.max)
    return -np.inf, np.inf


def _from_desc(desc: dict[str, Any]) -> ArraySpec:
    """The spec of an engine field description (dtype, shape, low / high lists:
    empty for unbounded, one value for a uniform bound, else one per element)."""
    dtype = np.dtype(desc["dtype"])
    shape = tuple(int(d) for d in desc["shape"])
    default_low, default_high = _limits(dtype)

    def bound(values: list[Any], default: Any) -> Any:
        if not values:
            return default
        if len(values) == 1:
            return values[0]
        return np.asarray(values, dtype=np.float64).reshape(shape)

    return ArraySpec(
        dtype, shape, bound(desc["low"], default_low), bound(desc["high"], default_high)
    )


def _scalar(dtype: Any) -> ArraySpec:
    dtype = np.dtype(dtype)
    low, high = _limits(dtype)
    return ArraySpec(dtype, (), low, high)


def state_array_spec(desc: dict[str, Any]) -> dict[str, ArraySpec]:
    """The arrays a step produces for one env, under EnvPool's keys.

    ``done`` is gymnasium's ``terminated`` and ``trunc`` its ``truncated``;
    ``discount`` and ``step_type`` are what the dm_env front end derives.
    """
    out: dict[str, ArraySpec] = {
        "info:env_id": _scalar(np.int32),
        "info:players.env_id": _scalar(np.int32),
        "elapsed_step": _scalar(np.int32),
        "done": _scalar(np.bool_),
        "reward": _scalar(np.float32),
        "discount": ArraySpec(np.dtype(np.float32), (), 0.0, 1.0),
        "step_type": ArraySpec(np.dtype(np.int32), (), 0, 2),
        "trunc": _scalar(np.bool_),
    }
    single = len(desc["obs"]) == 1 and desc["obs"][0]["name"] == "obs"
    for field in desc["obs"]:
        out["obs" if single else f"obs:{field['name']}"] = _from_desc(field)
    for field in desc["info"]:
        out[f"info:{field['name']}"] = _from_desc(field)
    return out


def action_array_spec(action_space: spaces.Space[Any]) -> dict[str, ArraySpec]:
    """``env_id``, ``players.env_id`` and ``action`` of one env's action."""
    out = {
        "env_id": ArraySpec(np.dtype(np.int32), (), 0, int(_INT32.max)),
        "players.env_id": ArraySpec(np.dtype(np.int32), (), 0, int(_INT32.max)),
    }
    if isinstance(action_space, spaces.Discrete):
        start = int(action_space.start)
        out["action"] = ArraySpec(np.dtype(np.int32), (), start, start + int(action_space.n) - 1)
    else:
        assert isinstance(action_space, spaces.Box)
        out["action"] = ArraySpec(
            action_space.dtype, action_space.shape, action_space.low, action_space.high
        )
    return out
