"""Box2D (gymnasium 1.4.0's box2d envs) in C++ on Box2D 2.3: cpp/envs/box2d/.

Box2D's C++ is compiled into ``envpool_x._core`` from the ``box2d-py`` source
distribution (cmake/box2d.cmake), the same sources as the ``box2d`` wheel that
``gymnasium[box2d]`` uses. The ids exist only in builds with ``ENVPOOL_X_BOX2D``
on (the default); docs/box2d.md lists the keys and the differences.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envpool_x import _core
from envpool_x.families.option_rules import unused_unless
from envpool_x.options import BOOL, Float, Option, OptionTable
from envpool_x.registration import (
    Family,
    FamilyMemory,
    KiB,
    declare_family,
    note_not_built,
    register,
)


def _particles_follow_render_mode(
    task_id: str, config: Mapping[str, Any], given: frozenset[str]
) -> None:
    """A relation: ``exhaust_particles``, set from render_mode, given by hand only
    with the value render_mode implies."""
    wanted = config.get("render_mode") is not None
    if "exhaust_particles" in given and bool(config["exhaust_particles"]) != wanted:
        raise ValueError(
            f"{task_id}: exhaust_particles is set from render_mode (gymnasium makes "
            "LunarLander's exhaust particles only when it renders): give "
            "render_mode='rgb_array' or 'human' to have them, None not to"
        )


#: The declared options of each pool. gymnasium asserts -12 < gravity < 0 and
#: only warns outside wind_power 0..20 and turbulence_power 0..2: those are
#: accepted, but not a negative power (a magnitude), and not NaN or an
#: infinity; a wind given without enable_wind would be ignored and is refused.
#: lap_complete_percent is a fraction of the track's tiles in (0, 1]: at 0 the
#: first tile ends the lap, and above 1 acts as 1 (every tile).
#: LunarLander's exhaust_particles follows render_mode (:func:`_particles_from_render_mode`).
BOX2D_OPTIONS: dict[str, OptionTable] = {
    "LunarLander": OptionTable(
        {
            "continuous": BOOL,
            "enable_wind": BOOL,
            "exhaust_particles": Option("bool", note="set from render_mode"),
            "gravity": Float(-12, 0, exclusive=(True, True)),
            "turbulence_power": Float(0, note="the largest rotational wind"),
            "wind_power": Float(0, note="the largest linear wind"),
            "main_engine_power": Float(0, 1e3, note="a per-env parameter (docs/params.md)"),
            "side_engine_power": Float(0, 1e3, note="a per-env parameter (docs/params.md)"),
        },
        (
            unused_unless(
                "enable_wind",
                ("wind_power", "turbulence_power"),
                "the wind blows only with enable_wind=True",
            ),
            _particles_follow_render_mode,
        ),
    ),
    "BipedalWalker": OptionTable({"hardcore": BOOL}),
    "CarRacing": OptionTable(
        {
            "continuous": BOOL,
            "domain_randomize": BOOL,
            "lap_complete_percent": Float(
                0, 1, exclusive=(True, False), note="of the tiles, visited to end a lap"
            ),
        }
    ),
}


def _particles_from_render_mode(config: dict[str, Any]) -> None:
    """LunarLander's ``resolve``: the exhaust particles (Box2D bodies that
    only the frames show) exist when the env renders, as in gymnasium."""
    config["exhaust_particles"] = config.get("render_mode") is not None


# One env: the world's block allocator, bodies and contacts (CarRacing also its
# ~300 road tiles), measured at 512 envs, 2 threads. Each world also holds
# Box2D's 100 KiB stack allocator, reserved but mostly never touched: it counts
# against RLIMIT_AS only (VmSize grew 96-100 KiB per env beyond the RSS with
# LunarLander at 20,000 envs, BipedalWalker at 4,000 and CarRacing at 1,000).
FAMILY = declare_family(
    Family(
        "box2d",
        memory=FamilyMemory(
            env_reserved=112 * KiB,
            pool_resident={
                "LunarLander": 88 * KiB,
                "BipedalWalker": 192 * KiB,
                "CarRacing": 344 * KiB,
            },
        ),
        options=BOX2D_OPTIONS,
    )
).name
#: How to get the family when this build lacks it.
BUILD_HINT = (
    "this envpool_x was built without the Box2D family (ENVPOOL_X_BOX2D=OFF, or the "
    "box2d-py source distribution could not be fetched): rebuild with -DENVPOOL_X_BOX2D=ON "
    "(pip: --config-settings=cmake.define.ENVPOOL_X_BOX2D=ON)"
)
#: The ids this family registers when built.
TASK_IDS = (
    "LunarLander-v3",
    "LunarLanderContinuous-v3",
    "LunarLander-v2",
    "LunarLanderContinuous-v2",
    "BipedalWalker-v3",
    "BipedalWalkerHardcore-v3",
    "CarRacing-v3",
    "CarRacing-v2",
)


def has_box2d() -> bool:
    """Return True if this build of envpool_x includes the Box2D family."""
    return hasattr(_core, "LunarLander")


def register_box2d_tasks() -> None:
    """Register the Box2D ids (gymnasium's time limits and reward thresholds).

    The ``-v2`` ids are EnvPool's names; they run gymnasium's v3 dynamics, which
    agree with v2's when the wind is off (docs/box2d.md); ``CarRacing-v2`` is
    ``CarRacing-v3`` (the two differ only in how gymnasium reports a finished lap).
    """
    for version in ("v3", "v2"):
        register(
            f"LunarLander-{version}",
            "LunarLander",
            FAMILY,
            1000,
            200.0,
            resolve=_particles_from_render_mode,
        )
        register(
            f"LunarLanderContinuous-{version}",
            "LunarLander",
            FAMILY,
            1000,
            200.0,
            resolve=_particles_from_render_mode,
            continuous=True,
        )
    # EnvPool uses the same ids for BipedalWalker.
    register("BipedalWalker-v3", "BipedalWalker", FAMILY, 1600, 300.0)
    register("BipedalWalkerHardcore-v3", "BipedalWalker", FAMILY, 2000, 300.0, hardcore=True)
    # EnvPool 1.2.5 registers both CarRacing ids; -v2 runs gymnasium's v3 here.
    for version in ("v3", "v2"):
        register(f"CarRacing-{version}", "CarRacing", FAMILY, 1000, 900.0)


# The family is optional at build time (a CMake option); without it, making
# one of its ids says how to get it.
if has_box2d():
    register_box2d_tasks()
else:
    note_not_built(TASK_IDS, BUILD_HINT)
