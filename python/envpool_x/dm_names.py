"""The names the dm_env front end gives observation fields, where they are not
the C++ field's own (a rule of the config, not of one family: both the spec and
the front end apply it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def dm_obs_name(config: Mapping[str, Any], name: str) -> str:
    """The name dm_env gives observation field ``name`` of an env with ``config``:
    a pixel env's frames alone (C++'s field ``obs``, a Box in gymnasium) are
    ``pixels``, EnvPool 1.2.7's dm_env name (and dm_control's pixel wrapper's)."""
    if name == "obs" and config.get("from_pixels") and config.get("pixels_only", True):
        return "pixels"
    return name
