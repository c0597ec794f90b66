"""gymnasium-robotics' Shadow Hand tasks (gymnasium-robotics 1.4.2), in the
robotics family: ``HandReach-v3`` and the ``HandManipulate{Block,Egg,Pen}...-v1``
ids, each sparse and ``Dense``, the manipulate ones also with 92 touch
sensors (``_BooleanTouchSensors``, ``_ContinuousTouchSensors``).

Reach episodes are truncated at 50 steps, manipulate ones at 100. The ids'
suffixes are gymnasium-robotics' constructor keywords, which are options here
too: ``target_position`` (ignore / fixed / random), ``target_rotation``
(ignore / fixed / xyz / z / parallel), ``touch_get_obs`` (sensordata /
boolean / log / off) and ``reward_type``. EnvPool's ``-v0`` ids of the same
names are aliases (docs/robotics.md says where EnvPool's config differs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from envpool_x.envpool_names import EnvPoolNames, Fixed, Unsupported
from envpool_x.families import robotics
from envpool_x.options import TEXT, Choice, OptionTable
from envpool_x.params import with_built_param_options
from envpool_x.registration import KiB, alias_if_built, register_if_built

#: gymnasium-robotics' time limits of the hand tasks.
REACH_EPISODE_STEPS = 50
MANIPULATE_EPISODE_STEPS = 100
#: MuJoCo steps per env step (``n_substeps``).
HAND_SUBSTEPS = 20
REACH_DISTANCE_THRESHOLD = 0.01
ROTATION_THRESHOLD = 0.1
TARGET_POSITIONS = ("ignore", "fixed", "random")
TARGET_ROTATIONS = ("ignore", "fixed", "xyz", "z", "parallel")
TOUCH_OBS = ("sensordata", "boolean", "log", "off")
#: The id suffix of each touch_get_obs gymnasium-robotics registers.
TOUCH_SUFFIX = {"boolean": "_BooleanTouchSensors", "sensordata": "_ContinuousTouchSensors"}


@dataclass(frozen=True)
class HandObject:
    """One manipulated object: its model and MujocoManipulateEnv's constants."""

    name: str  # Block, Egg, Pen
    randomize_initial_rotation: bool
    ignore_z_target_rotation: bool
    distance_threshold: float

    @property
    def pool(self) -> str:
        return f"HandManipulate{self.name}"

    def xml(self, touch: bool) -> str:
        return f"manipulate_{self.name.lower()}{'_touch_sensors' if touch else ''}.xml"


OBJECTS = {
    "Block": HandObject("Block", True, False, 0.01),
    "Egg": HandObject("Egg", True, False, 0.01),
    "Pen": HandObject("Pen", False, True, 0.05),
}


@dataclass(frozen=True)
class ManipulateTask:
    """One manipulate id stem: its object and target modes, and whether
    gymnasium-robotics registers touch-sensor variants of it."""

    stem: str
    hand_object: HandObject
    target_position: str
    target_rotation: str
    touch_variants: bool


MANIPULATE_TASKS = [
    ManipulateTask("HandManipulateBlockRotateZ", OBJECTS["Block"], "ignore", "z", True),
    ManipulateTask(
        "HandManipulateBlockRotateParallel", OBJECTS["Block"], "ignore", "parallel", True
    ),
    ManipulateTask("HandManipulateBlockRotateXYZ", OBJECTS["Block"], "ignore", "xyz", True),
    ManipulateTask("HandManipulateBlockFull", OBJECTS["Block"], "random", "xyz", False),
    ManipulateTask("HandManipulateBlock", OBJECTS["Block"], "random", "xyz", True),
    ManipulateTask("HandManipulateEggRotate", OBJECTS["Egg"], "ignore", "xyz", True),
    ManipulateTask("HandManipulateEggFull", OBJECTS["Egg"], "random", "xyz", False),
    ManipulateTask("HandManipulateEgg", OBJECTS["Egg"], "random", "xyz", True),
    ManipulateTask("HandManipulatePenRotate", OBJECTS["Pen"], "ignore", "xyz", True),
    ManipulateTask("HandManipulatePenFull", OBJECTS["Pen"], "random", "xyz", False),
    ManipulateTask("HandManipulatePen", OBJECTS["Pen"], "random", "xyz", True),
]  # fmt: skip


