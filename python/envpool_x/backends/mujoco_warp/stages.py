"""The device-side stages of a call around MuJoCo Warp's physics, each a
fixed sequence of launches on arrays made once per pool (so that on a GPU it
is captured once as a CUDA graph and replayed):

- ``step``: save the state of the worlds not to advance (only when there is
  one: a device flag gates the copies), ``frame_skip`` MuJoCo Warp steps of
  every world, put those worlds back, then MuJoCo's instability check.
- ``reset``: ``mj_resetData``, reset noise and ``mj_forward`` of the worlds
  flagged for a reset, only when some world is flagged.

Whether a world needs a stage is known on the device only; a conditional
node of the graph reads the flag there (warp's ``capture_if``), so a call
never waits for the host.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool_x.backends.mujoco_warp import kernels, reset_kernels, stage_kernels
from envpool_x.backends.mujoco_warp.engine import Physics
from envpool_x.backends.mujoco_warp.tasks import TaskConstants


class Stages:
    """The stages of one pool, and the per-world arrays they share with it.

    ``stepped``, ``need_reset`` and friends are the pool's flags (one int32
    per world); the pool writes them with its own kernels between stages.
    """

    def __init__(self, wp: Any, physics: Physics, consts: TaskConstants, n: int) -> None:
        self.wp, self.physics, self.consts, self.n = wp, physics, consts, n
        z = lambda dtype: wp.zeros(n, dtype=dtype)  # noqa: E731
        self.elapsed, self.done, self.need_reset = z(wp.int32), z(wp.int32), z(wp.int32)
        self.stepped, self.bad, self.errors = z(wp.int32), z(wp.int32), z(wp.int32)
        self.unstable, self.counters = z(wp.int32), z(wp.int32)
        self.x_before, self.y_before = z(wp.float32), z(wp.float32)
        self.any_idle = wp.zeros(1, dtype=wp.int32)  # some world is not stepped
        self.any_reset = wp.zeros(1, dtype=wp.int32)  # some world is flagged for reset
        self.seeds: Any = None  # set by the pool (int32 per world)
        self.world_params: Any = None  # set by the pool (world_params.WorldParams)
        d = physics.data
        self._live = [d.qpos, d.qvel, d.qacc_warmstart, d.ctrl, d.time]
        self._live += [d.act] if d.act.shape[1] else []
        self._saved = [wp.empty_like(a) for a in self._live]

    # -- step --------------------------------------------------------------------
    def step(self) -> None:
        """The physics of a call (after set_ctrl wrote ``stepped``)."""
        self.physics.run("step", self._step_body)

    def _step_body(self) -> None:
        wp = self.wp
        self.any_idle.zero_()
        wp.launch(stage_kernels.flag_any, self.n, [self.stepped, 0, self.any_idle])
        self.physics.when(self.any_idle, self._save)
        self.physics.step_body()
        self.physics.when(self.any_idle, self._restore)
        d = self.physics.data
        wp.launch(
            stage_kernels.find_unstable,
            self.n,
            [self.stepped, self.physics.model.qpos0, d.qpos, d.qvel, d.qacc, d.qacc_warmstart,
             d.act, self.unstable],
        )  # fmt: skip

    def _save(self) -> None:
        """MuJoCo Warp steps every world: keep the state of the ones not to
        advance (``stepped`` 0), which _restore puts back. (The row copy of
        restore_* in the other direction.)"""
        wp = self.wp
        for live, copy in zip(self._live, self._saved, strict=True):
            if live.ndim == 1:
                wp.launch(reset_kernels.restore_time, live.shape[0], [self.stepped, live, copy])
            else:
                wp.launch(reset_kernels.restore_rows, live.shape, [self.stepped, live, copy])

    def _restore(self) -> None:
        wp = self.wp
        for live, copy in zip(self._live, self._saved, strict=True):
            if live.ndim == 1:
                wp.launch(reset_kernels.restore_time, live.shape[0], [self.stepped, copy, live])
            else:
                wp.launch(reset_kernels.restore_rows, live.shape, [self.stepped, copy, live])

    # -- reset -------------------------------------------------------------------
    def reset(self) -> None:
        """Reset the worlds flagged in ``need_reset`` (noise from their streams)."""
        self.physics.run("reset", self._reset_body)

    def _reset_body(self) -> None:
        self.any_reset.zero_()
        self.wp.launch(stage_kernels.flag_any, self.n, [self.need_reset, 1, self.any_reset])
        self.physics.when(self.any_reset, self._reset_flagged)

    def _reset_flagged(self) -> None:
        c, d = self.consts, self.physics.data
        self.world_params.at_reset(self.need_reset, self.seeds)  # new values, as the CPU pool
        self.physics.reset_body(self.need_reset)
        self.wp.launch(
            reset_kernels.reset_noise,
            self.n,
            [self.need_reset, self.seeds, self.counters, self.physics.model.qpos0,
             c.reset_noise_scale, int(c.normal_qvel), d.qpos, d.qvel, self.elapsed, self.done],
        )  # fmt: skip
        self.physics.mjw.forward(self.physics.model, d)


def initial_observation(
    wp: Any, physics: Physics, params: Any, last_obs: Any, stages: Stages
) -> Any:
    """The observation of the model's initial state (qpos0, at rest, no
    contact forces yet), one row on the device: the row of a world MuJoCo's
    instability check put back (see stage_kernels.find_unstable). Run at pool
    creation, while every world is in that state."""
    physics.forward()
    d = physics.data
    out = wp.zeros((1, last_obs.shape[1]), dtype=wp.float64)
    wp.launch(
        kernels.write_obs,
        1,
        [params, wp.array(np.zeros(1, np.int32)), 0, stages.need_reset,
         d.qpos, d.qvel, d.xpos, d.xipos, physics.model.body_mass, d.cinert, d.cvel,
         d.qfrc_actuator, d.cfrc_ext, out, last_obs, stages.x_before, stages.y_before],
    )  # fmt: skip
    return out
