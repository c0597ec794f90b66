"""Frames of the maze tasks, drawn from our state as gymnasium-robotics draws
them: gymnasium's MujocoRenderer on the maze's model (480 x 480), the robot
env's default camera, and the ``target`` site moved to the goal at half the
walls' height (MazeEnv.update_target_site_pos)."""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool_x.render.gl import draw_in_own_context, no_gl_error

#: gymnasium's MujocoEnv default frame size.
SIZE = 480


def maze_camera(pool: str, rows: int) -> dict[str, Any]:
    """The robot env's default camera: PointMaze's distance 12.5 for maps of
    more than 8 rows, else 8.8; the Ant's (v4 and v5) distance 4."""
    if pool == "PointMaze":
        return {"distance": 12.5 if rows > 8 else 8.8}
    return {"distance": 4.0}


class MazeFrames:
    """Draws one maze task's frames from our state (the integration state, then the goal)."""

    def __init__(self, xml_file: str, camera: dict[str, Any], target_height: float) -> None:
        import mujoco
        from gymnasium.envs.mujoco.mujoco_rendering import MujocoRenderer

        self._mujoco = mujoco
        self._model = mujoco.MjModel.from_xml_path(xml_file)
        self._model.vis.global_.offwidth = SIZE
        self._model.vis.global_.offheight = SIZE
        self._data = mujoco.MjData(self._model)
        self._target = mujoco.mj_name2id(self._model, mujoco.mjtObj.mjOBJ_SITE, "target")
        self._height = target_height
        self._renderer = MujocoRenderer(self._model, self._data, camera, width=SIZE, height=SIZE)
        self.shape = (SIZE, SIZE)
        self.closed = False

    def __call__(self, state: np.ndarray) -> np.ndarray:
        """The frame of ``state``."""
        mujoco = self._mujoco
        sig = mujoco.mjtState.mjSTATE_INTEGRATION
        size = mujoco.mj_stateSize(self._model, sig)
        mujoco.mj_setState(self._model, self._data, np.asarray(state[:size]), sig)
        self._model.site_pos[self._target] = np.append(np.asarray(state[size:]), self._height)
        mujoco.mj_forward(self._model, self._data)
        try:
            return np.asarray(draw_in_own_context(self._renderer), dtype=np.uint8)
        except Exception as e:  # noqa: BLE001 - every GL failure gets the same advice
            raise no_gl_error(e) from e

    def close(self) -> None:
        """Free the renderer's GL context."""
        self._renderer.close()
        self.closed = True


def maze_drawer(spec: Any) -> MazeFrames:
    """The maze family's renderer."""
    config = spec.env_config
    rows = config["maze_map"].count("/") + 1
    height = config["maze_height"] / 2 * config["maze_size_scaling"]
    return MazeFrames(config["xml_file"], maze_camera(spec.entry.pool_name, rows), height)
