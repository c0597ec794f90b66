"""The MuJoCo family: gymnasium's locomotion and manipulation tasks, -v4 and -v5,
and the older ids EnvPool keeps (-v3, or -v2 where gym's last was v2).

The simulation runs in C++ against MuJoCo's C API (the library and headers of
the pinned ``mujoco`` wheel, :data:`MUJOCO_VERSION`); the model XMLs are the ones
the installed gymnasium package ships under ``gymnasium/envs/mujoco/assets``,
so nothing of either is copied into envpool_x.
"""

from __future__ import annotations

import functools
import importlib.util
import numbers
import os
import sys
import types
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from envpool_x import _core
from envpool_x.families.mujoco_envpool_names import LEGACY_VERSIONS, MUJOCO_ENVPOOL_NAMES
from envpool_x.families.mujoco_memory import (
    model_extra,
    model_render_sizes,
    scaled_model_bytes,
)
from envpool_x.families.option_rules import unused_unless
from envpool_x.families.pixels import (
    GYM_CAMERA_OPTIONS,
    PIXEL_OPTIONS,
    fill_gym_camera,
    pixel_bytes,
    pixel_relations,
    pixel_thread_bytes,
)
from envpool_x.options import (
    BOOL,
    TEXT,
    Float,
    Floats,
    Int,
    Option,
    OptionTable,
    Relation,
    ordered_pair,
)
from envpool_x.params import with_param_options
from envpool_x.registration import Family, FamilyMemory, KiB, MiB, declare_family, register
from envpool_x.render.physics import mujoco_drawer

#: The C++ pools of the tasks MuJoCo Warp runs (envpool_x.backends.mujoco_warp):
#: the v5 tasks, and the v4 tasks as their v5 versions with v4's rules.
MUJOCO_WARP_POOLS = (
    "AntV5",
    "HalfCheetahV5",
    "HopperV5",
    "Walker2dV5",
    "HumanoidV5",
    "AntV4",
    "HalfCheetahV4",
    "HopperV4",
    "Walker2dV4",
    "HumanoidV4",
)
#: The MuJoCo release the C++ core is built against (one pinned version: the
#: same library serves gymnasium's envs, dm_control and us).
MUJOCO_VERSION = "3.17.0"

# (name, xml of -v4 and of -v5, time limit, reward threshold), as gymnasium's
# registry has them (the older id of each has v4's).
_TASKS: list[tuple[str, str, str, int, float | None]] = [
    ("HalfCheetah", "half_cheetah.xml", "half_cheetah.xml", 1000, 4800.0),
    ("Hopper", "hopper.xml", "hopper.xml", 1000, 3800.0),
    ("Ant", "ant.xml", "ant.xml", 1000, 6000.0),
    ("Humanoid", "humanoid.xml", "humanoid.xml", 1000, None),
    ("HumanoidStandup", "humanoidstandup.xml", "humanoidstandup.xml", 1000, None),
    ("Walker2d", "walker2d.xml", "walker2d_v5.xml", 1000, None),
    ("Swimmer", "swimmer.xml", "swimmer.xml", 1000, 360.0),
    ("InvertedPendulum", "inverted_pendulum.xml", "inverted_pendulum.xml", 1000, 950.0),
    (
        "InvertedDoublePendulum",
        "inverted_double_pendulum.xml",
        "inverted_double_pendulum.xml",
        1000,
        9100.0,
    ),
    ("Reacher", "reacher.xml", "reacher.xml", 50, -3.75),
    # gymnasium refuses Pusher-v4 on mujoco >= 3 (the arm passes through the
    # object of pusher.xml there); ours runs its code on 3.17 as it is.
    ("Pusher", "pusher.xml", "pusher_v5.xml", 100, 0.0),
]


