"""The full Craftax game's player functions against craftax 1.6.1's, exactly.

Each of Craftax's game_logic functions that the player's own actions and
upkeep use (change_floor, do_crafting, place_block, drink_potion, boss_logic,
level_up_attributes, move_player, update_plants, update_player_intrinsics,
calculate_inventory_achievements; clip_inventory_and_intrinsics and
is_game_over) runs jitted on a packed state, and ours (the test hook
craftax_full_player_phases) on the same state; the whole packed results must
be equal. This file sweeps every action on Craftax's worlds, states its own
steps reach, and scrambled states, and checks the upkeep's branches;
test_craftax_full_player_actions.py checks crafting, placing, floors and moves.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "craftax_full_player_phases"):
    pytest.skip("built without the full Craftax player hooks", allow_module_level=True)

import craftax_full_oracle as oracle  # noqa: E402
from craftax_full_player_helpers import (  # noqa: E402
    DRINK_RED,
    LEVEL_UP_DEX,
    REST,
    SLEEP,
    SWEEPS,
    compare,
    edit,
    player,
    require,
    sweep_of,
    trajectory,
    world,
)

FUNCTIONS = oracle.PLAYER_FUNCTIONS


def scramble(base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``base`` with the player's surroundings and numbers drawn at random,
    thresholds and edges weighted up, so that a sweep reaches most branches."""
    row = base.copy()
    f = lambda name: oracle.field(row, name)  # noqa: E731
    level = int(rng.choice([0, 0, 1, 3, 5, 7, 8, 8]))
    f("player_level")[...] = level
    edge = [0, 1, 46, 47]
    x, y = (int(rng.choice(edge)) if rng.random() < 0.3 else int(rng.integers(2, 46)) for _ in "xy")
    f("player_position")[...] = (x, y)
    f("player_direction")[...] = rng.choice([1, 2, 3, 4, 1, 2, 3, 4, 0])
    near = (slice(max(x - 2, 0), x + 3), slice(max(y - 2, 0), y + 3))
    shape = f("map")[level][near].shape
    blocks = np.where(rng.random(shape) < 0.5, 2, rng.integers(0, 37, shape))
    f("map")[level][near] = blocks
    f("item_map")[level][near] = np.where(rng.random(shape) < 0.7, 0, rng.integers(0, 5, shape))
    f("mob_map")[level][near] = rng.random(shape) < 0.15
    f("light_map")[level][near] = rng.random(shape).astype(np.float32)
    strength, dexterity, intelligence = rng.integers(1, 6, 3)
    f("player_strength")[...] = strength
    f("player_dexterity")[...] = dexterity
    f("player_intelligence")[...] = intelligence
    top = 7 + 2 * dexterity
    f("player_health")[...] = rng.choice([8 + strength, 7 + strength, 0.5, 3.75, 0.0])
    for name in ("player_food", "player_drink", "player_energy"):
        f(name)[...] = rng.choice([0, 1, top - 1, top, top + 1])
    f("player_mana")[...] = rng.integers(0, 22)
    f("is_sleeping")[...] = rng.random() < 0.3
    f("is_resting")[...] = rng.random() < 0.3
    near_threshold = lambda t: rng.choice([t - 1, t - 0.5, t - 0.125, t, t + 0.5, rng.random() * t])  # noqa: E731
    f("player_hunger")[...] = near_threshold(25.0)
    f("player_thirst")[...] = near_threshold(20.0)
    f("player_fatigue")[...] = rng.choice([near_threshold(30.0), -near_threshold(10.0)])
    f("player_recover")[...] = rng.choice([near_threshold(25.0), -near_threshold(15.0)])
    f("player_recover_mana")[...] = np.float32(
        rng.choice([near_threshold(30.0), rng.random() * 30])
    )
    f("player_xp")[...] = rng.integers(0, 3)
    for name in (
        "wood",
        "stone",
        "coal",
        "iron",
        "diamond",
        "sapling",
        "ruby",
        "sapphire",
        "books",
    ):
        f(f"inventory.{name}")[...] = rng.choice([0, 1, 2, 3, 4, 99, 100])
    for name in ("pickaxe", "sword", "bow"):
        f(f"inventory.{name}")[...] = rng.integers(0, 5)
    for name in ("arrows", "torches"):
        f(f"inventory.{name}")[...] = rng.choice([0, 1, 98, 99, 100])
    f("inventory.armour")[...] = rng.integers(0, 3, 4)
    f("inventory.potions")[...] = rng.integers(0, 3, 6)
    f("potion_mapping")[...] = rng.permutation(6)
    f("monsters_killed")[level] = rng.choice([7, 8])
    f("achievements")[...] = rng.random(67) < 0.4
    f("growing_plants_mask")[...] = rng.random(10) < 0.7
    f("growing_plants_age")[...] = rng.integers(590, 602, 10)
    f("growing_plants_positions")[...] = rng.integers(-2, 50, (10, 2))
    f("boss_progress")[...] = rng.integers(6, 10)
    f("boss_timesteps_to_spawn_this_round")[...] = rng.integers(-1, 3)
    f("timestep")[...] = rng.choice([0, 99999, 100000])
    return row


