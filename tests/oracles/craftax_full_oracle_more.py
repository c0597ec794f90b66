"""More of Craftax's full game for the parity tests of its parts: Craftax's own
worlds in batches (tests/families/test_craftax_full_worldgen*.py) and its
player-action functions with given draws (test_craftax_full_actions*.py).
The base (draws, packing, the whole step) is craftax_full_oracle.py.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from craftax.craftax import game_logic
from craftax.craftax.world_gen import world_gen
from craftax_full_oracle import (
    DRAWS,
    PARAMS,
    STATIC,
    _full_step,
    compile_with_draws,
    new_world,
    template,
)

# ---------------------------------------------------------------------------
# Part "worldgen": Craftax's own worlds in batches, and a packed state's
# fields by name (tests/families/test_craftax_full_worldgen*.py).
# ---------------------------------------------------------------------------


# Craftax's programs here are compiled with XLA's cheap settings: a third of
# the compile time, and these tests run them only a few times.
WORLDGEN_COMPILE = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}


@functools.cache
def _worldgen_batch(count: int) -> Any:
    batch = jax.vmap(lambda key: world_gen.generate_world(key, PARAMS, STATIC))
    keys = jax.ShapeDtypeStruct((count, 2), jnp.uint32)
    return jax.jit(batch).lower(keys).compile(compiler_options=WORLDGEN_COMPILE)


def worldgen_craftax_worlds(count: int, seed: int = 0) -> dict[str, np.ndarray]:
    """``count`` of Craftax's own worlds (keys split from ``seed``) as named
    arrays with a leading batch axis."""
    keys = jax.random.split(jax.random.PRNGKey(seed), count)
    states = _worldgen_batch(count)(keys)
    out = {}
    for path, leaf in jax.tree_util.tree_flatten_with_path(states)[0]:
        out[jax.tree_util.keystr(path).lstrip(".")] = np.asarray(leaf)
    return out


@functools.cache
def worldgen_quick_step() -> Any:
    """Craftax's own step (as :func:`real_step`), compiled with the cheap settings."""
    example = (template(), jnp.int32(0), jax.random.PRNGKey(0))
    return jax.jit(_full_step).lower(*example).compile(compiler_options=WORLDGEN_COMPILE)


def worldgen_reset_light_level() -> float:
    """Craftax's light level of a new game as its reset computes it, with the
    params traced (jitted reset(key, params)); a generator that closes over
    PARAMS, as :func:`new_world` does, gets XLA's constant-folded value, one
    float32 step away."""
    light = jax.jit(lambda params: game_logic.calculate_light_level(0, params))(PARAMS)
    return float(np.float32(light))


# ---------------------------------------------------------------------------
# Part "actions": Craftax's player-action functions (do_action and the
# functions it uses, shoot_projectile, cast_spell, read_book, enchant), each
# as a whole-state function ``(state, action, key) -> state`` with its draws
# from DRAWS, named as our hook ``_core.craftax_full_action_phase`` names them.


def _do_action(state: Any, action: Any, key: Any) -> Any:
    return game_logic.do_action(key, state, action, STATIC)


def _update_plants_with_eat(state: Any, action: Any, key: Any) -> Any:
    # The plant in front of the player, as do_action passes it.
    from craftax.craftax.constants import DIRECTIONS

    facing = state.player_position + DIRECTIONS[state.player_direction]
    ages = game_logic.update_plants_with_eat(state, facing, STATIC)
    return state.replace(growing_plants_age=ages)


def _add_items_from_chest(state: Any, action: Any, key: Any) -> Any:
    # ``action`` nonzero: is_opening_chest.
    inventory = game_logic.add_items_from_chest(key, state, state.inventory, action != 0)
    return state.replace(inventory=inventory)


def _shoot_projectile(state: Any, action: Any, key: Any) -> Any:
    return game_logic.shoot_projectile(state, action, STATIC)


def _cast_spell(state: Any, action: Any, key: Any) -> Any:
    return game_logic.cast_spell(state, action, STATIC)


def _read_book(state: Any, action: Any, key: Any) -> Any:
    return game_logic.read_book(key, state, action)


