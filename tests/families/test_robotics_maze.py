"""PointMaze and AntMaze against gymnasium-robotics 1.4.2, on the same MuJoCo.

The model: our XML (written from the robot's XML and the map) loads into
gymnasium-robotics' model, array for array. Episodes: our env resets, its
state (MuJoCo's integration state and the goal) is set into
gymnasium-robotics' env, and both step the same float32 random actions (some
beyond [-1, 1]) for a whole episode: the same MuJoCo calls in the same order,
so observations are equal bit for bit, rewards are gymnasium-robotics'
float64 as float32, success / terminated / truncated equal. Resets draw the
goal and the start from our seed stream: their distributions (per
coordinate, two-sample Kolmogorov-Smirnov; and the cells' frequencies) are
compared with gymnasium-robotics' over many resets.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from robotics_helpers import load_oracle, set_oracle_state

import envpool_x
from conftest import ci_sample
from envpool_x.families import robotics_maze as family

if not family.has_mazes():
    pytest.skip("envpool_x was built without the robotics tasks", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")
gym = pytest.importorskip("gymnasium")
load_oracle(mujoco, gym, pytest.importorskip("gymnasium_robotics"))
from gymnasium_robotics.envs.maze import maps as oracle_maps  # noqa: E402

IDS = [
    family.maze_id(robot, task, reward)
    for robot in family.ROBOTS
    for task in family.MAZE_TASKS
    for reward in family.REWARD_TYPES
]
#: The default run: both robots, each kind of map, both rewards.
DEFAULT_IDS = {
    "PointMaze_UMaze-v3",
    "PointMaze_Medium_Diverse_GRDense-v3",
    "PointMaze_Large_Diverse_G-v3",
    "AntMaze_UMazeDense-v5",
    "AntMaze_Open_Diverse_GR-v4",
    "AntMaze_Medium_Diverse_GRDense-v3",
}


def test_every_gymnasium_robotics_maze_id_is_registered() -> None:
    theirs = {i for i in gym.registry if i.startswith(("PointMaze_", "AntMaze_"))}
    assert theirs == set(IDS)
    assert set(IDS) <= set(envpool_x.list_all_envs())
    with pytest.raises(ValueError, match="reset_target"):
        envpool_x.make_spec("AntMaze_UMaze-v3", reset_target=True)


@pytest.mark.parametrize("name", sorted(family.MAPS))
def test_maps_are_gymnasium_robotics_maps(name: str) -> None:
    rows = ["".join(str(cell) for cell in row) for row in getattr(oracle_maps, name)]
    assert list(family.MAPS[name]) == rows


def _arrays(model: object) -> dict[str, np.ndarray]:
    names = ("geom_pos", "geom_size", "geom_rgba", "geom_type", "geom_contype",
             "geom_conaffinity", "site_pos", "site_size", "site_rgba", "body_pos", "body_mass",
             "qpos0", "actuator_gear")  # fmt: skip
    out = {name: np.array(getattr(model, name)) for name in names}
    out["counts"] = np.array([model.nq, model.nv, model.nbody, model.ngeom, model.nsite])  # type: ignore[attr-defined]
    out["timestep"] = np.array(model.opt.timestep)  # type: ignore[attr-defined]
    return out


@pytest.mark.parametrize(
    "task_id", ["PointMaze_Large_Diverse_G-v3", "AntMaze_Medium-v5", "AntMaze_UMaze-v4"]
)
def test_model_and_spaces_are_gymnasium_robotics(task_id: str) -> None:
    ours = envpool_x.make_gymnasium(task_id, num_envs=1)
    theirs = gym.make(task_id)
    model = mujoco.MjModel.from_xml_path(ours.spec.config.xml_file)
    mine, other = _arrays(model), _arrays(theirs.unwrapped.model)
    for key in mine:
        assert np.array_equal(mine[key], other[key]), f"{key} differs"
    assert ours.single_observation_space == theirs.observation_space
    assert ours.single_action_space == theirs.action_space
    assert ours.spec.max_episode_steps == theirs.spec.max_episode_steps


def _compare(where: str, ours: dict, theirs: dict) -> None:
    for key in ("achieved_goal", "desired_goal", "observation"):
        assert np.array_equal(ours[key][0], theirs[key]), (
            f"{where}: {key} {ours[key][0]} vs {theirs[key]}"
        )


def _episode(task_id: str, seed: int, near_goal: bool, **options: bool) -> dict[str, int]:
    """One whole episode of ours beside gymnasium-robotics' from our reset state."""
    ours = envpool_x.make_gymnasium(task_id, num_envs=1, seed=seed, **options)
    theirs = gym.make(task_id, **options)
    theirs.reset(seed=seed)
    raw = theirs.unwrapped
    obs, info = ours.reset()
    state = ours.get_state(0)
    if near_goal:
        # A goal 0.3 from the start, set into both: the success branch runs.
        state[-2:] = obs["achieved_goal"][0] + np.array([0.3, 0.0])
        ours._pool.set_state(0, state)
    set_oracle_state(theirs, state)
    counts = {"successes": 0, "goal_updates": 0, "steps": 0}
    v3 = task_id.startswith("AntMaze") and task_id.endswith("-v3")
    rng = np.random.default_rng(seed)
    size = ours.single_action_space.shape[0]
    for t in range(theirs.spec.max_episode_steps):
        action = rng.uniform(-1.2, 1.2, size=size).astype(np.float32)
        goal_before = raw.goal.copy()
        obs, reward, terminated, truncated, info = ours.step(action[None])
        t_obs, t_reward, t_terminated, t_truncated, t_info = theirs.step(action)
        where = f"{task_id} seed {seed} step {t}"
        _compare(where, obs, t_obs)
        updated = not np.array_equal(raw.goal, goal_before)
        mine = ours.get_state(0)[-2:]
        if updated and v3:
            # AntMaze-v3 rewards the goal drawn again in the step (each from
            # its own stream): theirs for our goal.
            t_reward = raw.compute_reward(t_obs["achieved_goal"], mine, {})
        assert reward.dtype == np.float32
        assert reward[0] == np.float32(t_reward), f"{where}: reward {reward[0]} vs {t_reward}"
        # AntMaze-v3 reports no success: the goal within 0.45, as -v4 reports it.
        success = t_info.get(
            "success", np.linalg.norm(t_obs["achieved_goal"] - goal_before) <= 0.45
        )
        assert bool(info["success"][0]) == success, f"{where}: success"
        assert info["is_success"][0] == float(success)
        assert bool(terminated[0]) == t_terminated, f"{where}: terminated"
        assert bool(truncated[0]) == t_truncated, f"{where}: truncated"
        counts["successes"] += int(success)
        counts["steps"] += 1
        if updated:
            # A new goal drawn in each (from each one's stream): -v4 / -v5
            # redraw until 0.45 or more away; ours goes on in the oracle.
            counts["goal_updates"] += 1
            assert not np.array_equal(mine, goal_before), f"{where}: our goal was not redrawn"
            assert v3 or np.linalg.norm(mine - t_obs["achieved_goal"]) > family.GOAL_RADIUS
            raw.goal = mine.copy()
        else:
            assert np.array_equal(mine, goal_before), f"{where}: our goal moved, theirs did not"
        if terminated[0] or truncated[0]:
            break
    return counts


