"""Frames of the MuJoCo and DeepMind Control tasks: MuJoCo's own renderer, through
gymnasium's MuJoCo env (its default camera and 480 x 480) and dm_control's physics
(its default camera and 240 x 320), set to the state of one of our envs."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from envpool_x.render.gl import draw_in_own_context, no_gl_error

if TYPE_CHECKING:
    from envpool_x.spec import EnvSpec


def _v4_camera(name: str) -> dict[str, Any] | None:
    """The default camera of gymnasium's ``<name>-v4`` class (None: MuJoCo's free camera)."""
    import importlib

    import gymnasium

    module = str(gymnasium.spec(f"{name}-v4").entry_point).split(":")[0]
    camera = getattr(importlib.import_module(module), "DEFAULT_CAMERA_CONFIG", None)
    return dict(camera) if camera is not None else None


class MujocoFrames:
    """Draws gymnasium MuJoCo task frames from our state (qpos then qvel).

    For a pixel env (``from_pixels=True``) the frame is its observation's:
    its size and camera, with the free camera aimed anew at each frame, as a
    viewer gymnasium makes for that state aims it (pixel_observation.h)."""

    def __init__(self, task_id: str, env_config: dict[str, Any]) -> None:
        import gymnasium

        # gymnasium's v5 class of the task, given the env's model file: every v5
        # constructor takes xml_file (gymnasium's v4 ones but Ant's do not, and
        # the -v2 / -v3 ids need mujoco-py). Older ids get the v4 class's camera
        # (InvertedDoublePendulum-v5 leaves its own unused: the free camera).
        name, version = task_id.rsplit("-", 1)
        kwargs: dict[str, Any] = {"render_mode": "rgb_array", "xml_file": env_config["xml_file"]}
        if version != "v5":
            kwargs["default_camera_config"] = _v4_camera(name)
        self._aim_each_frame = bool(env_config.get("from_pixels"))
        if self._aim_each_frame:
            kwargs.update(_pixel_view(env_config))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env: Any = gymnasium.make(f"{name}-v5", **kwargs).unwrapped
        self._env = env
        self._nq = int(self._env.model.nq)
        self.closed = False
        self.shape = (int(self._env.height), int(self._env.width))

    def __call__(self, state: np.ndarray) -> np.ndarray:
        """The frame of ``state`` (qpos then qvel)."""
        return self.frame(state)

    def frame(self, state: np.ndarray) -> np.ndarray:
        self._env.set_state(state[: self._nq], state[self._nq :])
        try:
            if self._aim_each_frame:
                self._aim()
            return np.asarray(draw_in_own_context(self._env.mujoco_renderer), dtype=np.uint8)
        except Exception as e:  # noqa: BLE001 - every GL failure gets the same advice
            raise no_gl_error(e) from e

    def _aim(self) -> None:
        """Aim the free camera as gymnasium's viewer does when it is made (the
        geoms' median, then the task's camera config), for the current state."""
        renderer = self._env.mujoco_renderer
        viewer = renderer._get_viewer("rgb_array")
        viewer._init_camera()
        renderer._set_cam_config()

    def close(self) -> None:
        """Free gymnasium's renderer and its GL context."""
        self._env.close()
        self.closed = True


def _pixel_view(env_config: dict[str, Any]) -> dict[str, Any]:
    """gymnasium's keywords for a pixel env's frame size, camera and view."""
    view: dict[str, Any] = {
        "width": int(env_config["render_width"]),
        "height": int(env_config["render_height"]),
    }
    if env_config.get("render_camera_name"):
        view["camera_name"] = env_config["render_camera_name"]
    else:
        view["camera_id"] = int(env_config["render_camera_id"])
    camera: dict[str, Any] = {
        "azimuth": float(env_config["render_camera_azimuth"]),
        "elevation": float(env_config["render_camera_elevation"]),
    }
    if float(env_config["render_camera_distance"]) > 0:
        camera["distance"] = float(env_config["render_camera_distance"])
    if len(env_config["render_camera_lookat"]) == 3:
        camera["lookat"] = np.asarray(env_config["render_camera_lookat"], dtype=np.float64)
    view["default_camera_config"] = camera
    return view


