"""Shared by the full Craftax mob tests (test_craftax_full_mobs.py): Craftax's
update_mobs / spawn_mobs compiled with given draws, the check of ours against
them on a packed state, and the scenes (the player on a floor among mobs,
projectiles in flight) the tests run in sequence.
"""

from __future__ import annotations

import collections
import functools
from typing import Any

import craftax_full_oracle as oracle
import jax
import jax.numpy as jnp
import numpy as np
from craftax.craftax import game_logic
from craftax.craftax.constants import (
    FLOOR_MOB_MAPPING,
    SOLID_BLOCK_MAPPING,
    BlockType,
)

from envpool_x import _core

SOLID = np.asarray(SOLID_BLOCK_MAPPING)
FLOOR_TYPES = np.asarray(FLOOR_MOB_MAPPING)
GRAVES = (BlockType.GRAVE.value, BlockType.GRAVE2.value, BlockType.GRAVE3.value)
# The draws each function takes (3 per melee slot, 1 per passive slot, 3 per
# ranged slot; 2 per mob class spawned).
DRAWS = {"update_mobs": 3 * 3 + 1 * 3 + 3 * 2, "spawn_mobs": 2 * 3}
CLASSES = ("passive_mobs", "melee_mobs", "ranged_mobs")  # Craftax's MobType order


def to_numpy(state: Any) -> Any:
    """A mutable copy of a JAX state (numpy leaves, same dtypes)."""
    return jax.tree_util.tree_map(np.array, state)


def to_jax(state: Any) -> Any:
    return jax.tree_util.tree_map(jnp.asarray, state)


@functools.cache
def phases() -> dict[str, Any]:
    """Craftax's update_mobs and spawn_mobs with our draws, compiled once."""
    key = jax.random.PRNGKey(0)  # only split: the draws come from oracle.DRAWS
    example = to_jax(to_numpy(oracle.new_world(0)))
    return {
        "update_mobs": oracle.compile_with_draws(
            lambda s: game_logic.update_mobs(key, s, oracle.PARAMS, oracle.STATIC), example
        ),
        "spawn_mobs": oracle.compile_with_draws(
            lambda s: game_logic.spawn_mobs(s, key, oracle.PARAMS, oracle.STATIC), example
        ),
    }


