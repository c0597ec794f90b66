"""EnvPool's ``spec.state_array_spec`` / ``spec.action_array_spec``: the arrays of one
env's step and action, by EnvPool's key names and shapes, for code written against
EnvPool.

EnvPool writes ``-1`` as the leading dimension of an array that has one row per
*player* (its players of all envs are flattened into rows): ``reward``,
``discount``, ``players.env_id``, the action, and an env's scalar fields
(Atari's ``info:lives``, MuJoCo's ``info:x_position``, ...). With one agent per
env that axis is the env axis, so the shapes here are EnvPool's. A multi-agent
task keeps its agents on their own axis of fixed size (docs/multi_agent.md):
there, one env's per-agent arrays have the shape ``(num_agents, ...)`` instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

_INT32 = np.iinfo(np.int32)


class Shape(tuple[int, ...]):
    """An array spec's shape: a tuple that also equals a list of the same
    dimensions, as EnvPool's shapes are lists (``spec.shape == [128]`` holds, as
    in EnvPool, and so does ``spec.shape == (128,)``)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):
            other = tuple(other)
        return tuple.__eq__(self, other)  # type: ignore[operator]

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = tuple.__hash__


@dataclass(frozen=True)
class ArraySpec:
    """One array of one env: dtype, shape and bounds (scalars or arrays).

    EnvPool's ``ArraySpec`` has the same fields; a leading ``-1`` means one row
    per player (see the module's docstring). ``shape`` is a :class:`Shape`: a
    tuple equal to EnvPool's list too.
    """

    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    minimum: Any
    maximum: Any

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", Shape(int(d) for d in self.shape))


def _limits(dtype: np.dtype[Any]) -> tuple[Any, Any]:
    if dtype == np.bool_:
        return False, True
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return int(info.min), int(info.max)
    return -np.inf, np.inf


def _from_desc(desc: dict[str, Any], scalar_shape: tuple[int, ...]) -> ArraySpec:
    """The spec of an engine field description (dtype, shape, low / high lists:
    empty for unbounded, one value for a uniform bound, else one per element);
    a scalar field gets ``scalar_shape``."""
    dtype = np.dtype(desc["dtype"])
    shape = tuple(int(d) for d in desc["shape"])
    default_low, default_high = _limits(dtype)

    def bound(values: list[Any], default: Any) -> Any:
        if not values:
            return default
        if len(values) == 1:
            return values[0]
        return np.asarray(values, dtype=np.float64).reshape(shape)

    low, high = bound(desc["low"], default_low), bound(desc["high"], default_high)
    return ArraySpec(dtype, shape or scalar_shape, low, high)


def _scalar(dtype: Any, shape: tuple[int, ...] = ()) -> ArraySpec:
    dtype = np.dtype(dtype)
    low, high = _limits(dtype)
    return ArraySpec(dtype, shape, low, high)


def state_array_spec(desc: dict[str, Any], family: str = "") -> dict[str, ArraySpec]:
    """The arrays a step produces for one env, under EnvPool's keys and shapes.

    ``done`` is gymnasium's ``terminated`` and ``trunc`` its ``truncated``;
    ``discount`` and ``step_type`` are what the dm_env front end derives.
    ``family`` is the task's family: EnvPool declares DeepMind Control's
    scalar observations without a player axis (``()``), every other scalar
    field with one (``(-1,)``).
    """
    agents = int(desc["action"].get("num_agents", 1))
    # One row per player: EnvPool's -1 with one agent per env, else the agent axis.
    player = (-1,) if agents == 1 else (agents,)
    out: dict[str, ArraySpec] = {
        "info:env_id": _scalar(np.int32),
        "info:players.env_id": _scalar(np.int32, player),
        "elapsed_step": _scalar(np.int32),
        "done": _scalar(np.bool_),
        "reward": _scalar(np.float32, player),
        # One discount per env where the env has several agents (dm_env's TimeStep).
        "discount": ArraySpec(np.dtype(np.float32), player if agents == 1 else (), 0.0, 1.0),
        "step_type": ArraySpec(np.dtype(np.int32), (), 0, 2),
        "trunc": _scalar(np.bool_),
    }
    single = len(desc["obs"]) == 1 and desc["obs"][0]["name"] == "obs"
    # A multi-agent env's fields have their agent axis already; its scalars are per env.
    scalar = (-1,) if agents == 1 else ()
    scalar_obs = () if family == "dmc" else scalar
    for field in desc["obs"]:
        out["obs" if single else f"obs:{field['name']}"] = _from_desc(field, scalar_obs)
    for field in desc["info"]:
        out[f"info:{field['name']}"] = _from_desc(field, scalar)
    return out


def action_array_spec(
    action_space: spaces.Space[Any], num_agents: int = 1, family: str = ""
) -> dict[str, ArraySpec]:
    """``env_id``, ``players.env_id`` and ``action`` of one env's action.

    With one agent per env the action has EnvPool's player axis, ``(-1, ...)``
    (EnvPool's Box2D tasks with a Box action leave it out, and so does this);
    a multi-agent task's ``action_space`` already has its agent axis first.
    """
    player = (-1,) if num_agents == 1 else (num_agents,)
    out = {
        "env_id": ArraySpec(np.dtype(np.int32), (), 0, int(_INT32.max)),
        "players.env_id": ArraySpec(np.dtype(np.int32), player, 0, int(_INT32.max)),
    }
    lead = (-1,) if num_agents == 1 else ()
    if isinstance(action_space, spaces.Discrete):
        start = int(action_space.start)
        high = start + int(action_space.n) - 1
        out["action"] = ArraySpec(np.dtype(np.int32), lead, start, high)
    elif isinstance(action_space, spaces.MultiDiscrete):
        starts = np.asarray(action_space.start, dtype=np.int64)
        highs = starts + np.asarray(action_space.nvec, dtype=np.int64) - 1
        out["action"] = ArraySpec(
            np.dtype(np.int32), lead + action_space.shape, _uniform(starts), _uniform(highs)
        )
    else:
        assert isinstance(action_space, spaces.Box), f"no action array spec for {action_space}"
        if family == "box2d":
            lead = ()
        out["action"] = ArraySpec(
            action_space.dtype, lead + action_space.shape, action_space.low, action_space.high
        )
    return out


def _uniform(bound: np.ndarray) -> Any:
    """One int where every element has the same bound, else the array."""
    if bound.size and (bound == bound.flat[0]).all():
        return int(bound.flat[0])
    return bound
