# mypy: ignore-errors
# (warp's kernel language: annotations such as wp.array(dtype=...) are calls, not types)
"""Warp kernels that gate the optional stages of a call and guard against
diverged worlds: a device flag saying whether any world needs a stage (read
by a conditional node of the call's CUDA graph, so no host round trip), and
MuJoCo's instability check (mj_checkPos / mj_checkVel / mj_checkAcc)."""

from __future__ import annotations

import warp as wp

# Warp needs int(0) for a variable a loop changes (a literal is a constant).
# ruff: noqa: UP018

# MuJoCo's mjMAXVAL: a state value beyond it counts as diverged (mju_isBad).
MAX_VALUE = 1.0e10


@wp.kernel
def flag_any(flags: wp.array(dtype=wp.int32), value: int, out: wp.array(dtype=wp.int32)):
    """out[0] = 1 when some flags[w] == value (out zeroed before)."""
    if flags[wp.tid()] == value:
        out[0] = 1  # every writer writes the same value: no atomic needed


@wp.func
def _bad(x: float) -> int:
    if wp.isfinite(x) and wp.abs(x) <= MAX_VALUE:
        return 0
    return 1


@wp.kernel
def find_unstable(
    stepped: wp.array(dtype=wp.int32),
    qpos0: wp.array2d(dtype=wp.float32),
    qpos: wp.array2d(dtype=wp.float32),
    qvel: wp.array2d(dtype=wp.float32),
    qacc: wp.array2d(dtype=wp.float32),
    qacc_warmstart: wp.array2d(dtype=wp.float32),
    act: wp.array2d(dtype=wp.float32),
    unstable: wp.array(dtype=wp.int32),
):
    """unstable[w] = 1 for a stepped world whose qpos, qvel or qacc holds a NaN,
    an inf or a value beyond MAX_VALUE after the step, and that world put back
    to the model's initial state (qpos0, at rest, no warm start, no
    activation), as MuJoCo's step does when it warns (it resets mjData).

    MuJoCo checks before each of its steps and after the accelerations; here
    once per env step, after frame_skip steps (a NaN stays a NaN). The reset
    keeps the diverged world from costing every world solver iterations.
    """
    w = wp.tid()
    unstable[w] = 0
    if stepped[w] == 0:
        return
    bad = int(0)
    for j in range(qpos.shape[1]):
        bad += _bad(qpos[w, j])
    for j in range(qvel.shape[1]):
        bad += _bad(qvel[w, j]) + _bad(qacc[w, j])
    if bad == 0:
        return
    unstable[w] = 1
    for j in range(qpos.shape[1]):
        qpos[w, j] = qpos0[0, j]
    for j in range(qvel.shape[1]):
        qvel[w, j] = 0.0
        qacc_warmstart[w, j] = 0.0
    for j in range(act.shape[1]):
        act[w, j] = 0.0


@wp.kernel
def observe_initial(
    ids: wp.array(dtype=wp.int32),
    unstable: wp.array(dtype=wp.int32),
    initial_obs: wp.array2d(dtype=wp.float64),
    obs: wp.array2d(dtype=wp.float64),
    last_obs: wp.array2d(dtype=wp.float64),
):
    """The row of a world find_unstable put back: the observation of the
    model's initial state (computed once per pool), as the CPU env observes
    the state MuJoCo reset to."""
    i, j = wp.tid()
    w = ids[i]
    if unstable[w] == 1:
        obs[i, j] = initial_obs[0, j]
        last_obs[w, j] = initial_obs[0, j]
