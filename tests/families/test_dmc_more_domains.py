"""DeepMind Control's stacker, lqr, humanoid_CMU and dog, humanoid's run_pure_state and
quadruped's fetch,
against dm_control 1.0.50's suite, as tests/families/test_dmc.py does for the
first domains: the same XML (dm_control's own model functions) on the same
libmujoco; after a reset dm_control's integration state and the task's values
kept in its model (stacker's target, lqr's stiffnesses) are copied into ours,
then both get the same float32 actions.

The default run steps a sample of tasks for a whole episode; every task with
several seeds is under ``slow`` (ENVPOOL_X_SLOW=1).

lqr differs from the others in two documented ways (docs/dmc.md): dm_control's
lqr has no time limit (its episodes end only at rest), ours truncate at 1000
steps as EnvPool's; its actions are unbounded (+-1e10), so the tests drive it
with normal draws.
"""

from __future__ import annotations

import os
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

from test_dmc import ATOL, _joint_qpos, _load  # noqa: E402
from test_dmc_egocentric_domains import _check_humanoid, _ncon  # noqa: E402

#: The domains this file tests (test_dmc.py leaves them out).
DOMAINS = ("stacker", "lqr", "humanoid_CMU", "dog")
TASKS = [
    (dmc.task_id(prefix, task), domain, task)
    for domain, prefix, _, tasks in dmc.DOMAINS
    if domain in DOMAINS
    for task in tasks
] + [
    ("HumanoidRunPureState-v1", "humanoid", "run_pure_state"),
    ("QuadrupedFetch-v1", "quadruped", "fetch"),
]
IDS = [t[0] for t in TASKS]
#: The default run's whole episodes: one task per domain.
SAMPLE = [
    "StackerStack2-v1",
    "LqrLqr21-v1",
    "HumanoidCMUStand-v1",
    "DogFetch-v1",
    "QuadrupedFetch-v1",
]


def _sampled(keep: set[str]) -> list[Any]:
    """TASKS as parameters, those not in ``keep`` marked ``slow``."""
    return [
        pytest.param(*t, id=t[0], marks=() if t[0] in keep else pytest.mark.slow) for t in TASKS
    ]


#: The default run checks specs of every task but dog's (dm_control takes
#: seconds to load each dog model) and initial states of one task per domain.
SPEC_TASKS = _sampled({i for i, d, _ in TASKS if d != "dog"} | {"DogFetch-v1"})
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


def _task_state(domain: str, physics: Any) -> np.ndarray:
    """dm_control's per-episode (stacker, quadruped escape's terrain) or
    per-environment (lqr) values kept in the model, in the order our envs take
    them after the integration state."""
    if domain == "stacker":
        return np.array(physics.named.model.body_pos["target"][[0, 2]])
    if domain == "lqr":
        return np.array(physics.model.jnt_stiffness)
    model = physics.model.ptr
    if domain == "quadruped" and mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, "terrain") >= 0:
        return physics.model.hfield_data.astype(np.float64)  # escape (the others keep the asset)
    return np.zeros(0)


def _copy_state(ours: Any, domain: str, theirs: Any) -> None:
    physics = theirs.physics
    sig = mujoco.mjtState.mjSTATE_INTEGRATION
    state = np.concatenate([physics.get_state(sig=sig), _task_state(domain, physics)])
    ours._pool.set_state(0, state)


def _action(domain: str, spec: Any, rng: np.random.Generator) -> np.ndarray:
    if domain == "lqr":  # unbounded motors: dm_control's bounds are +-1e10
        return rng.normal(size=spec.shape).astype(np.float32)
    return rng.uniform(spec.minimum, spec.maximum).astype(np.float32)


