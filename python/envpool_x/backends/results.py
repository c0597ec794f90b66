"""The one results packer: a call's output fields, by name, into
``(obs, reward, terminated, truncated, info)``.

The field names are C++'s (``cpp/core/result_fields.h``, read through
``_core.result_field_names()``): the CPU pool packs its rows in C++ with the
same names, and every backend that hands Python named arrays (the CUDA stepper,
MuJoCo Warp) packs them here, so that ``info`` and the final rows of same_step
mode look the same on every backend.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envpool_x import _core
from envpool_x.backends.contract import Results

#: The names of the result fields and the prefixes of grouped ones, from C++.
NAMES: dict[str, str] = dict(_core.result_field_names())


def group(named: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    """The entries of ``named`` called ``prefix + key``, by key, in field order."""
    return {k[len(prefix) :]: v for k, v in named.items() if k.startswith(prefix)}


def observation(named: Mapping[str, Any], name: str, prefix: str) -> Any:
    """An observation: one array (``name``, or ``prefix + name`` for a one-field
    observation written as a group) or a dict of the fields ``prefix + key``."""
    if name in named:
        return named[name]
    if prefix + NAMES["obs"] in named:
        return named[prefix + NAMES["obs"]]
    return group(named, prefix)


def pack(named: Mapping[str, Any]) -> Results:
    """``(obs, reward, terminated, truncated, info)`` of one call's fields.

    ``info`` holds ``env_id``, ``elapsed_step`` and the env's info fields; in
    same_step mode also ``final_obs``, ``final_info`` (each key paired with a
    ``_key`` mask, gymnasium's convention) and the masks ``_final_obs`` /
    ``_final_info`` of the envs whose episode ended in this call.
    """
    obs = observation(named, NAMES["obs"], NAMES["obs_prefix"])
    info: dict[str, Any] = {
        NAMES["env_id"]: named[NAMES["env_id"]],
        NAMES["elapsed_step"]: named[NAMES["elapsed_step"]],
    }
    info.update(group(named, NAMES["info_prefix"]))
    if NAMES["final_mask"] in named:
        mask = named[NAMES["final_mask"]]
        final_obs, final_info = NAMES["final_obs"], NAMES["final_info"]
        info[final_obs] = observation(named, final_obs, NAMES["final_obs_prefix"])
        rows = group(named, NAMES["final_info_prefix"])
        for key in list(rows):
            rows[NAMES["mask_prefix"] + key] = mask
        info[final_info] = rows
        info[NAMES["final_mask"]] = mask
        info[NAMES["final_info_mask"]] = mask
    return (
        obs,
        named[NAMES["reward"]],
        named[NAMES["terminated"]],
        named[NAMES["truncated"]],
        info,
    )
