# mypy: ignore-errors
# (warp's kernel language: annotations such as wp.array(dtype=...) are calls, not types)
"""Warp kernels around MuJoCo Warp's physics: actions in, observation, reward,
health, episode bookkeeping and reset noise, one thread per env.

Every kernel takes ``ids`` (the envs of this call, in result-row order): row
``i`` of an output belongs to world ``ids[i]``. The task's constants come in a
:class:`TaskParams` struct so that one set of kernels serves every task.
"""

# Warp needs int(0) / float(0.0) for a variable a loop changes (a literal is a constant).
# ruff: noqa: UP018

from __future__ import annotations

import warp as wp
from mujoco_warp._src.types import vec10f

from envpool_x.backends.contract import AutoresetMode

# Health rules (gymnasium 1.4's is_healthy of each v5 task).
HEALTH_ALWAYS = 0  # HalfCheetah: no health rule
HEALTH_ANT = 1  # finite state and lo <= qpos[2] <= hi
HEALTH_HUMANOID = 2  # lo < qpos[2] < hi
HEALTH_HOPPER = 3  # z = qpos[1], angle = qpos[2], state_vector[2:] in range (strict)
HEALTH_WALKER = 4  # z = qpos[1], angle = qpos[2] (strict)

# What the forward velocity differentiates.
X_QPOS0 = 0  # qpos[0]
X_BODY = 1  # xpos[body].x
X_MASS_CENTER = 2  # sum(mass * xipos.x) / sum(mass)

# Contact cost.
CONTACT_NONE = 0
CONTACT_CLIPPED_FORCES = 1  # w * sum(clip(cfrc_ext, lo, hi)^2) (Ant)
CONTACT_CLIPPED_COST = 2  # min(w * sum(cfrc_ext^2), hi) (Humanoid)

# Info columns (rows of the info array): the CPU envs' info keys, by name in results.py.
INFO_NAMES = (
    "x_position",
    "y_position",
    "distance_from_origin",
    "x_velocity",
    "y_velocity",
    "z_distance_from_origin",
    "reward_forward",
    "reward_ctrl",
    "reward_contact",
    "reward_survive",
)

# Error codes recorded per env (read by check_errors).
ERR_NONE = 0
ERR_ACTION = 1  # a non-finite action value
ERR_FINISHED = 2  # a step of a finished env in autoreset_mode="disabled"

# The autoreset modes' codes, from the one enum (C++'s, through AutoresetMode).
MODE_NEXT_STEP = wp.constant(AutoresetMode.NEXT_STEP.code)
MODE_SAME_STEP = wp.constant(AutoresetMode.SAME_STEP.code)
MODE_DISABLED = wp.constant(AutoresetMode.DISABLED.code)

# done[w]: 0 running, 1 its episode ended, DONE_FORCE_RESET a bad action ended
# it (it resets at its next step in every autoreset mode, as on the classic GPU path).
DONE_FORCE_RESET = 2


@wp.struct
class TaskParams:
    """One task's constants (see tasks.py)."""

    pos_skip: int
    qvel_clip: float
    use_cinert: int
    use_cvel: int
    use_qfrc_actuator: int
    use_cfrc_ext: int
    cfrc_lo: float
    cfrc_hi: float
    x_source: int
    body: int
    dt: float
    forward_w: float
    ctrl_w: float
    contact_w: float
    contact_mode: int
    contact_max: float
    healthy_reward: float
    survive_always: int  # v4: the healthy reward whenever terminate_when_unhealthy is set
    body_from: int  # first body observed in cinert / cvel / cfrc_ext (v4: 0, the world)
    qfrc_from: int  # first dof observed in qfrc_actuator (v5: 6, after the free joint)
    pos_info: int  # info positions: 0 qpos[0:2] (v5), 1 the tracked x / y (v4)
    ctrl_info_contact: int  # Ant-v4 with contact forces: reward_ctrl reports -contact_cost
    health_mode: int
    terminate: int
    z_lo: float
    z_hi: float
    angle_lo: float
    angle_hi: float
    state_lo: float
    state_hi: float
    init_z: float


