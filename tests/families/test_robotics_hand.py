"""The Shadow Hand tasks against gymnasium-robotics 1.4.2, on the same MuJoCo.

Parity from identical states: our env resets, its state (MuJoCo's
integration state, with the solver's warm start and the controls, and the
goal) is set into gymnasium-robotics' env, and both step the same float32
random actions (some beyond [-1, 1]) for a whole episode (50 steps for
reach, 100 for manipulate). The physics is the same sequence of MuJoCo
calls, so observations (joints, object, fingertips, touch sensors) must be
equal bit for bit; rewards are float32 (sparse exactly gymnasium-robotics',
dense its float64 within one float32 ulp); ``is_success`` exactly.

Resets draw from our seed stream: the goals' distributions are compared
with gymnasium-robotics' own ``_sample_goal`` (two-sample
Kolmogorov-Smirnov, fixed seeds), and the batched ``compute_reward`` with
its ``compute_reward`` on random goals.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from robotics_helpers import (
    assert_frames_are_oracle_frames,
    load_oracle,
    make_oracle,
    set_oracle_state,
)

import envpool_x
from conftest import ci_sample
from envpool_x.families import robotics_hand as hand

if not hand.has_hand():
    pytest.skip("envpool_x was built without the Shadow Hand tasks", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")
gym = pytest.importorskip("gymnasium")
load_oracle(mujoco, gym, pytest.importorskip("gymnasium_robotics"))

REACH_IDS = [hand.hand_id("HandReach", r, version=3) for r in ("sparse", "dense")]
MANIPULATE_IDS = [
    hand.hand_id(t.stem, r, touch)
    for t in hand.MANIPULATE_TASKS
    for touch in ([None, "boolean", "sensordata"] if t.touch_variants else [None])
    for r in ("sparse", "dense")
]
IDS = REACH_IDS + MANIPULATE_IDS
DEFAULT_IDS = {
    "HandReach-v3",
    "HandReachDense-v3",
    "HandManipulateBlockRotateZ-v1",
    "HandManipulateBlockRotateParallelDense-v1",
    "HandManipulateBlockFull-v1",
    "HandManipulateEggRotate_BooleanTouchSensors-v1",
    "HandManipulatePenDense-v1",
    "HandManipulatePen_ContinuousTouchSensors-v1",
}


def test_every_gymnasium_robotics_id_is_registered() -> None:
    theirs = {i for i in gym.registry if i.startswith("Hand") and not i.endswith("-v0")}
    assert theirs == set(IDS)
    assert set(IDS) <= set(envpool_x.list_all_envs())


#: Odd seeds: the step from which the action is held, and the one at which the goal is set.
HOLD_STEP, GOAL_STEP = 5, 25


def _compare(where: str, ours: dict, theirs: dict) -> None:
    for key in ("achieved_goal", "desired_goal", "observation"):
        assert np.array_equal(ours[key][0], theirs[key]), f"{where}: {key} differs"


def _episode(task_id: str, seed: int) -> int:
    """One whole episode of ours beside gymnasium-robotics' from our reset
    state; returns the number of successful steps."""
    ours = envpool_x.make_gymnasium(task_id, num_envs=1, seed=seed)
    theirs = make_oracle(task_id)
    theirs.reset(seed=seed)
    obs, _ = ours.reset()
    state = ours.get_state(0)
    set_oracle_state(theirs, state)
    _compare(f"{task_id} reset", obs, theirs.unwrapped._get_obs())
    rng = np.random.default_rng(seed)
    successes = 0
    steps = theirs.spec.max_episode_steps
    goal_size = obs["desired_goal"].shape[1]
    action = np.zeros(20, np.float32)
    for t in range(steps):
        if seed % 2 and t == GOAL_STEP:
            # Odd seeds hold one action from step HOLD_STEP on; once the hand
            # has settled, the goal is set beside the achieved one in both:
            # the success branch runs.
            state = ours.get_state(0)
            state[-goal_size:] = obs["achieved_goal"][0]
            state[-goal_size] += 0.002
            ours._pool.set_state(0, state)
            set_oracle_state(theirs, state)
        if not (seed % 2 and t >= HOLD_STEP):
            action = rng.uniform(-1.2, 1.2, size=20).astype(np.float32)  # some beyond [-1, 1]
        obs, reward, terminated, truncated, info = ours.step(action[None])
        t_obs, t_reward, t_terminated, t_truncated, t_info = theirs.step(action)
        where = f"{task_id} seed {seed} step {t}"
        _compare(where, obs, t_obs)
        expected = np.float32(t_reward)
        assert reward.dtype == np.float32
        assert abs(reward[0] - expected) <= np.spacing(np.abs(expected)), f"{where}: reward"
        assert info["is_success"][0] == t_info["is_success"], f"{where}: is_success"
        assert bool(terminated[0]) == t_terminated, f"{where}: terminated"
        assert bool(truncated[0]) == t_truncated, f"{where}: truncated"
        successes += int(t_info["is_success"])
    assert truncated[0], f"the episode must end at {steps} steps"
    return successes


@pytest.mark.parametrize("task_id", ci_sample(IDS, DEFAULT_IDS))
def test_episode_from_the_same_state(task_id: str) -> None:
    successes = sum(_episode(task_id, seed) for seed in (0, 1))
    assert successes > 0, "no step reached the goal: the success branch went untested"


@pytest.mark.slow
@pytest.mark.parametrize("task_id", IDS)
def test_many_episodes(task_id: str) -> None:
    assert sum(_episode(task_id, seed) for seed in range(2, 8)) > 0


@pytest.mark.parametrize("task_id", ["HandManipulateBlockFull-v1", "HandManipulatePenRotate-v1"])
def test_spaces(task_id: str) -> None:
    ours = envpool_x.make_gymnasium(task_id, num_envs=1)
    theirs = make_oracle(task_id)
    assert ours.single_observation_space == theirs.observation_space
    assert ours.single_action_space == theirs.action_space


@pytest.mark.parametrize(
    "task_id",
    ["HandManipulateBlockFull-v1", "HandManipulateBlockRotateParallel-v1", "HandManipulatePen-v1"],
)
def test_compute_reward_as_gymnasium_robotics(task_id: str) -> None:
    """Batched compute_reward (sparse and dense) and the success rule on
    random goals, near ones (successes) and far ones, against
    gymnasium-robotics' compute_reward of each goal (what its step rewards:
    on a batch, its pen's ignore-z branch replaces the third goal's Euler
    angles rather than every goal's z angle, docs/robotics.md)."""
    rng = np.random.default_rng(5)
    n = 400
    desired = np.concatenate([rng.normal(size=(n, 3)) * 0.02, rng.normal(size=(n, 4))], axis=1)
    desired[:, 3:] /= np.linalg.norm(desired[:, 3:], axis=1, keepdims=True)
    near = np.where(np.arange(n) < n // 2, 0.004, 0.3)[:, None]
    achieved = desired + rng.normal(size=(n, 7)) * near
    for reward_type in ("sparse", "dense"):
        ours = envpool_x.make_gymnasium(task_id, num_envs=1, reward_type=reward_type)
        theirs = make_oracle(
            task_id.replace("-v1", "Dense-v1") if reward_type == "dense" else task_id
        )
        mine = ours.compute_reward(achieved, desired, {})
        other = np.array(
            [
                theirs.unwrapped.compute_reward(a, d, {})
                for a, d in zip(achieved, desired, strict=True)
            ]
        )
        assert mine.dtype == other.dtype
        np.testing.assert_allclose(mine, other, rtol=1e-12, atol=1e-12)
        if reward_type == "sparse":
            assert 0 < int((mine == 0).sum()) < n, "both branches must be tested"


def _goal_draws(task_id: str, draws: int) -> tuple[np.ndarray, np.ndarray]:
    """Goals of ``draws`` resets of ours (minus the object's position for the
    position), and as many of gymnasium-robotics' _sample_goal from a reset
    state."""
    env = envpool_x.make_gymnasium(task_id, num_envs=10, seed=7)
    ours = []
    for _ in range(draws // 10):
        obs, _ = env.reset()
        goal = obs["desired_goal"].copy()
        if goal.shape[1] == 7:
            goal[:, :3] -= obs["achieved_goal"][:, :3]
        ours.extend(goal)
    theirs_env = make_oracle(task_id)
    obs, _ = theirs_env.reset(seed=11)
    raw = theirs_env.unwrapped
    theirs = []
    for _ in range(draws):
        goal = raw._sample_goal().copy()
        if goal.shape[0] == 7:
            goal[:3] -= obs["achieved_goal"][:3]
        theirs.append(goal)
    return np.array(ours), np.array(theirs)


#: The default run draws for two tasks (reach, and the parallel rotations'
#: quaternion draws); ENVPOOL_X_SLOW=1 for four, 3000 draws each.
GOAL_DRAW_CASES = [
    ("HandReach-v3", 300),
    ("HandManipulateBlockRotateParallel-v1", 200),
    *[
        pytest.param(task_id, 3000, marks=pytest.mark.slow)
        for task_id in (
            "HandReach-v3",
            "HandManipulateBlockRotateZ-v1",
            "HandManipulateBlockRotateParallel-v1",
            "HandManipulateEggFull-v1",
        )
    ],
]


@pytest.mark.parametrize(("task_id", "draws"), GOAL_DRAW_CASES)
def test_goal_draws_as_gymnasium_robotics(task_id: str, draws: int) -> None:
    stats = pytest.importorskip("scipy.stats")
    ours, theirs = _goal_draws(task_id, draws)
    for k in range(ours.shape[1]):
        if np.ptp(theirs[:, k]) == 0:
            assert np.all(ours[:, k] == theirs[0, k]), f"goal[{k}] must be constant"
            continue
        p = stats.ks_2samp(ours[:, k], theirs[:, k]).pvalue
        assert p > 1e-3, f"goal[{k}] distributions differ (p={p})"
    if ours.shape[1] == 7:
        assert np.allclose(np.linalg.norm(ours[:, 3:], axis=1), 1.0)


@pytest.mark.skipif(
    not (os.environ.get("MUJOCO_GL") or os.environ.get("DISPLAY")), reason="no OpenGL backend"
)
@pytest.mark.parametrize(
    "task_id", ["HandReach-v3", "HandManipulateBlockRotateZ_BooleanTouchSensors-v1"]
)
def test_frames_are_gymnasium_robotics_frames(task_id: str) -> None:
    """render() draws gymnasium-robotics' frame of the same state and goal."""
    assert_frames_are_oracle_frames(task_id, 20)


#: EnvPool 1.2.7's config of two of its ids (its make_spec's task keys, read once).
ENVPOOL_CONFIGS = {
    "HandReach-v0": dict(
        frame_skip=20, frame_stack=1, reward_type="sparse", obs_dim=63, goal_dim=15,
        qpos_dim=24, qvel_dim=24, relative_control=False, distance_threshold=0.01,
        rotation_threshold=0.1, hand_task="reach", target_position="ignore",
        target_rotation="ignore", target_position_low0=-0.04, target_position_high0=0.04,
        target_position_low1=-0.06, target_position_high1=0.02, target_position_low2=0.0,
        target_position_high2=0.06, randomize_initial_position=False,
        randomize_initial_rotation=False, ignore_z_target_rotation=False,
        touch_visualisation="off", touch_get_obs="off",
    ),
    "HandManipulatePenRotate_BooleanTouchSensors-v0": dict(
        frame_skip=20, frame_stack=1, hand_task="manipulate", reward_type="sparse",
        obs_dim=153, goal_dim=7, qpos_dim=38, qvel_dim=36, relative_control=False,
        distance_threshold=0.05, rotation_threshold=0.1, target_position="ignore",
        target_rotation="xyz", target_position_low0=-0.04, target_position_high0=0.04,
        target_position_low1=-0.06, target_position_high1=0.02, target_position_low2=0.0,
        target_position_high2=0.06, randomize_initial_position=True,
        randomize_initial_rotation=False, ignore_z_target_rotation=True,
        touch_visualisation="on_touch", touch_get_obs="boolean",
    ),
}  # fmt: skip


@pytest.mark.parametrize("task_id", sorted(ENVPOOL_CONFIGS))
def test_envpool_ids_and_keys(task_id: str) -> None:
    """EnvPool's -v0 ids are aliases; its keys are taken with the task's
    values and reported back; other values are refused."""
    config = ENVPOOL_CONFIGS[task_id]
    spec = envpool_x.make_spec(task_id, **config)
    for key, value in config.items():
        assert getattr(spec.config, key) == value, key
    with pytest.raises(ValueError):
        envpool_x.make_spec(task_id, distance_threshold=0.5)
    with pytest.raises(KeyError):
        envpool_x.make_spec(task_id, base_path="/tmp")


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="target_rotation"):
        envpool_x.make_spec("HandManipulateBlock-v1", target_rotation="y")
    with pytest.raises(ValueError, match="touch_get_obs"):
        envpool_x.make_spec("HandManipulateEgg_BooleanTouchSensors-v1", touch_get_obs="on")
    spec = envpool_x.make_spec("HandManipulateEgg_BooleanTouchSensors-v1", touch_get_obs="off")
    env = envpool_x.make_gymnasium(spec.id, num_envs=1, touch_get_obs="off")
    assert env.single_observation_space["observation"].shape == (61,)


def test_reach_reset_state_is_gymnasium_robotics() -> None:
    """HandReach's reset state (bar the goal) is gymnasium-robotics' bit for bit."""
    from robotics_helpers import oracle_state

    ours = envpool_x.make_gymnasium("HandReach-v3", num_envs=1)
    theirs = make_oracle("HandReach-v3")
    ours.reset(seed=3)
    theirs.reset(seed=3)
    assert np.array_equal(ours.get_state(0)[:-15], oracle_state(theirs)[:-15])


@pytest.mark.parametrize(
    ("task_id", "draws"),
    [
        ("HandManipulateBlockRotateParallel-v1", 100),
        pytest.param("HandManipulateBlockRotateParallel-v1", 1500, marks=pytest.mark.slow),
        pytest.param("HandManipulatePenFull-v1", 1500, marks=pytest.mark.slow),
    ],
)
def test_initial_object_poses_as_gymnasium_robotics(task_id: str, draws: int) -> None:
    """The object's pose after a reset (the random turn and shift, the 10
    settling steps, the drop check): per coordinate, our resets' against
    gymnasium-robotics' (Kolmogorov-Smirnov, fixed seeds)."""
    stats = pytest.importorskip("scipy.stats")
    env = envpool_x.make_gymnasium(task_id, num_envs=10, seed=3)
    ours = np.concatenate([env.reset()[0]["achieved_goal"] for _ in range(draws // 10)])
    theirs_env = make_oracle(task_id)
    theirs_env.reset(seed=13)
    theirs = np.array([theirs_env.reset()[0]["achieved_goal"] for _ in range(draws)])
    for k in range(7):
        p = stats.ks_2samp(ours[:, k], theirs[:, k]).pvalue
        assert p > 1e-3, f"object pose[{k}] distributions differ (p={p})"
    assert np.all(ours[:, 2] > 0.0)
