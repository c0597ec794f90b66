"""The full Craftax game's DO action against craftax 1.6.1's own do_action.

Each case hands the same packed state, action and float32 draws to Craftax's
function (compiled once, its draws from tests/oracles/craftax_full_oracle.py)
and to ours (the hook ``_core.craftax_full_action_phase``); the states after
must agree number for number and both must take the same draws. States are
Craftax's own worlds and states its own step reached by random actions, and
worlds edited so that each branch happens: every block in front with every
pickaxe, chests on every floor with every loot outcome, water, fountains,
plants, every mob in front, the necromancer, and cells outside the map.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "craftax_full_action_phase"):
    pytest.skip("built without the full Craftax action hook", allow_module_level=True)

import craftax_full_oracle as oracle  # noqa: E402
import craftax_full_oracle_more as oracle_more  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from conftest import ci_sample  # noqa: E402

DO = 5
DRAWS_PER_DO = 19  # the sapling's chance, then the chest's 18 loot draws
#: Craftax's BlockType values: tree, stone, grass, water, ripe plant, ...
TREE, FIRE_TREE, ICE_SHRUB = 5, 28, 29
WATER, STONE, PATH, PLANT, RIPE_PLANT, CHEST, FOUNTAIN = 3, 4, 7, 15, 16, 23, 24
NECROMANCER, NECROMANCER_VULNERABLE = 32, 36
NUM_BLOCKS = 37


def draws_from(rng: np.random.Generator, n: int = 24) -> np.ndarray:
    """``n`` float32 uniforms in [0, 1) with 24 random bits (more than any
    action function takes, so that a count that differs shows)."""
    return (rng.integers(0, 2**24, size=n) / 2**24).astype(np.float32)


def check(
    name: str, state: Any, action: int, draws: Any, what: str = "", packed: Any = None
) -> Any:
    """Run Craftax's ``name`` and ours on ``state`` (``packed``: the state
    packed, when the caller has it); the states after and the draws taken must
    agree. Returns Craftax's state after."""
    draws = [float(d) for d in draws]
    expected_state, expected_used = oracle_more.run_action(name, state, action, draws)
    packed = oracle.pack_state(state) if packed is None else packed
    got, used = _core.craftax_full_action_phase(name, packed, action, draws)
    expected = np.asarray(oracle.pack_state(expected_state))
    got = np.asarray(got)
    differ = np.nonzero(expected != got)[0]
    if differ.size:
        detail = [
            f"{oracle.field_at(int(i))}: Craftax {expected[i]!r}, ours {got[i]!r}"
            for i in differ[:8]
        ]
        pytest.fail(f"{name} action {action} {what}: {differ.size} numbers differ: {detail}")
    assert used == expected_used, (
        f"{name} action {action} {what}: {used} draws, Craftax took {expected_used}"
    )
    return expected_state


@functools.cache
def world(seed: int = 1) -> Any:
    return oracle.new_world(seed)


@functools.cache
def rollout_states(seed: int, steps: int) -> tuple[Any, ...]:
    """States Craftax's own step reaches from world ``seed`` by random actions
    (more DO and movement than the rest, so that the player meets blocks)."""
    rng = np.random.default_rng(seed)
    weights = np.ones(43)
    weights[:6] = 6.0
    weights /= weights.sum()
    step = oracle.real_step()
    state = world(seed)
    keys = np.random.default_rng([seed, 7])
    states = []
    for _ in range(steps):
        key = keys.integers(0, 2**32, size=2, dtype=np.uint32)
        state, _, done = step(state, jnp.int32(rng.choice(43, p=weights)), key)
        if bool(done):
            break
        states.append(state)
    return tuple(states)


def test_do_takes_the_same_draws_whatever_the_action() -> None:
    state = oracle_more.facing(world(), STONE, level=0)
    rng = np.random.default_rng(0)
    for action in (0, DO, 6, 24, 42):
        got, used = _core.craftax_full_action_phase(
            "do_action", oracle.pack_state(state), action, draws_from(rng).tolist()
        )
        assert used == DRAWS_PER_DO == _core.craftax_full_do_action_draws
        check("do_action", state, action, draws_from(rng))


