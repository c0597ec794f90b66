"""Meta-World's Sawyer tasks (metaworld 3.1.1, the v3 tasks), stepped in C++ on
MuJoCo's C API.

Ids: ``MetaWorld<Task>-v3`` (``MetaWorldReach-v3``, ...), and EnvPool's
``MetaWorld/<Task>-v3`` as aliases (a registered id holds no '/'). Every episode
is truncated at 500 steps (Meta-World's ``max_path_length``).

The models are Meta-World's own XML files, read from the installed ``metaworld``
package when a task is made (nothing of Meta-World is copied into envpool_x;
install it with ``pip install metaworld==3.1.1``).

Goal variations: Meta-World's benchmarks give each task 50 variations (the
``rand_vec`` that places its objects and goal), drawn by ``MT1(task,
seed=task_seed)`` from numpy's global generator; the C++ envs replay those
draws. ``task_index=-1`` (the default) draws one of the 50 at each reset from the
env's seed stream (Meta-World's ``RandomTaskSelectWrapper``); ``task_index=i``
fixes the i-th. ``MT1(task, seed=s).train_tasks`` and ``ML1(task,
seed=s).train_tasks`` are ``task_seed=s``; ``ML1(task, seed=s).test_tasks`` are
``task_seed=s + 1``.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Callable
from typing import Any

from envpool_x import _core
from envpool_x.envpool_names import EnvPoolNames, Fixed, Unsupported
from envpool_x.families.metaworld_sets import SET_OPTIONS, SET_POOL, register_sets
from envpool_x.families.mujoco import drop_default_timer
from envpool_x.families.option_rules import fixed_by_task_id
from envpool_x.options import BOOL, TEXT, Choice, Int, OptionTable
from envpool_x.params import scaled_arrays_extra, with_built_param_options
from envpool_x.registration import (
    Family,
    FamilyMemory,
    KiB,
    MiB,
    alias_if_built,
    declare_family,
    register_if_built,
)

#: The metaworld release whose tasks these reproduce (the test oracle).
METAWORLD_VERSION = "3.1.1"

#: (Meta-World's name, id suffix, model file under assets/sawyer_xyz); the C++ pool of a
#: task is MetaWorld<suffix> (cpp/bindings/metaworld.cpp).
_TASK_ROWS: list[tuple[str, str, str]] = [
    ("reach-v3", "Reach", "sawyer_reach_v3.xml"),
    ("push-v3", "Push", "sawyer_push_v3.xml"),
    ("pick-place-v3", "PickPlace", "sawyer_pick_place_v3.xml"),
    ("door-open-v3", "DoorOpen", "sawyer_door_pull.xml"),
    ("drawer-close-v3", "DrawerClose", "sawyer_drawer.xml"),
    ("button-press-v3", "ButtonPress", "sawyer_button_press.xml"),
    ("reach-wall-v3", "ReachWall", "sawyer_reach_wall_v3.xml"),
    ("drawer-open-v3", "DrawerOpen", "sawyer_drawer.xml"),
    ("door-close-v3", "DoorClose", "sawyer_door_pull.xml"),
    ("button-press-topdown-v3", "ButtonPressTopdown", "sawyer_button_press_topdown.xml"),
    ("window-open-v3", "WindowOpen", "sawyer_window_horizontal.xml"),
    ("window-close-v3", "WindowClose", "sawyer_window_horizontal.xml"),
    ("button-press-wall-v3", "ButtonPressWall", "sawyer_button_press_wall.xml"),
    (
        "button-press-topdown-wall-v3",
        "ButtonPressTopdownWall",
        "sawyer_button_press_topdown_wall.xml",
    ),
    ("peg-insert-side-v3", "PegInsertSide", "sawyer_peg_insertion_side.xml"),
    ("sweep-v3", "Sweep", "sawyer_sweep_v3.xml"),
    ("basketball-v3", "Basketball", "sawyer_basketball.xml"),
    ("shelf-place-v3", "ShelfPlace", "sawyer_shelf_placing.xml"),
    ("sweep-into-v3", "SweepInto", "sawyer_table_with_hole.xml"),
    ("lever-pull-v3", "LeverPull", "sawyer_lever_pull.xml"),
    ("push-wall-v3", "PushWall", "sawyer_push_wall_v3.xml"),
    ("push-back-v3", "PushBack", "sawyer_push_back_v3.xml"),
    ("pick-place-wall-v3", "PickPlaceWall", "sawyer_pick_place_wall_v3.xml"),
    ("handle-press-v3", "HandlePress", "sawyer_handle_press.xml"),
    ("handle-press-side-v3", "HandlePressSide", "sawyer_handle_press_sideways.xml"),
    ("handle-pull-v3", "HandlePull", "sawyer_handle_press.xml"),
    ("handle-pull-side-v3", "HandlePullSide", "sawyer_handle_press_sideways.xml"),
    ("plate-slide-v3", "PlateSlide", "sawyer_plate_slide.xml"),
    ("plate-slide-side-v3", "PlateSlideSide", "sawyer_plate_slide_sideway.xml"),
    ("plate-slide-back-v3", "PlateSlideBack", "sawyer_plate_slide.xml"),
    ("plate-slide-back-side-v3", "PlateSlideBackSide", "sawyer_plate_slide_sideway.xml"),
    ("door-lock-v3", "DoorLock", "sawyer_door_lock.xml"),
    ("door-unlock-v3", "DoorUnlock", "sawyer_door_lock.xml"),
    ("faucet-open-v3", "FaucetOpen", "sawyer_faucet.xml"),
    ("faucet-close-v3", "FaucetClose", "sawyer_faucet.xml"),
    ("coffee-button-v3", "CoffeeButton", "sawyer_coffee.xml"),
    ("coffee-push-v3", "CoffeePush", "sawyer_coffee.xml"),
    ("coffee-pull-v3", "CoffeePull", "sawyer_coffee.xml"),
    ("dial-turn-v3", "DialTurn", "sawyer_dial.xml"),
    ("hand-insert-v3", "HandInsert", "sawyer_table_with_hole.xml"),
    ("soccer-v3", "Soccer", "sawyer_soccer.xml"),
    ("pick-out-of-hole-v3", "PickOutOfHole", "sawyer_pick_out_of_hole.xml"),
    ("peg-unplug-side-v3", "PegUnplugSide", "sawyer_peg_unplug_side.xml"),
    ("box-close-v3", "BoxClose", "sawyer_box.xml"),
    ("bin-picking-v3", "BinPicking", "sawyer_bin_picking.xml"),
    ("assembly-v3", "Assembly", "sawyer_assembly_peg.xml"),
    ("disassemble-v3", "Disassemble", "sawyer_assembly_peg.xml"),
    ("hammer-v3", "Hammer", "sawyer_hammer.xml"),
    ("stick-push-v3", "StickPush", "sawyer_stick_obj.xml"),
    ("stick-pull-v3", "StickPull", "sawyer_stick_obj.xml"),
]

#: (Meta-World's name, id suffix, C++ pool, model file under assets/sawyer_xyz).
TASKS: list[tuple[str, str, str, str]] = [
    (name, suffix, f"MetaWorld{suffix}", xml) for name, suffix, xml in _TASK_ROWS
]

#: Meta-World's ``max_path_length``.
EPISODE_STEPS = 500
#: EnvPool's reward threshold of every task (the reward of a success step).
REWARD_THRESHOLD = 10.0
#: Meta-World's goal variations per task (``_N_GOALS``).
NUM_VARIATIONS = 50
#: Meta-World's ``frame_skip``: MuJoCo steps per env step.
FRAME_SKIP = 5


def has_metaworld() -> bool:
    """Return True if this build of envpool_x includes the Meta-World tasks."""
    return hasattr(_core, "MetaWorldReach")


def task_id(suffix: str) -> str:
    """envpool_x's id of a task, e.g. ``"PickPlace"`` gives ``"MetaWorldPickPlace-v3"``."""
    return f"MetaWorld{suffix}-v3"


