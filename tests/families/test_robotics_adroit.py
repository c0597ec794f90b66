"""The Adroit hand tasks against gymnasium-robotics 1.4.2, on the same MuJoCo.

Both sides load gymnasium-robotics' XML into the same libmujoco. Parity from
identical states: our env resets, its state (MuJoCo's integration state, then
the values the reset drew into the model: the door's, the board's, the
ball's and target's place, the pen target's quaternion and the measured
lengths) is set into gymnasium-robotics' env, and both step the same float32
random actions (some beyond [-1, 1], to test the clipping) for a whole
200-step episode.

Tolerances: the physics is the same sequence of MuJoCo calls on the same
edited model, so observations must be equal bit for bit; rewards are float32
(EnvPool's dtype): gymnasium-robotics' float64 rounded, within one float32
ulp (the Hammer's dense reward takes numpy's norm of 33 velocities, which
BLAS sums in SIMD blocks). ``success`` exactly.

Resets: the state before the draws is gymnasium-robotics' bit for bit; the
draws come from our seed stream, so their distributions are compared
(two-sample Kolmogorov-Smirnov per coordinate, fixed seeds) and their
bounds checked.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from adroit_helpers import drawn_values, oracle_state, reach_success, set_oracle_state
from robotics_helpers import load_oracle, make_oracle

import envpool_x
from conftest import ci_sample
from envpool_x.families import robotics_adroit as family

if not family.has_adroit():
    pytest.skip("envpool_x was built without the Adroit tasks", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")
gym = pytest.importorskip("gymnasium")
load_oracle(mujoco, gym, pytest.importorskip("gymnasium_robotics"))

IDS = [family.adroit_id(t.name, r) for t in family.ADROIT_TASKS for r in family.REWARD_TYPES]
DEFAULT_IDS = {
    "AdroitHandDoor-v1",
    "AdroitHandHammer-v1",
    "AdroitHandPenSparse-v1",
    "AdroitHandRelocate-v1",
}
TASKS = {t.name: t for t in family.ADROIT_TASKS}


def _task(task_id: str) -> family.AdroitTask:
    return TASKS[task_id.split("Sparse")[0].split("-")[0]]


def _episode(task_id: str, seed: int, success: bool) -> int:
    """One whole episode of ours beside gymnasium-robotics' from our reset
    state (with ``success``, a state that meets the goal, set into both);
    returns the steps gymnasium-robotics counted as successes."""
    ours = envpool_x.make_gymnasium(task_id, num_envs=1, seed=seed)
    theirs = make_oracle(task_id)
    theirs.reset(seed=seed)
    obs, _ = ours.reset()
    state = ours.get_state(0)
    set_oracle_state(theirs, state)
    assert np.array_equal(obs[0], theirs.unwrapped._get_obs()), f"{task_id}: reset observation"
    if success:
        state = reach_success(theirs, state)
        ours._pool.set_state(0, state)
        set_oracle_state(theirs, state)
    rng = np.random.default_rng(seed)
    successes = 0
    nu = theirs.action_space.shape[0]
    for t in range(family.ADROIT_EPISODE_STEPS):
        action = rng.uniform(-1.2, 1.2, size=nu).astype(np.float32)
        obs, reward, terminated, truncated, info = ours.step(action[None])
        t_obs, t_reward, t_terminated, t_truncated, t_info = theirs.step(action)
        where = f"{task_id} seed {seed} step {t}"
        assert np.array_equal(obs[0], t_obs), f"{where}: {np.flatnonzero(obs[0] != t_obs)}"
        expected = np.float32(t_reward)
        assert reward.dtype == np.float32
        assert abs(reward[0] - expected) <= np.spacing(np.abs(expected)), f"{where}: reward"
        assert bool(info["success"][0]) == bool(t_info["success"]), f"{where}: success"
        assert bool(terminated[0]) == t_terminated, f"{where}: terminated"
        assert bool(truncated[0]) == t_truncated, f"{where}: truncated"
        successes += int(t_info["success"])
    assert truncated[0], "the episode must end at 200 steps"
    return successes


@pytest.mark.parametrize("task_id", ci_sample(IDS, DEFAULT_IDS))
def test_episode_from_the_same_state(task_id: str) -> None:
    assert _episode(task_id, 0, success=False) >= 0
    assert _episode(task_id, 1, success=True) > 0, "the success branch went untested"


@pytest.mark.slow
@pytest.mark.parametrize("task_id", IDS)
def test_many_episodes(task_id: str) -> None:
    for seed in range(2, 12):
        _episode(task_id, seed, success=seed % 2 == 1)


@pytest.mark.parametrize("task_id", ["AdroitHandDoor-v1", "AdroitHandRelocateSparse-v1"])
def test_envs_of_a_pool_keep_their_own_draws(task_id: str) -> None:
    """Each env of a threaded pool simulates its own drawn model values (its
    own copies of the edited arrays): every env matches an oracle set to its
    state, step after step."""
    ours = envpool_x.make_gymnasium(task_id, num_envs=4, num_threads=2, seed=5)
    ours.reset()
    oracles = [make_oracle(task_id) for _ in range(4)]
    for i, theirs in enumerate(oracles):
        theirs.reset(seed=i)
        set_oracle_state(theirs, ours.get_state(i))
    draws = [drawn_values(theirs) for theirs in oracles]
    assert not any(np.array_equal(draws[0], d) for d in draws[1:]), "the envs drew alike"
    rng = np.random.default_rng(0)
    nu = oracles[0].action_space.shape[0]
    for t in range(20):
        actions = rng.uniform(-1, 1, size=(4, nu)).astype(np.float32)
        obs, *_ = ours.step(actions)
        for i, theirs in enumerate(oracles):
            assert np.array_equal(obs[i], theirs.step(actions[i])[0]), f"env {i} step {t}"


@pytest.mark.parametrize("task", family.ADROIT_TASKS, ids=lambda t: t.name)
def test_spaces_and_reset_before_the_draws(task: family.AdroitTask) -> None:
    """Our spaces are gymnasium-robotics'; our reset's physics state is its
    reset's bit for bit (the draws are in the model, not in that state)."""
    task_id = family.adroit_id(task.name, "dense")
    ours = envpool_x.make_gymnasium(task_id, num_envs=1)
    theirs = make_oracle(task_id)
    assert ours.single_observation_space == theirs.observation_space
    assert ours.single_action_space == theirs.action_space
    assert ours.single_observation_space.shape == (task.obs_dim,)
    ours.reset(seed=3)
    theirs.reset(seed=3)
    mine, other = ours.get_state(0), oracle_state(theirs)
    physics = len(other) - len(drawn_values(theirs))
    assert len(mine) == len(other)
    assert np.array_equal(mine[:physics], other[:physics])


