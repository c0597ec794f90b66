"""The full Craftax game's bow, spells, books, enchanting and plant reset
against craftax 1.6.1's own shoot_projectile, cast_spell, read_book, enchant
and update_plants_with_eat (the same comparison as test_craftax_full_actions:
the whole packed state after, and the draws taken)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "craftax_full_action_phase"):
    pytest.skip("built without the full Craftax action hook", allow_module_level=True)

import craftax_full_oracle_more as oracle_more  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from test_craftax_full_actions import (  # noqa: E402
    check,
    draws_from,
    rollout_states,
    sweep_actions,
    world,
    world_states,
)

SHOOT_ARROW, CAST_FIREBALL, CAST_ICEBALL, READ_BOOK = 24, 26, 27, 35
ENCHANT_SWORD, ENCHANT_ARMOUR, ENCHANT_BOW = 36, 37, 42
TABLE_FIRE, TABLE_ICE = 30, 31


def _projectile_slots(state, live: tuple[bool, ...]):
    mobs = state.player_projectiles
    level = int(state.player_level)
    mask = mobs.mask.at[level].set(jnp.asarray(live, bool))
    return state.replace(player_projectiles=mobs.replace(mask=mask))


def test_shooting_arrows() -> None:
    """With and without a bow and arrows, every projectile slot free or taken,
    every facing direction."""
    rng = np.random.default_rng(0)
    shots = 0
    for bow, arrows in ((0, 3), (1, 0), (1, 1), (2, 7)):
        for live in itertools.product((False, True), repeat=3):
            direction = int(rng.integers(0, 5))
            state = oracle_more.facing(world(), level=int(rng.integers(0, 9)), direction=direction)
            state = _projectile_slots(state, live)
            state = state.replace(
                inventory=state.inventory.replace(bow=jnp.int32(bow), arrows=jnp.int32(arrows))
            )
            for action in (SHOOT_ARROW, CAST_FIREBALL):
                after = check("shoot_projectile", state, action, draws_from(rng), f"{live}")
                shots += int(after.inventory.arrows) < arrows
    assert shots == 2 * 7  # two armed cases, seven slot patterns with a free slot


def test_casting_spells() -> None:
    rng = np.random.default_rng(1)
    casts = 0
    for learned in itertools.product((False, True), repeat=2):
        for mana in (1, 2):
            for live in ((True, False, True), (True,) * 3):
                state = oracle_more.facing(world(), level=int(rng.integers(0, 9)))
                state = _projectile_slots(state, live)
                state = state.replace(
                    learned_spells=jnp.asarray(learned), player_mana=jnp.int32(mana)
                )
                for action in (CAST_FIREBALL, CAST_ICEBALL, SHOOT_ARROW):
                    after = check("cast_spell", state, action, draws_from(rng), f"{learned}")
                    casts += int(after.player_mana) < mana
    assert casts > 0


def test_reading_books() -> None:
    """Books or none, spells learned or not (both learned: Craftax's weights
    are 0/0), each draw near the middle and the ends."""
    rng = np.random.default_rng(2)
    for books in (0, 2):
        for learned in itertools.product((False, True), repeat=2):
            for u in (0.0, 0.49, 0.51, 0.999):
                state = world().replace(
                    learned_spells=jnp.asarray(learned),
                    inventory=world().inventory.replace(books=jnp.int32(books)),
                )
                for action in (READ_BOOK, ENCHANT_BOW):
                    draws = draws_from(rng)
                    draws[0] = u
                    check("read_book", state, action, draws, f"{books} {learned} {u}")


def _enchant_case(rng: np.random.Generator) -> tuple[object, str]:
    table = int(rng.choice([TABLE_FIRE, TABLE_ICE, TABLE_ICE, TABLE_FIRE, 2, 23]))
    state = oracle_more.facing(
        world(), table, level=int(rng.integers(0, 9)), direction=1 + int(rng.integers(0, 4))
    )
    armour = rng.integers(0, 3, size=4) * (rng.random() < 0.8)
    state = state.replace(
        player_mana=jnp.int32(rng.choice([3, 8, 9, 14])),
        sword_enchantment=jnp.int32(rng.integers(0, 3)),
        bow_enchantment=jnp.int32(rng.integers(0, 3)),
        armour_enchantments=jnp.asarray(rng.integers(0, 3, size=4), jnp.int32),
        inventory=state.inventory.replace(
            ruby=jnp.int32(rng.integers(0, 3)),
            sapphire=jnp.int32(rng.integers(0, 3)),
            sword=jnp.int32(rng.integers(0, 5)),
            bow=jnp.int32(rng.integers(0, 2)),
            armour=jnp.asarray(armour, jnp.int32),
        ),
    )
    return state, f"table {table}"


def _enchanting(cases: int, seed: int) -> int:
    rng = np.random.default_rng(seed)
    enchanted = 0
    for _ in range(cases):
        state, what = _enchant_case(rng)
        for action in (ENCHANT_SWORD, ENCHANT_ARMOUR, ENCHANT_BOW, int(rng.integers(0, 43))):
            after = check("enchant", state, action, draws_from(rng), what)
            enchanted += int(after.player_mana) < int(state.player_mana)
    return enchanted


def test_enchanting() -> None:
    assert _enchanting(30, 3) > 5


@pytest.mark.slow
def test_enchanting_exhaustive() -> None:
    assert _enchanting(1500, 4) > 100


def _armour_slots(every: int) -> None:
    rng = np.random.default_rng(5)
    for table in (TABLE_FIRE, TABLE_ICE):
        for pattern in list(itertools.product(range(3), repeat=4))[::every]:
            state = oracle_more.facing(world(), table, level=0, direction=4)
            state = state.replace(
                player_mana=jnp.int32(9),
                armour_enchantments=jnp.asarray(pattern, jnp.int32),
                inventory=state.inventory.replace(
                    ruby=jnp.int32(1), sapphire=jnp.int32(1), armour=jnp.asarray([1, 0, 2, 0])
                ),
            )
            draws = draws_from(rng)
            draws[0] = (sum(pattern) % 8) / 8 + 0.01
            check("enchant", state, ENCHANT_ARMOUR, draws, f"{table} {pattern}")


def test_enchanting_every_armour_slot() -> None:
    """Patterns of armour enchantments at both tables (a third of them; all
    of them in the slow suite), with draws that pick each slot."""
    _armour_slots(3)


@pytest.mark.slow
def test_enchanting_every_armour_slot_exhaustive() -> None:
    _armour_slots(1)


def test_plant_reset() -> None:
    rng = np.random.default_rng(6)
    for slot in (None, 0, 3, 9):
        state = oracle_more.facing(world(), level=0, direction=int(rng.integers(1, 5)))
        positions = rng.integers(0, 48, size=(10, 2)).astype(np.int32)
        if slot is not None:
            positions[slot] = oracle_more.facing_cell(state)
            positions[(slot + 5) % 10] = oracle_more.facing_cell(state)
        state = state.replace(
            growing_plants_positions=jnp.asarray(positions),
            growing_plants_age=jnp.asarray(rng.integers(1, 600, size=10), jnp.int32),
        )
        check("update_plants_with_eat", state, 0, draws_from(rng), f"slot {slot}")


_MAGIC = ("shoot_projectile", "cast_spell", "read_book", "enchant", "update_plants_with_eat")


def _armed(states: Any) -> list[Any]:
    """``states`` with the magic made possible: a bow and arrows, mana, a book
    and gems, some spells learned."""
    out = []
    for t, state in enumerate(states):
        out.append(
            state.replace(
                player_mana=jnp.int32(9 + t % 3),
                learned_spells=jnp.asarray([t % 2 == 0, t % 3 == 0]),
                inventory=state.inventory.replace(
                    bow=jnp.int32(1), arrows=jnp.int32(2), books=jnp.int32(1), ruby=jnp.int32(1)
                ),
            )
        )
    return out


def test_every_action_on_craftax_worlds() -> None:
    sweep_actions(_MAGIC, _armed(world_states(2, 1)), 22)


@pytest.mark.slow
def test_every_action_on_states_craftax_reached() -> None:
    for seed in range(40, 42):
        states = rollout_states(seed, 200)[::25]
        sweep_actions(_MAGIC, _armed(states) + list(states), seed)
