"""Craftax-Classic-Symbolic-v1 in the CPU pool: what it returns agrees with the
game state it holds, and runs repeat whatever the threads."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x

_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "CraftaxClassic"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

TASK = "Craftax-Classic-Symbolic-v1"


def run(num_threads: int, steps: int = 120) -> tuple[list[np.ndarray], object]:
    env = envpool_x.make_gymnasium(TASK, num_envs=6, seed=4, num_threads=num_threads)
    obs, _ = env.reset()
    actions = np.random.default_rng(0).integers(0, 17, size=(steps, 6))
    seen = [obs]
    for a in actions:
        obs, reward, terminated, truncated, info = env.step(a)
        seen += [obs, reward, terminated, info["achievements"]]
    return seen, env


def test_observation_is_the_held_state_s() -> None:
    seen, env = run(num_threads=2)
    sim = _core.CraftaxClassicSim()
    for i in range(6):
        sim.set_state(env._pool.get_state(i))
        np.testing.assert_array_equal(sim.obs(), seen[-4][i])
        state = np.asarray(env._pool.get_state(i))
        achievements = state[-25:-3].astype(np.int8)  # before the timestep and state_rng
        np.testing.assert_array_equal(achievements, seen[-1][i])
    env.close()


def test_same_seed_same_run_whatever_the_threads() -> None:
    a, env_a = run(num_threads=1)
    b, env_b = run(num_threads=3)
    env_a.close()
    env_b.close()
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


def test_bad_action_is_refused() -> None:
    env = envpool_x.make_gymnasium(TASK, num_envs=1)
    env.reset()
    with pytest.raises(ValueError):
        env.step(np.array([17]))
    env.close()


def test_profile_names_every_part_of_a_step() -> None:
    # The benchmark's breakdown (bench_craftax.py): every part timed, episodes ended.
    parts = dict(_core.craftax_profile(False, {}, 4, 3000, 0))
    names = {"reset", "draws", "player", "mobs", "spawns", "upkeep", "obs"}
    assert names <= set(parts)
    assert all(np.isfinite(parts[k]) and parts[k] >= 0.0 for k in names)
    assert sum(parts[k] for k in names) > 0.0
    assert parts["resets"] >= 1  # random play dies within 3,000 steps of 4 envs
    with pytest.raises(ValueError, match="positive"):
        _core.craftax_profile(False, {}, 0, 10, 0)


def _gymnasium_info_rows(task: str, actions: np.ndarray) -> list[dict[str, np.ndarray]]:
    """The achievement info of each step of a gymnasium run of ``actions``."""
    from envpool_x.families import craftax

    env = envpool_x.make_gymnasium(task, num_envs=actions.shape[1], seed=7, max_episode_steps=60)
    env.reset()
    keys = (*craftax._KEYS_BY_COUNT[env.spec._desc["info"][0]["shape"][0]], "score")
    rows = []
    for a in actions:
        info = env.step(a)[-1]
        rows.append({k: np.asarray(info[k]) for k in keys})
    return rows


@pytest.mark.parametrize("task", [TASK, "Craftax-Symbolic-v1"])
def test_dm_env_carries_envpools_achievement_fields(task: str) -> None:
    """EnvPool's dm_env observation has Achievements_<name> and score: the
    gymnasium front end's info values, step for step."""
    actions = np.random.default_rng(1).integers(0, 17, size=(160, 8))
    expected = _gymnasium_info_rows(task, actions)
    env = envpool_x.make_dm(task, num_envs=8, seed=7, max_episode_steps=60)
    spec = env.observation_spec()
    for key in expected[0]:
        name = key.replace("/", "_")
        assert name in spec._fields and spec._asdict()[name].dtype == np.float32
    env.reset()
    ended = 0
    for a, want in zip(actions, expected, strict=True):
        obs = env.step(a).observation._asdict()
        for key, values in want.items():
            np.testing.assert_array_equal(obs[key.replace("/", "_")], values, err_msg=key)
        ended += int(np.count_nonzero(want["score"]))
    assert ended > 0  # some episode ended with an achievement, so the values were not all 0


@pytest.mark.parametrize("flavour", ["gymnasium", "dm"])
def test_xla_results_carry_the_achievement_info(flavour: str) -> None:
    """env.xla()'s traced results hold the same derived info as the eager ones
    (the score to a float32 rounding: XLA's log and exp are not numpy's)."""
    jax = pytest.importorskip("jax")
    actions = np.random.default_rng(2).integers(0, 17, size=(160, 8)).astype(np.int32)
    expected = _gymnasium_info_rows(TASK, actions)
    make = envpool_x.make_gymnasium if flavour == "gymnasium" else envpool_x.make_dm
    env = make(TASK, num_envs=8, seed=7, max_episode_steps=60)
    env.reset()
    handle, _, _, step = env.xla()
    step = jax.jit(step)
    ended = 0
    for a, want in zip(actions, expected, strict=True):
        handle, result = step(handle, a)
        got = result[-1] if flavour == "gymnasium" else result.observation._asdict()
        for key, values in want.items():
            name = key if flavour == "gymnasium" else key.replace("/", "_")
            np.testing.assert_allclose(np.asarray(got[name]), values, rtol=1e-6, err_msg=key)
        ended += int(np.count_nonzero(want["score"]))
    assert ended > 0