class DmcFrames:
    """Draws DeepMind Control frames from our state (MuJoCo's integration state
    then the task's own values). A task that moves a target in its model per
    episode (reacher, point_mass, fish, ...) shows the target where dm_control's
    freshly loaded task puts it: the target is not part of the physics state.
    A task with a heightfield of its own per episode (quadruped escape) shows
    the env's: it follows the physics state in the task values."""

    HEIGHT, WIDTH = 240, 320  # dm_control's Physics.render defaults

    def __init__(self, domain: str, task: str, env_config: dict[str, Any] | None = None) -> None:
        import gc

        from dm_control import suite

        # dm_control frees a GL context under its executor pool's lock, which
        # it takes again to make ours: garbage holding one (an env no one
        # closed) is freed now, not by a collection run inside that lock.
        gc.collect()
        self.closed = False
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self._env = suite.load(domain, task)
        config = env_config or {}
        # A pixel env's frame is its observation's: its size and camera.
        self._camera: int | str = -1
        if config.get("from_pixels"):
            self.shape = (int(config["render_height"]), int(config["render_width"]))
            self._camera = config.get("render_camera_name") or int(config["render_camera_id"])
        else:
            self.shape = (self.HEIGHT, self.WIDTH)
        self._enlarge_offscreen_buffer()

    def __call__(self, state: np.ndarray) -> np.ndarray:
        """The frame of ``state`` (integration state, then the task's values)."""
        return self.frame(state)

    def frame(self, state: np.ndarray) -> np.ndarray:
        import mujoco

        physics = self._env.physics
        sig = mujoco.mjtState.mjSTATE_INTEGRATION
        size = mujoco.mj_stateSize(physics.model.ptr, sig)
        mujoco.mj_setState(physics.model.ptr, physics.data.ptr, np.asarray(state[:size]), sig)
        try:
            # The terrain before forward(): the rangefinders (drawn as rays) measure it.
            self._set_heightfield(np.asarray(state[size:]))
            physics.forward()
            height, width = self.shape
            return np.asarray(physics.render(height=height, width=width, camera_id=self._camera))
        except Exception as e:  # noqa: BLE001 - every GL failure gets the same advice
            raise no_gl_error(e) from e

    def _enlarge_offscreen_buffer(self) -> None:
        """Let dm_control draw a frame larger than the model's offscreen buffer
        (as the C++ renderer does): before its GL context is made, the buffer
        of its model copy only sets how large a frame may be."""
        visual = self._env.physics.model.vis.global_
        visual.offheight = max(int(visual.offheight), self.shape[0])
        visual.offwidth = max(int(visual.offwidth), self.shape[1])

    def _set_heightfield(self, task_values: np.ndarray) -> None:
        """Copy an env's terrain (its task values) into the renderer's model
        and its GPU copy, as dm_control's escape does after drawing one."""
        physics = self._env.physics
        model = physics.model
        if model.nhfield == 0 or task_values.size != model.hfield_data.size:
            return
        model.hfield_data[:] = task_values
        import mujoco

        contexts = physics.contexts
        with contexts.gl.make_current() as ctx:
            ctx.call(mujoco.mjr_uploadHField, model.ptr, contexts.mujoco.ptr, 0)

    def close(self) -> None:
        """Free the physics and its GL contexts now: dm_control frees them under
        a lock that a garbage collection run inside it would wait on forever."""
        self._env.physics.free()
        self.closed = True


def mujoco_drawer(spec: EnvSpec) -> Callable[[np.ndarray], np.ndarray]:
    """The MuJoCo family's renderer: gymnasium's, set to each env's state."""
    return MujocoFrames(spec.id, spec.env_config)
