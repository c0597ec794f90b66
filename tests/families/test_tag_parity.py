"""TagGridworld-v0 and TagContinuous-v0 against WarpDrive itself.

WarpDrive 2.7.1's numba step kernels (the oracle, tests/oracles/warpdrive_oracle.py,
run under numba's CUDA simulator in a subprocess) start from each episode's
first state of our envs and take the same actions: every step of whole
episodes must give the same positions (the full state), observations,
rewards and done flags, for full and partial observation. For the grid,
WarpDrive's numpy class TagGridWorld is a second reference (observations,
rewards, episode ends). Also: the same trajectories whatever the thread count.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import envpool_x
from conftest import run_python

if importlib.util.find_spec("example_envs") is None:  # WarpDrive's kernels
    pytest.skip(
        "WarpDrive is not installed: pip install --no-deps rl-warp-drive==2.7.1 (README)",
        allow_module_level=True,
    )

ORACLE = Path(__file__).resolve().parents[1] / "oracles" / "warpdrive_oracle.py"

# Small worlds so that tags, wall hits and both episode ends all happen.
GRID = dict(num_taggers=3, grid_length=5, episode_length=25, tag_penalty_for_runner=2.0)
CONTINUOUS = dict(
    num_taggers=3,
    num_runners=5,
    grid_length=4.0,
    episode_length=30,
    num_other_agents_observed=4,
    tagging_distance=0.15,
    edge_hit_penalty=-0.5,
    step_penalty_for_tagger=-0.01,
    step_reward_for_runner=0.02,
    max_acceleration=0.3,
    min_acceleration=-0.3,
)


def play(task: str, config: dict[str, Any], num_envs: int, steps: int, seed: int, threads: int):
    """Our env under random actions: per env, its episodes as (first state,
    first obs, then per step: actions, obs, reward, done, state)."""
    env = envpool_x.make_gymnasium(
        task, num_envs=num_envs, seed=seed, num_threads=threads, **config
    )
    rng = np.random.default_rng(seed)
    obs, _ = env.reset()
    episodes: list[list[dict[str, Any]]] = [[] for _ in range(num_envs)]
    for e in range(num_envs):
        episodes[e].append({"state": env.get_state(e), "obs": obs[e], "steps": []})
    ended = np.zeros(num_envs, bool)
    for _ in range(steps):
        shape = (num_envs, *env.action_space.shape)
        act = rng.integers(0, env.action_space.nvec, size=shape).astype(np.int32)
        obs, rew, term, trunc, info = env.step(act)
        for e in range(num_envs):
            state = env.get_state(e)
            if ended[e]:  # next_step autoreset: this row is the next episode's start
                episodes[e].append({"state": state, "obs": obs[e], "steps": []})
            else:
                row = (act[e], obs[e], rew[e], bool(term[e] or trunc[e]), state, info["active"][e])
                episodes[e][-1]["steps"].append(row)
        ended = term | trunc
    env.close()
    return [[ep for ep in env_eps if ep["steps"] and ep["steps"][-1][3]] for env_eps in episodes]


def oracle(tmp_path: Path, task: str, config: dict[str, Any], batch: list[dict[str, Any]]):
    """WarpDrive's run of these episodes (one per env, padded to the longest)."""
    steps = max(len(ep["steps"]) for ep in batch)
    shape = batch[0]["steps"][0][0].shape
    actions = np.zeros((len(batch), steps, *shape), np.int32)
    for e, ep in enumerate(batch):
        for k, row in enumerate(ep["steps"]):
            actions[e, k] = row[0]
    src, dst = tmp_path / "in.npz", tmp_path / "out.npz"
    np.savez(
        src,
        task=task,
        config=json.dumps(config),
        states=np.stack([ep["state"] for ep in batch]),
        actions=actions,
    )
    run_python([str(ORACLE), str(src), str(dst)], cwd=tmp_path, timeout=300)
    return np.load(dst)


def check_parity(tmp_path: Path, task_id: str, task: str, config: dict[str, Any]) -> int:
    full = envpool_x.make_spec(task_id, **config).env_config
    episodes = play(task_id, config, num_envs=3, steps=3 * config["episode_length"], seed=3,
                    threads=2)  # fmt: skip
    compared = 0
    for k in range(min(len(eps) for eps in episodes)):
        batch = [eps[k] for eps in episodes]
        ref = oracle(tmp_path, task, full, batch)
        for e, ep in enumerate(batch):
            np.testing.assert_array_equal(ep["obs"], ref["reset_obs"][e], err_msg=f"env {e} reset")
            if "np_obs" in ref:
                np.testing.assert_array_equal(ep["obs"], np.float32(ref["np_obs"][e, 0]))
            for t, (_, obs, rew, done, state, active) in enumerate(ep["steps"]):
                where = f"env {e}, episode {k}, step {t + 1}"
                np.testing.assert_array_equal(state, ref["state"][e, t], err_msg=where)
                np.testing.assert_array_equal(obs, ref["obs"][e, t], err_msg=where)
                np.testing.assert_array_equal(rew, ref["reward"][e, t], err_msg=where)
                assert done == bool(ref["done"][e, t]), where
                if task == "continuous":  # active: in the game after the step
                    np.testing.assert_array_equal(active, state[-len(active) :] != 0, where)
                if "np_obs" in ref:  # WarpDrive's numpy class, in float64
                    np.testing.assert_array_equal(obs, np.float32(ref["np_obs"][e, t + 1]), where)
                    # float32 sums here, float64 there: one rounding apart
                    np.testing.assert_allclose(rew, ref["np_reward"][e, t], atol=1e-6, rtol=0)
                    assert done == bool(ref["np_done"][e, t]), where
                compared += 1
    return compared


@pytest.mark.parametrize(
    "full",
    [
        pytest.param(True, id="full_obs"),
        pytest.param(False, id="partial_obs", marks=pytest.mark.slow),  # ENVPOOL_X_SLOW=1
    ],
)
def test_grid_matches_warpdrive(tmp_path: Path, full: bool) -> None:
    config = dict(GRID, use_full_observation=full)
    assert check_parity(tmp_path, "TagGridworld-v0", "grid", config) >= 30


@pytest.mark.parametrize(
    ("full", "exits"),
    [
        pytest.param(True, True, id="full_obs", marks=pytest.mark.slow),  # ENVPOOL_X_SLOW=1
        pytest.param(False, True, id="partial_obs"),
        pytest.param(False, False, id="runners_stay", marks=pytest.mark.slow),
    ],
)
def test_continuous_matches_warpdrive(tmp_path: Path, full: bool, exits: bool) -> None:
    config = dict(CONTINUOUS, use_full_observation=full, runner_exits_game_after_tagged=exits)
    assert check_parity(tmp_path, "TagContinuous-v0", "continuous", config) >= 30


@pytest.mark.parametrize("task_id", ["TagGridworld-v0", "TagContinuous-v0"])
def test_same_trajectories_for_any_thread_count(task_id: str) -> None:
    config = GRID if task_id.startswith("TagGrid") else CONTINUOUS
    runs = [play(task_id, config, num_envs=5, steps=60, seed=11, threads=n) for n in (1, 2, 3)]
    for other in runs[1:]:
        for ours, theirs in zip(runs[0], other, strict=True):
            assert len(ours) == len(theirs)
            for a, b in zip(ours, theirs, strict=True):
                np.testing.assert_array_equal(a["state"], b["state"])
                for ra, rb in zip(a["steps"], b["steps"], strict=True):
                    for x, y in zip(ra, rb, strict=True):
                        np.testing.assert_array_equal(x, y)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
