"""DeepMind Control's humanoid, swimmer, fish and quadruped (whose observations
include egocentric features: vectors in a body's own frame) and manipulator
against dm_control 1.0.50's suite, as tests/families/test_dmc.py does for the other
domains: the same XML (from dm_control's own model functions) on the same
libmujoco; after a reset dm_control's integration state and the task's values
kept in the model (targets) are copied into ours, then both get the same
float32 actions.

Observations are compared at atol 1e-6. They are not all bit for bit: the
egocentric features (humanoid's extremities, swimmer's nose-to-target, ...)
are a vector times a 3x3 matrix, which numpy hands to BLAS and we to MuJoCo's
mju_mulMatTVec3; the summation order differs by a rounding (observed <= 1e-15).
Rewards are float32 (EnvPool's dtype) against dm_control's float64: the float32
rounding of a value in [0, 1], at most 6e-8.

Episodes are 1000 control steps; the long physics (humanoid: 5 MuJoCo steps a
control step, swimmer: 15) make whole episodes slow on CI's 2 cores, so one
task per domain runs a whole episode and the others a prefix of it.
"""

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

from dmc_helpers import (  # noqa: E402
    assert_same_trajectories_for_any_thread_count,
    assert_spec_matches,
)
from test_dmc import (  # noqa: E402
    ATOL,
    EGOCENTRIC_DOMAINS,
    _check_limited_and_rotational,
    _joint_qpos,
    _load,
)

TASKS = [
    (dmc.task_id(prefix, task), domain, task)
    for domain, prefix, _, tasks in dmc.DOMAINS
    if domain in EGOCENTRIC_DOMAINS
    for task in tasks
    # tests/families/test_dmc_more_domains.py, test_dmc_quadruped_escape.py
    if (domain, task)
    not in (("humanoid", "run_pure_state"), ("quadruped", "fetch"), ("quadruped", "escape"))
]
IDS = [t[0] for t in TASKS]

#: Tasks whose parity test runs the whole episode; the others run PREFIX steps.
WHOLE_EPISODE = {
    "HumanoidWalk-v1",
    "SwimmerSwimmer6-v1",
    "FishSwim-v1",
    "QuadrupedWalk-v1",
    "ManipulatorBringBall-v1",
}
PREFIX = 250


def _task_state(domain: str, task: str, physics: Any) -> np.ndarray:
    """dm_control's per-episode task values that live in the model, in the
    order our envs take them after the integration state."""
    named = physics.named.model
    if domain == "swimmer":
        return np.array(named.geom_pos["target"][:2])
    if (domain, task) == ("fish", "swim"):
        return np.array(named.geom_pos["target"])
    if domain == "manipulator":  # the target's pose, then (insert) the cup's / slot's
        peg = task.endswith("peg")
        bodies = ["target_peg" if peg else "target_ball"]
        bodies += ["slot" if peg else "cup"] if task.startswith("insert") else []
        return np.array(
            [
                named.body_pos[b][[0, 2]].tolist() + named.body_quat[b][[0, 2]].tolist()
                for b in bodies
            ]
        ).ravel()
    return np.zeros(0)


def _copy_state(ours: Any, domain: str, task: str, theirs: Any) -> None:
    physics = theirs.physics
    sig = mujoco.mjtState.mjSTATE_INTEGRATION
    state = np.concatenate([physics.get_state(sig=sig), _task_state(domain, task, physics)])
    ours._pool.set_state(0, state)


