"""The goal-conditioned API of the robotics tasks: the batched
``compute_reward`` / ``compute_terminated`` / ``compute_truncated`` against
gymnasium-robotics 1.4.2's, HER-style relabelling against the step rewards,
EnvPool's -v1 ids and config keys."""

from __future__ import annotations

import os

import numpy as np
import pytest
from robotics_helpers import assert_frames_are_oracle_frames, load_oracle, make_oracle

import envpool_x
from envpool_x.families import robotics as family

if not family.has_robotics():
    pytest.skip("envpool_x was built without the robotics tasks", allow_module_level=True)
gymnasium = pytest.importorskip("gymnasium")
load_oracle(pytest.importorskip("mujoco"), gymnasium, pytest.importorskip("gymnasium_robotics"))


@pytest.mark.parametrize("task_id", ["FetchPush-v4", "FetchPushDense-v4", "FetchReachDense-v4"])
def test_compute_reward_is_gymnasium_robotics(task_id: str) -> None:
    ours = envpool_x.make_gymnasium(task_id, num_envs=2)
    theirs = make_oracle(task_id).unwrapped
    rng = np.random.default_rng(0)
    achieved = rng.uniform(1.0, 1.5, size=(256, 3))
    # Half the desired goals within the threshold of the achieved ones.
    desired = achieved + rng.normal(scale=0.04, size=(256, 3))
    info = [{"is_success": 0.0}] * 256
    got, want = (
        ours.compute_reward(achieved, desired, info),
        theirs.compute_reward(achieved, desired, info),
    )
    assert got.dtype == want.dtype and got.shape == (256,)
    assert np.array_equal(got, want)
    if "Dense" in task_id:
        assert np.all(got < 0)
    else:  # both outcomes occur
        assert set(np.unique(got)) == {-1.0, 0.0}
    single = ours.compute_reward(achieved[0], desired[0], {})
    assert single == theirs.compute_reward(achieved[0], desired[0], {})
    done = ours.compute_terminated(achieved, desired, info)
    assert done.shape == (256,) and not done.any()
    assert not ours.compute_truncated(achieved[0], desired[0], {})
    assert ours.compute_terminated(achieved[0], desired[0], {}) == theirs.compute_terminated(
        achieved[0], desired[0], {}
    )
    with pytest.raises(ValueError, match="differ in shape"):
        ours.compute_reward(achieved, desired[:, :2], info)


@pytest.mark.parametrize("task_id", ["FetchPickAndPlace-v4", "FetchSlideDense-v4"])
def test_relabelled_rewards_are_the_step_rewards(task_id: str) -> None:
    """compute_reward of the stepped goals is the step's reward (as float32),
    for a batch of envs over an episode."""
    env = envpool_x.make_gymnasium(task_id, num_envs=4, seed=5)
    env.reset()
    rng = np.random.default_rng(1)
    for _ in range(20):
        action = rng.uniform(-1, 1, size=(4, 4)).astype(np.float32)
        obs, reward, _, _, info = env.step(action)
        again = env.compute_reward(obs["achieved_goal"], obs["desired_goal"], info)
        assert np.array_equal(np.asarray(again, dtype=np.float32), reward)
        success = (reward == 0) if "Dense" not in task_id else (-np.asarray(again) < 0.05)
        assert np.array_equal(info["is_success"] == 1.0, success)


def test_a_task_without_goals_has_no_compute_reward() -> None:
    env = envpool_x.make_gymnasium("CartPole-v1", num_envs=1)
    assert not hasattr(env, "compute_reward")
    with pytest.raises(AttributeError, match="not a goal-conditioned task"):
        env.compute_reward(None, None, None)


def test_envpool_v1_ids_and_keys() -> None:
    """EnvPool's -v1 ids are the -v4 tasks; its task constants are reported
    and accepted with the task's value, refused with another."""
    spec = envpool_x.make_spec("FetchSlideDense-v1")
    assert spec.id == "FetchSlideDense-v1"
    assert spec.config.reward_type == "dense"
    assert spec.config.initial_slide0 == 0.05
    assert spec.config.target_offset_x == 0.4
    assert spec.config.frame_skip == family.FETCH_SUBSTEPS
    envpool_x.make_spec("FetchSlide-v4", initial_slide0=0.05, has_object=True)
    with pytest.raises(ValueError, match="initial_slide0"):
        envpool_x.make_spec("FetchSlide-v4", initial_slide0=0.4049)
    with pytest.raises(ValueError, match="reward_type"):
        envpool_x.make_spec("FetchPush-v4", reward_type="shaped")
    with pytest.raises(ValueError, match="xml_file"):
        envpool_x.make_spec("FetchPush-v4", xml_file="/tmp/other.xml")
    assert envpool_x.make_spec("FetchPush-v4", reward_type="dense").config.reward_type == "dense"


def test_without_gymnasium_robotics_making_a_task_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    family.assets_dir.cache_clear()
    monkeypatch.setattr(family.importlib.util, "find_spec", lambda name: None)
    try:
        with pytest.raises(ImportError, match=r"pip install gymnasium-robotics==1\.4\.2"):
            envpool_x.make_gymnasium("FetchReach-v4", num_envs=1)
    finally:
        monkeypatch.undo()
        family.assets_dir.cache_clear()
    assert envpool_x.make_gymnasium("FetchReach-v4", num_envs=1).num_envs == 1


@pytest.mark.skipif(
    not (os.environ.get("MUJOCO_GL") or os.environ.get("DISPLAY")), reason="no OpenGL backend"
)
@pytest.mark.parametrize("task_id", ["FetchPickAndPlace-v4", "FetchSlide-v4"])
def test_frames_are_gymnasium_robotics_frames(task_id: str) -> None:
    """render() draws gymnasium-robotics' frame of the same state and goal."""
    assert_frames_are_oracle_frames(task_id, 4)