def _run(
    task_id: str,
    domain: str,
    task: str,
    seed: int,
    steps: int = dmc.EPISODE_STEPS,
    prepare: Callable[[Any], None] | None = None,
) -> dict[str, float]:
    """Steps both from dm_control's reset state (then `prepare(physics)`) with
    the same random actions for `steps` control steps, or until dm_control's
    episode ends. Returns the largest differences and the steps taken."""
    ours = envpool_x.make_dm(task_id, num_envs=1, seed=seed)
    theirs = _load(domain, task, seed)
    spec = theirs.action_spec()
    rng = np.random.default_rng(seed)
    ours.reset()
    theirs.reset()
    if prepare is not None:
        prepare(theirs.physics)
    _copy_state(ours, domain, theirs)
    stats = {"obs": 0.0, "reward": 0.0, "reward_max": -np.inf, "steps": 0}
    while stats["steps"] < steps:
        a = _action(domain, spec, rng)
        ts1 = ours.step(a[None])
        ts2 = theirs.step(a.astype(np.float64))
        stats["steps"] += 1
        where = f"{task_id} step {stats['steps']}"
        truncated_here = domain == "lqr" and stats["steps"] == dmc.EPISODE_STEPS
        if truncated_here:  # ours truncates (discount 1); dm_control's lqr runs on
            assert int(ts1.step_type[0]) == 2 and int(ts2.step_type) == 1, where
        else:
            assert int(ts1.step_type[0]) == int(ts2.step_type), f"{where}: step type"
        assert float(ts1.discount[0]) == ts2.discount, f"{where}: discount"
        for name, value in ts2.observation.items():
            got = getattr(ts1.observation, name)[0]
            assert got.shape == np.shape(value), f"{where}: {name} shape"
            diff = float(np.max(np.abs(got - value), initial=0.0))
            stats["obs"] = max(stats["obs"], diff)
            assert diff <= ATOL, f"{where}: {name} differs by {diff}"
        diff = abs(float(ts1.reward[0]) - ts2.reward)
        # float32 rounding, relative for lqr's rewards (unbounded below).
        stats["reward"] = max(stats["reward"], diff / max(1.0, abs(ts2.reward)))
        stats["reward_max"] = max(stats["reward_max"], ts2.reward)
        assert stats["reward"] <= ATOL, f"{where}: reward {ts1.reward[0]} vs {ts2.reward}"
        if ts2.last() or truncated_here:
            break
    ours.close()
    return stats


def _check_stats(stats: dict[str, float]) -> None:
    # MuJoCo's numbers bit for bit, up to numpy's log1p / matrix products
    # against the C library's and MuJoCo's (<= 1e-15 measured).
    assert stats["obs"] <= 1e-12
    assert stats["reward"] <= 6e-8  # float32 rounding


@pytest.mark.parametrize("task_id,domain,task", SPEC_TASKS)
def test_spec_matches_dm_control(task_id: str, domain: str, task: str) -> None:
    theirs = _load(domain, task)
    spec = envpool_x.make_spec(task_id)
    if domain == "lqr":  # dm_control's lqr has no time limit; ours is EnvPool's
        assert theirs._step_limit == float("inf")
    else:
        assert round(theirs._step_limit) == dmc.EPISODE_STEPS
    assert spec.config.max_episode_steps == dmc.EPISODE_STEPS
    assert theirs._n_sub_steps == dmc.SUB_STEPS[domain]
    dm_obs = spec.observation_spec()
    their_obs = theirs.observation_spec()
    assert [o["name"] for o in spec._desc["obs"]] == list(their_obs), "fields and their order"
    for name, s in their_obs.items():
        assert getattr(dm_obs, name).shape == s.shape and getattr(dm_obs, name).dtype == s.dtype
    act = theirs.action_spec()
    assert spec.action_space.shape == act.shape
    np.testing.assert_array_equal(spec.action_space.low, act.minimum.astype(np.float32))
    np.testing.assert_array_equal(spec.action_space.high, act.maximum.astype(np.float32))
    gym_space = spec.observation_space
    assert list(gym_space.spaces) == list(their_obs)


@pytest.mark.parametrize("task_id", SAMPLE)
def test_parity_whole_episode(task_id: str) -> None:
    """One task per domain, a whole episode from dm_control's reset state."""
    _, domain, task = next(t for t in TASKS if t[0] == task_id)
    stats = _run(task_id, domain, task, seed=1)
    assert stats["steps"] == dmc.EPISODE_STEPS
    _check_stats(stats)


