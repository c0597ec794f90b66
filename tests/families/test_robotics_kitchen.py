"""FrankaKitchen-v1 against gymnasium-robotics 1.4.2, on the same MuJoCo.

Both sides load gymnasium-robotics' XML into the same libmujoco. With both
noise ratios 0 the env is deterministic: our reset observation must be
gymnasium-robotics' bit for bit. Parity from identical states: a state
(qpos, qvel, the last observed robot positions that the next control starts
from) is set into both through the test hook, some tasks' joints moved onto
their goals to exercise the completion branches, and both step the same
float32 random actions (some beyond [-1, 1], to test the clipping) for a
whole 280-step episode (or until it terminates): observations bit for bit,
rewards, terminated / truncated, and the three task lists (as sets where
gymnasium-robotics iterates a Python set; the episode list in completion
order, each step's completions in either order).

With the noise on, its draws come from our seed stream: the observation
minus the state is checked against each entry's bound (ratio * amplitude of
franka_config.xml, with gymnasium-robotics' offset of the object positions'
amplitudes) and for uniformity (Kolmogorov-Smirnov, fixed seeds).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest
from robotics_helpers import load_oracle

import envpool_x
from envpool_x.families import robotics_kitchen as family

if not family.has_kitchen():
    pytest.skip("envpool_x was built without Franka Kitchen", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")
gym = pytest.importorskip("gymnasium")
load_oracle(mujoco, gym, pytest.importorskip("gymnasium_robotics"))

ID = family.KITCHEN_ID
QUIET = {"robot_noise_ratio": 0.0, "object_noise_ratio": 0.0}
NQ, NV = 30, 29
LISTS = ("tasks_to_complete", "step_task_completions", "episode_task_completions")


def _oracle(**config: Any) -> Any:
    return gym.make(ID, disable_env_checker=True, **config)


def _set_oracle_state(theirs: Any, state: np.ndarray) -> None:
    """What our set_state does, on the oracle: mj_resetData, qpos and qvel,
    mj_forward, and the robot positions its next control starts from."""
    raw = theirs.unwrapped
    mujoco.mj_resetData(raw.model, raw.data)
    raw.data.qpos[:] = state[:NQ]
    raw.data.qvel[:] = state[NQ : NQ + NV]
    mujoco.mj_forward(raw.model, raw.data)
    raw.robot_env._last_robot_qpos = np.array(state[NQ + NV :])


def _on_goal(state: np.ndarray, tasks: list[str]) -> np.ndarray:
    """``state`` with the joints of ``tasks`` set to their goals."""
    from gymnasium_robotics.envs.franka_kitchen import kitchen_env

    state = state.copy()
    for task in tasks:
        state[kitchen_env.OBS_ELEMENT_INDICES[task]] = kitchen_env.OBS_ELEMENT_GOALS[task]
    return state


def _assert_obs_equal(mine: dict[str, Any], theirs: dict[str, Any], where: str) -> None:
    assert set(mine) == set(theirs), where
    for key, value in theirs.items():
        if isinstance(value, dict):
            _assert_obs_equal(mine[key], value, f"{where} {key}")
        else:
            assert np.array_equal(mine[key][0], value), f"{where} {key}"


def _assert_lists(info: dict[str, Any], t_info: dict[str, Any], where: str) -> None:
    for key in LISTS:
        assert sorted(info[key][0]) == sorted(t_info[key]), f"{where}: {key}"


def _episode(seed: int, on_goal: list[str], **config: Any) -> tuple[float, bool]:
    """One episode of ours beside gymnasium-robotics' from the same state;
    returns the summed reward and whether it terminated."""
    ours = envpool_x.make_gymnasium(ID, num_envs=1, seed=seed, **QUIET, **config)
    theirs = _oracle(**QUIET, **config)
    obs, info = ours.reset()
    t_obs, t_info = theirs.reset(seed=seed)
    _assert_obs_equal(obs, t_obs, "reset")
    _assert_lists(info, t_info, "reset")
    state = _on_goal(ours.get_state(0), on_goal)
    ours._pool.set_state(0, state)
    _set_oracle_state(theirs, state)
    rng = np.random.default_rng(seed)
    total, completed_before = 0.0, []
    for t in range(family.KITCHEN_EPISODE_STEPS):
        action = rng.uniform(-1.2, 1.2, size=9).astype(np.float32)
        obs, reward, terminated, truncated, info = ours.step(action[None])
        t_obs, t_reward, t_terminated, t_truncated, t_info = theirs.step(action.astype(np.float64))
        where = f"seed {seed} step {t}"
        _assert_obs_equal(obs, t_obs, where)
        assert reward.dtype == np.float32 and reward[0] == t_reward, f"{where}: reward"
        assert bool(terminated[0]) == t_terminated, f"{where}: terminated"
        assert bool(truncated[0]) == t_truncated, f"{where}: truncated"
        _assert_lists(info, t_info, where)
        # The episode list keeps completion order: earlier steps' tasks first.
        episode = list(info["episode_task_completions"][0])
        assert episode[: len(completed_before)] == completed_before, where
        completed_before = episode
        total += t_reward
        if t_terminated:
            return total, True
    assert truncated[0], "the episode must end at 280 steps"
    return total, False


def test_episode_without_completions() -> None:
    assert _episode(0, []) == (0.0, False)


def test_episode_with_completions() -> None:
    total, terminated = _episode(1, ["microwave", "slide cabinet", "kettle"])
    assert total >= 3.0 and not terminated


def test_episode_terminates_when_every_task_is_done() -> None:
    total, terminated = _episode(2, ["microwave"], tasks_to_complete=["microwave"])
    assert terminated and total == 1.0


def test_episode_keeping_completed_tasks() -> None:
    total, terminated = _episode(
        3,
        ["microwave", "light switch"],
        tasks_to_complete=["light switch", "microwave", "top burner"],
        remove_task_when_completed=False,
        terminate_on_tasks_completed=False,
    )
    assert total > 2.0 and not terminated  # completed tasks count again on later steps


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4, 12))
def test_many_episodes(seed: int) -> None:
    tasks = list(np.random.default_rng(seed).permutation(family.KITCHEN_TASKS))
    _episode(seed, tasks[: seed % 4], tasks_to_complete=tasks[: 1 + seed % 7])
    _episode(seed, tasks[: seed % 3], remove_task_when_completed=seed % 2 == 0)


def test_envs_of_a_threaded_pool() -> None:
    """Each env of a threaded pool matches an oracle set to its state."""
    ours = envpool_x.make_gymnasium(ID, num_envs=3, num_threads=2, seed=5, **QUIET)
    ours.reset()
    oracles = []
    for i in range(3):
        theirs = _oracle(**QUIET)
        theirs.reset(seed=i)
        state = ours.get_state(i)
        state[NQ + 1 + i] = 0.05 * i  # three different states
        ours._pool.set_state(i, state)
        _set_oracle_state(theirs, state)
        oracles.append(theirs)
    rng = np.random.default_rng(0)
    for t in range(15):
        actions = rng.uniform(-1, 1, size=(3, 9)).astype(np.float32)
        obs, *_ = ours.step(actions)
        for i, theirs in enumerate(oracles):
            t_obs = theirs.step(actions[i].astype(np.float64))[0]
            assert np.array_equal(obs["observation"][i], t_obs["observation"]), f"{i} {t}"
    assert not np.array_equal(obs["observation"][0], obs["observation"][1])


def test_spaces_and_info() -> None:
    ours = envpool_x.make_gymnasium(ID, num_envs=2)
    theirs = _oracle()
    assert ours.single_observation_space == theirs.observation_space
    assert list(ours.single_observation_space["achieved_goal"]) == sorted(family.KITCHEN_TASKS)
    assert ours.single_action_space == gym.spaces.Box(-1.0, 1.0, (9,), np.float32)
    some = _oracle(tasks_to_complete=["kettle", "microwave", "kettle"])
    spec = envpool_x.make_spec(ID, tasks_to_complete=["kettle", "microwave", "kettle"])
    assert spec.observation_space == some.observation_space
    obs, info = ours.reset()
    assert obs["observation"].shape == (2, 59) and obs["desired_goal"]["kettle"].shape == (2, 7)
    assert list(info["tasks_to_complete"][1]) == list(family.KITCHEN_TASKS)
    assert list(info["episode_task_completions"][0]) == []


def test_same_step_final_info_has_the_lists() -> None:
    env = envpool_x.make_gymnasium(
        ID, num_envs=1, autoreset_mode="same_step", tasks_to_complete=["microwave"], **QUIET
    )
    env.reset(seed=0)
    env._pool.set_state(0, _on_goal(env.get_state(0), ["microwave"]))
    _, reward, terminated, _, info = env.step(np.zeros((1, 9), np.float32))
    assert terminated[0] and reward[0] == 1.0
    assert list(info["final_info"]["episode_task_completions"][0]) == ["microwave"]
    assert list(info["final_info"]["tasks_to_complete"][0]) == []
    assert list(info["tasks_to_complete"][0]) == ["microwave"]  # the new episode's
    assert set(info["final_obs"]) == {"achieved_goal", "desired_goal", "observation"}
    assert info["final_obs"]["achieved_goal"]["microwave"][0] == pytest.approx(-0.75, abs=0.3)


def test_dm_env_keeps_flat_names() -> None:
    env = envpool_x.make_dm(ID, num_envs=1)
    step = env.reset()
    assert step.observation.observation.shape == (1, 59)
    assert step.observation.achieved_goal_light_switch.shape == (1, 2)


@pytest.mark.parametrize(
    "resets", [30, pytest.param(300, marks=pytest.mark.slow)], ids=lambda n: f"{n}resets"
)
def test_noise_bounds_and_distribution(resets: int) -> None:
    stats = pytest.importorskip("scipy.stats")
    env = envpool_x.make_gymnasium(ID, num_envs=10, seed=3)
    amps = np.array(env.spec.env_config["franka_config"]).reshape(29, 6)
    pos_amp, vel_amp = amps[:, 4], amps[:, 5]
    bound = np.concatenate(
        [0.01 * pos_amp[:9], 0.01 * vel_amp[:9], 0.0005 * pos_amp[8:], 0.0005 * vel_amp[9:]]
    )
    scaled = []
    for r in range(resets):
        result = env.reset() if r % 2 == 0 else env.step(np.zeros((10, 9), np.float32))
        obs = result[0]["observation"]
        for i in range(10):
            s = env.get_state(i)
            truth = np.concatenate([s[:9], s[NQ : NQ + 9], s[9:NQ], s[NQ + 9 : NQ + NV]])
            scaled.append((obs[i] - truth) / bound)
    noise = np.array(scaled)
    assert np.all(np.abs(noise) <= 1.0 + 1e-6)
    for k in range(59):
        p = stats.kstest(noise[:, k], "uniform", args=(-1, 2)).pvalue
        assert p > 1e-4, f"entry {k}: not uniform in its bound (p={p})"


def test_options_and_envpool_keys() -> None:
    spec = envpool_x.make_spec(ID, frame_skip=40, max_episode_steps=280, frame_stack=1)
    assert spec.max_episode_steps == 280
    assert spec.config.robot_noise_ratio == 0.01 and spec.config.object_noise_ratio == 0.0005
    assert list(spec.config.tasks_to_complete) == list(family.KITCHEN_TASKS)
    with pytest.raises(ValueError, match="frame_skip"):
        envpool_x.make_spec(ID, frame_skip=20)
    with pytest.raises(ValueError, match="unknown task 'oven'"):
        envpool_x.make_spec(ID, tasks_to_complete=["microwave", "oven"])
    with pytest.raises(ValueError, match="at least one"):
        envpool_x.make_spec(ID, tasks_to_complete=[])
    with pytest.raises(TypeError, match="list of task names"):
        envpool_x.make_spec(ID, tasks_to_complete="microwave")
    with pytest.raises(ValueError, match="robot_noise_ratio"):
        envpool_x.make_spec(ID, robot_noise_ratio=-0.1)
    with pytest.raises(ValueError, match="franka_config"):
        envpool_x.make_spec(ID, franka_config=[1.0])
    with pytest.raises(ValueError, match="xml_file"):
        envpool_x.make_spec(ID, xml_file="/tmp/other.xml")
    env = envpool_x.make_gymnasium(ID, num_envs=1)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="state must have"):
        env._pool.set_state(0, [0.0])


@pytest.mark.slow  # about 17 s with osmesa
@pytest.mark.skipif(
    os.environ.get("MUJOCO_GL") not in ("osmesa", "egl"), reason="no OpenGL backend"
)
def test_frames_are_gymnasium_robotics_frames() -> None:
    """render() draws gymnasium-robotics' frame of the same state."""
    ours = envpool_x.make_gymnasium(ID, num_envs=2, render_mode="rgb_array", seed=2)
    theirs = gym.make(ID, render_mode="rgb_array")
    theirs.reset(seed=0)
    ours.reset()
    for _ in range(3):
        ours.step(np.random.default_rng(0).uniform(-1, 1, (2, 9)).astype(np.float32))
    frames = ours.render(env_ids=[0, 1])
    for i in range(2):
        _set_oracle_state(theirs, ours.get_state(i))
        want = theirs.render()
        assert frames[i].shape == want.shape == (480, 480, 3)
        assert np.array_equal(frames[i], want), f"env {i}: frames differ"
