"""Frames of FrankaKitchen-v1, drawn from our state as gymnasium-robotics draws
them: gymnasium's MujocoRenderer on the kitchen model (480 x 480) with
FrankaRobot's default camera, after qpos and qvel are set."""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool_x.render.gl import draw_in_own_context, no_gl_error

#: gymnasium-robotics' DEFAULT_CAMERA_CONFIG of franka_env.py (its values).
CAMERA: dict[str, Any] = {
    "distance": 2.2,
    "azimuth": 70.0,
    "elevation": -35.0,
    "lookat": np.array([-0.2, 0.5, 2.0]),
}
SIZE = 480


class KitchenFrames:
    """Draws the kitchen's frames from our state (qpos, qvel, then the last
    observed robot positions, which do not change the frame)."""

    def __init__(self, xml_file: str) -> None:
        import mujoco
        from gymnasium.envs.mujoco.mujoco_rendering import MujocoRenderer

        self._model = mujoco.MjModel.from_xml_path(xml_file)
        self._model.vis.global_.offwidth = SIZE
        self._model.vis.global_.offheight = SIZE
        self._data = mujoco.MjData(self._model)
        self._forward = mujoco.mj_forward
        camera = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in CAMERA.items()}
        self._renderer = MujocoRenderer(self._model, self._data, camera, width=SIZE, height=SIZE)
        self.shape = (SIZE, SIZE)
        self.closed = False

    def __call__(self, state: np.ndarray) -> np.ndarray:
        """The frame of ``state``."""
        nq, nv = self._model.nq, self._model.nv
        self._data.qpos[:] = state[:nq]
        self._data.qvel[:] = state[nq : nq + nv]
        self._forward(self._model, self._data)
        try:
            return np.asarray(draw_in_own_context(self._renderer), dtype=np.uint8)
        except Exception as e:  # noqa: BLE001 - every GL failure gets the same advice
            raise no_gl_error(e) from e

    def close(self) -> None:
        """Free the renderer's GL context."""
        self._renderer.close()
        self.closed = True


def kitchen_drawer(spec: Any) -> KitchenFrames:
    """The Kitchen family's renderer (FrankaRobot's camera)."""
    return KitchenFrames(spec.env_config["xml_file"])
