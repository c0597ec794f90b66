"""Frames of the Adroit hand tasks, drawn from our state as gymnasium-robotics
draws them: gymnasium's MujocoRenderer on the task's model (480 x 480) with
the task's default camera, after the state and the values its resets draw
into the model (the door's, board's, ball's or target's place) are set."""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool_x.render.gl import draw_in_own_context, no_gl_error

#: gymnasium-robotics' DEFAULT_CAMERA_CONFIG of each task (its values).
CAMERAS: dict[str, dict[str, float]] = {
    "AdroitHandDoor": {"distance": 1.5, "azimuth": 90.0},
    "AdroitHandHammer": {"distance": 2.0, "azimuth": 45.0},
    "AdroitHandPen": {"distance": 1.0, "azimuth": -45.0},
    "AdroitHandRelocate": {"distance": 1.5, "azimuth": 90.0},
}
#: What each task's state holds after the integration state, in order:
#: (model array, object type, object name, count); the Pen's last two values
#: (the measured lengths) do not change the frame.
EXTRAS: dict[str, list[tuple[str, str, str, int]]] = {
    "AdroitHandDoor": [("body_pos", "body", "frame", 3)],
    "AdroitHandHammer": [("body_pos", "body", "nail_board", 3)],
    "AdroitHandPen": [("body_quat", "body", "target", 4)],
    "AdroitHandRelocate": [("body_pos", "body", "Object", 3), ("site_pos", "site", "target", 3)],
}
SIZE = 480


class AdroitFrames:
    """Draws one Adroit task's frames from our state."""

    def __init__(self, task: str, xml_file: str) -> None:
        import mujoco
        from gymnasium.envs.mujoco.mujoco_rendering import MujocoRenderer

        self._mujoco = mujoco
        self._model = mujoco.MjModel.from_xml_path(xml_file)
        self._model.vis.global_.offwidth = SIZE
        self._model.vis.global_.offheight = SIZE
        self._data = mujoco.MjData(self._model)
        self._extras = []
        for array, kind, name, count in EXTRAS[task]:
            obj = mujoco.mjtObj.mjOBJ_BODY if kind == "body" else mujoco.mjtObj.mjOBJ_SITE
            self._extras.append((array, mujoco.mj_name2id(self._model, obj, name), count))
        self._renderer = MujocoRenderer(
            self._model, self._data, dict(CAMERAS[task]), width=SIZE, height=SIZE
        )
        self.shape = (SIZE, SIZE)
        self.closed = False

    def __call__(self, state: np.ndarray) -> np.ndarray:
        """The frame of ``state``."""
        mujoco = self._mujoco
        sig = mujoco.mjtState.mjSTATE_INTEGRATION
        size = mujoco.mj_stateSize(self._model, sig)
        mujoco.mj_setState(self._model, self._data, np.asarray(state[:size]), sig)
        at = size
        for array, index, count in self._extras:
            getattr(self._model, array)[index] = state[at : at + count]
            at += count
        mujoco.mj_forward(self._model, self._data)
        try:
            return np.asarray(draw_in_own_context(self._renderer), dtype=np.uint8)
        except Exception as e:  # noqa: BLE001 - every GL failure gets the same advice
            raise no_gl_error(e) from e

    def close(self) -> None:
        """Free the renderer's GL context."""
        self._renderer.close()
        self.closed = True


def adroit_drawer(spec: Any) -> AdroitFrames:
    """The Adroit family's renderer (the task's camera)."""
    return AdroitFrames(spec.entry.pool_name, spec.env_config["xml_file"])