@wp.kernel
def set_ctrl(
    ids: wp.array(dtype=wp.int32),
    action: wp.array2d(dtype=wp.float32),
    done: wp.array(dtype=wp.int32),
    disabled: int,
    ctrl: wp.array2d(dtype=wp.float32),
    stepped: wp.array(dtype=wp.int32),
    bad: wp.array(dtype=wp.int32),
    errors: wp.array(dtype=wp.int32),
):
    """ctrl = action for the envs of this call, as the classic GPU kernel
    treats a row: an env whose last action was bad (done == DONE_FORCE_RESET)
    is not stepped (it resets in this call); a non-finite action is recorded
    and the env is not stepped (its episode ends truncated, reward 0); a step
    of a finished env in disabled mode is recorded and the env left alone."""
    i = wp.tid()
    w = ids[i]
    bad[w] = 0
    if done[w] == DONE_FORCE_RESET:
        return
    if disabled == 1 and done[w] == 1:
        # The CPU pool refuses this call; here it is recorded and the env is
        # left as it is (still finished, waiting for a reset).
        errors[w] = ERR_FINISHED
        return
    for j in range(action.shape[1]):
        if not wp.isfinite(action[i, j]):
            bad[w] = 1
            errors[w] = ERR_ACTION
            return
    stepped[w] = 1
    for j in range(action.shape[1]):
        ctrl[w, j] = action[i, j]


@wp.func
def pos_now(
    p: TaskParams,
    w: int,
    axis: int,
    qpos: wp.array2d(dtype=wp.float32),
    xpos: wp.array2d(dtype=wp.vec3),
    xipos: wp.array2d(dtype=wp.vec3),
    mass: wp.array2d(dtype=wp.float32),
) -> float:
    """The x (axis 0) or y (axis 1) whose change is the task's velocity."""
    if p.x_source == X_QPOS0:
        return qpos[w, axis]
    if p.x_source == X_BODY:
        return xpos[w, p.body][axis]
    total = float(0.0)
    mx = float(0.0)
    m = w % mass.shape[0]  # body_mass has a row per world once parameters differ
    for b in range(xipos.shape[1]):
        total += mass[m, b]
        mx += mass[m, b] * xipos[w, b][axis]
    return mx / total


@wp.func
def write_positions(
    p: TaskParams,
    i: int,
    w: int,
    qpos: wp.array2d(dtype=wp.float32),
    xpos: wp.array2d(dtype=wp.vec3),
    xipos: wp.array2d(dtype=wp.vec3),
    mass: wp.array2d(dtype=wp.float32),
    info: wp.array2d(dtype=wp.float64),
):
    """x_position, y_position, distance_from_origin (of qpos[0:2], as the v5
    envs report them; v4's Ant and Humanoid: of the x / y their velocity
    tracks) and z_distance_from_origin (qpos[1] - init_qpos[1])."""
    x = qpos[w, 0]
    y = qpos[w, 1]
    if p.pos_info == 1:
        x = pos_now(p, w, 0, qpos, xpos, xipos, mass)
        y = pos_now(p, w, 1, qpos, xpos, xipos, mass)
    info[0, i] = wp.float64(x)
    info[1, i] = wp.float64(y)
    info[2, i] = wp.float64(wp.sqrt(x * x + y * y))
    info[5, i] = wp.float64(y - p.init_z)


@wp.func
def healthy(
    p: TaskParams, w: int, qpos: wp.array2d(dtype=wp.float32), qvel: wp.array2d(dtype=wp.float32)
) -> int:  # noqa: E501
    if p.health_mode == HEALTH_ALWAYS:
        return 1
    if p.health_mode == HEALTH_ANT:
        for j in range(qpos.shape[1]):
            if not wp.isfinite(qpos[w, j]):
                return 0
        for j in range(qvel.shape[1]):
            if not wp.isfinite(qvel[w, j]):
                return 0
        z = qpos[w, 2]
        return int(z >= p.z_lo and z <= p.z_hi)
    if p.health_mode == HEALTH_HUMANOID:
        z = qpos[w, 2]
        return int(z > p.z_lo and z < p.z_hi)
    z = qpos[w, 1]
    angle = qpos[w, 2]
    ok = z > p.z_lo and z < p.z_hi and angle > p.angle_lo and angle < p.angle_hi
    if p.health_mode == HEALTH_HOPPER:
        for j in range(2, qpos.shape[1]):
            s = qpos[w, j]
            ok = ok and s > p.state_lo and s < p.state_hi
        for j in range(qvel.shape[1]):
            s = qvel[w, j]
            ok = ok and s > p.state_lo and s < p.state_hi
    return int(ok)


