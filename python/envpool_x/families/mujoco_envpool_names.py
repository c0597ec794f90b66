"""EnvPool's config keys of the MuJoCo tasks (:mod:`envpool_x.envpool_names`).

EnvPool 1.2.5 (and 1.2.7, the same keys) has its own option set for gymnasium's
MuJoCo tasks: ``healthy_z_min`` / ``healthy_z_max`` for gymnasium's
``healthy_z_range``, ``dist_cost_weight`` for Reacher's ``reward_dist_weight``,
and switches between the v4 and v5 rules (``legacy_healthy_reward``,
``reward_after_step``, ...) that a task id fixes here. Its -v2 / -v3 ids have
its -v4 keys, with ``post_constraint=False`` (and ``use_contact_force=True``
for Ant-v3 and Humanoid-v3), which those ids fix here. Each key is declared
below as an alias of ours, a value the task fixes (EnvPool's default for the
id, which is gymnasium's behaviour), or unsupported (``base_path``). Read from
EnvPool's C++ (``envpool/mujoco/gym/*.h``) and its registration's defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envpool_x.envpool_names import (
    Alias,
    Entry,
    EnvPoolNames,
    Fixed,
    Unsupported,
    high_end,
    low_end,
)

# ---- every task --------------------------------------------------------------

_POST_CONSTRAINT = (
    "envpool_x calls mj_rnePostConstraint after every step, as gymnasium 1.x does, so the "
    "contact forces (cfrc_ext) this task observes or pays for are the step's; EnvPool's "
    "post_constraint=False leaves them uncomputed, and is accepted only where this config "
    "reads none of them"
)
_CAMERA = (
    "frames are drawn by gymnasium's env with its default camera, the same for -v4 and -v5 "
    "(what EnvPool's gymnasium_v5_render_camera=True draws); MuJoCo's free camera is not offered"
)
_BASE_PATH = Unsupported(
    "it is where EnvPool keeps its model files; envpool_x reads gymnasium's: give xml_file "
    "(a name in gymnasium's assets folder, or a path) to load another model file"
)


_NO_POST_CONSTRAINT = (
    "EnvPool's -v2 / -v3 ids, as gym's mujoco-py envs, skip mj_rnePostConstraint, so the "
    "contact forces (cfrc_ext) stay zero, and so do envpool_x's; post_constraint=True is "
    "accepted only where this config reads none of them: make the -v4 id for computed ones"
)


def _reads_nothing(value: Any, config: Mapping[str, Any]) -> bool:
    return True


def _common(version: int, post_constraint_same: Any = None) -> dict[str, Entry]:
    """The keys every EnvPool MuJoCo task has (``post_constraint_same``: when
    the other value of post_constraint behaves the same, given the config)."""
    post_constraint = (
        Fixed(True, _POST_CONSTRAINT, post_constraint_same)
        if version >= 4
        else Fixed(False, _NO_POST_CONSTRAINT, post_constraint_same)
    )
    return {
        "post_constraint": post_constraint,
        "gymnasium_v5_render_camera": Fixed(True, _CAMERA),
        "base_path": _BASE_PATH,
    }


def _v5_drops_contact_forces(weight: str) -> Any:
    """post_constraint=False is the same for a v5 task that neither observes
    cfrc_ext nor weighs its cost (``weight``: the cost's weight key)."""
    return lambda value, config: (
        not config["include_cfrc_ext_in_observation"] and config[weight] == 0
    )


# ---- what the -v4 and -v5 ids fix -------------------------------------------


def _legacy(version: int) -> Fixed:
    if version <= 4:
        why = (
            f"a -v{version} task pays the healthy reward as gymnasium's v4: also on an "
            "unhealthy step (the terminating one, or any with terminate_when_unhealthy=False); "
            "make the -v5 id "
            "for v5's rule (only while healthy)"
        )
        return Fixed(True, why)
    why = (
        "a -v5 task pays the healthy reward only while healthy, as gymnasium's v5; make the -v4 "
        "id for v4's rule"
    )
    return Fixed(False, why)


def _by_version(version: int, v4: Any, v5: Any, what: str) -> Fixed:
    """A switch between gymnasium's v4 and v5 rules, which the id fixes (``what``:
    the rule; a -v2 / -v3 id has v4's)."""
    if version < 4:
        return Fixed(
            v4, f"this -v{version} task has gymnasium's v4 {what}; make the -v5 id for v5's"
        )
    other = 5 if version == 4 else 4
    return Fixed(
        v4 if version == 4 else v5,
        f"this -v{version} task has gymnasium's v{version} {what}; make the -v{other} id for "
        f"v{other}'s",
    )


def _constant(text: str) -> str:
    return f"{text} is a constant of gymnasium's task, which envpool_x follows"


_VELOCITY_CLIP = "the observation's velocity clip [-10, 10]"


def _hopper_walker(name: str, version: int) -> dict[str, Entry]:
    entries: dict[str, Entry] = {
        "healthy_z_min": low_end("healthy_z_range"),
        "healthy_angle_min": low_end("healthy_angle_range"),
        "healthy_angle_max": high_end("healthy_angle_range"),
        "velocity_min": Fixed(-10.0, _constant(_VELOCITY_CLIP)),
        "velocity_max": Fixed(10.0, _constant(_VELOCITY_CLIP)),
        "legacy_healthy_reward": _legacy(version),
    }
    if name == "Hopper":
        entries["healthy_state_min"] = low_end("healthy_state_range")
        entries["healthy_state_max"] = high_end("healthy_state_range")
    else:
        entries["healthy_z_max"] = high_end("healthy_z_range")
    return entries


def _ant(version: int) -> dict[str, Entry]:
    entries: dict[str, Entry] = {
        "healthy_z_min": low_end("healthy_z_range"),
        "healthy_z_max": high_end("healthy_z_range"),
        "contact_force_min": low_end("contact_force_range"),
        "contact_force_max": high_end("contact_force_range"),
        "legacy_healthy_reward": _legacy(version),
        "exclude_worldbody_contact_forces": _by_version(
            version, False, True, "contact forces (v4: every body's, the world's included)"
        ),
    }
    if version <= 4:
        entries["use_contact_force"] = Alias("use_contact_forces")
        entries["forward_reward_weight"] = Fixed(
            1.0, f"Ant-v{version}'s reward has the x velocity with weight 1 (gym's v3 and "
            "gymnasium's v4 have no forward_reward_weight); Ant-v5 takes forward_reward_weight"
        )  # fmt: skip
    else:
        entries["use_contact_force"] = Fixed(
            True, "Ant-v5 always pays the contact cost, as gymnasium's v5: give "
            "contact_cost_weight=0 and include_cfrc_ext_in_observation=False to leave the "
            "contact forces out"
        )  # fmt: skip
    return entries


def _humanoid_observation(version: int) -> dict[str, Entry]:
    """Humanoid's and HumanoidStandup's observation layout (v5 leaves out the
    world body and the root's actuator forces)."""
    return {
        "exclude_worldbody_observations": _by_version(
            version, False, True, "observation (v4: the world body's rows included)"
        ),
        "exclude_root_actuator_forces": _by_version(
            version, False, True, "observation (v4: the root's actuator forces included)"
        ),
    }


def _humanoid(version: int) -> dict[str, Entry]:
    entries: dict[str, Entry] = {
        "healthy_z_min": low_end("healthy_z_range"),
        "healthy_z_max": high_end("healthy_z_range"),
        "legacy_healthy_reward": _legacy(version),
        **_humanoid_observation(version),
    }
    if version == 3:
        entries["use_contact_force"] = Fixed(
            True, "Humanoid-v3 always pays its contact cost, as gym's v3 (of zero contact "
            "forces: see post_constraint): give contact_cost_weight=0 to leave it out"
        )  # fmt: skip
        entries["contact_cost_max"] = high_end("contact_cost_range")
    elif version == 4:
        none = (
            "Humanoid-v4 has no contact cost (gymnasium's v4; EnvPool reads this key only "
            "with use_contact_force=True): make Humanoid-v5 for it"
        )
        entries["use_contact_force"] = Fixed(False, none)
        entries["contact_cost_weight"] = Fixed(5e-7, none)
        entries["contact_cost_max"] = Fixed(10.0, none)
    else:
        entries["use_contact_force"] = Fixed(
            True, "Humanoid-v5 always pays the contact cost, as gymnasium's v5: give "
            "contact_cost_weight=0 to leave it out"
        )  # fmt: skip
        entries["contact_cost_max"] = high_end("contact_cost_range")
    return entries


def _humanoid_standup(version: int) -> dict[str, Entry]:
    entries: dict[str, Entry] = dict(_humanoid_observation(version))
    if version <= 4:
        # gymnasium's HumanoidStandup-v4 (and gym's v2) takes no options: each is a
        # constant there.
        def constant(value: Any, v5: str) -> Fixed:
            return Fixed(
                value, f"HumanoidStandup-v{version} takes no options (gymnasium's v4 has this "
                f"as a constant): make HumanoidStandup-v5, which takes {v5}"
            )  # fmt: skip

        entries.update(
            forward_reward_weight=constant(1.0, "no weight of the upward term either"),
            exclude_current_positions_from_observation=constant(
                True, "exclude_current_positions_from_observation"
            ),
            ctrl_cost_weight=constant(0.1, "ctrl_cost_weight"),
            contact_cost_weight=constant(5e-7, "impact_cost_weight"),
            contact_cost_max=constant(10.0, "impact_cost_range"),
            healthy_reward=constant(1.0, "no healthy reward either"),
            reset_noise_scale=constant(0.01, "reset_noise_scale"),
        )
    else:
        entries.update(
            contact_cost_weight=Alias("impact_cost_weight"),
            contact_cost_max=high_end("impact_cost_range"),
            forward_reward_weight=Fixed(
                1.0,
                "HumanoidStandup-v5's reward has the upward term with weight 1, as "
                "gymnasium 1.4's, which ignores its own uph_cost_weight",
            ),  # fmt: skip
            healthy_reward=Fixed(1.0, _constant("HumanoidStandup-v5's reward of 1 per step")),
        )
    return entries


def _inverted(name: str, version: int) -> dict[str, Entry]:
    entries: dict[str, Entry] = {
        "reward_if_not_terminated": _by_version(
            version, False, True, "reward (v4: the alive bonus also on the terminating step)"
        ),
    }
    if name == "InvertedPendulum":
        bound = _constant("the pole's angle bound [-0.2, 0.2]")
        entries.update(
            healthy_reward=Fixed(1.0, _constant("InvertedPendulum's reward of 1 per step")),
            healthy_z_min=Fixed(-0.2, bound),
            healthy_z_max=Fixed(0.2, bound),
        )
    else:
        clip = _constant("the observation's clip [-10, 10]")
        entries.update(
            constraint_obs_dim=_by_version(
                version, 3, 1, "observation (v4: all 3 qfrc_constraint values, v5: the first)"
            ),
            healthy_z_max=Fixed(1.0, _constant("the tip height that ends the episode, y <= 1,")),
            observation_min=Fixed(-10.0, clip),
            observation_max=Fixed(10.0, clip),
        )
    return entries


def _reacher_pusher(name: str, version: int) -> dict[str, Entry]:
    entries: dict[str, Entry] = {
        "ctrl_cost_weight": Alias("reward_control_weight"),
        "dist_cost_weight": Alias("reward_dist_weight"),
        "reward_after_step": _by_version(
            version, False, True, "reward (v4: the distance before the step, v5: after)"
        ),
    }
    reset = _constant("the reset's noise and placement")
    if name == "Reacher":
        entries.update(
            obs_include_z_distance=_by_version(
                version, True, False, "observation (v4: with the z distance to the target)"
            ),
            reset_qpos_scale=Fixed(0.1, reset),
            reset_qvel_scale=Fixed(0.005, reset),
            reset_goal_scale=Fixed(0.2, reset),
        )
    else:
        entries.update(
            near_cost_weight=Alias("reward_near_weight"),
            weighted_reward_info=_by_version(
                version, False, True, "info (v4: reward_dist and reward_ctrl unweighted)"
            ),
            reset_qvel_scale=Fixed(0.005, reset),
            cylinder_x_min=Fixed(-0.3, reset),
            cylinder_x_max=Fixed(0.0, reset),
            cylinder_y_min=Fixed(-0.2, reset),
            cylinder_y_max=Fixed(0.2, reset),
            cylinder_dist_min=Fixed(0.17, reset),
        )
    return entries


def _table(name: str, version: int) -> EnvPoolNames:
    """EnvPool's keys of ``<name>-v<version>``'s pool."""
    # post_constraint=False is the same where this config reads no contact force.
    same: Any = _reads_nothing
    own: dict[str, Entry] = {}
    if name in ("Hopper", "Walker2d"):
        own = _hopper_walker(name, version)
    elif name == "Ant":
        own = _ant(version)
        same = (
            (lambda value, config: not config["use_contact_forces"])
            if version <= 4
            else _v5_drops_contact_forces("contact_cost_weight")
        )
    elif name == "Humanoid":
        own = _humanoid(version)
        same = None if version <= 4 else _v5_drops_contact_forces("contact_cost_weight")
    elif name == "HumanoidStandup":
        own = _humanoid_standup(version)
        same = None if version <= 4 else _v5_drops_contact_forces("impact_cost_weight")
    elif name in ("InvertedPendulum", "InvertedDoublePendulum"):
        own = _inverted(name, version)
    elif name in ("Reacher", "Pusher"):
        own = _reacher_pusher(name, version)
    return EnvPoolNames({**_common(version, same), **own})


_V2 = ("HumanoidStandup", "InvertedPendulum", "InvertedDoublePendulum", "Reacher", "Pusher")

#: The task names whose pools EnvPool's MuJoCo keys are declared for.
NAMES = (
    "HalfCheetah",
    "Hopper",
    "Ant",
    "Humanoid",
    "HumanoidStandup",
    "Walker2d",
    "Swimmer",
    "InvertedPendulum",
    "InvertedDoublePendulum",
    "Reacher",
    "Pusher",
)

#: The version of each task's older id that EnvPool 1.2.7 registers: gym's last
#: before gymnasium (v3 where gym's v3 took keyword options, else v2).
LEGACY_VERSIONS = {name: 2 if name in _V2 else 3 for name in NAMES}

#: EnvPool's keys of each MuJoCo pool, by pool name (``AntV4``).
MUJOCO_ENVPOOL_NAMES: dict[str, EnvPoolNames] = {
    f"{name}V{version}": _table(name, version)
    for name in NAMES
    for version in (LEGACY_VERSIONS[name], 4, 5)
}

__all__ = ["LEGACY_VERSIONS", "MUJOCO_ENVPOOL_NAMES"]
