"""Meta-World tasks against metaworld 3.1.1, on the same MuJoCo.

Both sides load Meta-World's XML into the same libmujoco (the mujoco 3.17.0
wheel; Meta-World's weld reset is patched for it, see metaworld_helpers). Our
env and Meta-World's are set to the same goal variation (the same rand_vec of
MT1(task, seed)); their resets must agree, then both get the same float32
actions (Meta-World's scripted policy plus noise, or uniform noise) for whole
500-step episodes: observations, rewards, the info keys, truncation.

Tolerances: the physics is the same sequence of MuJoCo calls and the
observation the same arithmetic (the object quaternion is scipy's from_matrix
formula), so observations must be equal bit for bit. Info values are compared
at 1e-15: a distance is numpy's norm (a BLAS dot product) against our sum of
squares, which can differ in the last bits (measured: up to 2.2e-16,
ButtonPressTopdown).
Our reward is float32 (EnvPool's dtype): it must be Meta-World's float64 reward
rounded to float32, within one float32 ulp (that last bit can round apart).
Where Meta-World's reward terms take the float32 action, numpy computes them in
float32 (reward_utils.h, NpNumber); that is reproduced, so they agree exactly.
"""

from __future__ import annotations

import numpy as np
import pytest
from metaworld_helpers import (
    INFO_KEYS,
    load_oracle,
    make_oracle,
    make_ours,
    mt1_rand_vecs,
    oracle_state,
    policy_noise,
    policy_of,
)

import envpool_x
from conftest import ci_sample
from envpool_x.families import metaworld as family

if not family.has_metaworld():
    pytest.skip("envpool_x was built without the Meta-World tasks", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")
metaworld = pytest.importorskip("metaworld")
load_oracle(mujoco, metaworld, pytest.importorskip("metaworld.policies"))

INFO_ATOL = 1e-15
# Meta-World's scripted policies warn that their gains are high; they clip.
pytestmark = pytest.mark.filterwarnings("ignore:Constant\\(s\\) may be too high")
NAMES = [name for name, _, _, _ in family.TASKS]


def _compare_step(where: str, ours: tuple, theirs: tuple, stats: dict[str, float]) -> None:
    obs, reward, terminated, truncated, info = ours
    t_obs, t_reward, t_terminated, t_truncated, t_info = theirs
    diff = float(np.max(np.abs(obs[0] - t_obs)))
    stats["obs"] = max(stats["obs"], diff)
    assert diff == 0, f"{where}: observation differs by {diff}: {obs[0]} vs {t_obs}"
    expected = np.float32(t_reward)
    assert abs(reward[0] - expected) <= np.spacing(expected), (
        f"{where}: reward {reward[0]} vs {t_reward}"
    )
    assert bool(terminated[0]) == t_terminated, f"{where}: terminated"
    assert bool(truncated[0]) == t_truncated, f"{where}: truncated"
    for key in INFO_KEYS:
        d = abs(float(info[key][0]) - float(t_info[key]))
        stats["info"] = max(stats["info"], d)
        assert d <= INFO_ATOL, f"{where}: info[{key!r}] {info[key][0]} vs {t_info[key]}"


def _run_episode(name: str, seed: int, index: int, hidden: bool, use_policy: bool) -> dict:
    """One whole episode of ours beside Meta-World's; returns the largest
    differences and how often the success / grasp branches were taken."""
    ours = make_ours(name, seed, index, hidden)
    theirs = make_oracle(name, seed, index, hidden)
    obs, info = ours.reset(seed=seed)
    t_obs, _ = theirs.reset()
    stats = {"obs": 0.0, "info": 0.0, "success": 0, "grasp": 0}
    diff = float(np.max(np.abs(obs[0] - t_obs)))
    assert diff == 0, f"{name}[{index}] reset: observation differs by {diff}"
    assert int(info["task_index"][0]) == index
    # Our state equals Meta-World's: setting theirs changes nothing we observe.
    ours._pool.set_state(0, oracle_state(theirs, index))
    rng = np.random.default_rng(seed * 100 + index)
    policy = policy_of(name)
    # Meta-World's scripted policies read the goal from the observation.
    oracle_goal_obs = t_obs.copy()
    for step in range(1, family.EPISODE_STEPS + 1):
        if use_policy:
            oracle_goal_obs[36:39] = theirs._target_pos
            a = policy.get_action(oracle_goal_obs) + rng.normal(0, policy_noise(name), 4)
        else:
            a = rng.uniform(-1.2, 1.2, 4)
        a = a.astype(np.float32)
        result = ours.step(a[None])
        t_result = theirs.step(a)
        _compare_step(f"{name}[{index}] step {step}", result, t_result, stats)
        stats["success"] += int(t_result[4]["success"] > 0)
        stats["grasp"] += int(t_result[4]["grasp_success"] > 0)
        oracle_goal_obs = t_result[0].copy()
    ours.close()
    return stats


@pytest.mark.parametrize(
    "name", ci_sample(NAMES, {"pick-place-v3", "door-open-v3", "peg-insert-side-v3", "hammer-v3"})
)
def test_episode_parity(name: str) -> None:
    """A whole episode with Meta-World's scripted policy (plus noise), goal
    shown as in MT1: everything agrees, and the policy reaches success (so the
    success branches of the reward are exercised)."""
    stats = _run_episode(name, seed=7, index=3, hidden=False, use_policy=True)
    assert stats["success"] > 0, f"{name}: the scripted policy never succeeded: {stats}"


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [0, 1])
def test_episode_parity_exhaustive(name: str, seed: int) -> None:
    """More variations, goal hidden and shown, with random and policy actions."""
    for index, hidden, use_policy in [(0, True, False), (17, False, True), (49, True, True)]:
        _run_episode(name, seed, index, hidden, use_policy)