def hand_id(stem: str, reward_type: str, touch: str | None = None, version: int = 1) -> str:
    """``hand_id("HandManipulateBlock", "dense", "boolean")`` is
    ``"HandManipulateBlock_BooleanTouchSensorsDense-v1"``."""
    suffix = TOUCH_SUFFIX[touch] if touch else ""
    return f"{stem}{suffix}{'Dense' if reward_type == 'dense' else ''}-v{version}"


def has_hand() -> bool:
    """Return True if this build of envpool_x includes the Shadow Hand tasks."""
    return robotics.has_robotics() and hasattr(robotics._core, "HandReach")


# ---- the goal functions (numpy, as gymnasium-robotics' compute_reward) ----


def _quat_mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    w0, x0, y0, z0 = (a[..., k] for k in range(4))
    w1, x1, y1, z1 = (b[..., k] for k in range(4))
    return np.stack(
        [
            w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1,
            w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1,
            w0 * y1 + y0 * w1 + z0 * x1 - x0 * z1,
            w0 * z1 + z0 * w1 + x0 * y1 - y0 * x1,
        ],
        axis=-1,
    )


def _quat_to_euler(q: np.ndarray) -> np.ndarray:
    """Euler angles (xyz) of quaternions, through the rotation matrix."""
    w, x, y, z = (q[..., k] for k in range(4))
    nq = np.sum(q * q, axis=-1)
    s = 2.0 / nq
    xs, ys, zs = x * s, y * s, z * s
    m00, m01, m02 = 1.0 - (y * ys + z * zs), x * ys - w * zs, x * zs + w * ys
    m10, m11, m12 = x * ys + w * zs, 1.0 - (x * xs + z * zs), y * zs - w * xs
    m22 = 1.0 - (x * xs + y * ys)
    eye = nq <= np.finfo(np.float64).eps
    m00, m11, m22 = (np.where(eye, 1.0, v) for v in (m00, m11, m22))
    m01, m02, m10, m12 = (np.where(eye, 0.0, v) for v in (m01, m02, m10, m12))
    cy = np.sqrt(m22 * m22 + m12 * m12)
    regular = cy > np.finfo(np.float64).eps * 4.0
    return np.stack(
        [
            np.where(regular, -np.arctan2(m12, m22), 0.0),
            -np.arctan2(-m02, cy),
            np.where(regular, -np.arctan2(m01, m00), -np.arctan2(-m10, m11)),
        ],
        axis=-1,
    )


def _euler_to_quat(e: np.ndarray) -> np.ndarray:
    ai, aj, ak = e[..., 2] / 2, -e[..., 1] / 2, e[..., 0] / 2
    si, sj, sk = np.sin(ai), np.sin(aj), np.sin(ak)
    ci, cj, ck = np.cos(ai), np.cos(aj), np.cos(ak)
    cc, cs, sc, ss = ci * ck, ci * sk, si * ck, si * sk
    return np.stack(
        [cj * cc + sj * ss, cj * cs - sj * sc, -(cj * ss + sj * cc), cj * sc - sj * cs], axis=-1
    )


