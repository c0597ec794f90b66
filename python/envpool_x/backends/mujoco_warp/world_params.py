"""Per-env parameters (docs/params.md) on MuJoCo Warp: the CPU MuJoCo envs'
scale factors (body_mass_scale, ..., timestep_scale), each world with its own
values through MuJoCo Warp's batched model fields.

MuJoCo Warp reads a batched model field (one whose spec starts with ``*``) at
row ``world % rows``: ``put_model`` makes them one row that every world shares.
A pool whose values are all 1 keeps that; the first ``set_params`` (or a config
value other than 1) gives each parameter's fields a row per world, written
from the host model's values times the world's scale (param_kernels.py), and
``dt`` (the reward's velocities) a value per world.

Settings apply at each world's next reset, also the resets the device does on
its own (autoresets): the reset stage draws every flagged world's values from
its settings (a fixed setting gives the same value again and draws nothing)
before ``mj_resetData``, as the CPU pool applies them before its env's reset.
``immediate=True`` writes plain values at once (a device pool has no work in
flight between calls).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from envpool_x.backends.checks import check_env_ids
from envpool_x.backends.mujoco_warp import param_kernels
from envpool_x.param_checks import check_settings

# The model fields the parameters write, in declaration order (ModelParamSpecs).
FIELDS = [
    "body_mass",
    "body_inertia",
    "geom_friction",
    "dof_damping",
    "dof_armature",
    "actuator_gear",
    "opt.gravity",
    "opt.timestep",
]
SETTING_ARRAYS = ("draw", "a", "b", "choice_begin", "choice_count")


class WorldParams:
    """The parameter tables of one MuJoCo Warp pool, made when first needed."""

    def __init__(self, wp: Any, physics: Any, specs: list[dict], config: Mapping[str, Any]):
        self.wp, self.physics, self.specs = wp, physics, specs
        self.names = [s["name"] for s in specs]
        self.defaults = np.array([float(config.get(n, 1.0)) for n in self.names])
        self.n = int(physics.data.qpos.shape[0])
        model = physics.mj_model
        # The reward's dt (timestep x frame_skip): one shared value until the tables exist.
        self.dt = wp.array([float(model.opt.timestep) * physics.frame_skip], dtype=wp.float32)
        self.made = False
        self.counters: Any = None
        self.choices: Any = None  # the tables (device arrays), made by _make
        self.values: Any = None
        if np.any(self.defaults != 1.0):  # the pool's own values: every world at once
            self._make()
            self._apply(np.ones(self.n, dtype=np.int32))

    # -- the pool's calls ----------------------------------------------------------
    def check(self, settings: Mapping[str, Any], immediate: bool) -> list[int]:
        """The index of each parameter of ``settings`` once all are checked."""
        return check_settings(self.specs, settings, immediate)

    def write(
        self, ids: np.ndarray, settings: Mapping[str, Any], index: list[int], immediate: bool
    ) -> None:
        """After :meth:`check`: ``settings`` (envpool_x.params.encode's tuples)
        for the worlds ``ids``; ``immediate``: their values apply now too."""
        if not index or ids.size == 0:
            return
        self._make()
        host = {k: getattr(self, k).numpy() for k in SETTING_ARRAYS}
        choices = list(self.choices.numpy()) if self.choices.shape[0] > 1 else [0.0]
        for (code, a, b, listed), k in zip(settings.values(), index, strict=True):
            begin = len(choices)
            choices.extend(listed)
            host["draw"][ids, k] = code
            host["a"][ids, k] = a
            host["b"][ids, k] = b
            host["choice_begin"][ids, k] = begin if listed else 0
            host["choice_count"][ids, k] = len(listed)
        for key in SETTING_ARRAYS:
            getattr(self, key).assign(host[key])
        if len(choices) > self.choices.shape[0]:  # a new array: the captured reset stage goes
            self.choices = self.wp.array(np.asarray(choices), dtype=self.wp.float64)
            self.physics.forget_graphs()
        else:
            self.choices.assign(np.asarray(choices))
        if immediate:
            values = self.values.numpy()
            for (_, a, _, _), k in zip(settings.values(), index, strict=True):
                values[ids, k] = a
            self.values.assign(values)
            flags = np.zeros(self.n, dtype=np.int32)
            flags[ids] = 1
            self._apply(flags)

    def get(self, ids: np.ndarray) -> np.ndarray:
        """``(len(ids), parameters)`` float64: the values each world runs with."""
        if not self.made:
            return np.tile(self.defaults, (len(ids), 1))
        return self.values.numpy()[ids]

    def reseed(self, ids: np.ndarray) -> None:
        """A reset with seeds restarts the parameter streams of ``ids`` too."""
        if self.made:
            counters = self.counters.numpy()
            counters[ids] = 0
            self.counters.assign(counters)

    def at_reset(self, flags: Any, seeds: Any) -> None:
        """In the reset stage, before mj_resetData: the flagged worlds' values
        drawn and written into the model (nothing without tables)."""
        if not self.made:
            return
        wp = self.wp
        wp.launch(
            param_kernels.draw_params,
            self.n,
            [flags, self.draw, self.a, self.b, self.choice_begin, self.choice_count,
             self.choices, self.low, self.high, seeds, self.counters, self.values],
        )  # fmt: skip
        self._launch_apply(flags)

    def bytes_per_world(self) -> int:
        """Device bytes per world of the tables and the model rows :meth:`_make` adds."""
        m = self.physics.mj_model
        tables = len(self.names) * (4 + 8 + 8 + 4 + 4 + 8) + 4 + 4  # settings, values, dt, counter
        rows = 4 * (m.nbody + 3 * m.nbody + 3 * m.ngeom + 2 * m.nv + 6 * m.nu + 3 + 1)
        return tables + rows

    # -- tables --------------------------------------------------------------------
    def _make(self) -> None:
        """Every world at the pool's values (fixed settings of them), and a row
        per world of each parameter's model fields."""
        if self.made:
            return
        wp, n, p = self.wp, self.n, len(self.names)
        self.draw = wp.zeros((n, p), dtype=wp.int32)
        self.a = wp.array(np.tile(self.defaults, (n, 1)), dtype=wp.float64)
        self.b = wp.zeros((n, p), dtype=wp.float64)
        self.choice_begin = wp.zeros((n, p), dtype=wp.int32)
        self.choice_count = wp.zeros((n, p), dtype=wp.int32)
        self.choices = wp.zeros(1, dtype=wp.float64)
        self.values = wp.array(np.tile(self.defaults, (n, 1)), dtype=wp.float64)
        self.low = wp.array([s["low"] for s in self.specs], dtype=wp.float64)
        self.high = wp.array([s["high"] for s in self.specs], dtype=wp.float64)
        self.counters = wp.zeros(n, dtype=wp.int32)
        self._base()
        m = self.physics.model
        for field in FIELDS:
            owner, name = (m.opt, field[4:]) if field.startswith("opt.") else (m, field)
            shared = getattr(owner, name)
            host = shared.numpy()  # vector dtypes add their length as a last axis
            rows = np.broadcast_to(host[:1], (n, *host.shape[1:])).copy()
            batched = wp.array(rows, dtype=shared.dtype)
            batched._is_batched = True  # as mujoco_warp's put_model marks its own
            setattr(owner, name, batched)
        self.dt = wp.array(np.full(n, self.dt.numpy()[0]), dtype=wp.float32)
        self.made = True
        self.physics.forget_graphs()  # captured stages hold the shared fields

    def _base(self) -> None:
        """The host model's float64 values the scales multiply."""
        wp, mjm = self.wp, self.physics.mj_model
        f64 = lambda x: wp.array(np.ascontiguousarray(x, dtype=np.float64), dtype=wp.float64)  # noqa: E731
        self.mass0, self.inertia0 = f64(mjm.body_mass), f64(mjm.body_inertia)
        self.friction0, self.damping0 = f64(mjm.geom_friction), f64(mjm.dof_damping)
        self.damping_folded = f64(_folded_damping(mjm))
        self.armature0, self.gear0 = f64(mjm.dof_armature), f64(mjm.actuator_gear)
        self.gravity0 = wp.vec3d(*[float(g) for g in mjm.opt.gravity])
        self.timestep0 = float(mjm.opt.timestep)

    def _apply(self, flags: np.ndarray) -> None:
        self._launch_apply(self.wp.array(flags, dtype=self.wp.int32))

    def _launch_apply(self, flags: Any) -> None:
        m = self.physics.model
        self.wp.launch(
            param_kernels.apply_params,
            self.n,
            [flags, self.values, self.mass0, self.inertia0, self.friction0, self.damping0,
             self.damping_folded, self.armature0, self.gear0, self.gravity0,
             self.wp.float64(self.timestep0), self.physics.frame_skip, m.body_mass,
             m.body_inertia, m.geom_friction, m.dof_damping, m.dof_armature, m.actuator_gear,
             m.opt.gravity, m.opt.timestep, self.dt],
        )  # fmt: skip


def _folded_damping(mjm: Any) -> np.ndarray:
    """What put_model adds to each dof's damping (the damping of actuators on
    joints, times gear squared, as mj_actuatorDamping): the CPU env scales the
    model's dof_damping only, so this part stays unscaled."""
    import mujoco

    folded = np.zeros(mjm.nv)
    joint = (mujoco.mjtTrn.mjTRN_JOINT, mujoco.mjtTrn.mjTRN_JOINTINPARENT)
    for k in range(mjm.nu):
        damping = float(mjm.actuator_damping[k])
        if damping != 0.0 and int(mjm.actuator_trntype[k]) in joint:
            dofs = mjm.dof_jntid == mjm.actuator_trnid[k, 0]
            folded[dofs] += damping * float(mjm.actuator_gear[k, 0]) ** 2
    return folded


class WorldParamsMixin:
    """``set_params`` / ``get_params`` of the pool (envpool_x.params calls them)."""

    num_envs: int
    world_params: WorldParams
    _started: np.ndarray

    _check_open: Callable[[], None]  # the pool's
    _scope: Callable[[], Any]

    def set_params(
        self, env_ids: Any, settings: Any, immediate: bool, require_idle: bool = False
    ) -> None:
        """Per-env parameters (docs/params.md; world_params.py): settings
        ``{name: (draw, a, b, choices)}`` for ``env_ids`` (None: all), applied
        at each world's next reset, autoresets on the device included;
        ``immediate`` applies plain values now. No work is in flight between
        calls, so ``require_idle`` holds by construction."""
        del require_idle
        self._check_open()
        ids = np.arange(self.num_envs) if env_ids is None else check_env_ids(env_ids, self.num_envs)
        index = self.world_params.check(settings, immediate)
        fresh = ids[~self._started[ids]] if immediate else ids[:0]
        if fresh.size:
            raise RuntimeError(
                f"env {int(fresh[0])} has not been reset; call reset() before "
                "set_params(immediate=True)"
            )
        with self._scope():
            self.world_params.write(np.asarray(ids), settings, index, immediate)

    def check_param_tables(self, spec: Any) -> None:
        """MemoryError (nothing changed) if the tables and per-world model rows
        a first ``set_params`` makes would not fit the device's free memory
        (host memory on ``cpu-reference``)."""
        from envpool_x import memory

        if self.world_params.made or memory.skipped(spec):
            return
        need = self.num_envs * self.world_params.bytes_per_world()
        free = spec.backend.device_free(spec)
        what = "GPU memory" if free is not None else "memory"
        if free is None:
            free = memory.available(spec).resident
        if free is not None and need > free:
            raise MemoryError(
                f"set_params on a MuJoCo Warp pool of num_envs={self.num_envs} {spec.id} envs "
                f"makes per-world parameter tables and model rows, about "
                f"{memory.fmt_bytes(need)} of {what}, but {memory.fmt_bytes(free)} is free; "
                f"nothing was changed. Use fewer envs, or pass check_memory=False or set "
                f"{memory.SKIP_ENV_VAR}=1 if you know better"
            )

    def get_params(self, env_ids: Any = None) -> np.ndarray:
        """``(len(env_ids), parameters)`` float64: what each env runs with now
        (read back from the device: a synchronisation)."""
        self._check_open()
        ids = np.arange(self.num_envs) if env_ids is None else check_env_ids(env_ids, self.num_envs)
        with self._scope():
            return self.world_params.get(np.asarray(ids))
