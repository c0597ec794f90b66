"""gymnasium-robotics' Adroit envs (1.4.2) as tests/families/test_robotics_adroit.py
compares them with ours: their state in our state's layout (MuJoCo's
integration state, then the values a reset draws into the model), and
states that meet each task's goal."""

from __future__ import annotations

from typing import Any

import mujoco
import numpy as np

SIG = mujoco.mjtState.mjSTATE_INTEGRATION


def _task(env: Any) -> str:
    return type(env.unwrapped).__name__.replace("Env", "")


def _drawn_arrays(env: Any) -> list[np.ndarray]:
    """Views of the oracle's model values our state carries, in its order."""
    raw = env.unwrapped
    model = raw.model
    task = _task(env)
    if task == "AdroitHandDoor":
        return [model.body_pos[raw.door_body_id]]
    if task == "AdroitHandHammer":
        return [model.body_pos[raw.target_body_id]]
    if task == "AdroitHandPen":
        return [model.body_quat[raw.target_obj_body_id]]
    if task == "AdroitHandRelocate":
        return [model.body_pos[raw.obj_body_id], model.site_pos[raw.target_obj_site_id]]
    raise ValueError(task)


def drawn_values(env: Any) -> np.ndarray:
    """What our state holds after the integration state (the Pen's measured
    pen and target lengths last)."""
    values = [np.array(a) for a in _drawn_arrays(env)]
    if _task(env) == "AdroitHandPen":
        values.append(np.array([env.unwrapped.pen_length, env.unwrapped.tar_length]))
    return np.concatenate(values)


def oracle_state(env: Any) -> np.ndarray:
    """The oracle's state as our get_state gives it."""
    raw = env.unwrapped
    physics = np.empty(mujoco.mj_stateSize(raw.model, SIG))
    mujoco.mj_getState(raw.model, raw.data, physics, SIG)
    return np.concatenate([physics, drawn_values(env)])


def set_oracle_state(env: Any, state: np.ndarray) -> None:
    """What our set_state does, on the oracle: the physics state, the drawn
    model values (and the Pen's lengths), then mj_forward."""
    raw = env.unwrapped
    size = mujoco.mj_stateSize(raw.model, SIG)
    mujoco.mj_setState(raw.model, raw.data, np.asarray(state[:size], dtype=np.float64), SIG)
    at = size
    for array in _drawn_arrays(env):
        array[:] = state[at : at + len(array)]
        at += len(array)
    if _task(env) == "AdroitHandPen":
        raw.pen_length, raw.tar_length = float(state[at]), float(state[at + 1])
    mujoco.mj_forward(raw.model, raw.data)


def reach_success(env: Any, state: np.ndarray) -> np.ndarray:
    """``state`` changed so that the task's goal is met (computed on the
    oracle, which is left in the state returned): the door swung open, the
    nail driven to its goal, the pen target turned to the pen, the target
    moved to the ball."""
    raw = env.unwrapped
    model, data = raw.model, raw.data
    state = np.array(state)
    size = mujoco.mj_stateSize(model, SIG)
    task = _task(env)
    if task == "AdroitHandDoor":
        state[1 + model.jnt_qposadr[model.joint("door_hinge").id]] = 1.55
    elif task == "AdroitHandHammer":
        # The nail slides along its joint: solve for the position at its goal.
        index = 1 + model.jnt_qposadr[model.joint("nail_dir").id]
        points = []
        for x in (0.0, 0.01):
            state[index] = x
            set_oracle_state(env, state)
            points.append(np.array(data.site_xpos[raw.target_obj_site_id]))
        direction = (points[1] - points[0]) / 0.01
        goal = data.site_xpos[raw.goal_site_id]
        state[index] = float(np.dot(goal - points[0], direction) / np.dot(direction, direction))
    elif task == "AdroitHandPen":
        pen = model.body("Object").id
        state[size : size + 4] = data.xquat[pen]
    elif task == "AdroitHandRelocate":
        state[size + 3 : size + 6] = data.xpos[raw.obj_body_id]
    set_oracle_state(env, state)
    return state