@dataclass(frozen=True)
class ManipulateGoalReward:
    """A manipulate task's ``compute_reward`` / ``compute_terminated`` /
    ``compute_truncated`` (gymnasium-robotics' ``_goal_distance``: the
    position distance and the quaternion angle)."""

    target_position: str
    target_rotation: str
    ignore_z_target_rotation: bool
    distance_threshold: float
    sparse: bool

    def distances(self, achieved_goal: Any, desired_goal: Any) -> tuple[Any, Any]:
        """(d_pos, d_rot) per goal; 0 for an ignored target."""
        a, b = np.asarray(achieved_goal, np.float64), np.asarray(desired_goal, np.float64)
        if a.shape != b.shape or a.shape[-1] != 7:
            raise ValueError(f"goals must be 7-d and of one shape, got {a.shape} and {b.shape}")
        d_pos = np.zeros_like(a[..., 0])
        d_rot = np.zeros_like(a[..., 0])
        if self.target_position != "ignore":
            d_pos = np.linalg.norm(a[..., :3] - b[..., :3], axis=-1)
        if self.target_rotation != "ignore":
            qa, qb = a[..., 3:], b[..., 3:]
            if self.ignore_z_target_rotation:
                ea, eb = _quat_to_euler(qa), _quat_to_euler(qb)
                ea[..., 2] = eb[..., 2]
                qa = _euler_to_quat(ea)
            conjugate = qb * np.array([1.0, -1.0, -1.0, -1.0])
            w = _quat_mul(qa, conjugate)[..., 0]
            d_rot = 2 * np.arccos(np.clip(w, -1.0, 1.0))
        return d_pos, d_rot

    def is_success(self, achieved_goal: Any, desired_goal: Any) -> Any:
        """1.0 (float32) per goal within both thresholds."""
        d_pos, d_rot = self.distances(achieved_goal, desired_goal)
        return ((d_pos < self.distance_threshold) & (d_rot < ROTATION_THRESHOLD)).astype(np.float32)

    def compute_reward(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        """success - 1 (float32, sparse) or -(10 d_pos + d_rot) (float64)."""
        if self.sparse:
            return self.is_success(achieved_goal, desired_goal) - np.float32(1.0)
        d_pos, d_rot = self.distances(achieved_goal, desired_goal)
        return -(10.0 * d_pos + d_rot)

    def compute_terminated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        """False: the tasks go on until the time limit (an array for a batch)."""
        return robotics._never(achieved_goal)

    def compute_truncated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        """False: truncation is the time limit's, which the pool counts."""
        return robotics._never(achieved_goal)


def _reach_goal_reward(spec: Any) -> robotics.GoalReward:
    return robotics.GoalReward(REACH_DISTANCE_THRESHOLD, spec.config.reward_type == "sparse")


def _manipulate_goal_reward(hand_object: HandObject) -> Any:
    def make(spec: Any) -> ManipulateGoalReward:
        c = spec.config
        return ManipulateGoalReward(
            c.target_position,
            c.target_rotation,
            hand_object.ignore_z_target_rotation,
            hand_object.distance_threshold,
            c.reward_type == "sparse",
        )

    return make


# ---- options and EnvPool's keys ----

_REWARD = Choice(*robotics.REWARD_TYPES, note="the id's Dense suffix: dense")
HAND_OPTIONS: dict[str, OptionTable] = {
    "HandReach": OptionTable(
        with_built_param_options("HandReach", {"xml_file": TEXT, "reward_type": _REWARD})
    )
}
for _obj in OBJECTS.values():
    _table = {
        "xml_file": TEXT,
        "reward_type": _REWARD,
        "target_position": Choice(*TARGET_POSITIONS, note="the id's: Rotate ignore, else random"),
        "target_rotation": Choice(
            *TARGET_ROTATIONS, note="the id's: RotateZ z, RotateParallel parallel, else xyz"
        ),
    }  # fmt: skip
    HAND_OPTIONS[_obj.pool] = OptionTable(with_built_param_options(_obj.pool, _table))
    HAND_OPTIONS[_obj.pool + "TouchSensors"] = OptionTable(
        with_built_param_options(
            _obj.pool + "TouchSensors",
            {**_table, "touch_get_obs": Choice(*TOUCH_OBS, note="_BooleanTouchSensors: boolean")},
        )
    )


def _common_envpool_entries() -> dict[str, Any]:
    return {
        "frame_skip": Fixed(
            HAND_SUBSTEPS,
            f"frame_skip is the task's MuJoCo steps per env step ({HAND_SUBSTEPS}); to act "
            "less often, repeat each action yourself",
        ),
        "frame_stack": Fixed(1, "to stack observations, keep the last ones yourself"),
        "relative_control": Fixed(
            False,
            "gymnasium-robotics 1.4.2's relative control fails on the mujoco bindings (it calls "
            "MjData methods they lack); the tasks drive the joints in absolute positions",
        ),
        "rotation_threshold": Fixed(ROTATION_THRESHOLD, "a constant of the tasks"),
        "base_path": Unsupported(
            "it is where EnvPool keeps its model files; envpool_x loads gymnasium-robotics' own "
            "models (from the installed gymnasium_robotics package)"
        ),
    }


def _envpool_names(pool: str) -> EnvPoolNames:
    constant = "a constant of gymnasium-robotics' task, which the id fixes"
    entries = _common_envpool_entries()
    for k, (low, high) in enumerate([(-0.04, 0.04), (-0.06, 0.02), (0.0, 0.06)]):
        entries[f"target_position_low{k}"] = Fixed(low, constant)
        entries[f"target_position_high{k}"] = Fixed(high, constant)
    if pool == "HandReach":
        # EnvPool gives its reach task the manipulate keys too, with these values.
        unused = "unused by the reach task (EnvPool's value accepted)"
        entries.update(
            hand_task=Fixed("reach", constant),
            obs_dim=Fixed(63, constant),
            qpos_dim=Fixed(24, "the model's qpos size"),
            qvel_dim=Fixed(24, "the model's qvel size"),
            goal_dim=Fixed(15, constant),
            distance_threshold=Fixed(REACH_DISTANCE_THRESHOLD, constant),
            target_position=Fixed("ignore", unused),
            target_rotation=Fixed("ignore", unused),
            randomize_initial_position=Fixed(False, unused),
            randomize_initial_rotation=Fixed(False, unused),
            ignore_z_target_rotation=Fixed(False, unused),
            touch_visualisation=Fixed("off", unused),
            touch_get_obs=Fixed("off", unused),
        )
        return EnvPoolNames(entries)
    obj = OBJECTS[pool.removeprefix("HandManipulate").removesuffix("TouchSensors")]
    touch = pool.endswith("TouchSensors")
    entries.update(
        hand_task=Fixed("manipulate", constant),
        goal_dim=Fixed(7, constant),
        qpos_dim=Fixed(38, "the model's qpos size (robot, object and target joints)"),
        qvel_dim=Fixed(36, "the model's qvel size (robot, object and target joints)"),
        distance_threshold=Fixed(obj.distance_threshold, constant),
        randomize_initial_position=Fixed(True, constant),
        randomize_initial_rotation=Fixed(obj.randomize_initial_rotation, constant),
        ignore_z_target_rotation=Fixed(obj.ignore_z_target_rotation, constant),
        obs_dim=Fixed(
            153 if touch else 61,
            "the observation's size follows from touch_get_obs",
            same_with=lambda v, c: v == (61 if c.get("touch_get_obs", "off") == "off" else 153),
        ),
    )
    if not touch:
        entries["touch_get_obs"] = Fixed(
            "off", "the model without touch sensors: the _TouchSensors ids"
        )
    entries["touch_visualisation"] = Fixed(
        "on_touch" if touch else "off",
        "frames colour the touch sites by their readings (gymnasium-robotics' default)"
        if touch
        else "the model has no touch sites",
    )
    return EnvPoolNames(entries)


# ---- registration ----


def register_hand_tasks() -> None:
    """Register the Shadow Hand ids and EnvPool's ``-v0`` ids as aliases."""
    built = has_hand()
    add = register_if_built(built, robotics.BUILD_HINT)
    alias = alias_if_built(built, robotics.BUILD_HINT)
    for reward_type in robotics.REWARD_TYPES:
        add(
            hand_id("HandReach", reward_type, version=3),
            "HandReach",
            "robotics",
            REACH_EPISODE_STEPS,
            reward_threshold=0.0,
            resolve=robotics.resolver("hand", "reach.xml"),
            reward_type=reward_type,
        )
        alias(
            hand_id("HandReach", reward_type, version=0),
            hand_id("HandReach", reward_type, version=3),
        )
    for task in MANIPULATE_TASKS:
        touches: list[str | None] = [None] + (
            ["boolean", "sensordata"] if task.touch_variants else []
        )
        for touch in touches:
            pool = task.hand_object.pool + ("TouchSensors" if touch else "")
            extra = {"touch_get_obs": touch} if touch else {}
            for reward_type in robotics.REWARD_TYPES:
                task_id = hand_id(task.stem, reward_type, touch)
                add(
                    task_id,
                    pool,
                    "robotics",
                    MANIPULATE_EPISODE_STEPS,
                    reward_threshold=0.0,
                    resolve=robotics.resolver("hand", task.hand_object.xml(touch is not None)),
                    reward_type=reward_type,
                    target_position=task.target_position,
                    target_rotation=task.target_rotation,
                    **extra,
                )
                alias(hand_id(task.stem, reward_type, touch, version=0), task_id)


#: Measured per env: 313 KiB resident (HandReach), 367 KiB (the block with touch
#: sensors), 8.3 MiB of address space (under the family's 16 MiB), as the growth
#: of VmRSS / VmSize from a 36-env to a 260-env pool after a reset and two steps;
#: declared about 1.1x the larger.
HAND_ENV_RESIDENT = 400 * KiB

robotics.extend_family(
    options=HAND_OPTIONS,
    pool_resident={pool: HAND_ENV_RESIDENT for pool in HAND_OPTIONS},
    envpool_names={pool: _envpool_names(pool) for pool in HAND_OPTIONS},
    goal_functions={
        "HandReach": _reach_goal_reward,
        **{
            obj.pool + touch: _manipulate_goal_reward(obj)
            for obj in OBJECTS.values()
            for touch in ("", "TouchSensors")
        },
    },
)
register_hand_tasks()