def envpool_id(suffix: str) -> str:
    """EnvPool's id of a task, e.g. ``"PickPlace"`` gives ``"MetaWorld/PickPlace-v3"``."""
    return f"MetaWorld/{suffix}-v3"


@functools.cache
def assets_dir() -> str:
    """Return the folder of Meta-World's Sawyer model XMLs (found without
    importing ``metaworld``, which imports gymnasium's MuJoCo envs).

    Raises:
        ImportError: metaworld is not installed.
    """
    spec = importlib.util.find_spec("metaworld")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(
            "the Meta-World tasks read their models from the metaworld package, which is not "
            f'installed: pip install metaworld=={METAWORLD_VERSION} (or "envpool-x[metaworld]")'
        )
    return os.path.join(list(spec.submodule_search_locations)[0], "assets", "sawyer_xyz")


def _resolver(xml: str) -> Callable[[dict[str, Any]], None]:
    def resolve(config: dict[str, Any]) -> None:
        path = os.path.join(assets_dir(), xml)
        if config.get("xml_file") and config["xml_file"] != path:
            raise ValueError(
                f"xml_file={config['xml_file']!r}: the Meta-World tasks run Meta-World's own "
                "model (filled from the installed metaworld package): leave xml_file out"
            )
        if not os.path.isfile(path):
            raise FileNotFoundError(
                f"Meta-World's model {path} is missing: reinstall metaworld=={METAWORLD_VERSION}"
            )
        config["xml_file"] = path
        drop_default_timer()

    return resolve