@pytest.mark.parametrize("level", ci_sample([0, 3, 8], {0}))
def test_every_block_with_every_pickaxe(level: int) -> None:
    """DO on each block type, with pickaxes 0 (none) to 4 (diamond); the
    sapling's chance both ways on grass."""
    rng = np.random.default_rng(level)
    base = world()
    changed = 0
    for block in range(NUM_BLOCKS):
        for pickaxe in range(5):
            state = oracle_more.facing(
                base, block, level=level, direction=1 + (block + pickaxe) % 4
            )
            state = state.replace(inventory=state.inventory.replace(pickaxe=jnp.int32(pickaxe)))
            draws = draws_from(rng)
            draws[0] = 0.05 if pickaxe % 2 else 0.5
            after = check("do_action", state, DO, draws, f"block {block} pickaxe {pickaxe}")
            changed += not np.array_equal(np.asarray(after.map), np.asarray(state.map))
    assert changed > 50  # most blocks are mined with the right pickaxe


def test_trees_give_wood_and_their_ground() -> None:
    for block, ground in ((TREE, 2), (FIRE_TREE, 25), (ICE_SHRUB, 26)):
        state = oracle_more.facing(world(), block, level=0, direction=2)
        after = check("do_action", state, DO, draws_from(np.random.default_rng(block)))
        assert int(after.map[0, 24, 25]) == ground
        assert int(after.inventory.wood) == int(state.inventory.wood) + 1


@pytest.mark.parametrize("level", range(9))
def test_chests_on_every_floor(level: int) -> None:
    """Opening a chest, its floor's first or not (the bow on floor 1, books on
    3 and 4), with random loot draws."""
    rng = np.random.default_rng(100 + level)
    for opened in (False, True):
        for _ in range(2):
            state = oracle_more.facing(world(2), CHEST, level=level, direction=3)
            state = state.replace(chests_opened=state.chests_opened.at[level].set(opened))
            state = state.replace(
                inventory=state.inventory.replace(
                    pickaxe=jnp.int32(rng.integers(0, 5)), sword=jnp.int32(rng.integers(0, 5))
                )
            )
            after = check("do_action", state, DO, draws_from(rng), f"floor {level}")
            assert bool(after.chests_opened[level])
            assert int(after.map[level, 23, 24]) == PATH


def _loot_sweep(points: tuple[float, ...], samples: int, levels: tuple[int, ...]) -> None:
    """add_items_from_chest with each loot draw swept over ``points`` (the
    others random), opening or not, on floors with special loot."""
    rng = np.random.default_rng(5)
    for level in levels:
        state = oracle_more.facing(world(3), CHEST, level=level)
        for index in range(18):
            for point in points:
                draws = draws_from(rng)
                draws[index] = point
                check("add_items_from_chest", state, 1, draws, f"draw {index} = {point}")
        for _ in range(samples):
            check("add_items_from_chest", state, int(rng.integers(0, 2)), draws_from(rng))


def test_chest_loot_outcomes() -> None:
    # Just under and over every threshold Craftax compares with.
    _loot_sweep((0.19, 0.26, 0.59, 0.61, 0.99), 8, (1,))


@pytest.mark.slow
def test_chest_loot_outcomes_exhaustive() -> None:
    points = tuple(np.linspace(0.0, 0.999, 41).astype(np.float32).tolist())
    _loot_sweep(points, 50, (0, 1, 3, 4))


def test_drinking_water_and_fountains() -> None:
    rng = np.random.default_rng(7)
    for block in (WATER, FOUNTAIN):
        for drink, dexterity in ((0, 1), (8, 1), (9, 1), (9, 2), (12, 3)):
            state = oracle_more.facing(world(), block, level=0, direction=4)
            state = state.replace(
                player_drink=jnp.int32(drink),
                player_dexterity=jnp.int32(dexterity),
                player_thirst=jnp.float32(rng.uniform(0, 20)),
            )
            after = check("do_action", state, DO, draws_from(rng), f"drink {drink}")
            assert float(after.player_thirst) == 0.0


