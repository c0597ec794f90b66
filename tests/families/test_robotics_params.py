"""Per-env parameters of the gymnasium-robotics tasks (Fetch, Shadow Hand,
Adroit, Kitchen, the mazes; docs/params.md): set_params equals the config bit for bit,
gymnasium-robotics' env with its model arrays scaled the same way (after make,
so that its _env_setup warm-up is the task's own, as ours) is the oracle over a
whole episode, and the memory estimate counts the scaled arrays."""

from __future__ import annotations

import numpy as np
import pytest
from adroit_helpers import set_oracle_state as set_adroit_state
from model_param_helpers import VALUES, assert_same, scale_model, trajectory
from robotics_helpers import load_oracle, make_oracle, set_oracle_state

import envpool_x
from envpool_x import memory
from envpool_x.families import robotics as family

if not family.has_robotics():
    pytest.skip("envpool_x was built without the robotics tasks", allow_module_level=True)
mujoco = pytest.importorskip("mujoco")
gym = pytest.importorskip("gymnasium")
load_oracle(mujoco, gym, pytest.importorskip("gymnasium_robotics"))

#: Velocities (a site Jacobian times qvel) may differ in the last bits
#: (tests/families/test_robotics_fetch.py); everything else is equal.
ATOL = 1e-15


@pytest.mark.parametrize(
    "task_id",
    [
        "FetchPush-v4",
        "FetchPickAndPlaceDense-v4",
        "HandManipulateEggRotate-v1",
        "AdroitHandDoor-v1",
        "FrankaKitchen-v1",
        "PointMaze_UMaze-v3",
        "AntMaze_UMazeDense-v5",
    ],
)
def test_set_params_equals_config(task_id: str) -> None:
    """Envs 0 and 1 set to VALUES step bit for bit as a pool made with them
    over several episodes; env 2, left at 1, as a default pool's."""
    kw = {"num_envs": 3, "seed": 5}
    made = envpool_x.make_gymnasium(task_id, **kw, **VALUES)
    default = envpool_x.make_gymnasium(task_id, **kw)
    changed = envpool_x.make_gymnasium(task_id, **kw)
    changed.set_params(env_ids=[0, 1], **VALUES)
    ours = trajectory(changed, 120)
    assert_same(ours, trajectory(made, 120), rows=slice(0, 2))
    theirs = trajectory(default, 120)
    assert_same(ours, theirs, rows=slice(2, 3))
    assert not np.array_equal(ours[-1][:2], theirs[-1][:2])  # the values act
    changed.set_params(**dict.fromkeys(VALUES, 1.0))
    assert_same(trajectory(changed, 60, reset_seed=9), trajectory(default, 60, reset_seed=9))
    for env in (made, default, changed):
        env.close()


def _steps_to_truncation(ours: object, theirs: object, check: object, seed: int = 4) -> None:
    """Step both with the same random actions until their time limit; `check`
    compares each step's results."""
    rng = np.random.default_rng(seed)
    size = theirs.action_space.shape[0]  # type: ignore[attr-defined]
    for step in range(1000):
        a = rng.uniform(-1, 1, size).astype(np.float32)
        result = ours.step(a[None])  # type: ignore[attr-defined]
        t_result = theirs.step(a)  # type: ignore[attr-defined]
        check(f"step {step}", result, t_result)  # type: ignore[operator]
        if t_result[3]:
            assert result[3][0], f"step {step}: ours not truncated"
            return
        assert not result[3][0], f"step {step}: ours truncated early"
    raise AssertionError("no time limit within 1000 steps")


def _reward_close(where: str, reward: np.ndarray, t_reward: float) -> None:
    expected = np.float32(t_reward)
    assert abs(reward[0] - expected) <= np.spacing(np.abs(expected)), f"{where}: reward"


@pytest.mark.parametrize(
    "task_id", ["FetchPush-v4", "FetchSlideDense-v4", "HandManipulateBlock-v1"]
)
def test_matches_gymnasium_robotics_with_the_model_scaled(task_id: str) -> None:
    """From our reset state, set into gymnasium-robotics' env whose model
    arrays are scaled as VALUES: a whole episode of random actions agrees
    (Fetch's dt-scaled velocities read the scaled timestep on both sides)."""
    ours = envpool_x.make_gymnasium(task_id, num_envs=1, seed=1, **VALUES)
    theirs = make_oracle(task_id)
    theirs.reset(seed=1)
    scale_model(theirs.unwrapped.model, VALUES)
    ours.reset()
    set_oracle_state(theirs, ours.get_state(0))

    def check(where: str, result: tuple, t_result: tuple) -> None:
        obs, reward, _, _, info = result
        t_obs, t_reward, _, _, t_info = t_result
        for key in ("achieved_goal", "desired_goal", "observation"):
            diff = float(np.max(np.abs(obs[key][0] - t_obs[key])))
            assert diff <= ATOL, f"{where}: {key} differs by {diff}"
        _reward_close(where, reward, t_reward)
        assert info["is_success"][0] == t_info["is_success"], f"{where}: is_success"

    _steps_to_truncation(ours, theirs, check)
    ours.close()


def test_adroit_matches_gymnasium_robotics_with_the_model_scaled() -> None:
    """The same for an Adroit task (plain Box observation, bit for bit)."""
    ours = envpool_x.make_gymnasium("AdroitHandRelocate-v1", num_envs=1, seed=2, **VALUES)
    theirs = make_oracle("AdroitHandRelocate-v1")
    theirs.reset(seed=2)
    scale_model(theirs.unwrapped.model, VALUES)
    ours.reset()
    set_adroit_state(theirs, ours.get_state(0))

    def check(where: str, result: tuple, t_result: tuple) -> None:
        obs, reward, _, _, info = result
        t_obs, t_reward, _, _, t_info = t_result
        assert np.array_equal(obs[0], t_obs), f"{where}: observation"
        _reward_close(where, reward, t_reward)
        assert bool(info["success"][0]) == bool(t_info["success"]), f"{where}: success"

    _steps_to_truncation(ours, theirs, check)
    ours.close()


def test_declared_and_checked() -> None:
    spec = envpool_x.make_spec("FetchReach-v4")
    assert set(VALUES) <= set(spec.params)
    with pytest.raises(ValueError, match="body_mass_scale"):
        envpool_x.make_spec("FetchReach-v4", body_mass_scale=0.0)
    env = envpool_x.make_gymnasium("FetchReach-v4", num_envs=2)
    with pytest.raises(ValueError, match="shape"):
        env.set_params(gravity_scale=[1.0, 2.0, 3.0])
    np.testing.assert_array_equal(env.get_params()["gravity_scale"], [1.0, 1.0])
    env.close()


def test_memory_counts_the_scaled_arrays() -> None:
    spec = envpool_x.make_spec("FetchPush-v4", num_envs=4)
    copy = memory.param_copy_bytes(spec)
    assert copy > 0
    scaled = envpool_x.make_spec("FetchPush-v4", num_envs=4, dof_damping_scale=2.0)
    assert memory.estimate(scaled).resident - memory.estimate(spec).resident == 4 * copy