@wp.kernel
def write_obs(
    p: TaskParams,
    ids: wp.array(dtype=wp.int32),
    only_flagged: int,
    flags: wp.array(dtype=wp.int32),
    qpos: wp.array2d(dtype=wp.float32),
    qvel: wp.array2d(dtype=wp.float32),
    xpos: wp.array2d(dtype=wp.vec3),
    xipos: wp.array2d(dtype=wp.vec3),
    mass: wp.array2d(dtype=wp.float32),
    cinert: wp.array2d(dtype=vec10f),
    cvel: wp.array2d(dtype=wp.spatial_vector),
    qfrc_actuator: wp.array2d(dtype=wp.float32),
    cfrc_ext: wp.array2d(dtype=wp.spatial_vector),
    obs: wp.array2d(dtype=wp.float64),
    last_obs: wp.array2d(dtype=wp.float64),
    x_before: wp.array(dtype=wp.float32),
    y_before: wp.array(dtype=wp.float32),
):
    """The observation of world ids[i] into row i (and the world's last_obs),
    and the position the next step's velocity starts from. only_flagged 1:
    rows whose world has no flag are left alone; 2: they get last_obs."""
    i = wp.tid()
    w = ids[i]
    if only_flagged == 1 and flags[w] == 0:
        return
    if only_flagged == 2 and flags[w] == 0:  # not stepped: its current observation
        for j in range(obs.shape[1]):
            obs[i, j] = last_obs[w, j]
        return
    k = int(0)
    for j in range(p.pos_skip, qpos.shape[1]):
        obs[i, k] = wp.float64(qpos[w, j])
        k += 1
    for j in range(qvel.shape[1]):
        v = qvel[w, j]
        if p.qvel_clip > 0.0:
            v = wp.clamp(v, -p.qvel_clip, p.qvel_clip)
        obs[i, k] = wp.float64(v)
        k += 1
    nb = cinert.shape[1]
    if p.use_cinert == 1:
        for b in range(p.body_from, nb):
            for e in range(10):
                obs[i, k] = wp.float64(cinert[w, b][e])
                k += 1
    if p.use_cvel == 1:
        for b in range(p.body_from, nb):
            for e in range(6):
                obs[i, k] = wp.float64(cvel[w, b][e])
                k += 1
    if p.use_qfrc_actuator == 1:
        for j in range(p.qfrc_from, qfrc_actuator.shape[1]):
            obs[i, k] = wp.float64(qfrc_actuator[w, j])
            k += 1
    if p.use_cfrc_ext == 1:
        for b in range(p.body_from, nb):
            for e in range(6):
                f = cfrc_ext[w, b][e]
                if p.contact_mode == CONTACT_CLIPPED_FORCES:
                    f = wp.clamp(f, p.cfrc_lo, p.cfrc_hi)
                obs[i, k] = wp.float64(f)
                k += 1
    for j in range(k):
        last_obs[w, j] = obs[i, j]
    x_before[w] = pos_now(p, w, 0, qpos, xpos, xipos, mass)
    y_before[w] = pos_now(p, w, 1, qpos, xpos, xipos, mass)