def _id_of_task(name: str) -> str | None:
    """The id of another Meta-World task name, for messages (None: not one of ours)."""
    for mw_name, suffix, _, _ in TASKS:
        if mw_name == name:
            return task_id(suffix)
    return None


#: The declared options of each pool.
METAWORLD_OPTIONS: dict[str, OptionTable] = {
    pool: OptionTable(
        with_built_param_options(
            pool,
            {
                "xml_file": TEXT,
                "task_name": Choice(name, note="the id's task (Meta-World's name)"),
                "task_seed": Int(0, 2**32 - 1, note="the seed of MT1(task, seed)'s variations"),
                "task_index": Int(-1, NUM_VARIATIONS - 1, note="-1: a variation drawn per reset"),
                "partially_observable": BOOL,
            },
        ),
        (fixed_by_task_id("task_name", _id_of_task),),
    )
    for name, _, pool, _ in TASKS
}
METAWORLD_OPTIONS[SET_POOL] = SET_OPTIONS


def _envpool_names() -> EnvPoolNames:
    """EnvPool's keys of the Meta-World pools (:mod:`envpool_x.envpool_names`)."""
    return EnvPoolNames(
        {
            "frame_skip": Fixed(
                FRAME_SKIP,
                "frame_skip is Meta-World's MuJoCo steps per env step, which its tasks fix "
                f"({FRAME_SKIP}); to act less often, repeat each action yourself",
            ),
            "frame_stack": Fixed(
                1,
                "the observation already holds the previous step's hand and object values, "
                "as Meta-World's; to stack more, keep them yourself",
            ),
            "base_path": Unsupported(
                "it is where EnvPool keeps its model files; envpool_x loads Meta-World's own "
                "models (from the installed metaworld package)"
            ),
        }
    )


declare_family(
    Family(
        "metaworld",
        title="the Meta-World tasks",
        # Measured per env (PickPlace): 359 KiB resident, 14 MiB of address
        # space (mjData and its arena), as the growth of VmRSS / VmSize from a
        # 4-env to a 36-env pool after 20 steps; declared with a quarter more.
        memory=FamilyMemory(
            env_resident=448 * KiB, env_address=18 * MiB, config_extra=scaled_arrays_extra
        ),
        options=METAWORLD_OPTIONS,
        envpool_names={pool: _envpool_names() for pool in METAWORLD_OPTIONS},
    )
)

BUILD_HINT = (
    "this envpool_x was built without the Meta-World tasks (ENVPOOL_X_METAWORLD=OFF or "
    "ENVPOOL_X_MUJOCO=OFF): rebuild with both on "
    "(pip: --config-settings=cmake.define.ENVPOOL_X_METAWORLD=ON)"
)


def register_metaworld_tasks() -> None:
    """Register ``MetaWorld<Task>-v3`` for every task here, and EnvPool's
    ``MetaWorld/<Task>-v3`` as its alias; in a build without the family,
    making one says how to get it."""
    built = has_metaworld()
    add = register_if_built(built, BUILD_HINT)
    alias = alias_if_built(built, BUILD_HINT)
    for name, suffix, pool, xml in TASKS:
        add(
            task_id(suffix),
            pool,
            "metaworld",
            EPISODE_STEPS,
            reward_threshold=REWARD_THRESHOLD,
            resolve=_resolver(xml),
            task_name=name,
        )
        alias(envpool_id(suffix), task_id(suffix))
    # The benchmarks' sets (metaworld_sets.py): those whose tasks are all here.
    with_sets = built and hasattr(_core, SET_POOL)
    register_sets(
        {name: xml for name, _, pool, xml in TASKS if with_sets and hasattr(_core, pool)},
        with_sets,
        add if with_sets else register_if_built(False, BUILD_HINT),
        assets_dir,
        drop_default_timer,
        EPISODE_STEPS,
        REWARD_THRESHOLD,
    )


register_metaworld_tasks()
