"""The Fetch tasks against gymnasium-robotics 1.4.2, on the same MuJoCo.

Both sides load gymnasium-robotics' XML into the same libmujoco (the mujoco
3.17.0 wheel; the oracle's joint-type check is patched for it, see
robotics_helpers). Parity from identical states: our env resets, its state
(the integration state and the goal) is set into gymnasium-robotics' env,
and both step the same float32 random actions for a whole 50-step episode.

Tolerances: the physics is the same sequence of MuJoCo calls, so positions,
finger joints and Euler angles must be equal bit for bit; the velocities are
a site Jacobian times qvel, which numpy's matmul may sum in another order
(VELOCITY_ATOL). Rewards are float32 (EnvPool's dtype): sparse ones exactly
gymnasium-robotics' float32, dense ones its float64 rounded (one float32
ulp). ``is_success`` exactly.

Resets: the state before the object and goal are drawn (the warm-up of
``_env_setup``) must be gymnasium-robotics' bit for bit; the object's x-y
offsets and the goals are drawn from our seed stream, so their distributions
are compared (two-sample Kolmogorov-Smirnov per coordinate, fixed seeds) and
their bounds checked.
"""

from __future__ import annotations

import numpy as np
import pytest
from robotics_helpers import (
    load_oracle,
    make_oracle,
    object_xy_slice,
    oracle_state,
    set_oracle_state,
)

import envpool_x
from conftest import ci_sample
from envpool_x.families import robotics as family

