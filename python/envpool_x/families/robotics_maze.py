"""gymnasium-robotics' maze tasks (gymnasium-robotics 1.4.2), stepped in C++:
PointMaze (a force-actuated ball) and AntMaze (gymnasium's Ant) on the D4RL
maps, each with the sparse reward (``PointMaze_UMaze-v3``) and the dense one
(``PointMaze_UMazeDense-v3``).

Ids: ``PointMaze_<map>[Dense]-v3`` and ``AntMaze_<map>[Dense]-v3`` / ``-v4`` / ``-v5``
for the maps ``UMaze``, ``Open``, ``Medium``, ``Large`` and the ``Open`` /
``Medium`` / ``Large`` ``_Diverse_G`` (one start cell, several goal cells) and
``_Diverse_GR`` (cells that are both) variants. EnvPool's PointMaze ids are
the same names (and config keys; docs/robotics.md says where they differ).

The model is made as gymnasium-robotics makes it: the robot's XML
(gymnasium-robotics' ``point.xml``, gymnasium's ``ant.xml``) with a box per
wall cell and a ``target`` site added to its worldbody (:func:`maze_xml`),
written once per maze to a file the C++ env loads.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from envpool_x import _core
from envpool_x.envpool_names import EnvPoolNames, Fixed, Unsupported
from envpool_x.families import maze_reset_options
from envpool_x.families.mujoco import drop_default_timer
from envpool_x.families.robotics import ROBOTICS_VERSION, assets_dir
from envpool_x.options import BOOL, TEXT, Choice, Float, Option, OptionTable
from envpool_x.params import scaled_arrays_extra, with_built_param_options
from envpool_x.registration import (
    Family,
    FamilyMemory,
    KiB,
    MiB,
    declare_family,
    register_if_built,
)
from envpool_x.render.robotics_maze import maze_drawer

GOAL_RADIUS = maze_reset_options.GOAL_RADIUS

#: The D4RL maps (gymnasium-robotics' maps.py), a string per row: 1 wall,
#: 0 free, r start, g goal, c start or goal.
_U = ("11111", "10001", "11101", "10001", "11111")
_OPEN = ("1111111", "1000001", "1000001", "1000001", "1111111")
_OPEN_G = ("1111111", "1rgggg1", "1ggggg1", "1ggggg1", "1111111")
_MEDIUM = (
    "11111111",
    "10011001",
    "10010001",
    "11000111",
    "10010001",
    "10100101",
    "10001001",
    "11111111",
)
_MEDIUM_G = (
    "11111111",
    "1r011001",
    "100100g1",
    "11000111",
    "10010001",
    "1g100101",
    "10001g01",
    "11111111",
)
_LARGE = (
    "111111111111",
    "100001000001",
    "101101010101",
    "100000010001",
    "101111011101",
    "100101000001",
    "110101010111",
    "100100010001",
    "111111111111",
)
_LARGE_G = ("111111111111", "1r0001g00001", "101101010101", "10000g0100g1", "101111011101",
            "10g101000001", "110101010111", "1001g0g10g01", "111111111111")  # fmt: skip


def _both(rows: tuple[str, ...]) -> tuple[str, ...]:
    """The _Diverse_GR map of a _Diverse_G one: its start and goal cells are both."""
    return tuple(row.replace("r", "c").replace("g", "c") for row in rows)


#: EnvPool's / gymnasium-robotics' map names (maps.py's constants).
MAPS: dict[str, tuple[str, ...]] = {
    "U_MAZE": _U,
    "OPEN": _OPEN,
    "OPEN_DIVERSE_G": _OPEN_G,
    "OPEN_DIVERSE_GR": _both(_OPEN_G),
    "MEDIUM_MAZE": _MEDIUM,
    "MEDIUM_MAZE_DIVERSE_G": _MEDIUM_G,
    "MEDIUM_MAZE_DIVERSE_GR": _both(_MEDIUM_G),
    "LARGE_MAZE": _LARGE,
    "LARGE_MAZE_DIVERSE_G": _LARGE_G,
    "LARGE_MAZE_DIVERSE_GR": _both(_LARGE_G),
}


@dataclass(frozen=True)
class MazeTask:
    """One id's map: its name in the id, maps.py's name, the time limits."""

    stem: str  # UMaze, Open_Diverse_G, ...
    map_name: str
    point_steps: int
    ant_steps: int


MAZE_TASKS: list[MazeTask] = [
    MazeTask("UMaze", "U_MAZE", 300, 700),
    MazeTask("Open", "OPEN", 300, 700),
    MazeTask("Open_Diverse_G", "OPEN_DIVERSE_G", 300, 700),
    MazeTask("Open_Diverse_GR", "OPEN_DIVERSE_GR", 300, 700),
    MazeTask("Medium", "MEDIUM_MAZE", 600, 1000),
    MazeTask("Medium_Diverse_G", "MEDIUM_MAZE_DIVERSE_G", 600, 1000),
    MazeTask("Medium_Diverse_GR", "MEDIUM_MAZE_DIVERSE_GR", 600, 1000),
    MazeTask("Large", "LARGE_MAZE", 800, 1000),
    MazeTask("Large_Diverse_G", "LARGE_MAZE_DIVERSE_G", 800, 1000),
    MazeTask("Large_Diverse_GR", "LARGE_MAZE_DIVERSE_GR", 800, 1000),
]


@dataclass(frozen=True)
class Robot:
    """A maze robot: its pool, id prefix and versions, the maze's cell size
    and wall height, and where its XML lies."""

    pool: str
    prefix: str
    version: int
    scaling: float
    height: float
    obs_size: int


ROBOTS: list[Robot] = [
    Robot("PointMaze", "PointMaze", 3, 1.0, 0.4, 4),
    Robot("AntMazeV3", "AntMaze", 3, 4.0, 0.5, 27),
    Robot("AntMazeV4", "AntMaze", 4, 4.0, 0.5, 27),
    Robot("AntMazeV5", "AntMaze", 5, 4.0, 0.5, 105),
]
ROBOT_BY_POOL = {robot.pool: robot for robot in ROBOTS}
REWARD_TYPES = ("sparse", "dense")


def maze_id(robot: Robot, task: MazeTask, reward_type: str) -> str:
    """``maze_id(point, UMaze, "dense")`` is ``"PointMaze_UMazeDense-v3"``."""
    return f"{robot.prefix}_{task.stem}{'Dense' if reward_type == 'dense' else ''}-v{robot.version}"


def has_mazes() -> bool:
    """Return True if this build of envpool_x includes the maze tasks."""
    return hasattr(_core, "PointMaze")


def robot_xml(robot: Robot) -> str:
    """The robot's own model: gymnasium-robotics' point.xml, gymnasium's ant.xml."""
    if robot.prefix == "PointMaze":
        return os.path.join(assets_dir(), "point", "point.xml")
    spec = importlib.util.find_spec("gymnasium")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("AntMaze reads gymnasium's ant.xml: pip install gymnasium")
    folder = list(spec.submodule_search_locations)[0]
    return os.path.join(folder, "envs", "mujoco", "assets", "ant.xml")