#: Each task's drawn values: (name, low, high) per coordinate, None where
#: the value is not drawn uniformly (the Pen's quaternion, its lengths).
BOUNDS = {
    "AdroitHandDoor": [(-0.3, -0.2), (0.25, 0.35), (0.252, 0.35)],
    "AdroitHandHammer": [None, None, (0.1, 0.25)],
    "AdroitHandPen": [None] * 6,
    "AdroitHandRelocate": [(-0.15, 0.15), (-0.15, 0.3), None, (-0.2, 0.2), (-0.2, 0.2),
                           (0.15, 0.35)],
}  # fmt: skip


@pytest.mark.parametrize(
    "draws", [400, pytest.param(4000, marks=pytest.mark.slow)], ids=lambda n: f"{n}draws"
)
@pytest.mark.parametrize("task", family.ADROIT_TASKS, ids=lambda t: t.name)
def test_reset_draws_as_gymnasium_robotics(task: family.AdroitTask, draws: int) -> None:
    stats = pytest.importorskip("scipy.stats")
    task_id = family.adroit_id(task.name, "sparse")
    env = envpool_x.make_gymnasium(task_id, num_envs=10, seed=7)
    theirs = make_oracle(task_id)
    ours = []
    for _ in range(draws // 10):
        env.reset()
        size = len(env.get_state(0)) - len(drawn_values(theirs))
        ours.extend(env.get_state(i)[size:] for i in range(10))
    theirs.reset(seed=11)
    oracle = []
    for _ in range(draws):
        theirs.reset()
        oracle.append(drawn_values(theirs))
    ours_a, theirs_a = np.array(ours), np.array(oracle)
    for k, bounds in enumerate(BOUNDS[task.name]):
        column, t_column = ours_a[:, k], theirs_a[:, k]
        if bounds is not None:
            assert bounds[0] <= column.min() and column.max() <= bounds[1], f"value {k}"
        if np.ptp(t_column) == 0:
            assert np.all(column == t_column[0]), f"value {k} must be constant"
        else:
            p = stats.ks_2samp(column, t_column).pvalue
            assert p > 1e-3, f"value {k}: distributions differ (p={p})"


def test_options_and_envpool_keys() -> None:
    spec = envpool_x.make_spec("AdroitHandPenSparse-v1")
    assert spec.config.reward_type == "sparse"
    assert spec.config.adroit_task == "pen"
    assert spec.config.frame_skip == family.ADROIT_FRAME_SKIP
    assert (spec.config.obs_dim, spec.config.action_dim, spec.config.reset_dim) == (45, 24, 4)
    envpool_x.make_spec("AdroitHandDoor-v1", adroit_task="door", qpos_dim=30)
    with pytest.raises(ValueError, match="adroit_task"):
        envpool_x.make_spec("AdroitHandDoor-v1", adroit_task="pen")
    with pytest.raises(ValueError, match="reward_type"):
        envpool_x.make_spec("AdroitHandDoor-v1", reward_type="shaped")
    with pytest.raises(ValueError, match="xml_file"):
        envpool_x.make_spec("AdroitHandDoor-v1", xml_file="/tmp/other.xml")
    assert envpool_x.make_spec("AdroitHandDoor-v1").max_episode_steps == 200
    env = envpool_x.make_gymnasium("AdroitHandDoor-v1", num_envs=1)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="state must have"):
        env._pool.set_state(0, [0.0])


@pytest.mark.skipif(
    os.environ.get("MUJOCO_GL") not in ("osmesa", "egl"), reason="no OpenGL backend"
)
@pytest.mark.parametrize(
    "task_id", ci_sample(["AdroitHandDoor-v1", "AdroitHandPen-v1"], {"AdroitHandDoor-v1"})
)
def test_frames_are_gymnasium_robotics_frames(task_id: str) -> None:
    """render() draws gymnasium-robotics' frame of the same state."""
    ours = envpool_x.make_gymnasium(task_id, num_envs=2, render_mode="rgb_array", seed=2)
    theirs = gym.make(task_id, render_mode="rgb_array")
    theirs.reset(seed=0)
    ours.reset()
    nu = theirs.action_space.shape[0]
    for _ in range(3):
        ours.step(np.random.default_rng(0).uniform(-1, 1, (2, nu)).astype(np.float32))
    frames = ours.render(env_ids=[0, 1])
    for i in range(2):
        set_oracle_state(theirs, ours.get_state(i))
        want = theirs.render()
        assert frames[i].shape == want.shape == (480, 480, 3)
        assert np.array_equal(frames[i], want), f"env {i}: frames differ"
    assert not np.array_equal(frames[0], frames[1])  # two states, two frames