def _enchant(state: Any, action: Any, key: Any) -> Any:
    return game_logic.enchant(key, state, action)


ACTION_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "do_action": _do_action,
    "update_plants_with_eat": _update_plants_with_eat,
    "add_items_from_chest": _add_items_from_chest,
    "shoot_projectile": _shoot_projectile,
    "cast_spell": _cast_spell,
    "read_book": _read_book,
    "enchant": _enchant,
}


@functools.cache
def action_function(name: str) -> Any:
    """Craftax's action function ``name`` as ``(state, action, key) -> state``,
    compiled once with its draws from :data:`DRAWS`."""
    return compile_with_draws(
        ACTION_FUNCTIONS[name], new_world(0), jnp.int32(0), jax.random.PRNGKey(0)
    )


def run_action(name: str, state: Any, action: int, draws: Any) -> tuple[Any, int]:
    """Craftax's ``name`` on ``state`` with ``draws``: the new state and the
    number of draws it took."""
    fn = action_function(name)
    DRAWS.clear()
    DRAWS.extend(float(d) for d in draws)
    out = fn(state, jnp.int32(action), jax.random.PRNGKey(0))
    jax.block_until_ready(out)
    used = len(draws) - len(DRAWS)
    DRAWS.clear()
    return out, used


_MOB_CLASSES = ("passive_mobs", "melee_mobs", "ranged_mobs")


def facing(
    state: Any,
    block: int | None = None,
    *,
    level: int | None = None,
    position: tuple[int, int] = (24, 24),
    direction: int = 4,
    clear_mobs: bool = True,
) -> Any:
    """``state`` with the player on ``level`` at ``position`` facing
    ``direction`` (Craftax's Action: 1 left, 2 right, 3 up, 4 down), ``block``
    in front of it (when given and in the map); ``clear_mobs``: no mob lives
    on that floor."""
    from craftax.craftax.constants import DIRECTIONS

    level = int(state.player_level) if level is None else level
    pos = jnp.asarray(position, jnp.int32)
    state = state.replace(player_level=jnp.int32(level), player_position=pos)
    state = state.replace(player_direction=jnp.int32(direction))
    if block is not None:
        x, y = (np.asarray(pos) + np.asarray(DIRECTIONS[direction])).tolist()
        if 0 <= x < STATIC.map_size[0] and 0 <= y < STATIC.map_size[1]:
            state = state.replace(map=state.map.at[level, x, y].set(block))
    if clear_mobs:
        for name in _MOB_CLASSES:
            mobs = getattr(state, name)
            state = state.replace(**{name: mobs.replace(mask=mobs.mask.at[level].set(False))})
        state = state.replace(mob_map=state.mob_map.at[level].set(False))
    return state


def put_mob(
    state: Any,
    mob_class: int,
    slot: int,
    position: Any,
    type_id: int,
    health: float,
    alive: bool = True,
) -> Any:
    """``state`` with a mob of class ``mob_class`` (0 passive, 1 melee, 2
    ranged) in ``slot`` of the player's floor at ``position``."""
    name = _MOB_CLASSES[mob_class]
    mobs = getattr(state, name)
    level = int(state.player_level)
    mobs = mobs.replace(
        position=mobs.position.at[level, slot].set(jnp.asarray(position, jnp.int32)),
        health=mobs.health.at[level, slot].set(jnp.float32(health)),
        mask=mobs.mask.at[level, slot].set(alive),
        type_id=mobs.type_id.at[level, slot].set(type_id),
    )
    x, y = (int(v) for v in position)
    state = state.replace(**{name: mobs})
    if alive and 0 <= x < STATIC.map_size[0] and 0 <= y < STATIC.map_size[1]:
        state = state.replace(mob_map=state.mob_map.at[level, x, y].set(True))
    return state


def facing_cell(state: Any) -> tuple[int, int]:
    """The cell the player faces (unclamped)."""
    from craftax.craftax.constants import DIRECTIONS

    cell = np.asarray(state.player_position) + np.asarray(DIRECTIONS[int(state.player_direction)])
    return int(cell[0]), int(cell[1])
