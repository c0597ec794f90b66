"""MujocoWarpPool: the device pool contract (envpool_x.backends.contract) over MuJoCo Warp.

A call is a fixed sequence of kernel launches on the pool's device (no read
back to the host): actions into ctrl, the step stage (``frame_skip`` physics
steps of every world, see stages.py), observation / reward / episode
bookkeeping, then the reset stage (``mj_resetData``, noise, ``mj_forward`` of
the worlds that need one, skipped on the device when none does) and their rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_x import memory
from envpool_x.backends import parse_device
from envpool_x.backends.arrays import checked_backend, converter
from envpool_x.backends.checks import check_env_ids
from envpool_x.backends.contract import AutoresetMode, Results
from envpool_x.backends.mujoco_warp import engine, kernels, reset_kernels, stage_kernels, tasks
from envpool_x.backends.mujoco_warp.results import Outputs, ResultMixin, seeds_for
from envpool_x.backends.mujoco_warp.stages import Stages, initial_observation
from envpool_x.backends.mujoco_warp.world_params import WorldParams, WorldParamsMixin

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec

NEXT_STEP = AutoresetMode.NEXT_STEP.code
SAME_STEP = AutoresetMode.SAME_STEP.code
DISABLED = AutoresetMode.DISABLED.code


class MujocoWarpPool(ResultMixin, WorldParamsMixin):
    """step / reset / send / recv / close for MuJoCo tasks on MuJoCo Warp.

    Results are fresh arrays at every call unless ``copy_results=False``, in
    which case every call returns views of one buffer that the next call
    overwrites.
    """

    def __init__(self, spec: EnvSpec) -> None:
        cfg = spec.config
        kind, index = parse_device(cfg.device)
        self.kind, self.index = kind, index
        _, wp, _ = engine.import_engine()
        self.wp = wp
        self.wp_device = engine.warp_device(kind, index)
        self.backend = checked_backend(cfg.array_backend, kind)
        self._convert = converter(self.backend)
        memory.check(spec)  # MuJoCo Warp's and the pool's arrays, before they exist
        env_cfg = dict(spec.env_config)
        model = engine.load_model(env_cfg["xml_file"])
        body = _main_body(model, env_cfg) if spec.entry.pool_name.startswith("Ant") else 0
        c = tasks.constants(spec.entry.pool_name, env_cfg, body)
        self.num_envs = int(cfg.num_envs)
        self.max_steps = int(cfg.max_episode_steps or 0)
        self.mode = AutoresetMode(cfg.autoreset_mode).code
        self.copy_results = bool(cfg.copy_results)
        self.obs_dim = tasks.obs_size(
            spec.entry.pool_name, c.values, model.nq, model.nv, model.nbody
        )
        expected = spec.observation_space.shape
        if expected != (self.obs_dim,):
            raise RuntimeError(
                f"observation size {self.obs_dim} differs from the spec's {expected}"
            )
        self.nu = int(model.nu)
        self.consts = c
        n = self.num_envs
        with self._scope():
            self.physics = engine.Physics(model, n, self.wp_device, c.frame_skip, c.needs_cfrc_ext)
            # Per-env parameters; values other than 1 in the config scale every world now.
            specs: list[dict[str, Any]] = getattr(spec.entry.pool_class, "param_specs", list)()
            self.world_params = WorldParams(wp, self.physics, specs, env_cfg)
            self.params = kernels.TaskParams()
            for key, value in c.values.items():
                setattr(self.params, key, value)
            self.params.dt = float(model.opt.timestep) * c.frame_skip
            self.params.init_z = float(model.qpos0[1]) if model.nq > 1 else 0.0
            self.st = Stages(wp, self.physics, c, n)
            self.st.seeds = wp.array(seeds_for(spec.env_seeds, cfg.seed, n), dtype=wp.int32)
            self.st.world_params = self.world_params
            self.last_obs = wp.zeros((n, self.obs_dim), dtype=wp.float64)
            self.initial_obs = initial_observation(
                wp, self.physics, self.params, self.last_obs, self.st
            )
            self.all_ids = wp.array(np.arange(n, dtype=np.int32))
            info_names = [i["name"] for i in spec._desc["info"]]
            self.ntendon = int(model.ntendon) if "tendon_length" in info_names else 0
            self.buffers = Outputs(
                wp, n, self.obs_dim, self.mode == SAME_STEP, info_names, self.ntendon
            )
        self._pending: Any = None
        self._closed = False
        # Which envs were reset: only those step and have a state (as the C++ pools).
        self._started = np.zeros(n, dtype=bool)

    # -- the pool interface ----------------------------------------------------
    def step(self, action: Any, env_id: Any = None) -> Results:
        """Step the envs in ``env_id`` (None: all) and return their results."""
        self._check_open()
        wp, d, p, st = self.wp, self.physics.data, self.params, self.st
        with self._scope():  # inputs too: their copies are ordered on the call's stream
            ids, n = self._ids(env_id)
            act = self._action(action, n)
            self._check_steppable(env_id)
            out = self.buffers.take(n, self.copy_results)
            st.stepped.zero_()
            st.need_reset.zero_()
            wp.launch(
                kernels.set_ctrl,
                n,
                [
                    ids,
                    act,
                    st.done,
                    int(self.mode == DISABLED),
                    d.ctrl,
                    st.stepped,
                    st.bad,
                    st.errors,
                ],
            )
            # Every world is stepped; those not to advance (outside env_id, a
            # bad action, finished in disabled mode) are put back.
            st.step()
            wp.launch(
                kernels.reward_and_episode,
                n,
                [p, ids, d.qpos, d.qvel, d.xpos, d.xipos, self.physics.model.body_mass,
                 self.world_params.dt, d.ctrl,
                 d.cfrc_ext, st.x_before, st.y_before, st.bad, st.unstable, self.max_steps,
                 self.mode, st.elapsed, st.done, st.need_reset, out.reward, out.terminated,
                 out.truncated, out.elapsed, out.final_mask, out.info],
            )  # fmt: skip
            self._launch_obs(ids, n, out.obs, st.stepped, 2)
            wp.launch(
                stage_kernels.observe_initial,
                (n, self.obs_dim),
                [ids, st.unstable, self.initial_obs, out.obs, self.last_obs],
            )
            self._tendons(ids, n, out, 0)
            if self.mode == SAME_STEP:
                self._copy_final(ids, n, out)
            # In disabled mode only envs a bad action ended reset here.
            self._reset_flagged(ids, n, out, keep_reward=self.mode == SAME_STEP)
            out.set_ids(ids, n)
            return self._pack(out, n)

    def reset(self, env_id: Any = None, seed: Any = None) -> Results:
        """Reset the envs in ``env_id`` (None: all) and return their results."""
        self._check_open()
        wp = self.wp
        with self._scope():
            ids, n = self._ids(env_id)
            self._reseed(ids, n, seed)
            self._mark_started(env_id)
            out = self.buffers.take(n, self.copy_results)
            self.st.need_reset.zero_()
            wp.launch(reset_kernels.mark, n, [ids, self.st.need_reset])
            out.clear_final()
            self._reset_flagged(ids, n, out, keep_reward=False)
            out.set_ids(ids, n)
            return self._pack(out, n)

    def reset_masked(self, env_id: Any, seed: Any = None) -> Results:
        """Every env's row: envs in ``env_id`` reset, the others their current obs."""
        self.reset(env_id, seed)
        wp = self.wp
        with self._scope():
            out = self.buffers.take(self.num_envs, self.copy_results)
            wp.copy(out.obs, self.last_obs)
            out.reward.zero_()
            out.terminated.zero_()
            out.truncated.zero_()
            wp.copy(out.elapsed, self.st.elapsed)
            out.clear_final()
            out.info.zero_()
            out.set_ids(self.all_ids, self.num_envs)
            return self._pack(out, self.num_envs)

    def check_errors(self) -> None:
        """Raise for bad actions / steps the device recorded since the last check
        (the kernels cannot raise; reading the flags back is a synchronisation).

        Raises:
            ValueError: a non-finite action value (that env was not stepped; its
                episode was truncated with reward 0 and it resets on its next step).
            RuntimeError: a step of a finished env with autoreset_mode='disabled'.
        """
        self._check_open()
        with self._scope():  # read after the caller's queued steps, on their stream
            codes = self.st.errors.numpy().copy()
            self.st.errors.zero_()
        bad = np.flatnonzero(codes == kernels.ERR_ACTION)
        if bad.size:
            raise ValueError(
                f"env {int(bad[0])} got an invalid action in a step since the last check "
                "(actions must be finite numbers; a device action was not finite, NaN or "
                f"inf); its episode was ended (truncated) and it resets on its next step "
                f"({bad.size} env(s) in all)"
            )
        finished = np.flatnonzero(codes == kernels.ERR_FINISHED)
        if finished.size:
            raise RuntimeError(
                f"env {int(finished[0])} was stepped after its episode ended with "
                "autoreset_mode='disabled'; reset it first"
            )

    def synchronize(self) -> None:
        """Wait until every queued step has run."""
        self.wp.synchronize_device(self.wp_device)

    def get_state(self, env_id: int) -> np.ndarray:
        """qpos then qvel of env ``env_id`` (float64, copied to the host)."""
        self._check_open()
        i = check_env_ids(np.asarray([env_id]), self.num_envs)[0]
        self._check_started(int(i), "get_state")
        d = self.physics.data
        with self._scope():  # read after the caller's queued steps, on their stream
            return np.concatenate([d.qpos.numpy()[i], d.qvel.numpy()[i]]).astype(np.float64)

    def set_state(self, env_id: int, state: Any) -> None:
        """Set qpos and qvel of env ``env_id`` (as :meth:`get_state` returns them),
        run ``mj_forward``, and refresh its observation and velocity origin, as
        gymnasium's ``set_state``."""
        self._check_open()
        i = int(check_env_ids(np.asarray([env_id]), self.num_envs)[0])
        self._check_started(i, "set_state")
        d, wp = self.physics.data, self.wp
        nq = self.physics.mj_model.nq
        state = np.asarray(state, dtype=np.float32)
        if state.shape != (nq + self.physics.mj_model.nv,):
            raise ValueError(
                f"state must have shape ({nq + self.physics.mj_model.nv},), got {state.shape}"
            )
        with self._scope():
            qpos, qvel = d.qpos.numpy(), d.qvel.numpy()
            qpos[i], qvel[i] = state[:nq], state[nq:]
            d.qpos.assign(qpos)
            d.qvel.assign(qvel)
            self.physics.forward()
            ids = wp.array(np.asarray([i], dtype=np.int32))
            obs = wp.zeros((1, self.obs_dim), dtype=wp.float64)
            self._launch_obs(ids, 1, obs, self.st.need_reset, 0)

    def close(self) -> None:
        """Drop any result not received and free the pool's device memory."""
        self._pending = None
        self._closed = True
        self.physics = None  # type: ignore[assignment]
        self.buffers = None  # type: ignore[assignment]

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    # -- internals ---------------------------------------------------------------
    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("this env is closed")

    def _mark_started(self, env_id: Any) -> None:
        if env_id is None:
            self._started[:] = True
        else:
            self._started[check_env_ids(env_id, self.num_envs)] = True

    def _check_steppable(self, env_id: Any) -> None:
        ids = np.arange(self.num_envs) if env_id is None else check_env_ids(env_id, self.num_envs)
        fresh = ids[~self._started[ids]]
        if fresh.size:
            raise RuntimeError(
                f"env {int(fresh[0])} has not been reset; call reset() (or async_reset()) "
                "before stepping"
            )

    def _check_started(self, i: int, what: str) -> None:
        if not self._started[i]:
            raise RuntimeError(f"env {i} has not been reset; call reset() before {what}()")

    def _ids(self, env_id: Any) -> tuple[Any, int]:
        if env_id is None:
            return self.all_ids, self.num_envs
        host = check_env_ids(env_id, self.num_envs)
        return self.wp.array(host, dtype=self.wp.int32, device=self.wp_device), int(host.size)

    def _reseed(self, ids: Any, n: int, seed: Any) -> None:
        if seed is None:
            return
        host_ids = ids.numpy()
        seeds = self.st.seeds.numpy()
        seeds[host_ids] = seeds_for(None, seed, n)
        self.st.seeds.assign(seeds)
        counters = self.st.counters.numpy()
        counters[host_ids] = 0
        self.st.counters.assign(counters)
        self.world_params.reseed(host_ids)

    def _tendons(self, ids: Any, n: int, out: Outputs, only_flagged: int) -> None:
        if self.ntendon == 0:
            return
        d = self.physics.data
        self.wp.launch(
            reset_kernels.copy_tendons,
            (n, self.ntendon),
            [ids, only_flagged, self.st.need_reset, d.ten_length, d.ten_velocity, out.ten_length,
             out.ten_velocity],
        )  # fmt: skip

    def _launch_obs(self, ids: Any, n: int, obs: Any, flags: Any, how: int) -> None:
        """write_obs of ``ids``; ``how`` (kernels.write_obs's only_flagged) says
        what ``flags`` selects."""
        d = self.physics.data
        wp = self.wp
        wp.launch(
            kernels.write_obs,
            n,
            [self.params, ids, how, flags,
             d.qpos, d.qvel, d.xpos, d.xipos, self.physics.model.body_mass, d.cinert, d.cvel,
             d.qfrc_actuator, d.cfrc_ext, obs, self.last_obs, self.st.x_before, self.st.y_before],
        )  # fmt: skip

    def _copy_final(self, ids: Any, n: int, out: Outputs) -> None:
        """same_step: final_obs and final_info of the rows whose episode ends
        here, before the reset stage writes the reset rows."""
        wp = self.wp
        wp.launch(
            reset_kernels.copy_final_obs,
            (n, self.obs_dim),
            [out.final_mask, out.obs, out.final_obs],
        )
        wp.launch(
            reset_kernels.copy_final_info,
            out.info.shape,
            [out.final_mask, out.info, out.final_info],
        )
        wp.launch(
            reset_kernels.copy_final_ids,
            n,
            [out.final_mask, ids, out.elapsed, out.final_env_id, out.final_elapsed],
        )
        for rows, final in (
            (out.ten_length, out.final_ten_length),
            (out.ten_velocity, out.final_ten_velocity),
        ):
            if self.ntendon:
                wp.launch(reset_kernels.copy_final_obs, rows.shape, [out.final_mask, rows, final])

    def _reset_flagged(self, ids: Any, n: int, out: Outputs, keep_reward: bool) -> None:
        """Reset the worlds flagged in need_reset (the reset stage: nothing
        runs on the device when none is) and write their rows (kernels whose
        threads return at once for other rows)."""
        st, d = self.st, self.physics.data
        st.reset()
        self._launch_obs(ids, n, out.obs, st.need_reset, 1)
        self._tendons(ids, n, out, 1)
        self.wp.launch(
            reset_kernels.reset_rows,
            n,
            [self.params, ids, d.qpos, d.xpos, d.xipos, self.physics.model.body_mass, out.info,
             st.need_reset, int(keep_reward), out.reward, out.terminated, out.truncated,
             out.elapsed],
        )  # fmt: skip


def _main_body(model: Any, cfg: dict[str, Any]) -> int:
    """Ant-v5's main_body (a body id in decimal digits, or a name); Ant-v4's torso."""
    import mujoco

    body = str(cfg.get("main_body", "torso"))  # v4 tracks the torso
    if body.isdigit():
        return int(body)
    return int(mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, body))
