"""MuJoCo tasks on the GPU: gymnasium's locomotion tasks (v5 and v4) stepped by MuJoCo Warp.

``make_gymnasium("Ant-v5", num_envs=N, device="cuda")`` builds a
:class:`~envpool_x.mujoco_gpu.pool.MujocoDevicePool`; ``device="cpu-reference"``
runs the very same warp kernels (MuJoCo Warp's and ours) on warp's CPU device,
which is how the tests run without a GPU. See docs/mujoco_gpu.md.

Modules: ``tasks`` (which tasks, their constants from the config), ``engine``
(loading MuJoCo Warp and the model, the physics), ``kernels`` (observation,
reward, episodes), ``reset_kernels`` (resets, rows put back, final_info),
``stage_kernels`` (stage flags, the instability check), ``stages`` (the step
and reset stages, gated on the device), ``results`` (inputs and outputs),
``memory_estimate`` (bytes before allocating), ``pool`` (the pool interface).
"""

from __future__ import annotations

from envpool_x.mujoco_gpu.tasks import SUPPORTED_POOLS, supported

__all__ = ["SUPPORTED_POOLS", "supported"]