if not family.has_robotics():
    pytest.skip("envpool_x was built without the robotics tasks", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")
gym = pytest.importorskip("gymnasium")
load_oracle(mujoco, gym, pytest.importorskip("gymnasium_robotics"))

#: Velocities (Jacobian times qvel, times dt) may differ in the last bits.
VELOCITY_ATOL = 1e-15
#: Observation entries that are velocities, by observation size.
VELOCITY_ENTRIES = {25: slice(14, 25), 10: slice(5, 10)}
IDS = [family.fetch_id(t.name, r) for t in family.FETCH_TASKS for r in family.REWARD_TYPES]
DEFAULT_IDS = {"FetchReach-v4", "FetchPushDense-v4", "FetchSlide-v4", "FetchPickAndPlace-v4"}


def _compare(where: str, ours: dict, theirs: dict, stats: dict) -> None:
    for key in ("achieved_goal", "desired_goal"):
        assert np.array_equal(ours[key][0], theirs[key]), f"{where}: {key} differs"
    obs, t_obs = ours["observation"][0], theirs["observation"]
    velocity = VELOCITY_ENTRIES[len(t_obs)]
    exact = np.ones(len(t_obs), dtype=bool)
    exact[velocity] = False
    assert np.array_equal(obs[exact], t_obs[exact]), f"{where}: {obs} vs {t_obs}"
    diff = float(np.max(np.abs(obs[velocity] - t_obs[velocity])))
    stats["velocity"] = max(stats["velocity"], diff)
    assert diff <= VELOCITY_ATOL, f"{where}: velocities differ by {diff}"


def _oracle_obs_at(theirs: object, state: np.ndarray) -> dict:
    """gymnasium-robotics' observation of our state (set into its env)."""
    set_oracle_state(theirs, state)
    return theirs.unwrapped._get_obs()  # type: ignore[attr-defined]


def _episode(task_id: str, seed: int) -> dict:
    """One whole episode of ours beside gymnasium-robotics' from our reset state."""
    ours = envpool_x.make_gymnasium(task_id, num_envs=1, seed=seed)
    theirs = make_oracle(task_id)
    theirs.reset(seed=seed)
    obs, _ = ours.reset()
    state = ours.get_state(0)
    stats = {"velocity": 0.0, "successes": 0}
    _compare(f"{task_id} reset", obs, _oracle_obs_at(theirs, state), stats)
    if seed % 2:
        # A goal 3 cm from the achieved one, set into both: the success
        # branch of the reward runs (random actions rarely reach a goal).
        state[-3:] = obs["achieved_goal"][0] + np.array([0.03, 0.0, 0.0])
        ours._pool.set_state(0, state)
        set_oracle_state(theirs, state)
    rng = np.random.default_rng(seed)
    for t in range(family.FETCH_EPISODE_STEPS):
        action = rng.uniform(-1.2, 1.2, size=4).astype(np.float32)  # some beyond the bounds
        obs, reward, terminated, truncated, info = ours.step(action[None])
        t_obs, t_reward, t_terminated, t_truncated, t_info = theirs.step(action)
        where = f"{task_id} seed {seed} step {t}"
        _compare(where, obs, t_obs, stats)
        expected = np.float32(t_reward)
        assert reward.dtype == np.float32
        assert abs(reward[0] - expected) <= np.spacing(np.abs(expected)), f"{where}: reward"
        assert info["is_success"][0] == t_info["is_success"], f"{where}: is_success"
        assert bool(terminated[0]) == t_terminated, f"{where}: terminated"
        assert bool(truncated[0]) == t_truncated, f"{where}: truncated"
        stats["successes"] += int(t_info["is_success"])
    assert truncated[0], "the episode must end at 50 steps"
    return stats


@pytest.mark.parametrize("task_id", ci_sample(IDS, DEFAULT_IDS))
def test_episode_from_the_same_state(task_id: str) -> None:
    successes = sum(_episode(task_id, seed)["successes"] for seed in (0, 1))
    assert successes > 0, "no step reached the goal: the success branch went untested"


@pytest.mark.slow
@pytest.mark.parametrize("task_id", IDS)
def test_many_episodes(task_id: str) -> None:
    successes = sum(_episode(task_id, seed)["successes"] for seed in range(2, 22))
    assert successes > 0


@pytest.mark.parametrize("task", family.FETCH_TASKS, ids=lambda t: t.name)
def test_spaces_and_reset_before_the_draws(task: family.FetchTask) -> None:
    """Our spaces are gymnasium-robotics'; our reset state is its reset state
    (the warm-up's) bit for bit, bar the object's x-y and the goal."""
    task_id = family.fetch_id(task.name, "sparse")
    ours = envpool_x.make_gymnasium(task_id, num_envs=1)
    theirs = make_oracle(task_id)
    assert ours.single_observation_space == theirs.observation_space
    assert ours.single_action_space == theirs.action_space
    assert list(ours.single_observation_space.spaces) == list(theirs.observation_space.spaces)
    ours.reset(seed=3)
    theirs.reset(seed=3)
    mine, other = ours.get_state(0)[:-3], oracle_state(theirs)[:-3]
    if task.has_object:
        xy = object_xy_slice(theirs)
        mine[xy] = other[xy] = 0.0
    assert np.array_equal(mine, other)


def _offsets(draws: int, task_id: str) -> tuple[np.ndarray, np.ndarray | None]:
    """Goals and object x-y of ``draws`` resets of ours (10 envs reset again
    and again), minus the initial grip position."""
    theirs = make_oracle(task_id)
    theirs.reset(seed=0)
    grip = theirs.unwrapped.initial_gripper_xpos
    xy = object_xy_slice(theirs) if "Reach" not in task_id else None
    env = envpool_x.make_gymnasium(task_id, num_envs=10, seed=7)
    goals, objects = [], []
    for _ in range(draws // 10):
        obs, _ = env.reset()
        goals.extend(obs["desired_goal"] - grip)
        if xy is not None:
            objects.extend(env.get_state(i)[xy] - grip[:2] for i in range(10))
    return np.array(goals), (np.array(objects) if objects else None)


def _oracle_offsets(draws: int, task_id: str) -> tuple[np.ndarray, np.ndarray | None]:
    theirs = make_oracle(task_id)
    goals, objects = [], []
    theirs.reset(seed=11)
    grip = theirs.unwrapped.initial_gripper_xpos
    for _ in range(draws):
        obs, _ = theirs.reset()
        goals.append(obs["desired_goal"] - grip)
        if "Reach" not in task_id:
            objects.append(oracle_state(theirs)[object_xy_slice(theirs)] - grip[:2])
    return np.array(goals), (np.array(objects) if objects else None)


@pytest.mark.parametrize(
    "draws", [500, pytest.param(5000, marks=pytest.mark.slow)], ids=lambda n: f"{n}draws"
)
@pytest.mark.parametrize("task", family.FETCH_TASKS, ids=lambda t: t.name)
def test_reset_draws_as_gymnasium_robotics(task: family.FetchTask, draws: int) -> None:
    stats = pytest.importorskip("scipy.stats")
    task_id = family.fetch_id(task.name, "sparse")
    goals, objects = _offsets(draws, task_id)
    t_goals, t_objects = _oracle_offsets(draws, task_id)
    r = task.target_range
    for k in range(2):
        offset = goals[:, k] - (task.target_offset_x if k == 0 else 0.0)
        assert offset.min() >= -r and offset.max() <= r
    for k in range(3):
        p = stats.ks_2samp(goals[:, k], t_goals[:, k]).pvalue
        assert p > 1e-3, f"goal[{k}] distributions differ (p={p})"
    if objects is not None:
        assert np.all(np.linalg.norm(objects, axis=1) >= 0.1)
        assert np.all(np.abs(objects) <= task.obj_range)
        for k in range(2):
            p = stats.ks_2samp(objects[:, k], t_objects[:, k]).pvalue
            assert p > 1e-3, f"object[{k}] distributions differ (p={p})"
