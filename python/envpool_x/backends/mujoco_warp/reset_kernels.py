# mypy: ignore-errors
# (warp's kernel language: annotations such as wp.array(dtype=...) are calls, not types)
"""Warp kernels of resets and of steps that leave some worlds alone: reset
noise, reset rows, same_step's final observation, putting worlds back,
marking worlds and Humanoid's tendon info."""

from __future__ import annotations

import warp as wp

from envpool_x.backends.mujoco_warp.kernels import TaskParams, write_positions


@wp.kernel
def reset_noise(
    need_reset: wp.array(dtype=wp.int32),
    seeds: wp.array(dtype=wp.int32),
    counters: wp.array(dtype=wp.int32),
    qpos0: wp.array2d(dtype=wp.float32),
    scale: float,
    normal_qvel: int,
    qpos: wp.array2d(dtype=wp.float32),
    qvel: wp.array2d(dtype=wp.float32),
    elapsed: wp.array(dtype=wp.int32),
    done: wp.array(dtype=wp.int32),
):
    """gymnasium's reset_model: qpos = qpos0 + U(-s, s); qvel = s * N(0, 1)
    (Ant, HalfCheetah) or U(-s, s), from the world's own random stream."""
    w = wp.tid()
    if need_reset[w] == 0:
        return
    state = wp.rand_init(seeds[w], counters[w])
    for j in range(qpos.shape[1]):
        qpos[w, j] = qpos0[0, j] + wp.randf(state, -scale, scale)
    for j in range(qvel.shape[1]):
        if normal_qvel == 1:
            qvel[w, j] = scale * wp.randn(state)
        else:
            qvel[w, j] = wp.randf(state, -scale, scale)
    counters[w] = counters[w] + 1
    elapsed[w] = 0
    done[w] = 0


@wp.kernel
def reset_rows(
    p: TaskParams,
    ids: wp.array(dtype=wp.int32),
    qpos: wp.array2d(dtype=wp.float32),
    xpos: wp.array2d(dtype=wp.vec3),
    xipos: wp.array2d(dtype=wp.vec3),
    mass: wp.array2d(dtype=wp.float32),
    info: wp.array2d(dtype=wp.float64),
    need_reset: wp.array(dtype=wp.int32),
    keep_reward: int,
    reward: wp.array(dtype=wp.float64),
    terminated: wp.array(dtype=wp.bool),
    truncated: wp.array(dtype=wp.bool),
    elapsed_out: wp.array(dtype=wp.int32),
):
    """Rows of reset worlds: elapsed_step 0, info zero but the positions;
    reward 0 and not done, except in same_step mode, where the row keeps the
    ending step's reward and flags."""
    i = wp.tid()
    w = ids[i]
    if need_reset[w] == 0:
        return
    elapsed_out[i] = 0
    for c in range(info.shape[0]):
        info[c, i] = wp.float64(0.0)
    write_positions(p, i, w, qpos, xpos, xipos, mass, info)
    if keep_reward == 0:
        reward[i] = wp.float64(0.0)
        terminated[i] = False
        truncated[i] = False


@wp.kernel
def copy_final_obs(
    final_mask: wp.array(dtype=wp.bool),
    obs: wp.array2d(dtype=wp.float64),
    final_obs: wp.array2d(dtype=wp.float64),
):
    """same_step: the last observation of an episode that ends in this call
    (also Humanoid's tendon vectors of final_info); 0 in other rows."""
    i, j = wp.tid()
    if final_mask[i]:
        final_obs[i, j] = obs[i, j]
    else:
        final_obs[i, j] = wp.float64(0.0)


@wp.kernel
def restore_rows(
    stepped: wp.array(dtype=wp.int32),
    saved: wp.array2d(dtype=wp.float32),
    data: wp.array2d(dtype=wp.float32),
):
    """A step of a subset advances every world: put the others back."""
    w, j = wp.tid()
    if stepped[w] == 0:
        data[w, j] = saved[w, j]


@wp.kernel
def restore_time(
    stepped: wp.array(dtype=wp.int32),
    saved: wp.array(dtype=wp.float32),
    t: wp.array(dtype=wp.float32),
):
    w = wp.tid()
    if stepped[w] == 0:
        t[w] = saved[w]


@wp.kernel
def mark(ids: wp.array(dtype=wp.int32), flags: wp.array(dtype=wp.int32)):
    flags[ids[wp.tid()]] = 1


@wp.kernel
def copy_tendons(
    ids: wp.array(dtype=wp.int32),
    only_flagged: int,
    flags: wp.array(dtype=wp.int32),
    ten_length: wp.array2d(dtype=wp.float32),
    ten_velocity: wp.array2d(dtype=wp.float32),
    length_out: wp.array2d(dtype=wp.float64),
    velocity_out: wp.array2d(dtype=wp.float64),
):
    """Humanoid-v5's tendon_length / tendon_velocity info of row i."""
    i, k = wp.tid()
    w = ids[i]
    if only_flagged == 1 and flags[w] == 0:
        return
    length_out[i, k] = wp.float64(ten_length[w, k])
    velocity_out[i, k] = wp.float64(ten_velocity[w, k])


@wp.kernel
def copy_final_info(
    final_mask: wp.array(dtype=wp.bool),
    info: wp.array2d(dtype=wp.float64),
    final_info: wp.array2d(dtype=wp.float64),
):
    """same_step: the info of a step that ends an episode (before the reset row)."""
    c, i = wp.tid()
    if final_mask[i]:
        final_info[c, i] = info[c, i]
    else:
        final_info[c, i] = wp.float64(0.0)


@wp.kernel
def copy_final_ids(
    final_mask: wp.array(dtype=wp.bool),
    ids: wp.array(dtype=wp.int32),
    elapsed: wp.array(dtype=wp.int32),
    final_env_id: wp.array(dtype=wp.int32),
    final_elapsed: wp.array(dtype=wp.int32),
):
    """same_step: final_info's env_id and elapsed_step (the ending step's), 0
    in rows that do not end, as the CPU engine fills them."""
    i = wp.tid()
    if final_mask[i]:
        final_env_id[i] = ids[i]
        final_elapsed[i] = elapsed[i]
    else:
        final_env_id[i] = 0
        final_elapsed[i] = 0
