"""gymnasium-robotics' goal-conditioned tasks (gymnasium-robotics 1.4.2),
stepped in C++ on MuJoCo's C API: here the Fetch arm tasks; the Shadow Hand
tasks in robotics_hand.py (added to this family through :func:`extend_family`).

Ids: ``FetchReach-v4``, ``FetchPush-v4``, ``FetchSlide-v4``,
``FetchPickAndPlace-v4`` and their ``...Dense-v4`` (gymnasium-robotics' v4
ids: the ``mujoco`` bindings' classes), every episode truncated at 50 steps.
EnvPool's ``-v1`` ids of the same names are aliases of the ``-v4`` ids
(docs/robotics.md says where EnvPool's differ).

The models are gymnasium-robotics' own XML files, read from the installed
``gymnasium_robotics`` package when a task is made (nothing of it is copied
into envpool_x; install it with ``pip install gymnasium-robotics==1.4.2``).

Goal-conditioned API: the observation is gymnasium's Dict of
``achieved_goal``, ``desired_goal`` and ``observation``; ``info["is_success"]``
is 1.0 when the goal is reached; the gymnasium front end's
``compute_reward(achieved_goal, desired_goal, info)``,
``compute_terminated`` and ``compute_truncated`` take one goal or a batch
(the last axis is the goal), as HER's relabelling calls them.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from envpool_x import _core
from envpool_x.envpool_names import EnvPoolNames, Fixed, Unsupported
from envpool_x.families.mujoco import drop_default_timer
from envpool_x.options import TEXT, Choice, OptionTable
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
from envpool_x.render.robotics import robotics_drawer

#: The gymnasium-robotics release whose tasks these reproduce (the test oracle).
ROBOTICS_VERSION = "1.4.2"
#: gymnasium-robotics' time limit of the Fetch tasks.
FETCH_EPISODE_STEPS = 50
#: MuJoCo steps per env step of the Fetch tasks (``n_substeps``).
FETCH_SUBSTEPS = 20
#: The goal distance under which a Fetch task counts as succeeded.
FETCH_DISTANCE_THRESHOLD = 0.05


@dataclass(frozen=True)
class FetchTask:
    """One Fetch task: gymnasium-robotics' constructor values EnvPool's config
    reports (``initial_slide0`` is the robot base's x)."""

    name: str  # the id's stem and the C++ pool
    xml: str  # under gymnasium_robotics/envs/assets/fetch
    has_object: bool
    block_gripper: bool
    target_in_the_air: bool
    gripper_extra_height: float
    target_offset_x: float
    obj_range: float
    target_range: float
    initial_slide0: float
    initial_object: tuple[float, float, float]


#: The Fetch tasks (the C++ headers in cpp/envs/robotics/fetch/ hold the same values).
FETCH_TASKS: list[FetchTask] = [
    FetchTask("FetchReach", "reach.xml", False, True, True, 0.2, 0.0, 0.15, 0.15, 0.4049,
              (1.25, 0.53, 0.4)),
    FetchTask("FetchPush", "push.xml", True, True, False, 0.0, 0.0, 0.15, 0.15, 0.405,
              (1.25, 0.53, 0.4)),
    FetchTask("FetchSlide", "slide.xml", True, True, False, -0.02, 0.4, 0.1, 0.3, 0.05,
              (1.7, 1.1, 0.41)),
    FetchTask("FetchPickAndPlace", "pick_and_place.xml", True, False, True, 0.2, 0.0, 0.15,
              0.15, 0.405, (1.25, 0.53, 0.4)),
]  # fmt: skip

REWARD_TYPES = ("sparse", "dense")


def has_robotics() -> bool:
    """Return True if this build of envpool_x includes the gymnasium-robotics tasks."""
    return hasattr(_core, "FetchReach")


def fetch_id(name: str, reward_type: str, version: int = 4) -> str:
    """The id of a Fetch task: ``fetch_id("FetchPush", "dense")`` is ``"FetchPushDense-v4"``."""
    return f"{name}{'Dense' if reward_type == 'dense' else ''}-v{version}"


@functools.cache
def assets_dir() -> str:
    """Return gymnasium-robotics' model folder (``envs/assets``), found without
    importing ``gymnasium_robotics`` (which registers every one of its envs).

    Raises:
        ImportError: gymnasium-robotics is not installed.
    """
    spec = importlib.util.find_spec("gymnasium_robotics")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(
            "the gymnasium-robotics tasks read their models from the gymnasium_robotics "
            f"package, which is not installed: pip install gymnasium-robotics=={ROBOTICS_VERSION} "
            '(or "envpool-x[robotics]")'
        )
    return os.path.join(list(spec.submodule_search_locations)[0], "envs", "assets")


def resolver(folder: str, xml: str) -> Callable[[dict[str, Any]], None]:
    """The resolve hook of a task whose model is gymnasium-robotics' ``folder/xml``."""

    def resolve(config: dict[str, Any]) -> None:
        path = os.path.join(assets_dir(), folder, xml)
        if config.get("xml_file") and config["xml_file"] != path:
            raise ValueError(
                f"xml_file={config['xml_file']!r}: the gymnasium-robotics tasks run "
                "gymnasium-robotics' own model (filled from the installed package): leave "
                "xml_file out"
            )
        if not os.path.isfile(path):
            raise FileNotFoundError(
                f"gymnasium-robotics' model {path} is missing: reinstall "
                f"gymnasium-robotics=={ROBOTICS_VERSION}"
            )
        config["xml_file"] = path
        drop_default_timer()

    return resolve


@dataclass(frozen=True)
class GoalReward:
    """A goal task's ``compute_reward`` / ``compute_terminated`` /
    ``compute_truncated``: the goal distance against a threshold (numpy's
    arithmetic of gymnasium-robotics' ``goal_distance``)."""

    distance_threshold: float
    sparse: bool

    def compute_reward(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        """-1.0 (float32) per goal farther than the threshold, else -0.0
        (sparse), or the negative distance (dense, float64)."""
        achieved, desired = np.asarray(achieved_goal), np.asarray(desired_goal)
        if achieved.shape != desired.shape:
            raise ValueError(
                f"achieved_goal {achieved.shape} and desired_goal {desired.shape} differ in shape"
            )
        distance = np.linalg.norm(achieved - desired, axis=-1)
        if self.sparse:
            return -(distance > self.distance_threshold).astype(np.float32)
        return -distance

    def compute_terminated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        """False: the tasks go on until the time limit (an array for a batch)."""
        return _never(achieved_goal)

    def compute_truncated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        """False: truncation is the time limit's, which the pool counts."""
        return _never(achieved_goal)


def _never(achieved_goal: Any) -> Any:
    shape = np.shape(achieved_goal)[:-1]
    return False if shape == () else np.zeros(shape, dtype=bool)


#: The goal functions of pools beside Fetch's, by pool (:func:`extend_family`).
POOL_GOAL_FUNCTIONS: dict[str, Callable[[Any], Any]] = {}


def goal_reward(spec: Any) -> Any:
    """The goal functions of a made spec (its pool's; Fetch's: its reward_type)."""
    make = POOL_GOAL_FUNCTIONS.get(spec.entry.pool_name)
    if make is not None:
        return make(spec)
    return GoalReward(FETCH_DISTANCE_THRESHOLD, spec.config.reward_type == "sparse")


#: The declared options of each pool (gymnasium-robotics' constructors take reward_type).
ROBOTICS_OPTIONS: dict[str, OptionTable] = {
    task.name: OptionTable(
        with_built_param_options(
            task.name,
            {
                "xml_file": TEXT,
                "reward_type": Choice(*REWARD_TYPES, note="the id's Dense suffix: dense"),
            },
        )
    )
    for task in FETCH_TASKS
}


def _fetch_envpool_names(task: FetchTask) -> EnvPoolNames:
    """EnvPool's keys of a Fetch pool: its task constants, which the id fixes."""
    constant = "a constant of gymnasium-robotics' task, which the id fixes"
    values: dict[str, Any] = {
        "has_object": task.has_object,
        "block_gripper": task.block_gripper,
        "target_in_the_air": task.target_in_the_air,
        "gripper_extra_height": task.gripper_extra_height,
        "target_offset_x": task.target_offset_x,
        "target_offset_y": 0.0,
        "target_offset_z": 0.0,
        "obj_range": task.obj_range,
        "target_range": task.target_range,
        "distance_threshold": FETCH_DISTANCE_THRESHOLD,
        "initial_slide0": task.initial_slide0,
        "initial_slide1": 0.48,
        "initial_slide2": 0.0,
        "initial_object_x": task.initial_object[0],
        "initial_object_y": task.initial_object[1],
        "initial_object_z": task.initial_object[2],
    }
    entries: dict[str, Any] = {key: Fixed(value, constant) for key, value in values.items()}
    entries["frame_skip"] = Fixed(
        FETCH_SUBSTEPS,
        f"frame_skip is the task's MuJoCo steps per env step ({FETCH_SUBSTEPS}); to act less "
        "often, repeat each action yourself",
    )
    entries["frame_stack"] = Fixed(1, "to stack observations, keep the last ones yourself")
    entries["base_path"] = Unsupported(
        "it is where EnvPool keeps its model files; envpool_x loads gymnasium-robotics' own "
        "models (from the installed gymnasium_robotics package)"
    )
    return EnvPoolNames(entries)


#: Per-env resident bytes of the pools that differ from Fetch's (:func:`extend_family`).
ROBOTICS_POOL_RESIDENT: dict[str, int] = {}
ROBOTICS_ENVPOOL_NAMES: dict[str, EnvPoolNames] = {
    task.name: _fetch_envpool_names(task) for task in FETCH_TASKS
}

declare_family(
    Family(
        "robotics",
        title="the gymnasium-robotics tasks",
        renderer=robotics_drawer,  # by pool (render/robotics.py)
        # Measured per env (FetchPickAndPlace, FetchReach): 268 KiB resident,
        # 13.2 MiB of address space (mjData and its arena), as the growth of
        # VmRSS / VmSize from a 36-env to a 260-env pool after a reset and two
        # steps; declared so that the estimate is 1.1x the measured growth.
        memory=FamilyMemory(
            env_resident=288 * KiB,
            env_address=16 * MiB,
            pool_resident=ROBOTICS_POOL_RESIDENT,
            config_extra=scaled_arrays_extra,
        ),
        options=ROBOTICS_OPTIONS,
        envpool_names=ROBOTICS_ENVPOOL_NAMES,
        goal_functions=goal_reward,
    )
)


def extend_family(
    options: dict[str, OptionTable],
    envpool_names: dict[str, EnvPoolNames],
    goal_functions: dict[str, Callable[[Any], Any]],
    pool_resident: dict[str, int],
) -> None:
    """Add another module's pools (the Shadow Hand's) to the robotics family:
    their option tables, EnvPool's keys, goal functions and per-env resident
    bytes, by pool name."""
    ROBOTICS_POOL_RESIDENT.update(pool_resident)
    ROBOTICS_OPTIONS.update(options)
    ROBOTICS_ENVPOOL_NAMES.update(envpool_names)
    POOL_GOAL_FUNCTIONS.update(goal_functions)


BUILD_HINT = (
    "this envpool_x was built without the gymnasium-robotics tasks (ENVPOOL_X_ROBOTICS=OFF or "
    "ENVPOOL_X_MUJOCO=OFF): rebuild with both on "
    "(pip: --config-settings=cmake.define.ENVPOOL_X_ROBOTICS=ON)"
)


def register_robotics_tasks() -> None:
    """Register the Fetch ids (``-v4``, sparse and dense) and EnvPool's ``-v1``
    ids as their aliases; in a build without the family, making one says how
    to get it."""
    built = has_robotics()
    add = register_if_built(built, BUILD_HINT)
    alias = alias_if_built(built, BUILD_HINT)
    for task in FETCH_TASKS:
        for reward_type in REWARD_TYPES:
            add(
                fetch_id(task.name, reward_type),
                task.name,
                "robotics",
                FETCH_EPISODE_STEPS,
                reward_threshold=0.0,
                resolve=resolver("fetch", task.xml),
                reward_type=reward_type,
            )
            alias(fetch_id(task.name, reward_type, 1), fetch_id(task.name, reward_type))


register_robotics_tasks()
