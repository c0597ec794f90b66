"""render() of the Meta-World tasks (cpp/envs/metaworld/frame.h) against
metaworld 3.1.1's own ``render_mode="rgb_array"`` frame of the same state.

Both sides draw with the same libmujoco through the same OpenGL (OSMesa here),
so the frames must be identical: Meta-World's env is stepped beside ours (the
two are equal bit for bit, test_metaworld.py) and renders for the first time
at the compared state, as its viewer aims its camera when it is made (ours
aims at every frame, docs/metaworld.md). A set pool draws its env's task.
"""

from __future__ import annotations

import os
import pickle

import numpy as np
import pytest
from metaworld_helpers import load_oracle, mt1_rand_vecs

import envpool_x
from envpool_x.families import metaworld as family

if not family.has_metaworld():
    pytest.skip("envpool_x was built without the Meta-World tasks", allow_module_level=True)
if os.environ.get("MUJOCO_GL") not in ("osmesa", "egl"):
    pytest.skip("no OpenGL backend: apt-get install libosmesa6", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")
metaworld = pytest.importorskip("metaworld")
load_oracle(mujoco, metaworld, pytest.importorskip("metaworld.policies"))


def _ours(name: str, **config: object) -> object:
    (suffix,) = [s for n, s, _, _ in family.TASKS if n == name]
    return envpool_x.make_gymnasium(
        family.task_id(suffix), num_envs=1, render_mode="rgb_array", **config
    )


def _oracle(name: str, seed: int, index: int) -> object:
    cls = metaworld.env_dict.ALL_V3_ENVIRONMENTS[name]
    env = cls(render_mode="rgb_array")
    data = {"rand_vec": mt1_rand_vecs(name, seed)[index], "env_cls": cls}
    data["partially_observable"] = False
    env.set_task(metaworld.Task(env_name=name, data=pickle.dumps(data)))
    return env


@pytest.mark.parametrize(("name", "steps"), [("reach-v3", 0), ("pick-place-v3", 30)])
def test_frame_is_metaworlds(name: str, steps: int) -> None:
    ours = _ours(name, task_index=4, partially_observable=False)
    theirs = _oracle(name, 0, 4)
    ours.reset(seed=0)
    theirs.reset()
    rng = np.random.default_rng(1)
    for _ in range(steps):
        action = rng.uniform(-1, 1, (1, 4)).astype(np.float32)
        ours.step(action)
        theirs.step(action[0])
    frame = ours.render()
    expected = np.asarray(theirs.render())
    assert frame.shape == (1, 480, 480, 3) and expected.shape == (480, 480, 3)
    differ = np.any(frame[0] != expected, axis=-1)
    assert not differ.any(), f"{differ.sum()} pixels differ"
    theirs.close()
    ours.close()


def test_set_pool_draws_each_envs_task() -> None:
    env = envpool_x.make_gymnasium(
        "MetaWorld/custom-mt-v3",
        num_envs=2,
        tasks=["reach-v3", "door-open-v3"],
        render_mode="rgb_array",
    )
    env.reset(seed=0)
    single = _ours("door-open-v3", partially_observable=False)
    single.reset(seed=0)
    single._pool.set_state(0, env.get_state(1))
    frames = env.render(env_ids=[0, 1])
    assert frames.shape == (2, 480, 480, 3)
    np.testing.assert_array_equal(frames[1], single.render()[0])
    assert np.any(frames[0] != frames[1])
    env.close()
    single.close()