def test_parity_from_a_state_set_through_the_hook() -> None:
    """Meta-World's PickPlace with its puck moved between the open fingers (a
    state no reset gives) is copied into ours through set_state; then both
    grasp and carry it with the scripted policy: everything agrees."""
    name, seed, index = "pick-place-v3", 5, 8
    ours = make_ours(name, seed, index, hidden=False)
    theirs = make_oracle(name, seed, index, hidden=False)
    ours.reset(seed=0)
    theirs.reset()
    tcp = theirs.tcp_center
    theirs._set_obj_xyz(np.array([tcp[0], tcp[1], theirs.obj_init_pos[2]]))
    theirs.obj_init_pos = theirs.data.body("obj").xpos.copy()
    obs = theirs._get_obs()  # also makes this the previous frame, as a step would
    ours._pool.set_state(0, oracle_state(theirs, index))
    policy = policy_of(name)
    rng = np.random.default_rng(0)
    stats = {"obs": 0.0, "info": 0.0}
    grasped = 0
    for step in range(1, 121):
        a = (policy.get_action(obs) + rng.normal(0, 0.1, 4)).astype(np.float32)
        result = ours.step(a[None])
        t_result = theirs.step(a)
        _compare_step(f"{name} moved puck, step {step}", result, t_result, stats)
        grasped += int(t_result[4]["grasp_success"] > 0)
        obs = t_result[0]
    assert grasped > 0, "the policy never grasped the moved puck"
    ours.close()


@pytest.mark.parametrize("name", ci_sample(NAMES, {"reach-v3", "button-press-v3", "sweep-into-v3"}))
def test_variations_are_mt1s(name: str) -> None:
    """task_seed=s, task_index=i is the i-th rand_vec of MT1(task, seed=s)
    (sweep-into: a task with its own redraw rule)."""
    seed = 11
    expected = mt1_rand_vecs(name, seed)
    (xml,) = [x for n, _, _, x in family.TASKS if n == name]
    model = mujoco.MjModel.from_xml_path(f"{family.assets_dir()}/{xml}")
    size = mujoco.mj_stateSize(model, mujoco.mjtState.mjSTATE_INTEGRATION)
    for index in (0, 1, 25, 49):
        env = make_ours(name, seed, index, True)
        env.reset(seed=0)
        rand_vec = env._pool.get_state(0)[size : size + expected.shape[1]]
        np.testing.assert_array_equal(rand_vec, expected[index])
        env.close()