@pytest.mark.parametrize(
    "task_id,domain,task",
    [("HumanoidRunPureState-v1", "humanoid", "run_pure_state"), ("DogTrot-v1", "dog", "trot")],
)
def test_parity_prefix(task_id: str, domain: str, task: str) -> None:
    """run_pure_state's observations (qpos and qvel) and dog's move factor, over
    100 steps (whole episodes of every task are in the slow test)."""
    stats = _run(task_id, domain, task, 1, steps=100)
    _check_stats(stats)
    assert stats["reward_max"] > 0.01, "the reward's terms are exercised"


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
@pytest.mark.parametrize("task_id,domain,task", TASKS, ids=IDS)
def test_parity_every_task(task_id: str, domain: str, task: str, seed: int) -> None:
    stats = _run(task_id, domain, task, seed)
    assert stats["steps"] == dmc.EPISODE_STEPS
    _check_stats(stats)


def _lqr_at_rest(physics: Any) -> None:
    physics.data.qpos[:] = 0.0
    physics.data.qvel[:] = 0.0
    physics.after_reset()


@pytest.mark.parametrize("task_id,task", [("LqrLqr21-v1", "lqr_2_1"), ("LqrLqr62-v1", "lqr_6_2")])
def test_lqr_ends_at_rest(task_id: str, task: str) -> None:
    """dm_control ends an lqr episode (discount 0) once the state's norm is
    below 1e-6: from rest with zero actions, on the first step."""
    ours = envpool_x.make_dm(task_id, num_envs=1, seed=5)
    theirs = _load("lqr", task, 5)
    ours.reset()
    theirs.reset()
    _lqr_at_rest(theirs.physics)
    _copy_state(ours, "lqr", theirs)
    zero = np.zeros(theirs.action_spec().shape, np.float32)
    ts1, ts2 = ours.step(zero[None]), theirs.step(zero.astype(np.float64))
    assert int(ts2.step_type) == int(ts1.step_type[0]) == 2
    assert float(ts1.discount[0]) == ts2.discount == 0.0
    assert float(ts1.reward[0]) == ts2.reward == 1.0
    assert int(ours.step(zero[None]).step_type[0]) == 0, "the next step resets"
    ours.close()


def _stacker_box_on_target(physics: Any) -> None:
    """A box resting on the target with the hand far: the reward's terms count."""
    named = physics.named
    x, z = named.model.body_pos["target"][[0, 2]]
    named.data.qpos[["box0_x", "box0_z", "box0_y"]] = x, z, 0.0
    physics.after_reset()


def test_stacker_parity_from_a_rewarding_state() -> None:
    """Random episodes earn stacker's reward near 0; from a box on its target
    both compute the reward where it is high."""
    for seed in (1, 2, 3):
        stats = _run("StackerStack2-v1", "stacker", "stack_2", seed, 40, _stacker_box_on_target)
        _check_stats(stats)
        if stats["reward_max"] > 0.5:
            return
    pytest.fail("no start put a box on the target with the hand far from it")


# ---- initial states -------------------------------------------------------------


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


def test_unknown_tasks_rejected() -> None:
    with pytest.raises(ValueError, match="task_name"):
        envpool_x.make_dm("StackerStack2-v1", task_name="stack_3")
    with pytest.raises(ValueError, match="LqrLqr62-v1"):
        envpool_x.make_dm("LqrLqr21-v1", task_name="lqr_6_2")


@pytest.mark.skipif(
    not (os.environ.get("MUJOCO_GL") or os.environ.get("DISPLAY")),
    reason="no OpenGL backend: apt-get install libosmesa6 (see docs/render.md)",
)
@pytest.mark.parametrize(
    "task_id",
    [
        "StackerStack4-v1",
        "LqrLqr62-v1",
        "HumanoidCMUWalk-v1",
        "HumanoidRunPureState-v1",
        "DogFetch-v1",
    ],
)
def test_render_one_frame(task_id: str) -> None:
    env = envpool_x.make_dm(task_id, num_envs=2, render_mode="rgb_array")
    env.reset()
    frames = env.render(env_ids=[0, 1])
    assert frames.shape == (2, 240, 320, 3) and frames.dtype == np.uint8
    assert not np.array_equal(frames[0], frames[1])  # random initial states
    assert frames.std() > 0
    env.close()
