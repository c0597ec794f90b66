"""The MuJoCo Warp backend: gymnasium's locomotion tasks (v5 and v4) on MuJoCo Warp.

``make_gymnasium("Ant-v5", num_envs=N, device="cuda")`` builds a
:class:`~envpool_x.backends.mujoco_warp.pool.MujocoWarpPool`; ``device="cpu-reference"``
runs the very same warp kernels (MuJoCo Warp's and ours) on warp's CPU device,
which is how the tests run without a GPU. Which tasks it runs, the MuJoCo
family declares (``families/mujoco.py``). See docs/mujoco_gpu.md.

Modules: ``tasks`` (each task's constants from the config), ``engine``
(loading MuJoCo Warp and the model, the physics), ``kernels`` (observation,
reward, episodes), ``reset_kernels`` (resets, rows put back, final_info),
``stage_kernels`` (stage flags, the instability check), ``stages`` (the step
and reset stages, gated on the device), ``results`` (inputs and outputs),
``memory_estimate`` (bytes before allocating), ``pool`` (the pool).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from envpool_x import memory
from envpool_x.backends.contract import DevicePool, Estimate
from envpool_x.backends.cuda import check_device_config
from envpool_x.backends.mujoco_warp import engine, memory_estimate

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec


class MujocoWarpBackend:
    """MuJoCo Warp on a GPU, or on warp's CPU device for ``cpu-reference``."""

    name = "mujoco_warp"
    devices = ("cuda", "cpu-reference")
    host_results = False

    def create(self, spec: EnvSpec, chunk_size: int = 0) -> DevicePool:
        """A MujocoWarpPool of ``spec`` (``chunk_size`` has no meaning here).

        Raises:
            ImportError: warp or mujoco_warp is missing (the message says what
                to install).
        """
        engine.import_engine()  # a clear ImportError before warp's kernels are defined
        # The pool module defines warp kernels when imported, so it is loaded here.
        pool_module = importlib.import_module("envpool_x.backends.mujoco_warp.pool")
        pool: DevicePool = pool_module.MujocoWarpPool(spec)
        return pool

    def check_config(self, task_id: str, config: Mapping[str, Any]) -> None:
        """One batch of every env (no async batches on a device)."""
        check_device_config(config)

    def device_free(self, spec: EnvSpec) -> int | None:
        """Free memory of the GPU as warp sees it; None for ``cpu-reference``."""
        device = str(spec.config.device)
        return memory_estimate.device_free(device) if device.startswith("cuda") else None

    def estimate(self, spec: EnvSpec, num_envs: int) -> Estimate:
        """MuJoCo Warp's arrays and the pool's, measured on a small model copy."""
        return memory_estimate.estimate(spec, num_envs, memory.FIXED_RESIDENT)


BACKEND = MujocoWarpBackend()

__all__ = ["BACKEND", "MujocoWarpBackend"]