def test_resets_draw_variations_uniformly() -> None:
    """task_index=-1: each reset draws one of the 50 variations uniformly from the
    env's seed stream (Meta-World's RandomTaskSelectWrapper's np_random.choice)."""
    num_envs, rounds = 50, 20
    env = envpool_x.make_gymnasium("MetaWorldReach-v3", num_envs=num_envs, task_seed=0)
    counts = np.zeros(family.NUM_VARIATIONS)
    for r in range(rounds):
        _, info = env.reset(seed=r)
        np.add.at(counts, info["task_index"], 1)
    env.close()
    expected = num_envs * rounds / family.NUM_VARIATIONS
    chi2 = float(np.sum((counts - expected) ** 2 / expected))
    # 49 degrees of freedom: P(chi2 > 100) is about 2e-5.
    assert chi2 < 100, f"variation counts far from uniform: chi2 {chi2}, {counts}"
    assert np.all(counts > 0)


def test_envpool_alias_and_options() -> None:
    """EnvPool's id works; bad options are refused with the key named."""
    env = envpool_x.make_gymnasium("MetaWorld/Reach-v3", num_envs=2)
    obs, info = env.reset(seed=0)
    assert obs.shape == (2, 39) and obs.dtype == np.float64
    assert np.all(obs[:, 36:] == 0), "goal hidden by default"
    assert list(info["task_id"]) == [43, 43]
    env.close()
    with pytest.raises(ValueError, match="task_index"):
        envpool_x.make_gymnasium("MetaWorldReach-v3", task_index=50)
    with pytest.raises(ValueError, match="task_seed"):
        envpool_x.make_gymnasium("MetaWorldReach-v3", task_seed=-1)
    with pytest.raises(ValueError, match="task_name"):
        envpool_x.make_gymnasium("MetaWorldReach-v3", task_name="push-v3")
    with pytest.raises(ValueError, match="xml_file"):
        envpool_x.make_gymnasium("MetaWorldReach-v3", xml_file="/tmp/x.xml")
    with pytest.raises(ValueError, match="frame_skip"):
        envpool_x.make_gymnasium("MetaWorld/Reach-v3", frame_skip=2)


def test_missing_metaworld_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the metaworld package, making a task says what to install."""
    import importlib.util

    family.assets_dir.cache_clear()
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda n, *a: None if n == "metaworld" else real(n, *a)
    )
    try:
        with pytest.raises(ImportError, match="pip install metaworld==3.1.1"):
            envpool_x.make_gymnasium("MetaWorldPush-v3")
    finally:
        family.assets_dir.cache_clear()


def _trace(num_threads: int) -> np.ndarray:
    env = envpool_x.make_gymnasium("MetaWorldPush-v3", num_envs=4, num_threads=num_threads)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=3)
    trace = [obs, info["task_index"][:, None]]
    for _ in range(30):
        obs, reward, _, _, _ = env.step(rng.uniform(-1, 1, (4, 4)).astype(np.float32))
        trace += [obs, reward[:, None]]
    env.close()
    return np.concatenate(trace, axis=1)


def test_trajectories_do_not_depend_on_thread_count() -> None:
    """Per-reset variation draws come from each env's own seed stream."""
    np.testing.assert_array_equal(_trace(1), _trace(2))


def test_each_id_runs_its_task() -> None:
    """Each id (and EnvPool's alias) runs the Meta-World task of its name: its
    task_name, and info["task_id"] is the task's place in Meta-World's (and
    EnvPool's) list of the 50 v3 tasks."""
    order = list(metaworld.env_dict.ALL_V3_ENVIRONMENTS)
    for name, suffix, _, _ in family.TASKS:
        for task in (family.task_id(suffix), family.envpool_id(suffix)):
            assert envpool_x.make_spec(task).env_config["task_name"] == name
            env = envpool_x.make_gymnasium(task, num_envs=1)
            _, info = env.reset(seed=0)
            assert int(info["task_id"][0]) == order.index(name), (task, name)
            env.close()
