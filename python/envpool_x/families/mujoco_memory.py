"""What a MuJoCo env's own model adds to the memory check.

The family's declared per-env bytes (``FamilyMemory`` in families/mujoco.py)
were measured with gymnasium's models. A model of the user's own
(``xml_file=``) can need far more: each env has its own ``mjData``, whose
buffer grows with the model and whose arena (``<size memory=...>``, reserved
at once, touched as the solver needs it) can be any size. The difference
from the task's stock model is added per env, so that a pool of a large model
is refused before it is built, with numbers, instead of failing halfway.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping
from typing import Any

from envpool_x.families.pixels import RenderSizes, render_sizes


@functools.lru_cache(maxsize=32)
def _data_bytes(path: str, mtime_ns: int, size: int) -> tuple[int, int]:
    """(buffer, arena) bytes of one ``mjData`` of the model at ``path`` (the
    file's mtime and size key the cache, so an edited model is read again)."""
    import mujoco

    model = mujoco.MjModel.from_xml_path(path)
    data = mujoco.MjData(model)
    return int(data.nbuffer), int(model.narena)


def data_bytes(path: str) -> tuple[int, int]:
    """(buffer, arena) bytes of one ``mjData`` of the model file ``path``."""
    st = os.stat(path)
    return _data_bytes(os.path.abspath(path), st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=32)
def _render_sizes(path: str, mtime_ns: int, size: int) -> RenderSizes:
    import mujoco

    return render_sizes(mujoco.MjModel.from_xml_path(path))


def model_render_sizes(path: str) -> RenderSizes:
    """What sizes a GL context of the model file ``path`` (pixel envs)."""
    st = os.stat(path)
    return _render_sizes(os.path.abspath(path), st.st_mtime_ns, st.st_size)


def model_extra(
    stock: Mapping[str, str], expand: Callable[[str], str]
) -> Callable[[str, Mapping[str, Any]], tuple[int, int]]:
    """The family's ``config_extra``: given a pool's stock model file name
    (``stock``, by pool name) and the rule that turns a name into a path
    (``expand``), the (resident, address space) bytes one env of a config
    takes beyond its stock model's (never negative)."""

    def extra(pool_name: str, config: Mapping[str, Any]) -> tuple[int, int]:
        path = os.path.abspath(str(config["xml_file"]))
        default = expand(stock[pool_name])
        if path == default:
            return 0, 0
        buffer, arena = data_bytes(path)
        stock_buffer, stock_arena = data_bytes(default)
        resident = max(0, buffer - stock_buffer)
        return resident, max(0, buffer + arena - stock_buffer - stock_arena)

    return extra


def scaled_model_bytes(pool_name: str, config: Mapping[str, Any]) -> int:
    """Bytes one env of ``config`` takes for a model copy of its own when the
    config sets a per-env parameter (docs/params.md) other than 1, e.g.
    ``body_mass_scale=2.0`` (a shallow ``mjModel`` and the scaled arrays); 0
    when all are 1 (the env shares the task's model)."""
    from envpool_x import _core

    pool = getattr(_core, pool_name)
    names = [p["name"] for p in pool.param_specs()]
    if all(float(config.get(name, 1.0)) == 1.0 for name in names):
        return 0
    return int(pool.param_copy_bytes(dict(config)))
