"""One module per env family; importing this package registers every task.

Each family module imports the registry (envpool_x.registration) and registers
its ids; the order here is the order of ``list_all_envs()``.
"""

from envpool_x.families import classic_control, toy_text, testing, atari, mujoco, dmc  # noqa: I001
from envpool_x.families import combinatorial  # noqa: I001
from envpool_x.families import minigrid  # noqa: I001
from envpool_x.families import babyai  # noqa: I001
from envpool_x.families import multi_agent  # noqa: I001
from envpool_x.families import box2d  # noqa: I001
from envpool_x.families import procgen  # noqa: I001
from envpool_x.families import craftax  # noqa: I001
from envpool_x.families import metaworld  # noqa: I001
from envpool_x.families import robotics  # noqa: I001
from envpool_x.families import robotics_adroit  # noqa: I001
from envpool_x.families import robotics_hand  # noqa: I001
from envpool_x.families import robotics_kitchen  # noqa: I001
from envpool_x.families import robotics_maze  # noqa: I001

__all__ = [
    "atari",
    "babyai",
    "box2d",
    "classic_control",
    "combinatorial",
    "craftax",
    "dmc",
    "metaworld",
    "minigrid",
    "mujoco",
    "multi_agent",
    "procgen",
    "robotics",
    "robotics_adroit",
    "robotics_hand",
    "robotics_kitchen",
    "robotics_maze",
    "testing",
    "toy_text",
]
