"""The MuJoCo model scales of the per-env parameters (docs/params.md,
cpp/envs/mujoco/model_params.h), applied from Python to an oracle's model: the
MuJoCo, DeepMind Control, Meta-World and robotics parameter tests compare our
env made with VALUES against the official env with its model scaled so."""

from __future__ import annotations

from typing import Any

import numpy as np

#: Every parameter away from 1 (kept mild, so that episodes stay physical);
#: the DeepMind Control tasks take all but timestep_scale.
VALUES = {
    "body_mass_scale": 1.3,
    "body_inertia_scale": 0.8,
    "geom_friction_scale": 0.7,
    "dof_damping_scale": 1.5,
    "dof_armature_scale": 1.2,
    "actuator_gear_scale": 0.9,
    "gravity_scale": 0.6,
    "timestep_scale": 0.9,
}
#: The model array each scale multiplies.
ARRAYS = {
    "body_mass_scale": "body_mass",
    "body_inertia_scale": "body_inertia",
    "dof_damping_scale": "dof_damping",
    "dof_armature_scale": "dof_armature",
    "actuator_gear_scale": "actuator_gear",
}


def scale_model(model: Any, values: dict[str, float]) -> None:
    """Scale a mujoco.MjModel's arrays as the parameters `values` do (the
    sliding friction only: geom_friction's first column)."""
    for name, array in ARRAYS.items():
        if name in values:
            getattr(model, array)[:] = getattr(model, array) * values[name]
    if "geom_friction_scale" in values:
        model.geom_friction[:, 0] = model.geom_friction[:, 0] * values["geom_friction_scale"]
    if "gravity_scale" in values:
        model.opt.gravity[:] = model.opt.gravity * values["gravity_scale"]
    if "timestep_scale" in values:
        model.opt.timestep = model.opt.timestep * values["timestep_scale"]


def _flat(obs: Any) -> np.ndarray:
    """A batch's observation as one row per env (a Dict's keys in order)."""
    if isinstance(obs, dict):
        return np.concatenate([_flat(obs[k]) for k in sorted(obs)], axis=1)
    return obs.reshape(len(obs), -1)


def trajectory(
    env: Any, steps: int, seed: int = 0, reset_seed: int | None = None
) -> list[np.ndarray]:
    """A reset (`reset_seed`: restarting the envs' streams) and `steps` steps
    of uniform actions (autoreset on): one row per env and step of
    observation, reward, terminated and truncated."""
    rng = np.random.default_rng(seed)
    space = env.single_action_space
    rows = [_flat(env.reset(seed=reset_seed)[0]).copy()]
    for _ in range(steps):
        a = rng.uniform(space.low, space.high, (env.num_envs, *space.shape)).astype(np.float32)
        obs, rew, term, trunc, _ = env.step(a)
        rows.append(np.concatenate([_flat(obs), rew[:, None], term[:, None], trunc[:, None]], 1))
    return rows


def assert_same(a: list[np.ndarray], b: list[np.ndarray], rows: Any = slice(None)) -> None:
    """Two trajectories' rows `rows` equal bit for bit at every step."""
    for t, (x, y) in enumerate(zip(a, b, strict=True)):
        np.testing.assert_array_equal(x[rows], y[rows], f"step {t}")