def scrambled(count: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [scramble(world(0), rng) for _ in range(count)]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_sweep_worlds_and_steps(name: str) -> None:
    """Every action on Craftax's world and states its own steps reach."""
    compare(name, [world(0), *trajectory(0, 40, 20)])


@pytest.mark.slow
@pytest.mark.parametrize("name", FUNCTIONS)
def test_sweep_worlds_and_steps_exhaustive(name: str) -> None:
    states = [world(s) for s in range(3)]
    for seed in range(3):
        states += trajectory(seed, 400, 25)
    compare(name, states)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_sweep_scrambled(name: str) -> None:
    compare(name, scrambled(12, 1))


@pytest.mark.slow
@pytest.mark.parametrize("name", FUNCTIONS)
def test_sweep_scrambled_exhaustive(name: str) -> None:
    compare(name, scrambled(60, 2))
    compare(name, scrambled(20, 3), god_mode=True)


@pytest.mark.parametrize("which", SWEEPS)
def test_intrinsics_branches(which: str) -> None:
    """Sleep, rest, waking, hunger, thirst, fatigue, health and mana at their
    thresholds (and in the boss fight, where they cost nothing)."""
    o = compare(
        "update_player_intrinsics", scrambled(24, 4), sweep=sweep_of(which, (0, 1, SLEEP, REST))
    )
    actions = o.actions

    def before(name: str) -> np.ndarray:
        return o.before(name)[:, 0]

    def after(name: str) -> np.ndarray:
        return o.after(name)[:, 0]

    asleep, resting = before("is_sleeping") > 0, before("is_resting") > 0
    require((actions == SLEEP) & ~asleep & (after("is_sleeping") > 0), "falls asleep")
    require(asleep & (after("is_sleeping") == 0), "wakes up")
    require((actions == REST) & ~resting & (after("is_resting") > 0), "starts resting")
    require(resting & (after("is_resting") == 0), "stops resting")
    for name in ("player_food", "player_drink", "player_health", "player_energy"):
        require(after(name) < before(name), f"{name} drops")
    for name in ("player_energy", "player_health", "player_mana"):
        require(after(name) > before(name), f"{name} rises")
    boss = (before("player_level") == 8) & (before("player_hunger") > 24)
    require(boss & (after("player_hunger") == 0), "hunger in the boss fight")


@pytest.mark.parametrize("which", SWEEPS)
def test_potions_every_colour_and_effect(which: str) -> None:
    """Each potion with each of the six effects potion_mapping can give it."""
    states = []
    for shift in range(6):
        for health, count in ((3.5, 1), (9.0, 2), (0.25, 0)):
            states.append(
                edit(
                    world(0),
                    {
                        "potion_mapping": np.roll(np.arange(6), shift),
                        "inventory.potions": np.full(6, count),
                        "player_health": health,
                        "player_mana": 4,
                        "player_energy": 2,
                    },
                )
            )
    o = compare("drink_potion", states, sweep=sweep_of(which, (0, 5, *range(29, 35))))
    drank, mapping = o.changed("inventory.potions"), o.before("potion_mapping")
    for colour in range(6):
        for effect in range(6):
            hit = (o.actions == DRINK_RED + colour) & (mapping[:, colour] == effect)
            require(drank & hit & o.changed("achievements"), (colour, effect))
    require(~drank & (o.actions == DRINK_RED), "no potion to drink")


@pytest.mark.parametrize("which", SWEEPS)
def test_attributes_with_and_without_xp(which: str) -> None:
    states = []
    for xp in (0, 1, 2):
        for level in (1, 4, 5):
            states.append(
                edit(
                    world(0),
                    {
                        "player_xp": xp,
                        "player_dexterity": level,
                        "player_strength": level,
                        "player_intelligence": 6 - level,
                    },
                )
            )
    sweep = sweep_of(which, (0, 38, 39, 40, 41, 42))
    o = compare("level_up_attributes", states, sweep=sweep)
    compare("level_up_attributes", states, sweep=sweep, max_attribute=2)
    for k, name in enumerate(("player_dexterity", "player_strength", "player_intelligence")):
        require(o.changed(name) & (o.actions == LEVEL_UP_DEX + k), f"{name} levels up")
    no_xp = (o.before("player_xp")[:, 0] == 0) & (o.actions == LEVEL_UP_DEX)
    require(no_xp & ~o.changed("player_dexterity"), "no xp")
    capped = (o.before("player_dexterity")[:, 0] == 5) & (o.actions == LEVEL_UP_DEX)
    require(capped & ~o.changed("player_dexterity"), "at the cap")


def test_boss_clock_and_victory() -> None:
    states = [
        edit(
            world(0),
            {
                "player_level": level,
                "boss_progress": progress,
                "boss_timesteps_to_spawn_this_round": clock,
            },
        )
        for level in (0, 7, 8)
        for progress in (0, 7, 8, 9)
        for clock in (0, 3)
    ]
    o = compare("boss_logic", states, np.zeros(len(states), np.int32))
    require(o.changed("boss_timesteps_to_spawn_this_round"), "the boss clock runs")
    require(o.changed("achievements"), "the necromancer is beaten")


def test_plants_ripen_on_the_overworld() -> None:
    """Saplings at 598..600 steps, free slots, positions off the map, and the
    player on another floor."""
    rng = np.random.default_rng(5)
    states = []
    for k in range(12):
        row = edit(
            world(0),
            {
                "player_level": [0, 3][k % 2],
                "growing_plants_mask": rng.random(10) < 0.8,
                "growing_plants_age": rng.integers(597, 601, 10),
                "growing_plants_positions": rng.integers(0, 48, (10, 2)),
            },
        )
        oracle.field(row, "growing_plants_positions")[:3] = ((-1, 5), (48, 3), (-49, 0))
        for x, y in oracle.field(row, "growing_plants_positions")[3:]:
            oracle.field(row, "map")[0, int(x), int(y)] = 15
        states.append(row)
    o = compare("update_plants", states, np.zeros(len(states), np.int32))
    require(o.changed("map"), "a plant ripens")


def test_inventory_achievements() -> None:
    rng = np.random.default_rng(6)
    states = []
    for k in range(20):
        changes = {f"inventory.{n}": rng.integers(0, 2) for n in ("wood", "stone", "coal", "iron")}
        changes |= {f"inventory.{n}": rng.integers(0, 2) for n in ("diamond", "ruby", "sapphire")}
        changes |= {f"inventory.{n}": rng.integers(0, 2) for n in ("sapling", "bow", "arrows")}
        changes |= {"inventory.torches": rng.integers(0, 2), "achievements": np.zeros(67)}
        changes |= {"inventory.pickaxe": k % 5, "inventory.sword": (k + 2) % 5}
        states.append(edit(world(0), changes))
    o = compare("calculate_inventory_achievements", states, np.zeros(20, np.int32))
    gained = o.after("achievements") != o.before("achievements")
    assert gained.any(axis=0).sum() == 19, "each of the 19 inventory achievements"


def test_clip_inventory_and_intrinsics() -> None:
    """The shared cap (utils.h), above and below every limit, and in god mode."""
    rng = np.random.default_rng(7)
    states = [scramble(world(0), rng) for _ in range(10)]
    for row in states:
        oracle.field(row, "player_health")[...] = rng.choice([-1.5, 0.0, 8.5, 20.0])
        oracle.field(row, "player_mana")[...] = rng.choice([-2, 30])
    compare("clip_inventory_and_intrinsics", states, np.zeros(10, np.int32))
    compare("clip_inventory_and_intrinsics", states, np.zeros(10, np.int32), god_mode=True)


def test_is_game_over() -> None:
    states = [
        edit(world(0), {"timestep": t, "player_health": h, "boss_progress": b})
        for t in (0, 99999, 100000)
        for h in (-0.5, 0.0, 0.25, 9.0)
        for b in (7, 8)
    ]
    expected = oracle.is_game_over_batch(np.stack(states))
    got = [_core.craftax_full_is_game_over(s.tolist()) for s in states]
    np.testing.assert_array_equal(got, expected)
    assert expected.any() and not expected.all()
    short = oracle.PARAMS.replace(max_timesteps=50)
    expected = oracle.is_game_over_batch(np.stack(states), short)
    got = [_core.craftax_full_is_game_over(s.tolist(), {"max_timesteps": 50}) for s in states]
    np.testing.assert_array_equal(got, expected)


def test_phase_by_name() -> None:
    """The single-state hook agrees with the batch one; a wrong name raises."""
    row = world(0)
    level, x, y = player(row)
    one = _core.craftax_full_player_phase("move_player", row.tolist(), 2)
    batch = _core.craftax_full_player_phases("move_player", row[None], np.array([2], np.int32))
    np.testing.assert_array_equal(one, batch[0])
    with pytest.raises(ValueError):
        _core.craftax_full_player_phase("do_action", row.tolist(), 0)