@wp.kernel
def reward_and_episode(
    p: TaskParams,
    ids: wp.array(dtype=wp.int32),
    qpos: wp.array2d(dtype=wp.float32),
    qvel: wp.array2d(dtype=wp.float32),
    xpos: wp.array2d(dtype=wp.vec3),
    xipos: wp.array2d(dtype=wp.vec3),
    mass: wp.array2d(dtype=wp.float32),
    dt: wp.array(dtype=wp.float32),
    ctrl: wp.array2d(dtype=wp.float32),
    cfrc_ext: wp.array2d(dtype=wp.spatial_vector),
    x_before: wp.array(dtype=wp.float32),
    y_before: wp.array(dtype=wp.float32),
    bad: wp.array(dtype=wp.int32),
    unstable: wp.array(dtype=wp.int32),
    max_steps: int,
    mode: int,
    elapsed: wp.array(dtype=wp.int32),
    done: wp.array(dtype=wp.int32),
    need_reset: wp.array(dtype=wp.int32),
    reward: wp.array(dtype=wp.float64),
    terminated: wp.array(dtype=wp.bool),
    truncated: wp.array(dtype=wp.bool),
    elapsed_out: wp.array(dtype=wp.int32),
    final_mask: wp.array(dtype=wp.bool),
    info: wp.array2d(dtype=wp.float64),
):
    """Reward, terminated, truncated and elapsed_step of row i, before x_before
    is overwritten. ``mode``: an AutoresetMode code (MODE_*). In
    next_step mode a world done at the previous call is flagged for reset
    (its row becomes the reset row); in same_step mode a world done now. A
    world that diverged in this step (``unstable``, see stage_kernels) was put
    back to the model's initial state, as MuJoCo does: its episode ends
    truncated (not terminated, as the CPU env ends it), reward and terms 0."""
    i = wp.tid()
    w = ids[i]
    velocity = float(0.0)
    y_velocity = float(0.0)
    if unstable[w] == 0:  # a diverged world's positions before / after mean nothing
        step_dt = dt[w % dt.shape[0]]  # p.dt, or the world's own (timestep_scale)
        velocity = (pos_now(p, w, 0, qpos, xpos, xipos, mass) - x_before[w]) / step_dt
        y_velocity = (pos_now(p, w, 1, qpos, xpos, xipos, mass) - y_before[w]) / step_dt
    ctrl_cost = float(0.0)
    for j in range(ctrl.shape[1]):
        ctrl_cost += ctrl[w, j] * ctrl[w, j]
    ctrl_cost *= p.ctrl_w
    contact = float(0.0)
    if p.contact_mode != CONTACT_NONE:
        for b in range(cfrc_ext.shape[1]):
            for e in range(6):
                f = cfrc_ext[w, b][e]
                if p.contact_mode == CONTACT_CLIPPED_FORCES:
                    f = wp.clamp(f, p.cfrc_lo, p.cfrc_hi)
                contact += f * f
        contact *= p.contact_w
        if p.contact_mode == CONTACT_CLIPPED_COST:
            contact = wp.min(contact, p.contact_max)
    ok = healthy(p, w, qpos, qvel)
    survive = p.healthy_reward * float(ok == 1 or p.survive_always == 1)
    if unstable[w] == 1:
        ctrl_cost = 0.0
        contact = 0.0
        survive = 0.0
    r = p.forward_w * velocity + survive - ctrl_cost - contact
    write_positions(p, i, w, qpos, xpos, xipos, mass, info)
    info[3, i] = wp.float64(velocity)
    info[4, i] = wp.float64(y_velocity)
    info[6, i] = wp.float64(p.forward_w * velocity)
    info[7, i] = wp.float64(-ctrl_cost)
    if p.ctrl_info_contact == 1:
        info[7, i] = wp.float64(-contact)
    info[8, i] = wp.float64(-contact)
    info[9, i] = wp.float64(survive)
    term = p.terminate == 1 and ok == 0
    steps = elapsed[w] + 1
    trunc = max_steps > 0 and steps >= max_steps
    if unstable[w] == 1:
        term = False
        trunc = True
    final_mask[i] = False
    if done[w] == DONE_FORCE_RESET:  # a bad action ended it: this call resets it
        need_reset[w] = 1
        done[w] = 0
        r = 0.0
        term = False
        trunc = False
        steps = 0
    elif bad[w] == 1:  # as the CPU engine ends an env that failed: not stepped,
        # truncated, no reward; it resets at its next step (in every mode)
        done[w] = DONE_FORCE_RESET
        r = 0.0
        term = False
        trunc = True
        steps = elapsed[w]
    elif mode == MODE_DISABLED and done[w] == 1:  # a finished env, not stepped (see set_ctrl)
        r = 0.0
        term = False
        trunc = True
        steps = elapsed[w]
    elif mode == MODE_NEXT_STEP and done[w] == 1:  # next_step: this call resets the env
        need_reset[w] = 1
        done[w] = 0
        r = 0.0
        term = False
        trunc = False
        steps = 0
    elif mode == MODE_SAME_STEP and (term or trunc):
        need_reset[w] = 1
        final_mask[i] = True
    elif term or trunc:
        done[w] = 1
    elapsed[w] = steps
    reward[i] = wp.float64(r)
    terminated[i] = term
    truncated[i] = trunc
    elapsed_out[i] = steps
