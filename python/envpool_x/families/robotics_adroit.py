"""gymnasium-robotics' Adroit hand tasks (gymnasium-robotics 1.4.2's
``adroit_hand``), stepped in C++ on MuJoCo's C API.

Ids: ``AdroitHandDoor-v1``, ``AdroitHandHammer-v1``, ``AdroitHandPen-v1``,
``AdroitHandRelocate-v1`` (dense rewards) and their ``...Sparse-v1``, every
episode truncated at 200 steps, as gymnasium-robotics registers them. The
observation is a Box (39 / 46 / 45 / 39 float64 values), the action a Box of
28 (Pen: 24) float32 values in [-1, 1], scaled to the actuators' control
ranges; ``info["success"]`` is the task's goal test.

The models are gymnasium-robotics' own XML files, read from the installed
``gymnasium_robotics`` package when a task is made (nothing of it is copied
into envpool_x; install it with ``pip install gymnasium-robotics==1.4.2``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envpool_x import _core
from envpool_x.envpool_names import EnvPoolNames, Fixed, Unsupported
from envpool_x.families.robotics import resolver
from envpool_x.options import TEXT, Choice, OptionTable
from envpool_x.params import scaled_arrays_extra, with_built_param_options
from envpool_x.registration import (
    Family,
    FamilyMemory,
    KiB,
    MiB,
    declare_family,
    register_if_built,
)
from envpool_x.render.robotics_adroit import adroit_drawer

#: gymnasium-robotics' time limit of every Adroit task.
ADROIT_EPISODE_STEPS = 200
#: MuJoCo steps per env step (gymnasium's ``frame_skip``).
ADROIT_FRAME_SKIP = 5
REWARD_TYPES = ("dense", "sparse")


@dataclass(frozen=True)
class AdroitTask:
    """One Adroit task: its pool, model and sizes (EnvPool's config reports
    them as ``adroit_task``, ``obs_dim``, ``action_dim``, ``qpos_dim``,
    ``reset_dim``)."""

    name: str  # the id's stem and the C++ pool
    key: str  # EnvPool's adroit_task
    obs_dim: int
    action_dim: int
    qpos_dim: int
    reset_dim: int  # the values a reset draws into the model

    @property
    def xml(self) -> str:
        """The model, under gymnasium_robotics/envs/assets/adroit_hand."""
        return f"adroit_{self.key}.xml"


ADROIT_TASKS: list[AdroitTask] = [
    AdroitTask("AdroitHandDoor", "door", 39, 28, 30, 3),
    AdroitTask("AdroitHandHammer", "hammer", 46, 26, 33, 3),
    AdroitTask("AdroitHandPen", "pen", 45, 24, 30, 4),
    AdroitTask("AdroitHandRelocate", "relocate", 39, 30, 36, 6),
]


def has_adroit() -> bool:
    """Return True if this build of envpool_x includes the Adroit tasks."""
    return hasattr(_core, "AdroitHandDoor")


def adroit_id(name: str, reward_type: str) -> str:
    """``adroit_id("AdroitHandPen", "sparse")`` is ``"AdroitHandPenSparse-v1"``."""
    return f"{name}{'Sparse' if reward_type == 'sparse' else ''}-v1"


ADROIT_OPTIONS: dict[str, OptionTable] = {
    task.name: OptionTable(
        with_built_param_options(
            task.name,
            {
                "xml_file": TEXT,
                "reward_type": Choice(*REWARD_TYPES, note="the id's Sparse suffix: sparse"),
            },
        )
    )
    for task in ADROIT_TASKS
}


def _envpool_names(task: AdroitTask) -> EnvPoolNames:
    """EnvPool's keys of an Adroit pool: the task's sizes, which the id fixes."""
    size = "a size of gymnasium-robotics' task, which the id fixes"
    values: dict[str, Any] = {
        "adroit_task": task.key,
        "obs_dim": task.obs_dim,
        "action_dim": task.action_dim,
        "qpos_dim": task.qpos_dim,
        "qvel_dim": task.qpos_dim,
        "reset_dim": task.reset_dim,
    }
    entries: dict[str, Any] = {key: Fixed(value, size) for key, value in values.items()}
    entries["frame_skip"] = Fixed(
        ADROIT_FRAME_SKIP,
        f"frame_skip is the task's MuJoCo steps per env step ({ADROIT_FRAME_SKIP}); to act "
        "less often, repeat each action yourself",
    )
    entries["frame_stack"] = Fixed(1, "to stack observations, keep the last ones yourself")
    entries["base_path"] = Unsupported(
        "it is where EnvPool keeps its model files; envpool_x loads gymnasium-robotics' own "
        "models (from the installed gymnasium_robotics package)"
    )
    return EnvPoolNames(entries)


declare_family(
    Family(
        "robotics_adroit",
        title="gymnasium-robotics' Adroit hand tasks",
        renderer=adroit_drawer,
        # Measured per env (Door, Hammer, Relocate): 354-384 KiB resident,
        # 8.3 MiB of address space (mjData and its arena, the model arrays
        # each env edits), as the growth of VmRSS / VmSize from a 36-env to a
        # 260-env pool after a reset and two steps; declared about 1.1x that.
        memory=FamilyMemory(
            env_resident=432 * KiB, env_address=10 * MiB, config_extra=scaled_arrays_extra
        ),
        options=ADROIT_OPTIONS,
        envpool_names={task.name: _envpool_names(task) for task in ADROIT_TASKS},
    )
)

BUILD_HINT = (
    "this envpool_x was built without the gymnasium-robotics tasks (ENVPOOL_X_ROBOTICS=OFF or "
    "ENVPOOL_X_MUJOCO=OFF): rebuild with both on "
    "(pip: --config-settings=cmake.define.ENVPOOL_X_ROBOTICS=ON)"
)


def register_adroit_tasks() -> None:
    """Register the eight Adroit ids (dense and sparse); in a build without
    the family, making one says how to get it."""
    add = register_if_built(has_adroit(), BUILD_HINT)
    for task in ADROIT_TASKS:
        for reward_type in REWARD_TYPES:
            add(
                adroit_id(task.name, reward_type),
                task.name,
                "robotics_adroit",
                ADROIT_EPISODE_STEPS,
                resolve=resolver("adroit_hand", task.xml),
                reward_type=reward_type,
            )


register_adroit_tasks()