def _run(
    task_id: str,
    domain: str,
    task: str,
    seed: int,
    steps: int | None,
    prepare: Callable[[Any], None] | None = None,
    action_scale: float = 1.0,
) -> dict[str, float]:
    """Steps both from dm_control's reset state (then `prepare(physics)`, if
    given) with the same random actions for `steps` control steps (None: to
    the end of the episode, which must end together). Returns the largest
    observation and reward differences, absolute and relative to the reward."""
    ours = envpool_x.make_dm(task_id, num_envs=1, seed=seed)
    theirs = _load(domain, task, seed)
    spec = theirs.action_spec()
    rng = np.random.default_rng(seed)
    first = ours.reset()
    theirs.reset()
    if prepare is not None:
        prepare(theirs.physics)
    _copy_state(ours, domain, task, theirs)
    assert int(first.step_type[0]) == 0
    stats = {"obs": 0.0, "reward": 0.0, "reward_rel": 0.0, "reward_max": 0.0, "steps": 0}
    while steps is None or stats["steps"] < steps:
        a = (action_scale * rng.uniform(spec.minimum, spec.maximum)).astype(np.float32)
        ts1 = ours.step(a[None])
        ts2 = theirs.step(a.astype(np.float64))
        stats["steps"] += 1
        where = f"{task_id} step {stats['steps']}"
        assert int(ts1.step_type[0]) == int(ts2.step_type), f"{where}: step type"
        assert float(ts1.discount[0]) == ts2.discount, f"{where}: discount"
        for name, value in ts2.observation.items():
            got = getattr(ts1.observation, name)[0]
            assert got.shape == np.shape(value), f"{where}: {name} shape"
            diff = float(np.max(np.abs(got - value), initial=0.0))
            stats["obs"] = max(stats["obs"], diff)
            assert diff <= ATOL, f"{where}: {name} differs by {diff}"
        diff = abs(float(ts1.reward[0]) - ts2.reward)
        stats["reward"] = max(stats["reward"], diff)
        stats["reward_max"] = max(stats["reward_max"], ts2.reward)
        if ts2.reward >= np.finfo(np.float32).tiny:  # float32 flushes smaller ones to 0
            stats["reward_rel"] = max(stats["reward_rel"], diff / ts2.reward)
        assert diff <= ATOL, f"{where}: reward {ts1.reward[0]} vs {ts2.reward}"
        if ts2.last():
            break
    if steps is None:
        assert stats["steps"] == dmc.EPISODE_STEPS
        # The step after the last one starts a new episode, as dm_control's does.
        after = ours.step(np.zeros((1, *spec.shape), np.float32))
        assert int(after.step_type[0]) == 0 and int(after.observation.elapsed_step[0]) == 0
    ours.close()
    return stats


@pytest.mark.parametrize("task_id,domain,task", TASKS, ids=IDS)
def test_spec_matches_dm_control(task_id: str, domain: str, task: str) -> None:
    theirs = _load(domain, task)
    spec = envpool_x.make_spec(task_id)
    assert spec.config.max_episode_steps == round(theirs._step_limit) == dmc.EPISODE_STEPS
    assert theirs._n_sub_steps == round(theirs.control_timestep() / theirs.physics.timestep())
    assert_spec_matches(spec, theirs)


@pytest.mark.parametrize("task_id,domain,task", TASKS, ids=IDS)
def test_parity_with_dm_control(task_id: str, domain: str, task: str) -> None:
    """Random actions from dm_control's reset state: a whole episode for one
    task per domain, the first PREFIX steps for the others. Measured: obs
    within 1e-15, rewards within the float32 rounding (6e-8)."""
    stats = _run(task_id, domain, task, seed=1, steps=None if task_id in WHOLE_EPISODE else PREFIX)
    _check_stats(stats)


def _check_stats(stats: dict[str, float]) -> None:
    assert stats["obs"] <= 1e-12, "the same physics calls, up to a matrix product's rounding"
    # float32 rounding: half an ulp, or one where float64 roundings straddle a tie.
    assert stats["reward"] <= 6e-8
    assert stats["reward_rel"] <= 2.0**-23


def _stand_humanoid(physics: Any) -> None:
    """The model's standing pose (feet on the floor, head at 1.6 m)."""
    with physics.reset_context():
        pass


def _fish_target_at_mouth(physics: Any) -> None:
    physics.named.model.geom_pos["target"] = physics.named.data.geom_xpos["mouth"]
    physics.after_reset()


def _in_target(thing: str) -> Callable[[Any], None]:
    def prepare(physics: Any) -> None:
        """dm_control's in-target start: the ball (peg) on its target, at rest."""
        target = f"target_{thing}"
        pos, quat = physics.named.model.body_pos[target], physics.named.model.body_quat
        angle = 2 * np.arctan2(quat[target, "qy"], quat[target, "qw"])
        physics.named.data.qpos[[f"{thing}_x", f"{thing}_z", f"{thing}_y"]] = pos[0], pos[2], angle
        physics.named.data.qvel[f"{thing}_x"] = 0.0
        physics.after_reset()

    return prepare


#: Starts where random episodes seldom go and the reward's terms all count:
#: (task, prepare dm_control's reset state, steps, action scale, least max reward).
REWARDING_STARTS = [
    # At rest the move term is 1/6 for walk and run (1 for stand).
    ("HumanoidStand-v1", _stand_humanoid, 60, 0.1, 0.9),
    ("HumanoidWalk-v1", _stand_humanoid, 60, 0.1, 0.15),
    ("HumanoidRun-v1", _stand_humanoid, 60, 0.1, 0.15),
    ("FishSwim-v1", _fish_target_at_mouth, 60, 1.0, 0.8),
    ("ManipulatorBringBall-v1", _in_target("ball"), 60, 1.0, 0.9),
    ("ManipulatorBringPeg-v1", _in_target("peg"), 60, 1.0, 0.9),
]