def test_eating_plants() -> None:
    """Ripe and unripe plants, the plant's slot anywhere in the growing plants
    (or none: Craftax then resets slot 0)."""
    rng = np.random.default_rng(8)
    for block in (RIPE_PLANT, PLANT):
        for slot in (None, 0, 4, 9):
            state = oracle_more.facing(world(), block, level=0, direction=1)
            positions = rng.integers(0, 48, size=(10, 2)).astype(np.int32)
            if slot is not None:
                positions[slot] = (24, 23)
            state = state.replace(
                growing_plants_positions=jnp.asarray(positions),
                growing_plants_age=jnp.asarray(rng.integers(0, 600, size=10), jnp.int32),
                growing_plants_mask=jnp.asarray(rng.integers(0, 2, size=10), bool),
                player_food=jnp.int32(rng.integers(0, 10)),
                player_hunger=jnp.float32(rng.uniform(0, 20)),
            )
            check("do_action", state, DO, draws_from(rng), f"block {block} slot {slot}")


def _mob_case(rng: np.random.Generator, base: Any, mob_class: int, level: int) -> tuple[Any, str]:
    """A mob of ``mob_class`` (random type, health, slot) in front of a player
    with a random sword, enchantment, strength and intelligence."""
    type_id = int(rng.integers(0, 3 if mob_class == 0 else 8))
    slot = int(rng.integers(0, 2 if mob_class == 2 else 3))
    health = float(np.float32(rng.choice([rng.uniform(0.05, 3.0), rng.uniform(3.0, 25.0)])))
    alive = bool(rng.random() < 0.85)
    block = int(rng.choice([2, 7, STONE, TREE, CHEST, WATER, NECROMANCER]))
    state = oracle_more.facing(base, block, level=level, direction=int(rng.integers(1, 5)))
    state = oracle_more.put_mob(
        state, mob_class, slot, oracle_more.facing_cell(state), type_id, health, alive
    )
    if rng.random() < 0.2:  # a second mob on the same cell: Craftax hits the first slot
        other = (slot + 1) % (2 if mob_class == 2 else 3)
        state = oracle_more.put_mob(
            state, mob_class, other, oracle_more.facing_cell(state), type_id, 1.0
        )
    state = state.replace(
        inventory=state.inventory.replace(sword=jnp.int32(rng.integers(0, 5))),
        sword_enchantment=jnp.int32(rng.integers(0, 3)),
        player_strength=jnp.int32(rng.integers(1, 6)),
        player_intelligence=jnp.int32(rng.integers(1, 6)),
        player_dexterity=jnp.int32(rng.integers(1, 6)),
        player_food=jnp.int32(rng.integers(0, 12)),
    )
    what = f"class {mob_class} type {type_id} health {health} alive {alive} floor {level}"
    return state, what


def _attack_mobs(cases: int, seed: int) -> int:
    rng = np.random.default_rng(seed)
    base = world(4)
    kills = 0
    for _ in range(cases):
        state, what = _mob_case(rng, base, int(rng.integers(0, 3)), int(rng.integers(0, 9)))
        after = check("do_action", state, DO, draws_from(rng), what)
        kills += int(np.sum(np.asarray(after.monsters_killed) - np.asarray(state.monsters_killed)))
    return kills


def test_attacking_mobs() -> None:
    assert _attack_mobs(80, 11) > 0


@pytest.mark.slow
def test_attacking_mobs_exhaustive() -> None:
    assert _attack_mobs(3000, 12) > 0


