"""Per-env parameters on the pixel path (docs/params.md, ``from_pixels=True``):
an env set to values draws the frames of one made with them, bit for bit; its
GL context holds the shared model's assets, the frame its scaled model's state."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import envpool_x
from envpool_x.families import dmc

if not dmc.has_dmc():
    pytest.skip("envpool_x was built without MuJoCo and dmc", allow_module_level=True)
if os.environ.get("MUJOCO_GL") not in ("osmesa", "egl"):
    pytest.skip("no OpenGL backend: apt-get install libosmesa6", allow_module_level=True)

VALUES = {"body_mass_scale": 1.4, "gravity_scale": 0.5, "actuator_gear_scale": 1.5}
PIXELS = {"from_pixels": True, "render_width": 32, "render_height": 32}


def frames(env: Any, steps: int) -> list[np.ndarray]:
    """The pixel observations of a reset and `steps` steps of fixed random
    actions (autoreset on)."""
    rng = np.random.default_rng(0)
    space = env.single_action_space
    out = [env.reset()[0].copy()]
    for _ in range(steps):
        a = rng.uniform(space.low, space.high, (env.num_envs, *space.shape))
        out.append(env.step(a.astype(np.float32))[0].copy())
    return out


@pytest.mark.parametrize("task", ["HalfCheetah-v5", "CartpoleSwingup-v1"])
def test_set_params_equals_config_in_pixels(task: str) -> None:
    """Over two short episodes (software drawing is slow on CPU machines)."""
    kw = {"num_envs": 1, "num_threads": 1, "seed": 0, "max_episode_steps": 5, **PIXELS}
    made = envpool_x.make_gymnasium(task, **kw, **VALUES)
    changed = envpool_x.make_gymnasium(task, **kw)
    changed.set_params(**VALUES)
    for t, (a, b) in enumerate(zip(frames(changed, 8), frames(made, 8), strict=True)):
        np.testing.assert_array_equal(a, b, f"{task} step {t}")
    made.close()
    changed.close()