def _versions(name: str, xml_v4: str, xml_v5: str) -> list[tuple[int, str]]:
    """(version, stock model file) of each id of task ``name``: EnvPool's older id
    (LEGACY_VERSIONS), the -v4 task run as gym's mujoco-py envs and EnvPool's ids
    run it, without mj_rnePostConstraint (cpp/envs/mujoco/legacy_ids.h), then
    -v4 and -v5."""
    return [(LEGACY_VERSIONS[name], xml_v4), (4, xml_v4), (5, xml_v5)]


#: The most physics steps one env step may take (gymnasium's tasks take 2 to 5;
#: MuJoCo Warp launches each as its own kernels).
MAX_FRAME_SKIP = 1000
_WEIGHT = Float(note="a reward weight; gymnasium takes any value")
_RANGE = Floats(length=(2, 2), finite=False, note="a (low, high) pair")
#: The type and range of each MuJoCo key, whichever tasks have it.
MUJOCO_KEY_OPTIONS: dict[str, Option] = {
    "frame_skip": Int(1, MAX_FRAME_SKIP, note="physics steps per env step"),
    "reset_noise_scale": Float(0, note="the scale of the reset's random noise"),
    "xml_file": TEXT,
    "main_body": Option("any", note="a body id (an int >= 0) or name (a str)"),
    **{
        key: _WEIGHT
        for key in (
            "ctrl_cost_weight",
            "forward_reward_weight",
            "contact_cost_weight",
            "healthy_reward",
            "impact_cost_weight",
            "uph_cost_weight",
            "reward_control_weight",
            "reward_dist_weight",
            "reward_near_weight",
        )
    },
    **{
        key: _RANGE
        for key in (
            "healthy_z_range",
            "healthy_angle_range",
            "healthy_state_range",
            "contact_force_range",
            "contact_cost_range",
            "impact_cost_range",
        )
    },
    **{
        key: BOOL
        for key in (
            "exclude_current_positions_from_observation",
            "terminate_when_unhealthy",
            "use_contact_forces",
            "include_cfrc_ext_in_observation",
            "include_cinert_in_observation",
            "include_cvel_in_observation",
            "include_qfrc_actuator_in_observation",
            "initial_state_info",
        )
    },
    **PIXEL_OPTIONS,
    **GYM_CAMERA_OPTIONS,
}


def _main_body(task_id: str, config: Mapping[str, Any], given: frozenset[str]) -> None:
    """Ant-v5's ``main_body``: a body id (an int >= 0) or a body's name."""
    body = config["main_body"]
    if isinstance(body, str) and body:
        return
    if isinstance(body, (numbers.Integral, np.integer)) and not isinstance(body, (bool, np.bool_)):
        if int(body) >= 0:
            return
        raise ValueError(f"{task_id}: main_body={body} is not a body id (ids are >= 0)")
    raise TypeError(
        f"{task_id}: main_body must be a body id (an int >= 0) or name (a non-empty str), "
        f"got {type(body).__name__} ({body!r})"
    )


def _pool_options(pool: str) -> OptionTable:
    """The declared options of MuJoCo pool ``pool``: the keys its C++ env has
    (a key without a declaration is left out: tests/families name it), each
    (low, high) range in order, Ant-v3's and -v4's contact terms only with their switch."""
    keys = getattr(_core, pool).default_config()
    options = {key: MUJOCO_KEY_OPTIONS[key] for key in keys if key in MUJOCO_KEY_OPTIONS}
    relations: list[Relation] = [ordered_pair(k) for k in options if options[k] is _RANGE]
    relations.extend(pixel_relations(options))
    if "main_body" in options:
        relations.append(_main_body)
    if "use_contact_forces" in options:
        relations.append(
            unused_unless(
                "use_contact_forces",
                ("contact_cost_weight", "contact_force_range"),
                "Ant-v3 and Ant-v4 pay and observe the contact forces only with "
                "use_contact_forces=True",
            )
        )
    # The per-env parameters (docs/params.md) are config keys too.
    return OptionTable(with_param_options(getattr(_core, pool), options), tuple(relations))


