"""MuJoCo episodes that end on their own: a step on which the simulation goes
unstable (or leaves a non-finite state) ends that env's episode only, like
gymnasium's step, in sync steps, pair chunks and async batches; stable
episodes are never cut short."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest
from mujoco_helpers import ATOL, MUJOCO_TASKS, _copy_state, _gym_make

import envpool_x
from envpool_x.families import mujoco as mj

pytest.importorskip("mujoco")
pytest.importorskip("gymnasium")
if not mj.has_mujoco():
    pytest.skip("envpool_x was built without MuJoCo", allow_module_level=True)


def _unstable_pair(task: str, **pool_kwargs: Any):
    """Ours and gymnasium's env in the same state, with velocities (1e12) that
    MuJoCo rejects on the next mj_step."""
    ours = envpool_x.make_gymnasium(task, num_envs=1, seed=0, **pool_kwargs)
    theirs = _gym_make(task)
    ours.reset()
    theirs.reset(seed=0)
    data = theirs.unwrapped.data
    theirs.unwrapped.set_state(data.qpos.copy(), np.full_like(data.qvel, 1e12))
    _copy_state(ours, theirs)
    return ours, theirs


@pytest.mark.parametrize("task", MUJOCO_TASKS)
def test_unstable_simulation_ends_the_episode(task: str) -> None:
    """A step on which the simulation goes unstable (MuJoCo warns of a bad
    qvel and resets mjData to the model's initial state mid-step) gives
    gymnasium's observation, reward, terminated and info, and ends the
    episode: truncated, where gymnasium carries on from the reset state. The
    next step starts a new episode from our own reset; the process lives."""
    import mujoco

    ours, theirs = _unstable_pair(task)
    a = np.zeros(theirs.action_space.shape, dtype=np.float32)
    out, want = ours.step(a[None]), theirs.step(a)
    assert theirs.unwrapped.data.warning[mujoco.mjtWarning.mjWARN_BADQVEL].number > 0
    assert not want[3], "gymnasium truncated too: this test no longer shows the difference"
    np.testing.assert_allclose(out[0][0], want[0], atol=ATOL, rtol=0)
    assert out[1][0] == np.float32(want[1])
    assert not want[2] and not out[2][0], "terminated: the task's own end, not the instability"
    assert out[3][0], "the unstable step did not end the episode"
    for key, value in want[4].items():
        np.testing.assert_allclose(out[4][key][0], value, atol=ATOL, rtol=0, err_msg=key)
    obs, reward, terminated, truncated, info = ours.step(a[None])
    assert info["elapsed_step"][0] == 0 and reward[0] == 0 and not truncated[0]
    # A fresh episode from our reset: stable steps are not truncated.
    for _ in range(3):
        assert not ours.step(a[None])[3][0]
    ours.close()


@pytest.mark.parametrize("batch_size", [8, 4])
def test_unstable_simulation_ends_only_its_own_episode(batch_size: int) -> None:
    """Among 8 envs on 2 threads (sync: envs 3 and 7 are stepped in pair
    chunks; async: batches of 4) only the envs that went unstable truncate."""
    env = envpool_x.make_gymnasium(
        "Hopper-v5", num_envs=8, batch_size=batch_size, num_threads=2, seed=0
    )
    pool = env._pool
    env.async_reset()
    for _ in range(8 // batch_size):
        env.recv()
    for i in (3, 7):
        state = pool.get_state(i)
        state[6:] = 1e12
        pool.set_state(i, state)
    a = np.zeros((8, 3), np.float32)
    ended = np.zeros(8, bool)
    if batch_size == 8:
        _, _, terminated, ended, _ = env.step(a)  # a full sync step: pair chunks
        assert not terminated.any()
    else:
        env.send(a, np.arange(8))
        for _ in range(2):
            _, _, terminated, truncated, info = env.recv()
            assert not terminated.any()
            ended[info["env_id"]] = truncated
    np.testing.assert_array_equal(np.flatnonzero(ended), [3, 7])
    env.close()


@pytest.mark.parametrize(
    ("task", "xml", "ends"),
    [("HalfCheetah-v5", "half_cheetah.xml", "truncated"), ("Ant-v5", "ant.xml", "terminated")],
)
def test_step_to_a_non_finite_state_ends_the_episode(
    tmp_path, task: str, xml: str, ends: str
) -> None:
    """A step that leaves an infinite qpos without any MuJoCo warning (a model
    whose timestep is 1e300: MuJoCo checks qpos only at the start of the next
    step) ends the episode: truncated, or terminated where the task's own
    health check says so (Ant: a non-finite state is unhealthy), never both."""
    import re

    text = open(os.path.join(mj.gymnasium_assets_dir(), xml)).read()
    text, n = re.subn(r'timestep="[^"]*"', 'timestep="1e300"', text)
    assert n == 1
    model = tmp_path / xml
    model.write_text(text)
    env = envpool_x.make_gymnasium(task, num_envs=1, seed=0, xml_file=str(model), frame_skip=1)
    env.reset()
    a = np.full((1, *env.single_action_space.shape), 0.5, np.float32)
    obs, _, terminated, truncated, _ = env.step(a)
    assert not np.isfinite(obs).all()
    assert (bool(terminated[0]), bool(truncated[0])) == (ends == "terminated", ends == "truncated")
    obs, _, _, _, info = env.step(a)
    assert info["elapsed_step"][0] == 0 and np.isfinite(obs).all()
    env.close()


def test_unstable_simulation_same_step_autoreset() -> None:
    """With same-step autoreset the unstable step returns the new episode's
    first observation, and gymnasium's observation of that step as final_obs."""
    ours, theirs = _unstable_pair("HalfCheetah-v5", autoreset_mode="same_step")
    a = np.zeros(theirs.action_space.shape, dtype=np.float32)
    obs, _, _, truncated, info = ours.step(a[None])
    want = theirs.step(a)
    assert truncated[0] and info["_final_obs"][0]
    np.testing.assert_allclose(info["final_obs"][0], want[0], atol=ATOL, rtol=0)
    assert np.abs(obs[0]).max() < 1.0  # a reset observation, not the blown-up one
    ours.close()


def test_stable_steps_are_never_cut_short() -> None:
    """Long episodes of every task end only as gymnasium's do: the parity
    runs above compare truncated on every step; here, 8 HalfCheetah envs run
    a whole 1000-step episode with full-scale random actions untruncated."""
    env = envpool_x.make_gymnasium("HalfCheetah-v5", num_envs=8, num_threads=2, seed=4)
    env.reset()
    rng = np.random.default_rng(0)
    for t in range(1000):
        _, _, terminated, truncated, _ = env.step(rng.uniform(-1, 1, (8, 6)).astype(np.float32))
        assert not terminated.any()
        assert truncated.all() == (t == 999) and truncated.any() == (t == 999)
    env.close()
