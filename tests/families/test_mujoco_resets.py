"""MuJoCo resets against gymnasium's: reset noise of the configured scale,
Reacher's target and Pusher's object placed as gymnasium places them, and
gymnasium's reset info."""

from __future__ import annotations

import numpy as np
import pytest
from mujoco_helpers import ATOL, MUJOCO_TASKS, _gym_make

import envpool_x
from envpool_x.families import mujoco as mj

pytest.importorskip("mujoco")
pytest.importorskip("gymnasium")
if not mj.has_mujoco():
    pytest.skip("envpool_x was built without MuJoCo", allow_module_level=True)


# Reset noise of the v4 envs whose gymnasium class has it as a constant.
FIXED_RESET_NOISE = {
    "InvertedPendulum-v4": 0.01,
    "InvertedDoublePendulum-v4": 0.1,
    "HumanoidStandup-v4": 0.01,
}
# Envs that place a target or object in reset: see test_reacher_reset and
# test_pusher_reset below.
GOAL_RESET_FAMILIES = ("Reacher", "Pusher")


@pytest.mark.parametrize("task", [t for t in MUJOCO_TASKS if not t.startswith(GOAL_RESET_FAMILIES)])
def test_reset_noise_within_scale(task: str) -> None:
    """Initial states are the model's initial state plus noise of the
    configured scale (drawn from our own stream, not gymnasium's)."""
    env = envpool_x.make_gymnasium(task, num_envs=16, seed=3)
    env.reset()
    theirs = _gym_make(task).unwrapped
    nq = theirs.model.nq
    scale = getattr(theirs, "_reset_noise_scale", None) or FIXED_RESET_NOISE[task]
    states = np.stack([env._pool.get_state(i) for i in range(16)])
    qpos_dev = states[:, :nq] - theirs.init_qpos
    assert np.all(np.abs(qpos_dev) <= scale + 1e-12)
    assert np.std(qpos_dev) > scale / 10, "no reset noise"
    env.close()


# ---- Reacher and Pusher place a target / object in reset ----------------------


def _initial_states(task: str, n: int, seed: int) -> np.ndarray:
    env = envpool_x.make_gymnasium(task, num_envs=n, seed=seed)
    env.reset()
    states = np.stack([env._pool.get_state(i) for i in range(n)])
    env.close()
    return states


def _gymnasium_initial_states(task: str, n: int) -> np.ndarray:
    env = _gym_make(task).unwrapped
    states = []
    for i in range(n):
        env.reset(seed=i)
        states.append(np.concatenate([env.data.qpos, env.data.qvel]))
    env.close()
    return np.stack(states)


@pytest.mark.parametrize("task", ["Reacher-v4", "Reacher-v5"])
def test_reacher_reset(task: str) -> None:
    """Arm angles init + U(-0.1, 0.1); the target uniform in the disk of radius
    0.2; arm qvel U(-0.005, 0.005), the target's 0: the same distribution as
    gymnasium's (compared on samples of both)."""
    n = 400
    ours = _initial_states(task, n, seed=2)
    theirs = _gymnasium_initial_states(task, n)
    init = _gym_make(task).unwrapped.init_qpos
    for states in (ours, theirs):
        arm, goal, qvel = states[:, :2] - init[:2], states[:, 2:4], states[:, 4:]
        assert np.all(np.abs(arm) <= 0.1) and np.std(arm) > 0.04
        radius = np.linalg.norm(goal, axis=1)
        assert np.all(radius < 0.2)
        assert np.all(np.abs(qvel[:, :2]) <= 0.005) and np.all(qvel[:, 2:] == 0)
    # Uniform in the disk: E|goal| = 2/3 * 0.2, sd about 0.047, so the two
    # sample means (400 each) agree to well within 0.015.
    for states in (ours, theirs):
        assert abs(np.linalg.norm(states[:, 2:4], axis=1).mean() - 0.4 / 3) < 0.01
    assert abs(ours[:, 2:4].mean() - theirs[:, 2:4].mean()) < 0.015


@pytest.mark.parametrize("task", ["Pusher-v4", "Pusher-v5"])
def test_pusher_reset(task: str) -> None:
    """The arm at its initial qpos; the object uniform in [-0.3, 0] x
    [-0.2, 0.2] outside the 0.17 disk around the goal at (0, 0); arm qvel
    U(-0.005, 0.005), the object's and goal's 0: as gymnasium's."""
    n = 400
    ours = _initial_states(task, n, seed=2)
    theirs = _gymnasium_initial_states(task, n)
    nq = 11
    for states in (ours, theirs):
        qpos, qvel = states[:, :nq], states[:, nq:]
        assert np.all(qpos[:, :7] == 0.0)
        obj = qpos[:, 7:9]
        assert np.all((obj[:, 0] >= -0.3) & (obj[:, 0] <= 0.0))
        assert np.all(np.abs(obj[:, 1]) <= 0.2)
        assert np.all(np.linalg.norm(obj, axis=1) > 0.17)
        assert np.all(qpos[:, 9:] == 0.0)
        assert np.all(np.abs(qvel[:, :7]) <= 0.005) and np.std(qvel[:, :7]) > 0.002
        assert np.all(qvel[:, 7:] == 0.0)
    np.testing.assert_allclose(ours[:, 7:9].mean(0), theirs[:, 7:9].mean(0), atol=0.02)


# ---- reset info ---------------------------------------------------------------


@pytest.mark.parametrize("task", MUJOCO_TASKS)
def test_reset_info_matches_gymnasium(task: str) -> None:
    """Our reset's info carries gymnasium's reset-info keys, with the values
    gymnasium computes from the same (our) initial state."""
    env = envpool_x.make_gymnasium(task, num_envs=3, seed=7)
    _, info = env.reset()
    theirs = _gym_make(task).unwrapped
    theirs.reset(seed=0)
    for i in range(3):
        state = env._pool.get_state(i)
        nq = theirs.model.nq
        theirs.set_state(state[:nq], state[nq:])
        for key, value in theirs._get_reset_info().items():
            assert key in info, f"{task}: reset info lacks gymnasium's key {key!r}"
            np.testing.assert_allclose(info[key][i], value, atol=ATOL, rtol=0, err_msg=key)
    env.close()