#: The declared options of each MuJoCo pool (none in a build without MuJoCo).
MUJOCO_OPTIONS: dict[str, OptionTable] = (
    {
        f"{name}V{v}": _pool_options(f"{name}V{v}")
        for name, *_ in _TASKS
        for v in (LEGACY_VERSIONS[name], 4, 5)
    }
    if hasattr(_core, "mujoco_version")
    else {}
)

#: The stock model file of each pool (a user's xml_file is measured against it).
STOCK_MODELS = {
    f"{name}V{v}": xml
    for name, xml_v4, xml_v5, *_ in _TASKS
    for v, xml in _versions(name, xml_v4, xml_v5)
}

_MODEL_EXTRA = model_extra(STOCK_MODELS, lambda name: expand_model_path(name))


def _config_extra(pool_name: str, config: Mapping[str, Any]) -> tuple[int, int]:
    """(resident, address) bytes one env adds for its config: a model of the
    user's own (families/mujoco_memory.py), its scaled model arrays (per-env
    parameters other than 1) and a pixel env's frame stack."""
    model = _MODEL_EXTRA(pool_name, config)
    pixels = pixel_bytes(config)
    scaled = scaled_model_bytes(pool_name, config)
    return model[0] + pixels[0] + scaled, model[1] + pixels[1] + scaled


# One env: mjData's buffer and the touched part of its arena (measured); the
# arena (6-15 MB) is reserved at once and touched as needed. A model of the
# user's own adds its difference (families/mujoco_memory.py).
ENV_RESIDENT, ENV_ADDRESS = 200 * KiB, 15 * MiB


def _thread_extra(pool_name: str, config: Mapping[str, Any]) -> tuple[int, int]:
    """(resident, address) bytes each stepping thread of a pixel pool holds: its
    GL context and its scratch mjData (one env's: the camera's positions)."""
    if not config.get("from_pixels"):
        return 0, 0
    sizes = model_render_sizes(os.path.abspath(str(config["xml_file"])))
    model = _MODEL_EXTRA(pool_name, config)
    return pixel_thread_bytes(config, sizes, (ENV_RESIDENT + model[0], ENV_ADDRESS + model[1]))


declare_family(
    Family(
        "mujoco",
        renderer=mujoco_drawer,
        memory=FamilyMemory(
            env_resident=ENV_RESIDENT,
            env_address=ENV_ADDRESS,
            config_extra=_config_extra,
            thread_extra=_thread_extra,
        ),
        backends={"mujoco_warp": MUJOCO_WARP_POOLS},
        options=MUJOCO_OPTIONS,
        envpool_names=MUJOCO_ENVPOOL_NAMES,
    )
)


def has_mujoco() -> bool:
    """Return True if this build of envpool_x includes the MuJoCo family."""
    return hasattr(_core, "mujoco_version")


@functools.cache
def gymnasium_assets_dir() -> str:
    """Return the folder of gymnasium's MuJoCo model XMLs (without importing
    ``gymnasium.envs.mujoco``, which imports mujoco's Python bindings).

    Raises:
        ImportError: gymnasium is not installed.
    """
    spec = importlib.util.find_spec("gymnasium")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("MuJoCo envs read their model XMLs from gymnasium: pip install gymnasium")
    return os.path.join(list(spec.submodule_search_locations)[0], "envs", "mujoco", "assets")


def expand_model_path(xml_file: str) -> str:
    """gymnasium's rule for ``xml_file``: a path starting with ``.`` or ``/``
    is used as is, ``~`` is expanded, and a bare name is a file of gymnasium's
    assets folder.

    Raises:
        FileNotFoundError: the file does not exist.
    """
    if xml_file.startswith((".", "/")):
        path = xml_file
    elif xml_file.startswith("~"):
        path = os.path.expanduser(xml_file)
    else:
        path = os.path.join(gymnasium_assets_dir(), xml_file)
    if os.path.isdir(path):
        raise FileNotFoundError(f"MuJoCo model file {path!r} is a folder, not a file")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"MuJoCo model file {path!r} does not exist")
    return os.path.abspath(path)


