"""DeepMind Control suite tasks against dm_control 1.0.50's suite, on the same MuJoCo.

Both sides compile the same XML (dm_control's ``get_model_and_assets()``) into
the same libmujoco (the mujoco 3.17.0 wheel). After a reset, dm_control's full
integration state (``mj_getState(mjSTATE_INTEGRATION)``: time, qpos, qvel,
act, warm start, ctrl, ...) and the task's own values (a target placed in the
model) are copied into ours; then both get the same float32 actions for a whole
episode. The physics calls are the same sequence (dm_control's legacy step), so
observations are compared with atol 1e-6 and come out equal bit for bit (see
test_parity_with_dm_control). Our reward is float32 (EnvPool's dtype): it is
compared with dm_control's float64 reward at atol 1e-6; the difference is the
float32 rounding of a reward in [0, 1], at most 6e-8.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from dmc_helpers import assert_same_trajectories_for_any_thread_count, assert_spec_matches

import envpool_x
from envpool_x.families import dmc

if not dmc.has_dmc():
    pytest.skip("envpool_x was built without MuJoCo (and so without dmc)", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")
suite = pytest.importorskip("dm_control.suite")

ATOL = 1e-6
# Fields that pass MuJoCo's numbers through a math function whose last bit
# depends on the implementation: numpy's log1p (touch sensors) and norm
# (BLAS) against the C library's. Measured: up to 8.9e-16.
LIBM_FIELDS = {"touch", "dist_to_target"}
# Domains whose task state and initial states are checked in
# tests/families/test_dmc_egocentric_domains.py.
EGOCENTRIC_DOMAINS = ("humanoid", "swimmer", "fish", "quadruped", "manipulator")
# Domains checked in tests/families/test_dmc_more_domains.py.
MORE_DOMAINS = ("stacker", "lqr", "humanoid_CMU", "dog")
TASKS = [
    (dmc.task_id(prefix, task), domain, task)
    for domain, prefix, _, tasks in dmc.DOMAINS
    if domain not in EGOCENTRIC_DOMAINS + MORE_DOMAINS
    for task in tasks
]
IDS = [t[0] for t in TASKS]


def _task_state(domain: str, task: str, physics: Any) -> np.ndarray:
    """dm_control's per-episode task values that live in the model rather
    than in mjData, in the order our envs take them after the integration
    state."""
    model = physics.named.model
    if domain == "reacher":
        return np.array(model.geom_pos["target"][:2])
    if domain == "finger" and task.startswith("turn"):
        return np.array(model.site_pos["target"][[0, 2]])
    if domain == "point_mass" and task == "hard":
        return np.array(physics.model.wrap_prm[:4])
    return np.zeros(0)


def _load(domain: str, task: str, seed: int = 0) -> Any:
    return suite.load(domain, task, task_kwargs={"random": seed})


def _copy_state(ours: Any, domain: str, task: str, theirs: Any) -> None:
    physics = theirs.physics
    sig = mujoco.mjtState.mjSTATE_INTEGRATION
    state = np.concatenate([physics.get_state(sig=sig), _task_state(domain, task, physics)])
    ours._pool.set_state(0, state)


def _run_episode(
    task_id: str, domain: str, task: str, seed: int, stats: dict[str, float]
) -> tuple[int, Any]:
    ours = envpool_x.make_dm(task_id, num_envs=1, seed=seed)
    theirs = _load(domain, task, seed)
    spec = theirs.action_spec()
    rng = np.random.default_rng(seed)
    ours.reset()
    theirs.reset()
    _copy_state(ours, domain, task, theirs)
    steps = 0
    while True:
        a = rng.uniform(spec.minimum, spec.maximum).astype(np.float32)
        ts1 = ours.step(a[None])
        ts2 = theirs.step(a.astype(np.float64))
        steps += 1
        where = f"{task_id} step {steps}"
        assert int(ts1.step_type[0]) == int(ts2.step_type), f"{where}: step type"
        assert float(ts1.discount[0]) == ts2.discount, f"{where}: discount"
        for name, value in ts2.observation.items():
            got = getattr(ts1.observation, name)[0]
            assert got.shape == np.shape(value), f"{where}: {name} shape"
            diff = float(np.max(np.abs(got - value), initial=0.0))
            stats["obs"] = max(stats["obs"], diff)
            if name not in LIBM_FIELDS:
                stats["obs_physics"] = max(stats["obs_physics"], diff)
            assert diff <= ATOL, f"{where}: {name} differs by {diff}"
        diff = abs(float(ts1.reward[0]) - ts2.reward)
        stats["reward"] = max(stats["reward"], diff)
        assert diff <= ATOL, f"{where}: reward {ts1.reward[0]} vs {ts2.reward}"
        if ts2.last():
            break
    # The step after the last one starts a new episode, as dm_control's does.
    after = ours.step(np.zeros((1, *spec.shape), np.float32))
    assert int(after.step_type[0]) == 0 and int(after.observation.elapsed_step[0]) == 0
    ours.close()
    return steps, theirs


@pytest.mark.parametrize("task_id,domain,task", TASKS, ids=IDS)
def test_spec_matches_dm_control(task_id: str, domain: str, task: str) -> None:
    theirs = _load(domain, task)
    spec = envpool_x.make_spec(task_id)
    # dm_control ends an episode when its step count reaches this (a float).
    assert spec.config.max_episode_steps == math.ceil(theirs._step_limit)
    assert_spec_matches(spec, theirs)


@pytest.mark.parametrize("task_id,domain,task", TASKS, ids=IDS)
def test_parity_with_dm_control(task_id: str, domain: str, task: str) -> None:
    """A whole episode (1000 steps) with random actions from dm_control's
    reset state. Measured: observations taken from MuJoCo's data equal bit for
    bit, the LIBM_FIELDS within 1e-15; rewards differ by the float32 rounding
    only (at most 6e-8)."""
    stats = {"obs": 0.0, "obs_physics": 0.0, "reward": 0.0}
    steps, _ = _run_episode(task_id, domain, task, seed=1, stats=stats)
    assert steps == dmc.EPISODE_STEPS
    assert stats["obs_physics"] == 0.0, "the same physics calls should give the same numbers"
    assert stats["obs"] <= 1e-14
    assert stats["reward"] <= 6e-8


# ---- initial states -------------------------------------------------------------


def _joint_qpos(model: Any, name: str) -> int:
    return int(model.jnt_qposadr[mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, name)])


def _check_limited_and_rotational(model: Any, qpos: np.ndarray) -> None:
    """dm_control's randomize_limited_and_rotational_joints: limited joints in
    their range, unlimited hinges in [-pi, pi]; every one of them varies."""
    for j in range(model.njnt):
        adr = int(model.jnt_qposadr[j])
        values = qpos[:, adr]
        if model.jnt_limited[j] and model.jnt_type[j] in (2, 3):  # slide, hinge
            lo, hi = model.jnt_range[j]
            assert np.all((values >= lo) & (values <= hi)), f"joint {j} out of its range"
            assert np.ptp(values) > (hi - lo) / 4, f"joint {j} not randomised"
        elif model.jnt_type[j] == 3:
            assert np.all(np.abs(values) <= np.pi)
            assert np.ptp(values) > np.pi / 2, f"joint {j} not randomised"


def _check_cheetah(model: Any, qpos: np.ndarray, qvel: np.ndarray) -> None:
    # Limited joints start uniform in range, then 200 steps of settling: the
    # body lies on the ground with its joints still spread over their ranges.
    for j in range(model.njnt):
        if model.jnt_limited[j]:
            lo, hi = model.jnt_range[j]
            values = qpos[:, int(model.jnt_qposadr[j])]
            assert np.all((values >= lo - 0.05) & (values <= hi + 0.05))
    assert np.ptp(qpos[:, 3:], axis=0).min() > 0.05, "joints not randomised"
    assert np.all(np.abs(qpos[:, 0]) < 1.0), "the settling steps move the body little"


def _limited_and_rotational(model: Any, qpos: np.ndarray, qvel: np.ndarray, extra: Any) -> None:
    _check_limited_and_rotational(model, qpos)


def _check_cartpole(model: Any, qpos: np.ndarray, qvel: np.ndarray, extra: Any) -> None:
    swing_up = np.mean(np.abs(qpos[:, 1])) > 1
    if swing_up:  # the cart near 0 and the first pole down, with 0.01 normal noise
        assert np.all(np.abs(qpos[:, 0]) < 0.06) and np.all(np.abs(qpos[:, 1] - np.pi) < 0.06)
        assert np.all(np.abs(qpos[:, 2:]) < 0.6)  # other poles: 0.1 normal noise
    else:
        assert np.all(np.abs(qpos[:, 0]) <= 0.1) and np.all(np.abs(qpos[:, 1:]) <= 0.034)
    assert np.all(np.abs(qvel) < 0.06)
    assert np.all(np.ptp(qpos, axis=0) > 0) and np.all(np.ptp(qvel, axis=0) > 0)


def _check_uniform_angles(model: Any, qpos: np.ndarray, qvel: np.ndarray, extra: Any) -> None:
    assert np.all(np.abs(qpos) <= np.pi) and np.all(np.ptp(qpos, axis=0) > np.pi / 2)
    assert np.all(qvel == 0)


def _check_point_mass(model: Any, qpos: np.ndarray, qvel: np.ndarray, extra: Any) -> None:
    _check_limited_and_rotational(model, qpos)
    if extra.shape[1]:  # hard: two unit gain directions, not nearly parallel
        d1, d2 = extra[:, :2], extra[:, 2:]
        np.testing.assert_allclose(np.linalg.norm(d1, axis=1), 1, atol=1e-12)
        np.testing.assert_allclose(np.linalg.norm(d2, axis=1), 1, atol=1e-12)
        assert np.all(np.abs(np.sum(d1 * d2, axis=1)) <= 0.9)


def _check_reacher(model: Any, qpos: np.ndarray, qvel: np.ndarray, extra: Any) -> None:
    _check_limited_and_rotational(model, qpos)
    radius = np.linalg.norm(extra, axis=1)  # the target's x, y
    assert np.all((radius >= 0.05 - 1e-12) & (radius <= 0.2 + 1e-12)) and np.ptp(radius) > 0.05


def _check_ball_in_cup(model: Any, qpos: np.ndarray, qvel: np.ndarray, extra: Any) -> None:
    x, z = _joint_qpos(model, "ball_x"), _joint_qpos(model, "ball_z")
    assert np.all(np.abs(qpos[:, x]) <= 0.2) and np.all((qpos[:, z] >= 0.2) & (qpos[:, z] <= 0.5))
    assert np.ptp(qpos[:, x]) > 0.1 and np.ptp(qpos[:, z]) > 0.1
    others = [i for i in range(model.nq) if i not in (x, z)]
    assert np.all(qpos[:, others] == 0) and np.all(qvel == 0)


def _check_finger(model: Any, qpos: np.ndarray, qvel: np.ndarray, extra: Any) -> None:
    _check_limited_and_rotational(model, qpos)
    if extra.shape[1]:  # turn: the target on the circle the tip sweeps around the hinge
        data = mujoco.MjData(model)
        mujoco.mj_forward(model, data)
        hinge = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, "hinge")
        center = data.xanchor[hinge][[0, 2]]
        cap1 = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, "cap1")
        offset = extra - center
        np.testing.assert_allclose(np.linalg.norm(offset, axis=1), model.geom_size[cap1].sum())
        angles = np.arctan2(offset[:, 0], offset[:, 1])
        assert np.ptp(angles) > np.pi, "target angle not randomised"


INITIAL_STATE_CHECKS: dict[str, Callable[[Any, np.ndarray, np.ndarray, Any], None]] = {
    "cheetah": lambda model, qpos, qvel, extra: _check_cheetah(model, qpos, qvel),
    "walker": _limited_and_rotational,
    "hopper": _limited_and_rotational,
    "cartpole": _check_cartpole,
    "pendulum": _check_uniform_angles,
    "acrobot": _check_uniform_angles,
    "point_mass": _check_point_mass,
    "reacher": _check_reacher,
    "ball_in_cup": _check_ball_in_cup,
    "finger": _check_finger,
}


@pytest.mark.parametrize("task_id,domain,task", TASKS, ids=IDS)
def test_initial_states(task_id: str, domain: str, task: str) -> None:
    """Resets draw from the task's distribution (our random numbers, dm_control's
    rules): checked per domain over 32 envs."""
    n = 32
    env = envpool_x.make_dm(task_id, num_envs=n, seed=7)
    first = env.reset()
    model = _load(domain, task).physics.model.ptr
    size = mujoco.mj_stateSize(model, mujoco.mjtState.mjSTATE_INTEGRATION)
    full = np.stack([env._pool.get_state(i) for i in range(n)])
    states, extra = full[:, :size], full[:, size:]
    # mjSTATE_INTEGRATION starts with time, then qpos, qvel.
    assert np.all(states[:, 0] == 0.0), "the clock starts at 0"
    qpos = states[:, 1 : 1 + model.nq]
    qvel = states[:, 1 + model.nq : 1 + model.nq + model.nv]
    INITIAL_STATE_CHECKS[domain](model, qpos, qvel, extra)
    assert np.all(first.step_type == 0)
    for name in first.observation._fields:
        assert np.all(np.isfinite(getattr(first.observation, name)))
    # Another seed, other states; the same seed, the same states.
    again = envpool_x.make_dm(task_id, num_envs=n, seed=7)
    again.reset()
    other = envpool_x.make_dm(task_id, num_envs=n, seed=8)
    other.reset()
    np.testing.assert_array_equal(again._pool.get_state(3), env._pool.get_state(3))
    assert not np.array_equal(other._pool.get_state(3), env._pool.get_state(3))
    for e in (env, again, other):
        e.close()


# ---- engine behaviour --------------------------------------------------------


@pytest.mark.parametrize("task_id", ["CheetahRun-v1", "WalkerWalk-v1"])
def test_deterministic_across_threads(task_id: str) -> None:
    assert_same_trajectories_for_any_thread_count(task_id, num_envs=6, steps=40)


def test_bad_actions_rejected() -> None:
    env = envpool_x.make_dm("CheetahRun-v1", num_envs=2)
    env.reset()
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((2, 5), np.float32))
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((3, 6), np.float32))
    bad = np.zeros((2, 6), np.float32)
    bad[1, 2] = np.nan
    with pytest.raises(ValueError, match="not finite"):
        env.step(bad)
    with pytest.raises(TypeError, match="real numbers"):
        env.step(np.zeros((2, 6), dtype="U1"))
    # The env is still usable.
    assert env.step(np.zeros((2, 6), np.float32)).step_type.tolist() == [1, 1]
    env.close()


def test_out_of_range_actions_clamped_like_dm_control() -> None:
    """dm_control passes actions through; MuJoCo clamps them to ctrlrange."""
    ours = envpool_x.make_dm("WalkerWalk-v1", num_envs=1)
    theirs = _load("walker", "walk")
    ours.reset()
    theirs.reset()
    _copy_state(ours, "walker", "walk", theirs)
    a = np.array([3.0, -5.0, 0.5, 2.0, -1.5, 0.0], np.float32)
    for _ in range(5):
        ts1, ts2 = ours.step(a[None]), theirs.step(a.astype(np.float64))
        np.testing.assert_array_equal(ts1.observation.velocity[0], ts2.observation["velocity"])
    ours.close()


def test_physics_error_ends_the_episode() -> None:
    """A state that blows up makes dm_control raise PhysicsError; ours ends the
    episode (terminated, discount 0, reward 0) and the next step resets."""
    from dm_control.rl.control import PhysicsError

    ours = envpool_x.make_dm("WalkerWalk-v1", num_envs=1)
    theirs = _load("walker", "walk")
    ours.reset()
    theirs.reset()
    theirs.physics.data.qvel[:] = 1e30
    _copy_state(ours, "walker", "walk", theirs)
    a = np.zeros(6, np.float32)
    with pytest.raises(PhysicsError):
        theirs.step(a.astype(np.float64))
    ts = ours.step(a[None])
    assert ts.step_type.tolist() == [2] and ts.discount.tolist() == [0.0]
    assert ts.reward.tolist() == [0.0]
    ts = ours.step(a[None])
    assert ts.step_type.tolist() == [0]
    ours.close()


def test_gymnasium_front_end() -> None:
    """make_gymnasium: Dict observations of the named fields (as EnvPool's
    make_gym), truncation at the time limit."""
    env = envpool_x.make_gymnasium("WalkerWalk-v1", num_envs=3, max_episode_steps=5)
    obs, info = env.reset()
    assert set(obs) == {"orientations", "height", "velocity"}
    assert obs["orientations"].shape == (3, 14) and obs["height"].shape == (3,)
    assert env.observation_space.contains({k: np.asarray(v[0]) for k, v in obs.items()})
    for t in range(5):
        obs, reward, terminated, truncated, info = env.step(np.zeros((3, 6), np.float32))
        assert reward.dtype == np.float32 and np.all((reward >= 0) & (reward <= 1))
        assert not terminated.any()
        assert truncated.all() == (t == 4)
    env.close()


def test_missing_dm_control_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    dmc.model_key.cache_clear()
    for name in [m for m in sys.modules if m == "dm_control" or m.startswith("dm_control.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "dm_control", None)
    try:
        with pytest.raises(ImportError, match=r"pip install \"envpool-x\[dmc\]\""):
            envpool_x.make_gymnasium("CheetahRun-v1")
    finally:
        dmc.model_key.cache_clear()


def test_a_model_key_that_names_another_model_is_refused() -> None:
    # model is filled from task_name: a different one would be ignored silently.
    with pytest.raises(ValueError, match="model='bogus' does not name the model of cheetah/run"):
        envpool_x.make_spec("CheetahRun-v1", model="bogus")
    spec = envpool_x.make_spec("CheetahRun-v1")
    assert envpool_x.make_spec("CheetahRun-v1", model=spec.env_config["model"]).id == spec.id