def map_rows(maze_map: Any) -> tuple[str, ...]:
    """A maze map as rows of cell letters, from a map name (``"U_MAZE"``), a
    list of lists as gymnasium-robotics takes (1, 0, "r", "g", "c"), or rows
    joined by '/' (the C++ form).

    Raises:
        ValueError: an unknown name, ragged rows or an unknown cell.
    """
    if isinstance(maze_map, str):
        if maze_map in MAPS:
            return MAPS[maze_map]
        if "/" not in maze_map:
            raise ValueError(
                f"maze_map {maze_map!r}: not one of {sorted(MAPS)} nor rows joined by '/'"
            )
        rows = tuple(maze_map.split("/"))
    else:
        rows = tuple("".join(str(cell) for cell in row) for row in maze_map)
    if not rows or any(len(row) != len(rows[0]) for row in rows):
        raise ValueError(f"maze_map rows must be non-empty and of one length, got {rows}")
    bad = set("".join(rows)) - set("10rgc")
    if bad:
        raise ValueError(f"maze_map cells must be 1, 0, r, g or c, got {sorted(bad)}")
    return rows


def maze_xml(robot_file: str, rows: Sequence[str], scaling: float, height: float) -> str:
    """The robot's model with the maze: a box per wall cell (named
    ``block_<i>_<j>``, centred on the cell, ``height * scaling`` high) and a
    ``target`` site (radius 0.2 * scaling), appended to the worldbody in the
    order gymnasium-robotics' Maze.make_maze appends them."""
    tree = ET.parse(robot_file)
    world = tree.find(".//worldbody")
    if world is None:
        raise ValueError(f"{robot_file} has no worldbody")
    x_center, y_center = len(rows[0]) / 2 * scaling, len(rows) / 2 * scaling
    half_height = height / 2 * scaling
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            if cell != "1":
                continue
            x, y = (j + 0.5) * scaling - x_center, y_center - (i + 0.5) * scaling
            half = 0.5 * scaling
            wall = {
                "name": f"block_{i}_{j}",
                "pos": f"{x} {y} {half_height}",
                "size": f"{half} {half} {half_height}",
                "type": "box",
                "material": "",
                "contype": "1",
                "conaffinity": "1",
                "rgba": "0.7 0.5 0.3 1.0",
            }
            ET.SubElement(world, "geom", wall)
    target = {"name": "target", "pos": f"0 0 {half_height}", "size": f"{0.2 * scaling}",
              "rgba": "1 0 0 0.7", "type": "sphere"}  # fmt: skip
    ET.SubElement(world, "site", target)
    return ET.tostring(tree.getroot(), encoding="unicode")