def drop_default_timer() -> None:
    """Keep the ``mujoco`` package's default profiling timer off our simulations.

    Importing ``mujoco`` (gymnasium's MuJoCo envs and dm_control do) installs a
    timer callback, ``mjcb_time``, in the MuJoCo library that the package shares
    with envpool_x. MuJoCo then reads the clock around every stage of every
    ``mj_step`` in the process, about 30 times a step, to fill
    ``mjData.timer``, a cost every step pays. Our envs drop
    that default timer before each step, so ``mjData.timer`` stays zero for the
    ``MjData`` you create in Python too. A timer you install with
    ``mujoco.set_mjcb_time(fn)`` is a different function and is kept.
    """
    try:
        import mujoco
    except ImportError:  # without the package nobody installs that timer
        return
    if mujoco.get_mjcb_time() is None:  # no timer of the user's: the package's default
        _core.mujoco_adopt_default_timer()


def resolve_config(config: dict[str, Any]) -> None:
    """Turn ``config["xml_file"]`` into an absolute path (see
    :func:`expand_model_path`) and an integer ``main_body`` into its decimal
    string; and see :func:`drop_default_timer`."""
    drop_default_timer()
    config["xml_file"] = expand_model_path(str(config["xml_file"]))
    # Ant-v5's main_body is a body id (int) or name (str), as in gymnasium;
    # the C++ key is a string where an id is written in decimal digits.
    body = config.get("main_body")
    if isinstance(body, numbers.Integral) and not isinstance(body, bool):
        config["main_body"] = str(body)
    # gymnasium 1.4.0's HumanoidStandup-v5 takes uph_cost_weight but never
    # uses it; we keep its behaviour for parity, and say so rather than
    # ignore the value silently.
    weight = config.get("uph_cost_weight")
    if weight is not None and float(weight) != 1.0:
        warnings.warn(
            f"uph_cost_weight={weight} has no effect: gymnasium 1.4.0's HumanoidStandup-v5 "
            "ignores it and envpool_x follows gymnasium",
            UserWarning,
            stacklevel=_caller_stacklevel(),
        )


def _caller_stacklevel() -> int:
    """The ``stacklevel`` that points a warning raised in this module's
    caller chain at the first frame outside envpool_x (the user's
    ``make_gymnasium(...)`` line, however deep the package's calls go)."""
    # The envpool_x package (this module lives in its families/ folder).
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    level = 1
    frame: types.FrameType | None = sys._getframe(1)  # the function that warns
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        frame = frame.f_back
        level += 1
    return level


def _task_resolver(name: str, version: int) -> Any:
    """The resolve hook of task ``name``-v``version``: :func:`resolve_config`,
    and a pixel env's camera, gymnasium's of that task."""

    def resolve(config: dict[str, Any]) -> None:
        resolve_config(config)
        fill_gym_camera(config, name, version)

    return resolve


def register_mujoco_tasks() -> None:
    """Register ``<Name>-v4``, ``<Name>-v5`` and EnvPool's older id of each
    (``Ant-v3``, ``Reacher-v2``, ...) for every MuJoCo env of this build;
    gymnasium's ids are listed first."""
    for legacy in (False, True):
        for name, xml_v4, xml_v5, max_steps, threshold in _TASKS:
            for version, xml in _versions(name, xml_v4, xml_v5):
                if (version == LEGACY_VERSIONS[name]) != legacy:
                    continue
                register(
                    f"{name}-v{version}",
                    f"{name}V{version}",
                    "mujoco",
                    max_steps,
                    threshold,
                    resolve=_task_resolver(name, version),
                    xml_file=xml,
                )


# The family is optional at build time (a CMake option).
if hasattr(_core, "mujoco_version"):
    register_mujoco_tasks()
