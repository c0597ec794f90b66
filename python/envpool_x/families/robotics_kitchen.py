"""gymnasium-robotics' Franka Kitchen (gymnasium-robotics 1.4.2's
``franka_kitchen``), stepped in C++ on MuJoCo's C API.

Id: ``FrankaKitchen-v1``, truncated at 280 steps as gymnasium-robotics
registers it. The observation is gymnasium-robotics' nested Dict:
``observation`` (59 float64 values, with uniform noise), ``achieved_goal`` and
``desired_goal``, each a Dict of one Box per chosen task. The action is a Box
of 9 float32 joint velocities in [-1, 1]. ``info`` carries gymnasium-robotics'
``tasks_to_complete``, ``step_task_completions`` and
``episode_task_completions`` (per env, lists of task names), made here from
the engine's bit masks (``remaining_tasks``, ``step_completions``) and its
``completion_order``.

The model and the robot's bounds and noise amplitudes
(``franka_config.xml``) are read from the installed ``gymnasium_robotics``
package when the task is made (nothing of it is copied into envpool_x).
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np

from envpool_x import _core
from envpool_x.envpool_names import EnvPoolNames, Fixed, Unsupported
from envpool_x.families.robotics import ROBOTICS_VERSION, assets_dir, resolver
from envpool_x.options import BOOL, TEXT, Float, Option, OptionTable
from envpool_x.params import scaled_arrays_extra, with_built_param_options
from envpool_x.registration import (
    Family,
    FamilyMemory,
    KiB,
    MiB,
    declare_family,
    register_if_built,
)
from envpool_x.render.robotics_kitchen import kitchen_drawer

KITCHEN_ID = "FrankaKitchen-v1"
#: gymnasium-robotics' time limit of FrankaKitchen-v1.
KITCHEN_EPISODE_STEPS = 280
#: MuJoCo steps per env step (FrankaRobot's ``frame_skip``; 1 / dt is its 12 fps).
KITCHEN_FRAME_SKIP = 40
#: The tasks, in gymnasium-robotics' order; a task's index is its bit in the masks.
KITCHEN_TASKS: tuple[str, ...] = (
    "bottom burner",
    "top burner",
    "light switch",
    "slide cabinet",
    "hinge cabinet",
    "microwave",
    "kettle",
)
MODEL_XML = os.path.join("kitchen_franka", "kitchen_assets", "kitchen_env_model.xml")
CONFIG_XML = os.path.join("kitchen_franka", "franka_assets", "franka_config.xml")
#: The model's degrees of freedom (one franka_config.xml entry each).
KITCHEN_DOFS = 29


def has_kitchen() -> bool:
    """Return True if this build of envpool_x includes Franka Kitchen."""
    return hasattr(_core, "FrankaKitchen")


def read_franka_config(path: str) -> list[float]:
    """franka_config.xml's values, 6 per dof (``qpos0`` ...): the position
    bounds, the velocity bounds, the position and velocity noise amplitudes."""
    root = ET.parse(path).getroot()
    values: list[float] = []
    for dof in range(KITCHEN_DOFS):
        node = root.find(f"qpos{dof}")
        if node is None:
            raise ValueError(f"{path} has no qpos{dof} entry")
        for attribute in ("pos_bound", "vel_bound", "pos_noise_amp", "vel_noise_amp"):
            numbers = [float(x) for x in node.get(attribute, "").split()]
            # gymnasium-robotics reads the first number of a noise amplitude.
            values.extend(numbers if attribute.endswith("bound") else numbers[:1])
    return values


def check_tasks(config: dict[str, Any]) -> None:
    """``tasks_to_complete``: a non-empty list of known task names (kept as a
    list of str; duplicates count once, as in gymnasium-robotics' set).

    Raises:
        TypeError: not a list / tuple of str. ValueError: empty or an unknown name.
    """
    tasks = config["tasks_to_complete"]
    if isinstance(tasks, str) or not isinstance(tasks, (list, tuple)):
        raise TypeError(
            f"tasks_to_complete must be a list of task names, got {type(tasks).__name__}"
        )
    if not tasks:
        raise ValueError(f"tasks_to_complete must name at least one of {list(KITCHEN_TASKS)}")
    for task in tasks:
        if not isinstance(task, str):
            raise TypeError(f"tasks_to_complete holds {task!r}: task names are str")
        if task not in KITCHEN_TASKS:
            raise ValueError(
                f"tasks_to_complete: unknown task {task!r}; the tasks are {list(KITCHEN_TASKS)}"
            )
    config["tasks_to_complete"] = [str(t) for t in tasks]


def resolve_kitchen(config: dict[str, Any]) -> None:
    """Fill the model path and franka_config from the installed
    gymnasium_robotics package, and check tasks_to_complete."""
    resolver("", MODEL_XML)(config)
    check_tasks(config)
    path = os.path.join(assets_dir(), CONFIG_XML)
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"gymnasium-robotics' {path} is missing: reinstall "
            f"gymnasium-robotics=={ROBOTICS_VERSION}"
        )
    values = read_franka_config(path)
    if config.get("franka_config") and list(config["franka_config"]) != values:
        raise ValueError(
            "franka_config is filled from gymnasium-robotics' franka_config.xml: leave it out"
        )
    config["franka_config"] = values


def _names(mask: int) -> list[str]:
    return [task for bit, task in enumerate(KITCHEN_TASKS) if mask & (1 << bit)]


def _lists(rows: list[list[str]]) -> np.ndarray:
    out = np.empty(len(rows), dtype=object)
    for i, row in enumerate(rows):
        out[i] = row
    return out


def add_task_lists(info: dict[str, Any]) -> None:
    """gymnasium-robotics' three info lists (per env, as object arrays of
    lists of task names) from the engine's fields: ``tasks_to_complete`` and
    ``step_task_completions`` in the tasks' order, ``episode_task_completions``
    in the order the episode completed them."""
    if "remaining_tasks" not in info:
        return
    info["tasks_to_complete"] = _lists([_names(int(m)) for m in info["remaining_tasks"]])
    info["step_task_completions"] = _lists([_names(int(m)) for m in info["step_completions"]])
    info["episode_task_completions"] = _lists(
        [[KITCHEN_TASKS[i] for i in row if i >= 0] for row in info["completion_order"]]
    )


def add_kitchen_info(result: Any) -> None:
    """The family's ``info_extras``: the task lists of a gymnasium result's
    info (and of its ``final_info`` in same_step mode)."""
    info = result[4]
    add_task_lists(info)
    final = info.get("final_info")
    if isinstance(final, dict) and "remaining_tasks" in final:
        add_task_lists(final)
        mask = final.get("_remaining_tasks")
        if mask is not None:
            for key in ("tasks_to_complete", "step_task_completions", "episode_task_completions"):
                final[f"_{key}"] = mask


KITCHEN_OPTIONS = OptionTable(
    with_built_param_options(
        "FrankaKitchen",
        {
            "xml_file": TEXT,
            "franka_config": Option(
                "any", note="filled from gymnasium-robotics' franka_config.xml"
            ),
            "tasks_to_complete": Option("any", note=f"a non-empty list of {list(KITCHEN_TASKS)}"),
            "terminate_on_tasks_completed": BOOL,
            "remove_task_when_completed": BOOL,
            "robot_noise_ratio": Float(0.0),
            "object_noise_ratio": Float(0.0),
        },
    )
)

KITCHEN_NAMES = EnvPoolNames(
    {
        "frame_skip": Fixed(
            KITCHEN_FRAME_SKIP,
            f"frame_skip is FrankaRobot's MuJoCo steps per env step ({KITCHEN_FRAME_SKIP}, "
            "which gymnasium-robotics asserts); to act less often, repeat each action yourself",
        ),
        "frame_stack": Fixed(1, "to stack observations, keep the last ones yourself"),
        "base_path": Unsupported(
            "it is where EnvPool keeps its model files; envpool_x loads gymnasium-robotics' own "
            "model (from the installed gymnasium_robotics package)"
        ),
    }
)

declare_family(
    Family(
        "robotics_kitchen",
        title="gymnasium-robotics' Franka Kitchen",
        renderer=kitchen_drawer,
        # Measured per env: 218 KiB resident, 55.6 MiB of address space (mjData's
        # arena for this model), as the growth of VmRSS / VmSize from a 20-env to
        # a 220-env pool after a reset and two steps; declared about 1.1x that.
        memory=FamilyMemory(
            env_resident=240 * KiB, env_address=62 * MiB, config_extra=scaled_arrays_extra
        ),
        options={"FrankaKitchen": KITCHEN_OPTIONS},
        envpool_names={"FrankaKitchen": KITCHEN_NAMES},
        info_extras=add_kitchen_info,
    )
)

BUILD_HINT = (
    "this envpool_x was built without the gymnasium-robotics tasks (ENVPOOL_X_ROBOTICS=OFF or "
    "ENVPOOL_X_MUJOCO=OFF): rebuild with both on "
    "(pip: --config-settings=cmake.define.ENVPOOL_X_ROBOTICS=ON)"
)


def register_kitchen() -> None:
    """Register FrankaKitchen-v1; in a build without the family, making it
    says how to get it."""
    add = register_if_built(has_kitchen(), BUILD_HINT)
    add(
        KITCHEN_ID,
        "FrankaKitchen",
        "robotics_kitchen",
        KITCHEN_EPISODE_STEPS,
        resolve=resolve_kitchen,
    )


register_kitchen()