def make_draws(rng: np.random.Generator, n: int) -> np.ndarray:
    """n float32 uniforms with 24 random bits; about a third of them small, so
    that mobs spawn and chase often."""
    bits = rng.integers(0, 2**24, size=n)
    small = rng.random(n) < 0.35
    bits = np.where(small, bits // 64, bits)
    return (bits / 2**24).astype(np.float32)


def check(name: str, state: Any, rng: np.random.Generator, context: str = "") -> Any:
    """Run Craftax's `name` and ours on `state` with the same draws; they must
    agree exactly. Returns Craftax's new state (numpy)."""
    state = to_jax(to_numpy(state))  # plain (not weak-typed) leaves, as compiled
    draws = make_draws(rng, DRAWS[name])
    oracle.DRAWS.clear()
    oracle.DRAWS.extend(draws.tolist())
    expected = phases()[name](state)
    assert not oracle.DRAWS, f"{name}: Craftax took {len(draws) - len(oracle.DRAWS)} draws"
    got, used = _core.craftax_full_mobs_phase(name, oracle.pack_state(state), draws.tolist())
    assert used == len(draws), f"{name}: we took {used} draws, Craftax {len(draws)}"
    want = np.asarray(oracle.pack_state(expected))
    got = np.asarray(got)
    differ = np.nonzero(want != got)[0]
    assert differ.size == 0, f"{name} {context}: " + ", ".join(
        f"{oracle.field_at(int(i))} ours {got[i]} Craftax {want[i]}" for i in differ[:8]
    )
    out = to_numpy(expected)
    count_events(name, to_numpy(state), out)
    return out


#: What the checks have seen happen (so that a test can show it exercised it).
EVENTS: collections.Counter = collections.Counter()


def count_events(name: str, before: Any, after: Any) -> None:
    level = int(before.player_level)
    for cls in CLASSES:
        b, a = getattr(before, cls), getattr(after, cls)
        was, now = b.mask[level], a.mask[level]
        if name == "spawn_mobs":
            EVENTS["spawned"] += int((now & ~was).sum())
            continue
        moved = (a.position[level] != b.position[level]).any(axis=1)
        EVENTS["moved"] += int((moved & was).sum())
        EVENTS["despawned"] += int((was & ~now & (a.health[level] > 0)).sum())
        EVENTS["killed"] += int((was & ~now & (a.health[level] <= 0)).sum())
        struck = (a.attack_cooldown[level] > b.attack_cooldown[level]) & was
        EVENTS[f"{cls} attacked"] += int(struck.sum())
    if name == "update_mobs":
        EVENTS["player hit"] += int(after.player_health < before.player_health)
        EVENTS["block broken"] += int((after.map[level] != before.map[level]).sum())
        for cls in ("mob_projectiles", "player_projectiles"):
            was = getattr(before, cls).mask[level]
            EVENTS[f"{cls} stopped"] += int((was & ~getattr(after, cls).mask[level]).sum())


# --- building states -------------------------------------------------------


def cells_near(st: Any, level: int, x: int, y: int, lo: int, hi: int) -> np.ndarray:
    """Cells of floor `level`, not solid, at Manhattan distance [lo, hi] from (x, y)."""
    xs, ys = np.meshgrid(np.arange(48), np.arange(48), indexing="ij")
    d = np.abs(xs - x) + np.abs(ys - y)
    ok = (~SOLID[st.map[level]]) & (d >= lo) & (d <= hi)
    return np.argwhere(ok)


def place_player(st: Any, rng: np.random.Generator, level: int) -> None:
    """Put the player on floor `level`, on a cell that is not solid (in the
    boss fight near graves, where its waves spawn)."""
    st.player_level[...] = level
    floor = st.map[level]
    free = np.argwhere(~SOLID[floor])
    if level == 8:
        graves = np.argwhere(np.isin(floor, GRAVES))
        if graves.size:
            gx, gy = graves[rng.integers(len(graves))]
            near = [c for c in free if 0 < abs(c[0] - gx) + abs(c[1] - gy) <= 5]
            free = np.array(near) if near else free
    st.player_position[...] = free[rng.integers(len(free))]


def populate(st: Any, rng: np.random.Generator, far: bool = False) -> None:
    """Mobs of every class near the player on its floor (some far enough to
    despawn when `far`), projectiles flying towards it, walls, mobs and
    tables, and random armour, attributes, light and boss state."""
    level = int(st.player_level)
    px, py = (int(v) for v in st.player_position)
    st.mob_map[level] = False
    taken = {(px, py)}
    for cls, name in enumerate(CLASSES):
        mobs = getattr(st, name)
        for i in range(mobs.mask.shape[1]):
            lo, hi = (12, 20) if far and rng.random() < 0.4 else (1, 7)
            cells = [tuple(c) for c in cells_near(st, level, px, py, lo, hi)]
            cells = [c for c in cells if c not in taken]
            alive = bool(cells) and rng.random() < 0.8
            if cells:
                mobs.position[level, i] = cells[rng.integers(len(cells))]
            mobs.mask[level, i] = alive
            mobs.health[level, i] = np.float32(rng.integers(1, 12)) - np.float32(0.5)
            mobs.attack_cooldown[level, i] = rng.integers(-1, 3)
            floor_type = FLOOR_TYPES[level if level < 8 else rng.integers(9), cls]
            mobs.type_id[level, i] = floor_type if rng.random() < 0.8 else rng.integers(8)
            if alive:
                taken.add(tuple(int(v) for v in mobs.position[level, i]))
                st.mob_map[level, mobs.position[level, i, 0], mobs.position[level, i, 1]] = True
    axes = np.array([[0, -1], [0, 1], [-1, 0], [1, 0]], np.int32)
    for name, dirs in (
        ("mob_projectiles", "mob_projectile_directions"),
        ("player_projectiles", "player_projectile_directions"),
    ):
        projectiles, directions = getattr(st, name), getattr(st, dirs)
        for j in range(projectiles.mask.shape[1]):
            d = axes[rng.integers(4)]
            k = rng.integers(0, 5)
            start = np.array([px, py]) - d * k if name == "mob_projectiles" else [px, py]
            projectiles.position[level, j] = start
            directions[level, j] = d
            projectiles.mask[level, j] = rng.random() < 0.7
            projectiles.type_id[level, j] = rng.integers(8)
            if rng.random() < 0.2:  # a table or furnace in its path
                x, y = np.array(start) + d
                if 0 <= x < 48 and 0 <= y < 48 and (x, y) != (px, py):
                    st.map[level, x, y] = rng.choice(
                        [BlockType.CRAFTING_TABLE.value, BlockType.FURNACE.value]
                    )
    inv = st.inventory
    inv.armour[...] = rng.integers(0, 3, size=4)
    st.armour_enchantments[...] = rng.integers(0, 3, size=4)
    st.bow_enchantment[...] = rng.integers(0, 3)
    for attr in ("player_dexterity", "player_strength", "player_intelligence"):
        getattr(st, attr)[...] = rng.integers(1, 6)
    st.is_sleeping[...] = rng.random() < 0.3
    st.is_resting[...] = rng.random() < 0.2
    st.player_health[...] = np.float32(rng.integers(1, 10)) + np.float32(rng.random())
    st.light_level[...] = np.float32(rng.random())
    st.monsters_killed[level] = rng.integers(0, 11)
    st.boss_progress[...] = rng.integers(0, 9)
    st.boss_timesteps_to_spawn_this_round[...] = rng.integers(-1, 8)


def fire(st: Any, rng: np.random.Generator) -> None:
    """The player shoots: a projectile of a random type from its cell in a
    random direction, into the first free slot (as Craftax's argmax picks)."""
    level = int(st.player_level)
    slot = int(np.argmax(~st.player_projectiles.mask[level]))
    axes = np.array([[0, -1], [0, 1], [-1, 0], [1, 0]], np.int32)
    st.player_projectiles.position[level, slot] = st.player_position
    st.player_projectiles.mask[level, slot] = True
    st.player_projectiles.type_id[level, slot] = rng.choice([0, 2, 3, 4, 1, 7])
    st.player_projectile_directions[level, slot] = axes[rng.integers(4)]


def run_sequence(st: Any, rng: np.random.Generator, steps: int, context: str) -> Any:
    """update_mobs then spawn_mobs, `steps` times, each on the last's output;
    the player shoots now and then."""
    for t in range(steps):
        st = check("update_mobs", st, rng, f"{context} t={t}")
        st = check("spawn_mobs", st, rng, f"{context} t={t}")
        if rng.random() < 0.3:
            fire(st, rng)
    return st
