"""Frames of the gymnasium-robotics tasks, drawn from our state as
gymnasium-robotics draws them: gymnasium's MujocoRenderer on the task's model
(480 x 480), gymnasium-robotics' default camera of the task, and the goal
shown by moving the ``target0`` site to it (its ``_render_callback``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool_x.render.gl import draw_in_own_context, no_gl_error

#: gymnasium-robotics' ``fetch_env.DEFAULT_CAMERA_CONFIG`` (its values, not its code).
FETCH_CAMERA = {
    "distance": 2.5,
    "azimuth": 132.0,
    "elevation": -14.0,
    "lookat": np.array([1.3, 0.75, 0.55]),
}
#: gymnasium-robotics' default frame size (``robot_env.DEFAULT_SIZE``).
SIZE = 480


class RoboticsFrames:
    """Draws one robotics task's frames from our state (MuJoCo's integration
    state, then the goal)."""

    def __init__(self, xml_file: str, camera: dict[str, Any]) -> None:
        import mujoco
        from gymnasium.envs.mujoco.mujoco_rendering import MujocoRenderer

        self._mujoco = mujoco
        self._model = mujoco.MjModel.from_xml_path(xml_file)
        self._model.vis.global_.offwidth = SIZE
        self._model.vis.global_.offheight = SIZE
        self._data = mujoco.MjData(self._model)
        self._target = mujoco.mj_name2id(self._model, mujoco.mjtObj.mjOBJ_SITE, "target0")
        self._renderer = MujocoRenderer(self._model, self._data, camera, width=SIZE, height=SIZE)
        self.shape = (SIZE, SIZE)
        self.closed = False

    def __call__(self, state: np.ndarray) -> np.ndarray:
        """The frame of ``state``."""
        mujoco = self._mujoco
        sig = mujoco.mjtState.mjSTATE_INTEGRATION
        size = mujoco.mj_stateSize(self._model, sig)
        mujoco.mj_setState(self._model, self._data, np.asarray(state[:size]), sig)
        mujoco.mj_forward(self._model, self._data)
        if self._target >= 0:
            # The goal site, placed relative to the first site's offset.
            offset = self._data.site_xpos[0] - self._model.site_pos[0]
            self._model.site_pos[self._target] = np.asarray(state[size:]) - offset
            mujoco.mj_forward(self._model, self._data)
        try:
            return np.asarray(draw_in_own_context(self._renderer), dtype=np.uint8)
        except Exception as e:  # noqa: BLE001 - every GL failure gets the same advice
            raise no_gl_error(e) from e

    def close(self) -> None:
        """Free the renderer's GL context."""
        self._renderer.close()
        self.closed = True


def robotics_drawer(spec: Any) -> Any:
    """The robotics family's renderer (the Fetch tasks' camera; the Shadow
    Hand's pools draw with render/robotics_hand.py)."""
    if spec.entry.pool_name.startswith("Hand"):
        from envpool_x.render.robotics_hand import hand_drawer

        return hand_drawer(spec)
    return RoboticsFrames(spec.env_config["xml_file"], dict(FETCH_CAMERA))
