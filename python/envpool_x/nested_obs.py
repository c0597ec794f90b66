"""What the front ends do to a host result beyond the engine's arrays: the
info a family derives from them (Craftax's ``Achievements/...``), and nested
observation Dicts: an env field named ``"group.key"`` (C++ fields are flat) is
``obs["group"]["key"]`` in gymnasium's spaces and results, as
gymnasium-robotics' FrankaKitchen-v1 nests its goals. dm_env and the arrays
the engine returns keep the flat names."""

from __future__ import annotations

import collections
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from gymnasium import spaces

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec

#: What separates a group from its key in a field's name.
SEPARATOR = "."


def is_nested(names: list[str]) -> bool:
    """Whether any field name has a group."""
    return any(SEPARATOR in name for name in names)


def nest(flat: Mapping[str, Any]) -> collections.OrderedDict[str, Any]:
    """``{"a.x": 1, "a.y": 2, "b": 3}`` as ``{"a": {"x": 1, "y": 2}, "b": 3}``
    (one level; groups where their first field was)."""
    out: collections.OrderedDict[str, Any] = collections.OrderedDict()
    for name, value in flat.items():
        group, sep, key = name.partition(SEPARATOR)
        if sep:
            out.setdefault(group, collections.OrderedDict())[key] = value
        else:
            out[name] = value
    return out


def nested_space(space: spaces.Space[Any]) -> spaces.Space[Any]:
    """A Dict of flat fields with a Dict for each group (any other space as it is)."""
    if not isinstance(space, spaces.Dict) or not is_nested(list(space.spaces)):
        return space
    return spaces.Dict(
        collections.OrderedDict(
            (k, spaces.Dict(v) if isinstance(v, dict) else v) for k, v in nest(space.spaces).items()
        )
    )


def _nest_in_place(obs: Any) -> None:
    if isinstance(obs, dict) and is_nested(list(obs)):
        grouped = nest(obs)
        obs.clear()
        obs.update((k, dict(v) if isinstance(v, dict) else v) for k, v in grouped.items())


def result_hook(
    names: list[str], info_extras: Callable[[Any], None] | None
) -> Callable[[Any], None] | None:
    """What the gymnasium front end runs on each host result: the family's
    info_extras, then (for nested fields) the observation and
    ``info["final_obs"]`` grouped in place. None when neither applies."""
    if not is_nested(names):
        return info_extras

    def hook(result: Any) -> None:
        if info_extras is not None:
            info_extras(result)
        _nest_in_place(result[0])
        _nest_in_place(result[4].get("final_obs"))

    return hook


def info_extra_fields(spec: EnvSpec) -> list[dict[str, Any]]:
    """The info arrays ``spec``'s family derives from the engine's fields on
    the host (Craftax's ``Achievements/...`` and ``score``), as
    ``EnvSpec._desc`` lists fields; empty where there are none or the results
    stay on a device. The dm_env front end carries them in its observation."""
    declared = spec.entry.declaration.info_extra_fields
    if declared is None or not spec.backend.host_results:
        return []
    return declared(spec._desc["info"])
