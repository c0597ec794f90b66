"""Craftax-Symbolic-v1 and Craftax-Pixels-v1 in the CPU pool: the ids and
options EnvPool registers, what a step returns agrees with the game state the
env holds (observation, achievements and their info keys as Craftax logs
them), runs repeat whatever the threads, and the profiler's breakdown."""

from __future__ import annotations

import numpy as np
import pytest

import envpool_x

_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "CraftaxSymbolic"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

from envpool_x.families import craftax as family  # noqa: E402

TASK = "Craftax-Symbolic-v1"


def run(num_threads: int, steps: int = 150) -> tuple[list[np.ndarray], object]:
    env = envpool_x.make_gymnasium(TASK, num_envs=6, seed=4, num_threads=num_threads)
    obs, _ = env.reset()
    actions = np.random.default_rng(0).integers(0, 43, size=(steps, 6))
    seen = [obs]
    for a in actions:
        obs, reward, terminated, truncated, info = env.step(a)
        seen += [obs, reward, terminated, info["achievements"]]
    return seen, env


def test_spaces_and_ids_are_envpools() -> None:
    for task, shape in [
        ("Craftax-Symbolic-v1", (8268,)),
        ("Craftax/Symbolic-AutoReset-v1", (8268,)),
        ("Craftax-Pixels-v1", (130, 110, 3)),
        ("Craftax/Pixels-AutoReset-v1", (130, 110, 3)),
    ]:
        spec = envpool_x.make_spec(task)
        assert spec.observation_space.shape == shape, task
        assert spec.observation_space.dtype == np.float32
        assert spec.action_space.n == 43
        assert spec.max_episode_steps == 100000
        assert spec.config.autoreset_mode == ("same_step" if "AutoReset" in task else "next_step")
    config = envpool_x.make_spec(TASK).config
    # EnvPool's full-game EnvParams defaults.
    assert (config.day_length, config.always_diamond, config.god_mode) == (300, False, False)
    assert (config.mob_despawn_distance, config.max_attribute) == (14, 5)


@pytest.mark.parametrize(
    ("option", "value"),
    [("day_length", 0), ("max_attribute", -1), ("mob_despawn_distance", 0), ("god_mode", 2)],
)
def test_bad_options_are_refused(option: str, value: int) -> None:
    with pytest.raises((ValueError, TypeError), match=option):
        envpool_x.make_gymnasium(TASK, num_envs=1, **{option: value})


def test_classic_only_options_are_unknown_keys() -> None:
    # EnvPool's config lists Craftax-Classic's spawn and health keys for the
    # full game too, where its step never reads them; here they are refused.
    with pytest.raises(KeyError, match="zombie_health"):
        envpool_x.make_gymnasium(TASK, num_envs=1, zombie_health=5)


def test_observation_and_achievements_are_the_held_state() -> None:
    seen, env = run(num_threads=2)
    sim = _core.CraftaxSim()
    for i in range(6):
        state = np.asarray(env._pool.get_state(i))
        sim.set_state(state.tolist())
        np.testing.assert_array_equal(sim.obs(), seen[-4][i])
        achievements = state[-(67 + 3) : -3].astype(np.int8)  # before state_rng and timestep
        np.testing.assert_array_equal(achievements, seen[-1][i])
    env.close()


def test_same_seed_same_run_whatever_the_threads() -> None:
    a, env_a = run(num_threads=1)
    b, env_b = run(num_threads=3)
    env_a.close()
    env_b.close()
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


CELLS = 48 * 48
DESCEND = 18


def floors(state: list[float]) -> np.ndarray:
    """The packed state's per-floor block, item and light maps and ladders, one
    row a floor (the mob map left out: mobs move)."""
    packed = np.asarray(state)
    maps = packed[: 4 * 9 * CELLS].reshape(4, 9, CELLS)
    ladders = packed[4 * 9 * CELLS : 4 * 9 * CELLS + 36].reshape(2, 9, 2)
    return np.concatenate([maps[0], maps[1], maps[3], ladders.transpose(1, 0, 2).reshape(9, 4)], 1)


