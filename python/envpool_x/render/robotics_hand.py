"""Frames of the Shadow Hand tasks, drawn from our state as gymnasium-robotics
draws them (its ``_render_callback``s on gymnasium's MujocoRenderer, 480 x 480,
its hand camera):

- reach: the ``target0..4`` sites moved to the goal, ``finger0..4`` to the
  fingertips;
- manipulate: the target object's free joint set to the goal (moved 0.15 in x
  when the target position is ignored), its velocity zeroed, the hidden
  object geom made opaque;
- touch models: each touch site red where its sensor reads non-zero, else
  green (gymnasium-robotics' default ``touch_visualisation="on_touch"``).

Drawing edits only the renderer's own copy of the model and data (where
gymnasium-robotics' render edits the env's target joint).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool_x.render.gl import draw_in_own_context, no_gl_error

#: gymnasium-robotics' default frame size (``robot_env.DEFAULT_SIZE``; render/robotics.py's too).
SIZE = 480

#: gymnasium-robotics' ``hand_env.DEFAULT_CAMERA_CONFIG`` (its values).
HAND_CAMERA = {
    "distance": 0.5,
    "azimuth": 55.0,
    "elevation": -25.0,
    "lookat": np.array([1.0, 0.96, 0.14]),
}
TOUCH_COLOR = np.array([1.0, 0.0, 0.0, 0.5])
NO_TOUCH_COLOR = np.array([0.0, 0.5, 0.0, 0.2])
FINGERTIPS = (
    "robot0:S_fftip",
    "robot0:S_mftip",
    "robot0:S_rftip",
    "robot0:S_lftip",
    "robot0:S_thtip",
)


class HandFrames:
    """Draws one hand task's frames from our state (MuJoCo's integration
    state, then the goal)."""

    def __init__(self, xml_file: str, reach: bool, position_ignored: bool) -> None:
        import mujoco
        from gymnasium.envs.mujoco.mujoco_rendering import MujocoRenderer

        self._mujoco = mujoco
        self._model = mujoco.MjModel.from_xml_path(xml_file)
        self._model.vis.global_.offwidth = SIZE
        self._model.vis.global_.offheight = SIZE
        self._data = mujoco.MjData(self._model)
        self._reach = reach
        self._position_ignored = position_ignored
        m = self._model

        def site(name: str) -> int:
            return mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_SITE, name)

        self._targets = [site(f"target{k}") for k in range(5)]
        self._fingers = [site(f"finger{k}") for k in range(5)]
        self._tips = [site(name) for name in FINGERTIPS]
        self._touch = [
            (s, site(m.sensor(s).name.replace("robot0:TS_", "robot0:T_")))
            for s in range(m.nsensor)
            if "robot0:TS_" in m.sensor(s).name
        ]
        joint = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, "target:joint")
        self._target_qpos = int(m.jnt_qposadr[joint]) if joint >= 0 else -1
        self._target_dof = int(m.jnt_dofadr[joint]) if joint >= 0 else -1
        hidden = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, "object_hidden")
        if hidden >= 0:
            m.geom_rgba[hidden, 3] = 1.0
        self._renderer = MujocoRenderer(m, self._data, HAND_CAMERA, width=SIZE, height=SIZE)
        self.shape = (SIZE, SIZE)
        self.closed = False

    def __call__(self, state: np.ndarray) -> np.ndarray:
        """The frame of ``state``."""
        mujoco, m, d = self._mujoco, self._model, self._data
        sig = mujoco.mjtState.mjSTATE_INTEGRATION
        size = mujoco.mj_stateSize(m, sig)
        mujoco.mj_setState(m, d, np.asarray(state[:size]), sig)
        mujoco.mj_forward(m, d)
        goal = np.array(state[size:], dtype=np.float64)
        if self._reach:
            offsets = d.site_xpos - m.site_pos
            tips = goal.reshape(5, 3)
            for k in range(5):
                m.site_pos[self._targets[k]] = tips[k] - offsets[self._targets[k]]
                m.site_pos[self._fingers[k]] = (
                    d.site_xpos[self._tips[k]] - offsets[self._fingers[k]]
                )
        else:
            if self._position_ignored:
                goal[0] += 0.15
            d.qpos[self._target_qpos : self._target_qpos + 7] = goal
            d.qvel[self._target_dof : self._target_dof + 6] = 0.0
        mujoco.mj_forward(m, d)
        for sensor, touch_site in self._touch:
            touched = d.sensordata[sensor] != 0.0
            m.site_rgba[touch_site] = TOUCH_COLOR if touched else NO_TOUCH_COLOR
        try:
            return np.asarray(draw_in_own_context(self._renderer), dtype=np.uint8)
        except Exception as e:  # noqa: BLE001 - every GL failure gets the same advice
            raise no_gl_error(e) from e

    def close(self) -> None:
        """Free the renderer's GL context."""
        self._renderer.close()
        self.closed = True


def hand_drawer(spec: Any) -> HandFrames:
    """The Shadow Hand tasks' renderer."""
    reach = spec.entry.pool_name == "HandReach"
    ignored = not reach and spec.config.target_position == "ignore"
    return HandFrames(spec.env_config["xml_file"], reach, ignored)