@pytest.mark.parametrize(
    "task_id,prepare,steps,scale,least", REWARDING_STARTS, ids=[r[0] for r in REWARDING_STARTS]
)
def test_parity_from_rewarding_states(
    task_id: str, prepare: Callable[[Any], None], steps: int, scale: float, least: float
) -> None:
    """Random episodes of these tasks earn rewards near 0 (the humanoid lies
    down, the fish and the ball are far from their targets); here both start
    where the reward is high, so its terms are compared where they matter."""
    domain, task = next((d, t) for i, d, t in TASKS if i == task_id)
    stats = _run(task_id, domain, task, 2, steps, prepare, scale)
    assert stats["reward_max"] > least, "the reward's terms are exercised"
    _check_stats(stats)


# ---- initial states -------------------------------------------------------------


def _ncon(model: Any, state: np.ndarray) -> int:
    """Contacts of a state, from MuJoCo's own forward pass."""
    data = mujoco.MjData(model)
    mujoco.mj_setState(model, data, state, mujoco.mjtState.mjSTATE_INTEGRATION)
    mujoco.mj_forward(model, data)
    return int(data.ncon)


def _check_free_orientation(qpos: np.ndarray, adr: int) -> None:
    """A free joint's quaternion: unit length, spread over orientations."""
    quat = qpos[:, adr + 3 : adr + 7]
    np.testing.assert_allclose(np.linalg.norm(quat, axis=1), 1.0, atol=1e-12)
    assert np.all(np.ptp(quat, axis=0) > 0.5), "orientation not randomised"


def _check_humanoid(model: Any, states: np.ndarray, task: np.ndarray) -> None:
    qpos = states[:, 1 : 1 + model.nq]
    _check_limited_and_rotational(model, qpos)
    # The free joint keeps the model's position; only its orientation is drawn.
    np.testing.assert_array_equal(qpos[:, :3], np.broadcast_to(model.qpos0[:3], (len(qpos), 3)))
    _check_free_orientation(qpos, 0)
    # dm_control redraws until nothing touches.
    assert all(_ncon(model, s) == 0 for s in states)


def _check_swimmer(model: Any, states: np.ndarray, task: np.ndarray) -> None:
    qpos = states[:, 1 : 1 + model.nq]
    _check_limited_and_rotational(model, qpos)
    # Targets uniform in a 4 m box, or (one in five) in a 0.6 m one.
    assert np.all(np.abs(task) <= 2.0) and np.ptp(task) > 2.0
    near = np.all(np.abs(task) <= 0.3, axis=1)
    assert 0 < near.sum() < len(task) / 2


def _check_fish(model: Any, states: np.ndarray, task: np.ndarray) -> None:
    qpos = states[:, 1 : 1 + model.nq]
    # The root keeps the model's position; orientation uniform.
    np.testing.assert_array_equal(qpos[:, :3], np.broadcast_to(model.qpos0[:3], (len(qpos), 3)))
    _check_free_orientation(qpos, 0)
    # Tail and fins within 0.2 rad of straight, spread over that range.
    fins = qpos[:, 7:]
    assert fins.shape[1] == 7
    assert np.all(np.abs(fins) <= 0.2) and np.all(np.ptp(fins, axis=0) > 0.2)
    if task.shape[1]:  # swim: a target in a 0.8 x 0.8 x 0.2 box
        lo, hi = np.array([-0.4, -0.4, 0.1]), np.array([0.4, 0.4, 0.3])
        assert np.all((task >= lo) & (task <= hi))
        assert np.all(np.ptp(task, axis=0) > (hi - lo) / 2)


def _check_quadruped(model: Any, states: np.ndarray, task: np.ndarray) -> None:
    qpos = states[:, 1 : 1 + model.nq]
    # Root at x = y = 0, orientation uniform, at the lowest 1 cm step of
    # height without contact: 1 cm lower there is one.
    assert np.all(qpos[:, :2] == 0.0)
    _check_free_orientation(qpos, 0)
    assert np.all(qpos[:, 7:] == model.qpos0[7:]), "joints at the model's pose"
    heights = qpos[:, 2]
    assert np.all(heights > 0) and np.ptp(heights) > 0.05
    for s in states:
        assert _ncon(model, s) == 0
        lower = s.copy()
        lower[3] -= 0.01
        assert _ncon(model, lower) > 0, "not the lowest non-contacting height"