def test_floors_made_on_the_way_down_are_the_ones_a_reset_promised() -> None:
    """A reset makes the overworld; each deeper floor is made when the player
    first goes down to it. get_state shows every floor (making the missing
    ones on a copy): the floors reached later are those, and asking does not
    change the run."""
    asked = envpool_x.make_gymnasium(TASK, num_envs=2, seed=9, god_mode=True)
    quiet = envpool_x.make_gymnasium(TASK, num_envs=2, seed=9, god_mode=True)
    asked.reset()
    quiet.reset()
    promised = [floors(asked._pool.get_state(i)) for i in range(2)]
    assert all(len(np.unique(f[:, :CELLS], axis=0)) == 9 for f in promised)  # nine floors
    for depth in range(1, 9):
        a = asked.step(np.full(2, DESCEND))
        q = quiet.step(np.full(2, DESCEND))
        for x, y in zip(a, q, strict=True):
            np.testing.assert_equal(x, y)
        for i in range(2):
            state = asked._pool.get_state(i)
            position = 4 * 9 * CELLS + 36 + 9 + 9
            assert state[position + 2] == depth  # player_level
            # Standing on the new floor's up ladder (a floor not made has none).
            np.testing.assert_array_equal(state[position : position + 2], promised[i][depth, -2:])
            np.testing.assert_array_equal(floors(state), promised[i])
    asked.close()
    quiet.close()


def test_achievement_names_are_craftaxs() -> None:
    craftax = pytest.importorskip("craftax.craftax.constants")
    names = [""] * len(craftax.Achievement)
    for achievement in craftax.Achievement:
        names[achievement.value] = achievement.name.lower()
    assert tuple(names) == family.FULL_ACHIEVEMENTS


def test_achievement_info_as_craftax_logs_it() -> None:
    pytest.importorskip("craftax")
    import craftax_full_oracle as oracle
    import jax.numpy as jnp
    from craftax.craftax.envs.common import log_achievements_to_info

    env = envpool_x.make_gymnasium(TASK, num_envs=4, seed=2)
    env.reset()
    rng = np.random.default_rng(0)
    ended = 0
    keys = family.FULL_ACHIEVEMENT_KEYS
    for _ in range(3000):
        _, _, term, trunc, info = env.step(rng.integers(0, 43, size=4))
        done = term | trunc
        for i in range(4):
            if not done[i]:
                assert all(info[k][i] == 0 for k in keys)
                continue
            unlocked = jnp.asarray(info["achievements"][i].astype(bool))
            state = oracle.new_world(0).replace(achievements=unlocked)
            expected = log_achievements_to_info(state, True)
            for key in keys:
                assert info[key][i] == np.float32(expected[key]), key
        ended += int(done.sum())
        if ended >= 3:
            break
    assert ended >= 3
    env.close()


def test_render_is_the_pixel_view() -> None:
    pytest.importorskip("craftax")
    env = envpool_x.make_gymnasium(TASK, num_envs=1, seed=1, render_mode="rgb_array")
    env.reset()
    frame = np.asarray(env.render())
    assert frame.shape[-3:] == (13 * 16, 11 * 16, 3) and frame.dtype == np.uint8
    state = env._pool.get_state(0)
    expected = np.asarray(_core.craftax_full_pixels(state, 16))
    np.testing.assert_array_equal(frame.reshape(expected.shape), np.rint(expected).clip(0, 255))
    env.close()


def test_profile_names_every_part_of_a_step() -> None:
    parts = dict(_core.craftax_profile(False, {}, 4, 2000, 0, True))
    names = {"reset", "draws", "player", "mobs", "spawns", "upkeep", "obs"}
    assert names <= set(parts)
    assert all(np.isfinite(parts[k]) and parts[k] >= 0.0 for k in names)
    assert parts["resets"] >= 1  # random play dies within 2,000 steps of 4 envs