_maze_text = functools.cache(maze_xml)


def maze_file(robot_file: str, rows: tuple[str, ...], scaling: float, height: float) -> str:
    """:func:`maze_xml` written to a file named by its content (in the
    temporary folder; written atomically, so concurrent makers agree; again
    if something removed it)."""
    text = _maze_text(robot_file, rows, scaling, height)
    folder = os.path.join(tempfile.gettempdir(), f"envpool_x-maze-{os.getuid()}")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, hashlib.sha256(text.encode()).hexdigest()[:24] + ".xml")
    if not os.path.isfile(path):
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".xml")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    return path


def _resolver(robot: Robot) -> Callable[[dict[str, Any]], None]:
    def resolve(config: dict[str, Any]) -> None:
        if config.get("xml_file"):
            raise ValueError(
                "xml_file: the maze tasks write their model from the robot's XML and the "
                "maze_map (leave xml_file out)"
            )
        if robot.pool == "AntMazeV3" and config.get("reset_target"):
            raise ValueError(
                "reset_target: AntMaze -v3 has no such option (its continuing task always draws "
                "a reached goal again); use a -v4 or -v5 id"
            )
        rows = map_rows(config["maze_map"])
        config["maze_map"] = "/".join(rows)
        source = robot_xml(robot)
        if not os.path.isfile(source):
            raise FileNotFoundError(
                f"{source} is missing: reinstall gymnasium-robotics=={ROBOTICS_VERSION}"
            )
        scaling, height = float(config["maze_size_scaling"]), float(config["maze_height"])
        config["xml_file"] = maze_file(source, rows, scaling, height)
        drop_default_timer()

    return resolve


