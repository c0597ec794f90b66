# mypy: ignore-errors
# (warp's kernel language: annotations such as wp.array(dtype=...) are calls, not types)
"""Warp kernels of per-env parameters (docs/params.md) on MuJoCo Warp: a
world's values drawn at its reset from its own parameter stream, and written
into its rows of the batched model fields (base x scale, as the CPU envs'
``model.body_mass[:] = base * s``; cpp/envs/mujoco/model_params.h)."""

from __future__ import annotations

import warp as wp

# envpool_x.params's draw codes (cpp/core/params.h's ParamDraw).
FIXED, UNIFORM, LOG_UNIFORM, NORMAL, CHOICE = 0, 1, 2, 3, 4
# The parameters in declaration order (ModelParamSpecs).
MASS, INERTIA, FRICTION, DAMPING, ARMATURE, GEAR, GRAVITY, TIMESTEP = range(8)
PARAM_SALT = 0x7061726D  # "parm": the parameter stream apart from the reset noise's


@wp.kernel
def draw_params(
    flags: wp.array(dtype=wp.int32),
    draw: wp.array2d(dtype=wp.int32),
    a: wp.array2d(dtype=wp.float64),
    b: wp.array2d(dtype=wp.float64),
    choice_begin: wp.array2d(dtype=wp.int32),
    choice_count: wp.array2d(dtype=wp.int32),
    choices: wp.array(dtype=wp.float64),
    low: wp.array(dtype=wp.float64),
    high: wp.array(dtype=wp.float64),
    seeds: wp.array(dtype=wp.int32),
    counters: wp.array(dtype=wp.int32),
    values: wp.array2d(dtype=wp.float64),
):
    """The values of each flagged world, one draw per parameter in declaration
    order (a fixed setting draws nothing), from the world's parameter stream:
    the same seed gives the same values on the same device."""
    w = wp.tid()
    if flags[w] == 0:
        return
    state = wp.rand_init(seeds[w] ^ PARAM_SALT, counters[w])
    for k in range(values.shape[1]):
        code = draw[w, k]
        lo = a[w, k]
        hi = b[w, k]
        v = lo
        if code == UNIFORM:
            v = lo + (hi - lo) * wp.float64(wp.randf(state))
        elif code == LOG_UNIFORM:
            v = wp.min(
                wp.exp(wp.log(lo) + (wp.log(hi) - wp.log(lo)) * wp.float64(wp.randf(state))), hi
            )
        elif code == NORMAL:
            v = wp.min(wp.max(lo + hi * wp.float64(wp.randn(state)), low[k]), high[k])
        elif code == CHOICE:
            v = choices[choice_begin[w, k] + wp.randi(state, 0, choice_count[w, k])]
        values[w, k] = v
    counters[w] = counters[w] + 1


@wp.func
def f32(x: wp.float64) -> float:
    return wp.float32(x)


@wp.kernel
def apply_params(
    flags: wp.array(dtype=wp.int32),
    values: wp.array2d(dtype=wp.float64),
    mass0: wp.array(dtype=wp.float64),
    inertia0: wp.array2d(dtype=wp.float64),
    friction0: wp.array2d(dtype=wp.float64),
    damping0: wp.array(dtype=wp.float64),
    damping_folded: wp.array(dtype=wp.float64),
    armature0: wp.array(dtype=wp.float64),
    gear0: wp.array2d(dtype=wp.float64),
    gravity0: wp.vec3d,
    timestep0: wp.float64,
    frame_skip: int,
    body_mass: wp.array2d(dtype=wp.float32),
    body_inertia: wp.array2d(dtype=wp.vec3),
    geom_friction: wp.array2d(dtype=wp.vec3),
    dof_damping: wp.array2d(dtype=wp.float32),
    dof_armature: wp.array2d(dtype=wp.float32),
    actuator_gear: wp.array2d(dtype=wp.spatial_vector),
    gravity: wp.array(dtype=wp.vec3),
    timestep: wp.array(dtype=wp.float32),
    dt: wp.array(dtype=wp.float32),
):
    """A flagged world's rows of the model fields from its values. The scaled
    values are float64 products of the host model's values, rounded once to
    MuJoCo Warp's float32, as put_model rounds a model scaled on the host.
    ``damping_folded``: what put_model adds to dof_damping (actuator damping)."""
    w = wp.tid()
    if flags[w] == 0:
        return
    s_mass = values[w, MASS]
    s_inertia = values[w, INERTIA]
    for i in range(mass0.shape[0]):
        body_mass[w, i] = f32(mass0[i] * s_mass)
        body_inertia[w, i] = wp.vec3(
            f32(inertia0[i, 0] * s_inertia),
            f32(inertia0[i, 1] * s_inertia),
            f32(inertia0[i, 2] * s_inertia),
        )
    for i in range(friction0.shape[0]):  # the sliding friction only
        geom_friction[w, i] = wp.vec3(
            f32(friction0[i, 0] * values[w, FRICTION]), f32(friction0[i, 1]), f32(friction0[i, 2])
        )
    for i in range(damping0.shape[0]):
        dof_damping[w, i] = f32(damping0[i] * values[w, DAMPING] + damping_folded[i])
        dof_armature[w, i] = f32(armature0[i] * values[w, ARMATURE])
    s_gear = values[w, GEAR]
    for i in range(gear0.shape[0]):
        g = wp.spatial_vector()
        for j in range(6):
            g[j] = f32(gear0[i, j] * s_gear)
        actuator_gear[w, i] = g
    s_gravity = values[w, GRAVITY]
    gravity[w] = wp.vec3(
        f32(gravity0[0] * s_gravity), f32(gravity0[1] * s_gravity), f32(gravity0[2] * s_gravity)
    )
    step = timestep0
    if values.shape[1] > TIMESTEP:
        step = timestep0 * values[w, TIMESTEP]
    timestep[w] = f32(step)
    dt[w] = f32(step * wp.float64(frame_skip))