@pytest.mark.parametrize("task_id", ci_sample(IDS, DEFAULT_IDS))
def test_episode_from_the_same_state(task_id: str) -> None:
    far = _episode(task_id, 0, near_goal=False)
    near = _episode(task_id, 1, near_goal=True)
    assert far["steps"] == gym.spec(task_id).max_episode_steps
    assert near["successes"] > 0, "no step reached the goal: the success branch went untested"


@pytest.mark.parametrize("task_id", ["PointMaze_Open_Diverse_GR-v3", "AntMaze_UMaze-v5"])
def test_episodic_task_terminates_on_success(task_id: str) -> None:
    counts = _episode(task_id, 2, near_goal=True, continuing_task=False)
    assert counts["steps"] < gym.spec(task_id).max_episode_steps


def test_reset_target_redraws_a_reached_goal() -> None:
    counts = _episode("PointMaze_Open_Diverse_GR-v3", 3, near_goal=True, reset_target=True)
    assert counts["goal_updates"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("task_id", IDS)
def test_many_episodes(task_id: str) -> None:
    for seed in range(2, 8):
        _episode(task_id, seed, near_goal=seed % 2 == 1)


def _draws(task_id: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Goals and starts (x-y) of ``n`` resets of ours (10 envs, again and again)."""
    env = envpool_x.make_gymnasium(task_id, num_envs=10, seed=5)
    goals, starts = [], []
    for _ in range(n // 10):
        obs, _ = env.reset()
        goals.extend(obs["desired_goal"])
        starts.extend(obs["achieved_goal"])
    return np.array(goals), np.array(starts)


def _oracle_draws(task_id: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    theirs = gym.make(task_id)
    theirs.reset(seed=9)
    goals, starts = [], []
    for _ in range(n):
        obs, _ = theirs.reset()
        goals.append(obs["desired_goal"])
        starts.append(obs["achieved_goal"])
    return np.array(goals), np.array(starts)


def _cells(xy: np.ndarray, task_id: str) -> np.ndarray:
    """The (row, column) of each x-y, as Maze.cell_xy_to_rowcol computes it."""
    spec = envpool_x.make_spec(task_id)
    rows = family.map_rows(spec.config.maze_map)
    s = spec.config.maze_size_scaling
    i = np.floor((len(rows) / 2 * s - xy[:, 1]) / s)
    j = np.floor((xy[:, 0] + len(rows[0]) / 2 * s) / s)
    return np.stack([i, j], axis=1).astype(int)


@pytest.mark.parametrize(
    "draws", [600, pytest.param(5000, marks=pytest.mark.slow)], ids=lambda n: f"{n}draws"
)
@pytest.mark.parametrize(
    "task_id",
    [
        "PointMaze_UMaze-v3",
        "PointMaze_Large_Diverse_G-v3",
        "AntMaze_Medium_Diverse_GR-v5",
        "AntMaze_Medium_Diverse_GR-v3",
    ],
)
def test_reset_draws_as_gymnasium_robotics(task_id: str, draws: int) -> None:
    stats = pytest.importorskip("scipy.stats")
    goals, starts = _draws(task_id, draws)
    t_goals, t_starts = _oracle_draws(task_id, draws)
    same_cell = np.all(_cells(goals, task_id) == _cells(starts, task_id), axis=1)
    if task_id.endswith("-v3") and task_id.startswith("AntMaze"):
        # -v3 redraws a start within 0.5 (not 0.5 s) of the goal: its cell can be the goal's.
        assert same_cell.any()
    else:  # a start cell is redrawn while within 0.5 s of the goal: never the goal's cell
        assert not same_cell.any()
    for ours, theirs, what in ((goals, t_goals, "goal"), (starts, t_starts, "start")):
        for k in range(2):
            p = stats.ks_2samp(ours[:, k], theirs[:, k]).pvalue
            assert p > 1e-3, f"{what}[{k}] distributions differ (p={p})"
        # The same cells, each within +-0.25 s of its centre.
        mine = {tuple(c) for c in _cells(ours, task_id)}
        assert mine == {tuple(c) for c in _cells(theirs, task_id)}, f"{what} cells differ"


@pytest.mark.parametrize("task_id", ["PointMaze_UMazeDense-v3", "AntMaze_UMaze-v5"])
def test_compute_reward_is_gymnasium_robotics(task_id: str) -> None:
    ours = envpool_x.make_gymnasium(task_id, num_envs=1)
    theirs = gym.make(task_id).unwrapped
    rng = np.random.default_rng(0)
    achieved, desired = rng.uniform(-1, 1, (50, 2)), rng.uniform(-1, 1, (50, 2))
    mine, want = (
        ours.compute_reward(achieved, desired, {}),
        theirs.compute_reward(achieved, desired, {}),
    )
    assert mine.dtype == want.dtype and np.array_equal(mine, want)
    assert ours.compute_terminated(achieved[0], desired[0], {}) is False


def test_maze_map_option_forms_and_errors() -> None:
    rows = [[1, 1, 1, 1], [1, "r", "g", 1], [1, 1, 1, 1]]
    env = envpool_x.make_gymnasium("PointMaze_UMaze-v3", num_envs=1, maze_map=rows)
    assert env.spec.config.maze_map == "1111/1rg1/1111"
    os.remove(env.spec.config.xml_file)  # a temporary folder cleaned: written again
    again = envpool_x.make_gymnasium("PointMaze_UMaze-v3", num_envs=1, maze_map=rows)
    assert again.spec.config.xml_file == env.spec.config.xml_file
    assert os.path.isfile(again.spec.config.xml_file)
    obs, _ = env.reset(seed=0)
    assert (
        abs(obs["desired_goal"][0, 0] - 0.5) <= 0.25
        and abs(obs["achieved_goal"][0, 0] + 0.5) <= 0.25
    )
    with pytest.raises(ValueError, match="maze_map"):
        envpool_x.make_gymnasium("PointMaze_UMaze-v3", num_envs=1, maze_map="NO_SUCH_MAP")
    with pytest.raises(ValueError, match="cells"):
        envpool_x.make_gymnasium("PointMaze_UMaze-v3", num_envs=1, maze_map=[[1, 2], [1, 1]])


@pytest.mark.skipif(os.environ.get("MUJOCO_GL") != "osmesa", reason="needs MUJOCO_GL=osmesa")
@pytest.mark.parametrize(
    "task_id",
    ci_sample(
        ["PointMaze_Medium-v3", "PointMaze_Large-v3", "AntMaze_UMaze-v5", "AntMaze_Open-v4"],
        {"PointMaze_Large-v3", "AntMaze_UMaze-v5"},
    ),
)
def test_frames_are_gymnasium_robotics_frames(task_id: str) -> None:
    ours = envpool_x.make_gymnasium(task_id, num_envs=2, render_mode="rgb_array", seed=2)
    theirs = gym.make(task_id, render_mode="rgb_array")
    theirs.reset(seed=0)
    ours.reset()
    size = ours.single_action_space.shape[0]
    for _ in range(3):
        ours.step(np.random.default_rng(0).uniform(-1, 1, (2, size)).astype(np.float32))
    frames = ours.render(env_ids=[0, 1])
    for i in range(2):
        # The goal, its site moved (update_target_site_pos), then the state
        # (set_oracle_state's mj_forward places the site, as their reset does).
        state = ours.get_state(i)
        theirs.unwrapped.goal = state[-2:].copy()
        theirs.unwrapped.update_target_site_pos()
        set_oracle_state(theirs, state)
        want = theirs.render()
        assert frames[i].shape == want.shape == (480, 480, 3)
        assert np.array_equal(frames[i], want), f"env {i}: frames differ"
    assert not np.array_equal(frames[0], frames[1])  # two states, two frames


#: Which reset option places which goal.
CELL = {"desired_goal": "goal_cell", "achieved_goal": "reset_cell"}


@pytest.mark.parametrize("task_id", ["PointMaze_Medium-v3", "AntMaze_Large_Diverse_GR-v5"])
def test_reset_options_place_goal_and_start_cells(task_id: str) -> None:
    """reset(options={"goal_cell": ..., "reset_cell": ...}) puts them in the
    cells gymnasium-robotics puts them in; the episode then steps as theirs."""
    scaling = 1.0 if task_id.startswith("Point") else 4.0
    options = {"goal_cell": (1, 1), "reset_cell": (6, 6)}
    ours = envpool_x.make_gymnasium(task_id, num_envs=3, seed=4)
    theirs = gym.make(task_id)
    obs, info = ours.reset(options=options)
    t_obs, _ = theirs.reset(seed=4, options=options)
    for key in ("desired_goal", "achieved_goal"):
        assert np.all(_cells(obs[key], task_id) == options[CELL[key]]), key
        assert np.all(_cells(t_obs[key][None], task_id) == options[CELL[key]]), key
    assert np.all(np.abs(obs["desired_goal"] - obs["desired_goal"][0]) <= 0.5 * scaling)
    assert not np.array_equal(obs["desired_goal"][0], obs["desired_goal"][1])  # noise per env
    for i in range(3):
        state = ours.get_state(i)
        assert np.array_equal(state[1:3], obs["achieved_goal"][i])
        assert np.array_equal(state[-2:], obs["desired_goal"][i])
    assert not info["success"].any()
    # The episode from the placed state steps as gymnasium-robotics' from it.
    set_oracle_state(theirs, ours.get_state(0))
    rng = np.random.default_rng(0)
    size = ours.single_action_space.shape[0]
    actions = rng.uniform(-1, 1, (20, 3, size)).astype(np.float32)
    for t in range(20):
        obs, *_ = ours.step(actions[t])
        t_obs, *_ = theirs.step(actions[t, 0])
        _compare(f"step {t}", obs, t_obs)


def test_reset_options_goal_cell_only_draws_a_start_away_from_it() -> None:
    env = envpool_x.make_gymnasium("PointMaze_Open-v3", num_envs=50, seed=1)
    obs, _ = env.reset(options={"goal_cell": (2, 3)})
    assert np.all(_cells(obs["desired_goal"], "PointMaze_Open-v3") == (2, 3))
    assert not np.any(np.all(_cells(obs["achieved_goal"], "PointMaze_Open-v3") == (2, 3), axis=1))
    obs, _ = env.reset(env_id=[3], options={"reset_cell": (1, 1)})  # a subset of the envs
    assert np.all(_cells(obs["achieved_goal"], "PointMaze_Open-v3") == (1, 1))
    with pytest.raises(ValueError, match="wall"):
        env.reset(options={"goal_cell": (0, 0)})
    with pytest.raises(ValueError, match="outside"):
        env.reset(options={"reset_cell": (9, 9)})
    with pytest.raises(ValueError, match="unsupported reset options"):
        env.reset(options={"goal": (1, 1)})


@pytest.mark.parametrize("task_id", ["PointMaze_UMaze-v3", "PointMaze_Open_Diverse_GDense-v3"])
def test_envpool_pointmaze_steps_as_ours(task_id: str) -> None:
    """EnvPool's PointMaze (the [test] extra's EnvPool) from its reset state,
    set into ours, steps as ours: a whole episode, bit for bit; its config
    keys, with its values, are accepted."""
    envpool = pytest.importorskip("envpool")
    theirs = envpool.make_gymnasium(task_id, num_envs=4, seed=3)
    keys = ("maze_map", "reward_type", "continuing_task", "reset_target", "maze_size_scaling",
            "maze_height", "position_noise_range", "frame_skip", "frame_stack")  # fmt: skip
    config = {k: getattr(theirs.spec.config, k) for k in keys}
    ours = envpool_x.make_gymnasium(task_id, num_envs=4, **config)
    t_obs, _ = theirs.reset()
    ours.reset()
    for i in range(4):
        state = ours.get_state(i)
        state[1:5] = t_obs["observation"][i]  # after the time: qpos x, y; qvel x, y
        state[-2:] = t_obs["desired_goal"][i]
        ours._pool.set_state(i, state)
    rng = np.random.default_rng(0)
    successes = 0
    for t in range(ours.spec.max_episode_steps):
        action = rng.uniform(-1.2, 1.2, (4, 2)).astype(np.float32)
        obs, reward, terminated, truncated, info = ours.step(action)
        t_obs, t_reward, t_terminated, t_truncated, t_info = theirs.step(action)
        for key in ("observation", "achieved_goal", "desired_goal"):
            assert np.array_equal(obs[key], t_obs[key]), f"step {t}: {key}"
        assert np.array_equal(reward, t_reward.astype(np.float32)), f"step {t}: reward"
        assert np.array_equal(info["success"], t_info["success"].astype(bool)), f"step {t}"
        assert np.array_equal(truncated, t_truncated) and np.array_equal(terminated, t_terminated)
        successes += int(info["success"].sum())
    assert truncated.all()
    if "Open" in task_id:  # goals all over the open map: random actions reach some
        assert successes > 0, "the success branch went untested"
