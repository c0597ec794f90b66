"""Resets of the DMC tasks of test_dmc_more_domains.py (stacker, lqr,
humanoid_CMU, dog, humanoid's run_pure_state, quadruped's fetch): initial states
drawn from each task's distribution with our random numbers and dm_control's
rules, checked per domain; the same seed gives the same states; lqr's model
belongs to the env's seed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import envpool_x
from envpool_x.families import dmc

if not dmc.has_dmc():
    pytest.skip("envpool_x was built without MuJoCo (and so without dmc)", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")
pytest.importorskip("dm_control.suite")

from test_dmc import _joint_qpos, _load  # noqa: E402
from test_dmc_egocentric_domains import _check_humanoid, _ncon  # noqa: E402
from test_dmc_more_domains import _sampled  # noqa: E402

#: One task per domain in the default run, the others under ``slow``.
INITIAL_STATE_TASKS = _sampled(
    {
        "StackerStack4-v1",
        "LqrLqr62-v1",
        "HumanoidCMUWalk-v1",
        "HumanoidRunPureState-v1",
        "DogFetch-v1",
        "QuadrupedFetch-v1",
    }
)


def _check_stacker(model: Any, states: np.ndarray, task: np.ndarray) -> None:
    qpos = states[:, 1 : 1 + model.nq]
    names = ("arm_root", "arm_shoulder", "arm_elbow", "arm_wrist", "thumb", "thumbtip")
    for name in names:
        j = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, name)
        lo, hi = model.jnt_range[j] if model.jnt_limited[j] else (-np.pi, np.pi)
        values = qpos[:, model.jnt_qposadr[j]]
        assert np.all((values >= lo) & (values <= hi)) and np.ptp(values) > (hi - lo) / 4, name
    np.testing.assert_array_equal(
        qpos[:, _joint_qpos(model, "finger")], qpos[:, _joint_qpos(model, "thumb")]
    )
    # Target: x in [-0.37, 0.37], on an odd number of box heights.
    size = model.geom_size[mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, "target"), 0]
    assert np.all(np.abs(task[:, 0]) <= 0.37) and np.ptp(task[:, 0]) > 0.3
    n_boxes = sum(1 for b in range(model.nbody) if model.body(b).name.startswith("box"))
    heights = task[:, 1] / size
    np.testing.assert_allclose(heights, np.round(heights), atol=1e-12)
    assert set(np.round(heights).astype(int)) == set(range(1, 2 * n_boxes, 2))
    for b in range(n_boxes):
        x, z = qpos[:, _joint_qpos(model, f"box{b}_x")], qpos[:, _joint_qpos(model, f"box{b}_z")]
        assert np.all((x >= 0.1) & (x <= 0.3)) and np.all((z >= 0) & (z <= 0.7))
    assert all(_ncon(model, s) == 0 for s in states)


def _check_lqr(model: Any, states: np.ndarray, task: np.ndarray) -> None:
    qpos = states[:, 1 : 1 + model.nq]
    qvel = states[:, 1 + model.nq : 1 + model.nq + model.nv]
    np.testing.assert_allclose(np.linalg.norm(qpos, axis=1), np.sqrt(2), rtol=1e-14)
    assert np.all(np.ptp(qpos, axis=0) > 1) and np.all(qvel == 0)
    # Each env's stiffnesses: uniform in [15, 25), one set per env.
    assert task.shape == (len(states), model.njnt)
    assert np.all((task >= 15) & (task < 25)) and np.ptp(task) > 5
    assert len({tuple(t) for t in task}) == len(task)


def _dof(model: Any, joint: str) -> int:
    return int(model.jnt_dofadr[mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, joint)])


def _check_dog(model: Any, states: np.ndarray, task: np.ndarray) -> None:
    nq, nv = model.nq, model.nv
    qpos, qvel = states[:, 1 : 1 + nq], states[:, 1 + nq : 1 + nq + nv]
    act = states[:, 1 + nq + nv : 1 + nq + nv + model.na]
    # The model's standing pose, turned about z by a uniform azimuth.
    root = _joint_qpos(model, "root")
    np.testing.assert_array_equal(
        qpos[:, root : root + 3], np.broadcast_to(model.qpos0[:3], (len(qpos), 3))
    )
    quat = qpos[:, root + 3 : root + 7]
    assert np.all(quat[:, 1:3] == 0)
    np.testing.assert_allclose(np.linalg.norm(quat, axis=1), 1, atol=1e-12)
    assert np.ptp(np.arctan2(quat[:, 3], quat[:, 0])) > np.pi / 2
    hinges = [int(model.jnt_qposadr[j]) for j in range(model.njnt) if model.jnt_type[j] == 3]
    np.testing.assert_array_equal(
        qpos[:, hinges], np.broadcast_to(model.qpos0[hinges], (len(qpos), len(hinges)))
    )
    # Root velocities: x, y and yaw rate normal with std 2; the rest at rest.
    pushed = qvel[:, [0, 1, 5]]
    assert 1 < np.std(pushed) < 3
    still = [i for i in range(6) if i not in (0, 1, 5)]
    assert np.all(qvel[:, still] == 0)
    # Actuator states uniform in their ctrlrange.
    lo, hi = model.actuator_ctrlrange.T
    assert np.all((act >= lo) & (act <= hi)) and np.all(np.ptp(act, axis=0) > (hi - lo) / 4)
    if mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, "ball_root") >= 0:  # fetch
        ball = _joint_qpos(model, "ball_root")
        floor = model.geom_size[mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, "floor"), 0]
        np.testing.assert_allclose(np.hypot(qpos[:, ball], qpos[:, ball + 1]), 0.75 * floor)
        assert np.all(qpos[:, ball + 2] == 0.05)
        v = qvel[:, _dof(model, "ball_root") : _dof(model, "ball_root") + 3]
        assert np.all(np.hypot(v[:, 0], v[:, 1]) <= 5 * 1.2) and np.all(v[:, 2] >= 0)
        # Thrown towards the centre: the horizontal velocity opposes the position.
        assert np.all(np.sum(v[:, :2] * qpos[:, ball : ball + 2], axis=1) <= 0)


def _check_quadruped_fetch(model: Any, states: np.ndarray, task: np.ndarray) -> None:
    qpos = states[:, 1 : 1 + model.nq]
    qvel = states[:, 1 + model.nq : 1 + model.nq + model.nv]
    spawn = 0.9 * model.geom_size[mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, "floor"), 0]
    # The torso at a random place and heading, at the lowest 1 cm step of
    # height without contact.
    root, ball = _joint_qpos(model, "root"), _joint_qpos(model, "ball_root")
    assert np.all(np.abs(qpos[:, root : root + 2]) <= spawn) and np.ptp(qpos[:, root]) > spawn
    quat = qpos[:, root + 3 : root + 7]
    assert np.all(quat[:, 1:3] == 0) and np.ptp(np.arctan2(quat[:, 3], quat[:, 0])) > np.pi / 2
    for s in states:
        lower = s.copy()
        lower[1 + root + 2] -= 0.01
        assert _ncon(model, lower) > 0, "not the lowest non-contacting height"
    # The ball 2 m up anywhere in the spawn square, rolling sideways (5 m/s normal).
    assert np.all(np.abs(qpos[:, ball : ball + 2]) <= spawn) and np.all(qpos[:, ball + 2] == 2)
    v = qvel[:, _dof(model, "ball_root") : _dof(model, "ball_root") + 3]
    assert 3 < np.std(v[:, :2]) < 7 and np.all(v[:, 2] == 0)


INITIAL_STATE_CHECKS: dict[str, Callable[[Any, np.ndarray, np.ndarray], None]] = {
    "stacker": _check_stacker,
    "lqr": _check_lqr,
    "humanoid_CMU": _check_humanoid,
    "humanoid": _check_humanoid,
    "dog": _check_dog,
    "quadruped": _check_quadruped_fetch,
}


@pytest.mark.parametrize("task_id,domain,task", INITIAL_STATE_TASKS)
def test_initial_states(task_id: str, domain: str, task: str) -> None:
    """Resets draw from the task's distribution (our random numbers, dm_control's
    rules): checked per domain over 32 envs; the same seed, the same states."""
    n = 32
    env = envpool_x.make_dm(task_id, num_envs=n, seed=7)
    first = env.reset()
    model = _load(domain, task).physics.model.ptr
    size = mujoco.mj_stateSize(model, mujoco.mjtState.mjSTATE_INTEGRATION)
    full = np.stack([env._pool.get_state(i) for i in range(n)])
    states, task_values = full[:, :size], full[:, size:]
    assert np.all(states[:, 0] == 0.0), "the clock starts at 0"
    INITIAL_STATE_CHECKS[domain](model, states, task_values)
    for name in first.observation._fields:
        assert np.all(np.isfinite(getattr(first.observation, name)))
    again = envpool_x.make_dm(task_id, num_envs=n, seed=7)
    again.reset()
    other = envpool_x.make_dm(task_id, num_envs=n, seed=8)
    other.reset()
    np.testing.assert_array_equal(again._pool.get_state(3), env._pool.get_state(3))
    assert not np.array_equal(other._pool.get_state(3), env._pool.get_state(3))
    for e in (env, again, other):
        e.close()


def test_lqr_model_belongs_to_the_env_seed() -> None:
    """An lqr env keeps its stiffnesses across episodes (dm_control draws them
    once per environment) and a new seed draws new ones."""
    env = envpool_x.make_gymnasium("LqrLqr62-v1", num_envs=2, max_episode_steps=3, seed=1)
    env.reset()
    first = [env.get_state(i)[-6:] for i in range(2)]
    zero = np.zeros((2, 2), np.float32)
    for _ in range(4):  # past the end of the first episode
        env.step(zero)
    for i in range(2):
        np.testing.assert_array_equal(env.get_state(i)[-6:], first[i])
    env.reset(seed=2)
    assert not np.array_equal(env.get_state(0)[-6:], first[0])
    env.close()