@dataclass(frozen=True)
class MazeGoalReward:
    """gymnasium-robotics' MazeEnv.compute_reward / compute_terminated /
    compute_truncated (numpy's arithmetic)."""

    sparse: bool
    continuing_task: bool

    def compute_reward(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        """1.0 per goal within 0.45 else 0.0 (sparse), or exp(-distance) (dense);
        float64."""
        achieved, desired = np.asarray(achieved_goal), np.asarray(desired_goal)
        if achieved.shape != desired.shape:
            raise ValueError(
                f"achieved_goal {achieved.shape} and desired_goal {desired.shape} differ in shape"
            )
        distance = np.linalg.norm(achieved - desired, axis=-1)
        if self.sparse:
            return (distance <= GOAL_RADIUS).astype(np.float64)
        return np.exp(-distance)

    def compute_terminated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        """With continuing_task=False, the goal within 0.45; else False."""
        distance = np.linalg.norm(np.asarray(achieved_goal) - np.asarray(desired_goal), axis=-1)
        reached = distance <= GOAL_RADIUS
        if not self.continuing_task:
            return bool(reached) if np.ndim(reached) == 0 else reached
        return False if np.ndim(reached) == 0 else np.zeros(reached.shape, dtype=bool)

    def compute_truncated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        """False: truncation is the time limit's, which the pool counts."""
        shape = np.shape(achieved_goal)[:-1]
        return False if shape == () else np.zeros(shape, dtype=bool)


def goal_reward(spec: Any) -> MazeGoalReward:
    """The goal functions of a made spec (its reward_type and continuing_task)."""
    return MazeGoalReward(spec.config.reward_type == "sparse", bool(spec.config.continuing_task))


def _options(pool: str) -> OptionTable:
    return OptionTable(
        with_built_param_options(
            pool,
            {
                "xml_file": TEXT,
                "reward_type": Choice(*REWARD_TYPES, note="the id's Dense suffix: dense"),
                "maze_map": Option(
                    "any",
                    note="a map name (U_MAZE, ...), a list of rows as gymnasium-robotics takes, "
                    "or rows joined by '/'",
                ),
                "maze_size_scaling": Float(low=0.0, exclusive=(True, False)),
                "maze_height": Float(low=0.0, exclusive=(True, False)),
                "position_noise_range": Float(low=0.0),
                "continuing_task": BOOL,
                "reset_target": BOOL,
            },
        )
    )


def _envpool_names() -> EnvPoolNames:
    """EnvPool's keys of a maze pool beside ours (which it shares)."""
    return EnvPoolNames(
        {
            "frame_skip": Fixed(1, "the robot's MuJoCo steps per env step are the task's"),
            "frame_stack": Fixed(1, "to stack observations, keep the last ones yourself"),
            "base_path": Unsupported(
                "it is where EnvPool keeps its model files; envpool_x writes the maze model "
                "from gymnasium-robotics' own robot XML"
            ),
        }
    )


declare_family(
    Family(
        "robotics_maze",
        title="the gymnasium-robotics maze tasks",
        renderer=maze_drawer,
        # Measured per env (PointMaze_Large, AntMaze_Large-v5): up to 208 KiB
        # resident, 14.2 MiB of address space (VmRSS / VmSize growth from a
        # 36-env to a 260-env pool, each in a fresh process, after a reset and
        # two steps); declared about 1.1x that.
        memory=FamilyMemory(
            env_resident=232 * KiB, env_address=16 * MiB, config_extra=scaled_arrays_extra
        ),
        options={robot.pool: _options(robot.pool) for robot in ROBOTS},
        envpool_names={"PointMaze": _envpool_names()},
        goal_functions=goal_reward,
        reset_options=(maze_reset_options.KEYS, maze_reset_options.apply_cells),
    )
)

BUILD_HINT = (
    "this envpool_x was built without the gymnasium-robotics tasks (ENVPOOL_X_ROBOTICS=OFF or "
    "ENVPOOL_X_MUJOCO=OFF): rebuild with both on"
)


def register_maze_tasks() -> None:
    """Register PointMaze -v3 and AntMaze -v3 / -v4 / -v5 on every map, sparse and dense."""
    add = register_if_built(has_mazes(), BUILD_HINT)
    for robot in ROBOTS:
        for task in MAZE_TASKS:
            for reward_type in REWARD_TYPES:
                add(
                    maze_id(robot, task, reward_type),
                    robot.pool,
                    "robotics_maze",
                    task.point_steps if robot.prefix == "PointMaze" else task.ant_steps,
                    resolve=_resolver(robot),
                    reward_type=reward_type,
                    maze_map=task.map_name,
                )


register_maze_tasks()
