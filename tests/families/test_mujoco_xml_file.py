"""``xml_file``, a model file of the user's own, on every MuJoCo id (-v2 / -v3,
-v4 and -v5; docs/mujoco.md): gymnasium's path rule, clear errors naming the
file, the model's dynamics against gymnasium's env given the same file, and
frames of that model; and one frame of each -v2 / -v3 id against gymnasium's
v4 env drawing the same state."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest
from mujoco_helpers import LEGACY_TASKS, _run_parity

import envpool_x
from conftest import ci_sample
from envpool_x.families import mujoco as mj

mujoco = pytest.importorskip("mujoco")
gym = pytest.importorskip("gymnasium")
if not mj.has_mujoco():
    pytest.skip("envpool_x was built without MuJoCo", allow_module_level=True)
# MuJoCo warns when it writes half_cheetah.xml's deprecated settotalmass back out.
pytestmark = pytest.mark.filterwarnings("ignore:compiler attribute 'settotalmass':UserWarning")

# One id of each version, then each -v2 / -v3 id (slow).
VERSION_SAMPLE = ["Hopper-v3", "Reacher-v2", "HalfCheetah-v4", "Ant-v5"]
XML_TASKS = ci_sample(
    VERSION_SAMPLE + [t for t in LEGACY_TASKS if t not in VERSION_SAMPLE], set(VERSION_SAMPLE)
)
needs_gl = pytest.mark.skipif(
    not (os.environ.get("MUJOCO_GL") or os.environ.get("DISPLAY")), reason="no OpenGL backend"
)


def _stock(task: str) -> str:
    return envpool_x.make_spec(task).env_config["xml_file"]


def _modified(task: str, path: str, gravity: float | None = None) -> str:
    """A copy of ``task``'s stock model, written to ``path``, with another
    gravity, else a 1.5 times longer timestep (gymnasium's envs refuse a
    timestep other than their frame rate's)."""
    spec = mujoco.MjSpec.from_file(_stock(task))
    if gravity is None:
        spec.option.timestep *= 1.5
    else:
        spec.option.gravity = [0.0, 0.0, gravity]
    with open(path, "w") as f:
        f.write(spec.to_xml())
    return path


def _rollout(task: str, steps: int = 40, **kwargs) -> np.ndarray:
    env = envpool_x.make_gymnasium(task, num_envs=1, seed=3, **kwargs)
    obs = [env.reset()[0][0]]
    rng = np.random.default_rng(0)
    space = env.single_action_space
    for _ in range(steps):
        obs.append(env.step(rng.uniform(space.low, space.high)[None].astype(np.float32))[0][0])
    env.close()
    return np.array(obs)


@pytest.mark.parametrize("task", XML_TASKS)
def test_a_copy_of_the_stock_model_steps_the_same(task: str, tmp_path, monkeypatch) -> None:
    """By absolute path, by ./relative path (gymnasium's rule: from the
    working directory) and by bare name (gymnasium's assets folder)."""
    name = os.path.basename(_stock(task))
    shutil.copy(_stock(task), tmp_path / name)
    monkeypatch.chdir(tmp_path)
    stock = _rollout(task)
    for given in (str(tmp_path / name), f"./{name}", name):
        np.testing.assert_array_equal(_rollout(task, xml_file=given), stock, err_msg=given)


@pytest.mark.parametrize("task", XML_TASKS)
def test_another_model_changes_the_dynamics(task: str, tmp_path) -> None:
    other = _modified(task, str(tmp_path / "other.xml"))
    assert envpool_x.make_spec(task, xml_file=other).env_config["xml_file"] == other
    assert not np.allclose(_rollout(task, xml_file=other), _rollout(task))


@pytest.mark.parametrize("task", ["Ant-v3", "Ant-v4", "Walker2d-v5"])
def test_another_model_steps_as_gymnasium_given_the_same_file(task: str, tmp_path) -> None:
    """gymnasium's Ant-v4 and every v5 take xml_file: the same file gives the
    same episodes (Ant-v3 against Ant-v4: tests/families/test_mujoco_legacy_ids.py)."""
    other = _modified(task, str(tmp_path / "other.xml"), gravity=-4.0)
    if task == "Ant-v3":
        from test_mujoco_legacy_ids import run_beside_gymnasium_v4

        assert run_beside_gymnasium_v4(task, seed=0, min_steps=100, xml_file=other) >= 100
    else:
        _run_parity(task, {"xml_file": other}, episodes=1, max_steps=100)


@pytest.mark.parametrize("task", VERSION_SAMPLE)
def test_missing_or_bad_model_file_names_the_file(task: str, tmp_path) -> None:
    missing = str(tmp_path / "nope.xml")
    with pytest.raises(FileNotFoundError, match="nope.xml"):
        envpool_x.make_gymnasium(task, xml_file=missing)
    with pytest.raises(FileNotFoundError, match="a folder, not a file"):
        envpool_x.make_spec(task, xml_file=str(tmp_path))
    bad = tmp_path / "bad.xml"
    bad.write_text("<mujoco><worldbody><body></mujoco>")
    with pytest.raises(ValueError, match=r"could not load the model '.*bad\.xml'"):
        envpool_x.make_spec(task, xml_file=str(bad))
    with pytest.raises(TypeError, match="xml_file"):
        envpool_x.make_spec(task, xml_file=3)


def _frame_of_gymnasium_v4(task: str, state: np.ndarray) -> np.ndarray:
    v4 = task.rsplit("-", 1)[0] + "-v4"
    from mujoco_helpers import _gym_make

    env = _gym_make(v4, render_mode="rgb_array").unwrapped
    env.reset(seed=0)
    env.set_state(state[: env.model.nq], state[env.model.nq :])
    frame = env.render()
    env.close()
    return frame


@needs_gl
@pytest.mark.parametrize("task", ci_sample(LEGACY_TASKS, {"Walker2d-v3"}))
def test_frame_is_gymnasium_v4s(task: str) -> None:
    env = envpool_x.make_gymnasium(task, num_envs=1, seed=0, render_mode="rgb_array")
    env.reset()
    env.step(np.zeros((1, *env.single_action_space.shape), np.float32))
    frame = env.render()[0]
    assert frame.shape == (480, 480, 3) and frame.any()
    np.testing.assert_array_equal(frame, _frame_of_gymnasium_v4(task, env.get_state(0)))
    env.close()


@needs_gl
@pytest.mark.parametrize("task", ["HalfCheetah-v4", "Hopper-v3"])
def test_frames_are_of_the_users_model(task: str, tmp_path) -> None:
    """A -v4 or older id draws the model it simulates (all red here)."""
    spec = mujoco.MjSpec.from_file(_stock(task))
    for geom in spec.geoms:
        geom.rgba = [1.0, 0.0, 0.0, 1.0]
    red = tmp_path / "red.xml"
    red.write_text(spec.to_xml())
    frames = []
    for xml in (_stock(task), str(red)):
        env = envpool_x.make_gymnasium(
            task, num_envs=1, seed=0, render_mode="rgb_array", xml_file=xml
        )
        env.reset()
        frames.append(env.render()[0])
        env.close()
    stock, user = frames
    assert not np.array_equal(stock, user)
    red_pixels = (user[..., 0] > 200) & (user[..., 1] < 60) & (user[..., 2] < 60)
    assert red_pixels.sum() > 10 * ((stock[..., 0] > 200) & (stock[..., 1] < 60)).sum()
