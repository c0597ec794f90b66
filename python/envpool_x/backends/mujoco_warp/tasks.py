"""Which MuJoCo tasks run on MuJoCo Warp, and each one's constants from its
config (the keys and defaults of our CPU env, as gymnasium 1.4's envs).

The model is loaded from the same ``xml_file`` the CPU env uses; frame_skip,
weights and ranges come from the merged config, so the task keyword options
(``ctrl_cost_weight``, ``healthy_z_range``, ``reset_noise_scale``,
``exclude_current_positions_from_observation``, ...) act as on the CPU.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


@dataclass
class TaskConstants:
    """Everything kernels.TaskParams holds, plus the reset rule."""

    values: dict[str, Any]
    reset_noise_scale: float
    normal_qvel: bool  # Ant and HalfCheetah draw qvel from a normal
    frame_skip: int
    needs_cfrc_ext: bool  # run rne_postconstraint after the step


def _range(cfg: dict[str, Any], key: str) -> tuple[float, float]:
    lo, hi = cfg[key]
    return float(lo), float(hi)


def _finite(x: float) -> float:
    """Kernel floats are float32: an infinite bound stays infinite there."""
    return x if math.isfinite(x) else math.copysign(3.0e38, x)


def constants(pool_name: str, cfg: dict[str, Any], body_id: int) -> TaskConstants:
    """The constants of ``pool_name`` for a merged env config.

    ``body_id`` is Ant's resolved ``main_body``, ignored elsewhere.
    """
    from envpool_x.backends.mujoco_warp import kernels as k

    v4 = pool_name.endswith("V4")
    pool_name = pool_name[:-2] + "V5"  # the v4 tasks here differ in the lines marked v4
    exclude = bool(cfg["exclude_current_positions_from_observation"])
    v: dict[str, Any] = {
        "pos_skip": 0,
        "qvel_clip": 0.0,
        "use_cinert": 0,
        "use_cvel": 0,
        "use_qfrc_actuator": 0,
        "use_cfrc_ext": 0,
        "cfrc_lo": 0.0,
        "cfrc_hi": 0.0,
        "x_source": k.X_QPOS0,
        "body": 0,
        "forward_w": float(cfg.get("forward_reward_weight", 1.0)),  # Ant-v4: none
        "ctrl_w": float(cfg["ctrl_cost_weight"]),
        "contact_w": 0.0,
        "contact_mode": k.CONTACT_NONE,
        "contact_max": 0.0,
        "healthy_reward": 0.0,
        "survive_always": 0,
        "health_mode": k.HEALTH_ALWAYS,
        "terminate": 0,
        "z_lo": 0.0,
        "z_hi": 0.0,
        "angle_lo": 0.0,
        "angle_hi": 0.0,
        "state_lo": 0.0,
        "state_hi": 0.0,
        "body_from": 1,
        "qfrc_from": 6,
        "pos_info": 0,
        "ctrl_info_contact": 0,
    }
    normal_qvel = pool_name in ("AntV5", "HalfCheetahV5")
    if pool_name != "HalfCheetahV5":
        v["healthy_reward"] = float(cfg["healthy_reward"])
        v["terminate"] = int(bool(cfg["terminate_when_unhealthy"]))
        # v4 pays the healthy reward whenever terminate_when_unhealthy is set.
        v["survive_always"] = int(v4 and v["terminate"] == 1)
        lo, hi = _range(cfg, "healthy_z_range")
        v["z_lo"], v["z_hi"] = _finite(lo), _finite(hi)
    if pool_name in ("HalfCheetahV5", "HopperV5", "Walker2dV5"):
        v["pos_skip"] = 1 if exclude else 0
    if pool_name in ("HopperV5", "Walker2dV5"):
        v["qvel_clip"] = 10.0
        v["health_mode"] = k.HEALTH_HOPPER if pool_name == "HopperV5" else k.HEALTH_WALKER
        v["angle_lo"], v["angle_hi"] = map(_finite, _range(cfg, "healthy_angle_range"))
        if pool_name == "HopperV5":
            v["state_lo"], v["state_hi"] = map(_finite, _range(cfg, "healthy_state_range"))
    if pool_name == "AntV5":
        v["pos_skip"] = 2 if exclude else 0
        v["cfrc_lo"], v["cfrc_hi"] = _range(cfg, "contact_force_range")
        v["x_source"], v["body"] = k.X_BODY, body_id
        v["contact_w"] = float(cfg["contact_cost_weight"])
        v["contact_mode"] = k.CONTACT_CLIPPED_FORCES
        v["health_mode"] = k.HEALTH_ANT
        if v4:  # use_contact_forces: the contact cost, and cfrc_ext from the world body on
            forces = bool(cfg["use_contact_forces"])
            v["use_cfrc_ext"] = v["ctrl_info_contact"] = int(forces)
            v["contact_mode"] = k.CONTACT_CLIPPED_FORCES if forces else k.CONTACT_NONE
            v["body_from"], v["pos_info"] = 0, 1
        else:
            v["use_cfrc_ext"] = int(bool(cfg["include_cfrc_ext_in_observation"]))
    if pool_name == "HumanoidV5":
        v["pos_skip"] = 2 if exclude else 0
        v["x_source"] = k.X_MASS_CENTER
        v["health_mode"] = k.HEALTH_HUMANOID
        if v4:  # every body and dof observed, no contact cost, center-of-mass positions
            v["use_cinert"] = v["use_cvel"] = v["use_qfrc_actuator"] = v["use_cfrc_ext"] = 1
            v["body_from"], v["qfrc_from"], v["pos_info"] = 0, 0, 1
        else:
            v["use_cinert"] = int(bool(cfg["include_cinert_in_observation"]))
            v["use_cvel"] = int(bool(cfg["include_cvel_in_observation"]))
            v["use_qfrc_actuator"] = int(bool(cfg["include_qfrc_actuator_in_observation"]))
            v["use_cfrc_ext"] = int(bool(cfg["include_cfrc_ext_in_observation"]))
            v["contact_w"] = float(cfg["contact_cost_weight"])
            v["contact_mode"] = k.CONTACT_CLIPPED_COST
            v["contact_max"] = _finite(_range(cfg, "contact_cost_range")[1])
    needs_cfrc = v["use_cfrc_ext"] == 1 or v["contact_mode"] != k.CONTACT_NONE
    return TaskConstants(
        values=v,
        reset_noise_scale=float(cfg["reset_noise_scale"]),
        normal_qvel=normal_qvel,
        frame_skip=int(cfg["frame_skip"]),
        needs_cfrc_ext=needs_cfrc,
    )


def obs_size(pool_name: str, v: dict[str, Any], nq: int, nv: int, nbody: int) -> int:
    """The observation length the kernels write for these constants."""
    n = nq - int(v["pos_skip"]) + nv
    bodies = nbody - int(v["body_from"])
    n += bodies * (10 * v["use_cinert"] + 6 * v["use_cvel"] + 6 * v["use_cfrc_ext"])
    n += (nv - int(v["qfrc_from"])) * v["use_qfrc_actuator"]
    return n