def _check_manipulator(model: Any, states: np.ndarray, task: np.ndarray) -> None:
    qpos = states[:, 1 : 1 + model.nq]
    qvel = states[:, 1 + model.nq : 1 + model.nq + model.nv]
    # Arm joints uniform in their range (unlimited ones in [-pi, pi]); the
    # finger copies the thumb.
    for name in ("arm_root", "arm_shoulder", "arm_elbow", "arm_wrist", "thumb", "thumbtip"):
        j = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, name)
        lo, hi = model.jnt_range[j] if model.jnt_limited[j] else (-np.pi, np.pi)
        values = qpos[:, model.jnt_qposadr[j]]
        assert np.all((values >= lo) & (values <= hi)), name
        assert np.ptp(values) > (hi - lo) / 4, f"{name} not randomised"
    finger, thumb = _joint_qpos(model, "finger"), _joint_qpos(model, "thumb")
    np.testing.assert_array_equal(qpos[:, finger], qpos[:, thumb])
    # Target: x in [-0.4, 0.4], z in [0.1, 0.4], a unit (w, y) rotation (insert:
    # within 60 degrees, the receptacle's pose the same).
    assert np.all(np.abs(task[:, 0]) <= 0.4)
    assert np.all((task[:, 1] >= 0.1) & (task[:, 1] <= 0.4))
    np.testing.assert_allclose(np.hypot(task[:, 2], task[:, 3]), 1.0, atol=1e-12)
    if task.shape[1] == 8:
        np.testing.assert_array_equal(task[:, 4:], task[:, :4])
        assert np.all(task[:, 2] >= np.cos(np.pi / 6) - 1e-12)
    # Most objects start anywhere, thrown sideways; some in the target.
    thing = "peg" if mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, "peg") >= 0 else "ball"
    ball = qpos[:, [_joint_qpos(model, f"{thing}_x"), _joint_qpos(model, f"{thing}_z")]]
    ball_x_dof = model.jnt_dofadr[mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, f"{thing}_x")]
    thrown = qvel[:, ball_x_dof] != 0
    in_target = np.all(ball == task[:, :2], axis=1)
    assert thrown.sum() > len(qpos) / 2 and in_target.sum() >= 1
    # Nothing touches, with the receptacle (insert) where the env put it.
    cup = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, "slot" if thing == "peg" else "cup")
    for s, t in zip(states, task, strict=True):
        if task.shape[1] == 8:
            model.body_pos[cup][[0, 2]], model.body_quat[cup][[0, 2]] = t[4:6], t[6:8]
        assert _ncon(model, s) == 0


INITIAL_STATE_CHECKS: dict[str, Callable[[Any, np.ndarray, np.ndarray], None]] = {
    "humanoid": _check_humanoid,
    "swimmer": _check_swimmer,
    "fish": _check_fish,
    "quadruped": _check_quadruped,
    "manipulator": _check_manipulator,
}


@pytest.mark.parametrize("task_id,domain,task", TASKS, ids=IDS)
def test_initial_states(task_id: str, domain: str, task: str) -> None:
    """Resets draw from the task's distribution (our random numbers, dm_control's
    rules): checked per domain over 32 envs (128 for insert, whose starts in the
    target are rarer: most touch the receptacle and are redrawn, as dm_control's)."""
    n = 128 if task.startswith("insert") else 32
    env = envpool_x.make_dm(task_id, num_envs=n, seed=7)
    first = env.reset()
    model = _load(domain, task).physics.model.ptr
    size = mujoco.mj_stateSize(model, mujoco.mjtState.mjSTATE_INTEGRATION)
    full = np.stack([env._pool.get_state(i) for i in range(n)])
    states, task_values = full[:, :size], full[:, size:]
    assert np.all(states[:, 0] == 0.0), "the clock starts at 0"
    INITIAL_STATE_CHECKS[domain](model, states, task_values)
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


@pytest.mark.parametrize("task_id", [t for t in IDS if t in WHOLE_EPISODE])
def test_deterministic_across_threads(task_id: str) -> None:
    """Trajectories depend on the seed and actions only, not on num_threads."""
    assert_same_trajectories_for_any_thread_count(task_id, num_envs=4, steps=30)


@pytest.mark.parametrize("task_id", [t for t in IDS if t in WHOLE_EPISODE])
def test_bad_actions_rejected(task_id: str) -> None:
    env = envpool_x.make_dm(task_id, num_envs=2)
    env.reset()
    (dim,) = envpool_x.make_spec(task_id).action_space.shape
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((2, dim - 1), np.float32))
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((3, dim), np.float32))
    bad = np.zeros((2, dim), np.float32)
    bad[1, 0] = np.inf
    with pytest.raises(ValueError, match="not finite"):
        env.step(bad)
    assert env.step(np.zeros((2, dim), np.float32)).step_type.tolist() == [1, 1]
    env.close()


def test_unknown_task_rejected() -> None:
    with pytest.raises(
        ValueError, match=r"task_name must be one of \[.stand., .walk., .run., .run_pure_state.\]"
    ):
        envpool_x.make_dm("HumanoidWalk-v1", task_name="dance")