def test_every_mob_type_with_every_sword() -> None:
    """Each class and type of mob with each sword and enchantment at high
    strength and intelligence, with a health it barely survives or not."""
    rng = np.random.default_rng(13)
    base = world(4)
    for mob_class, types in ((0, 3), (1, 8), (2, 8)):
        for type_id in range(types):
            for sword in range(5):
                enchantment = (type_id + sword) % 3
                level = (type_id + sword) % 9
                state = oracle_more.facing(base, 2, level=level, direction=3)
                health = float(np.float32(rng.uniform(0.5, 14.0)))
                state = oracle_more.put_mob(state, mob_class, 0, (23, 24), type_id, health)
                state = state.replace(
                    inventory=state.inventory.replace(sword=jnp.int32(sword)),
                    sword_enchantment=jnp.int32(enchantment),
                    player_strength=jnp.int32(1 + (sword + type_id) % 5),
                    player_intelligence=jnp.int32(1 + (2 * sword + type_id) % 5),
                )
                check("do_action", state, DO, draws_from(rng), f"{mob_class}/{type_id}/{sword}")


def test_necromancer() -> None:
    """The necromancer is hurt on the last floor when no monster lives and no
    wave is due; elsewhere, or otherwise, it is not."""
    rng = np.random.default_rng(14)
    for level in (8, 5):
        for block in (NECROMANCER, NECROMANCER_VULNERABLE):
            for wave in (0, 1, -2):
                for monster in (False, True):
                    state = oracle_more.facing(world(5), block, level=level, direction=2)
                    state = state.replace(
                        boss_timesteps_to_spawn_this_round=jnp.int32(wave),
                        boss_progress=jnp.int32(rng.integers(0, 8)),
                    )
                    if monster:
                        state = oracle_more.put_mob(
                            state, 1 + int(rng.integers(0, 2)), 1, (3, 3), 0, 4
                        )
                    after = check("do_action", state, DO, draws_from(rng), f"{level} {wave}")
                    hurt = level == 8 and block == NECROMANCER and wave <= 0 and not monster
                    assert int(after.boss_progress) == int(state.boss_progress) + hurt


@pytest.mark.parametrize("block", [CHEST, NECROMANCER, TREE, WATER, STONE])
def test_cells_outside_the_map(block: int) -> None:
    """Facing out of the map, Craftax reads the cell its gather clamps to (a
    negative index counts from the end) and keeps only some effects."""
    rng = np.random.default_rng(15)
    edges = (((0, 20), 3, (47, 20)), ((47, 20), 4, (47, 20)), ((20, 0), 1, (20, 47)))
    edges += (((20, 47), 2, (20, 47)),)
    for level in (1, 8):
        for position, direction, read in edges:
            state = oracle_more.facing(
                world(6), level=level, position=position, direction=direction
            )
            state = state.replace(map=state.map.at[level, read[0], read[1]].set(block))
            state = state.replace(inventory=state.inventory.replace(pickaxe=jnp.int32(4)))
            check("do_action", state, DO, draws_from(rng), f"{position} facing {direction}")


def world_states(seed: int, count: int) -> list[Any]:
    """Craftax's world ``seed`` with the player put on random floors, cells
    and directions (what is in front is the world's own)."""
    rng = np.random.default_rng(seed)
    states = []
    for _ in range(count):
        position = tuple(int(v) for v in rng.integers(1, 47, size=2))
        level, direction = int(rng.integers(0, 9)), int(rng.integers(0, 5))
        states.append(
            oracle_more.facing(
                world(seed), level=level, position=position, direction=direction, clear_mobs=False
            )
        )
    return states


def sweep_actions(names: tuple[str, ...], states: Any, seed: int) -> None:
    """Every action 0..42 through each function of ``names`` on each state."""
    rng = np.random.default_rng(seed)
    for t, state in enumerate(states):
        packed = oracle.pack_state(state)
        for name in names:
            for action in range(43):
                check(name, state, action, draws_from(rng), f"state {t}", packed)


def test_every_action_on_craftax_worlds() -> None:
    sweep_actions(("do_action",), world_states(1, 4), 21)


@pytest.mark.slow
def test_every_action_on_states_craftax_reached() -> None:
    for seed in range(30, 34):
        sweep_actions(("do_action",), rollout_states(seed, 200)[::10], seed)
