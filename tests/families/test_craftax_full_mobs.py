"""The full Craftax game's mobs (craftax 1.6.1's update_mobs and spawn_mobs)
against ours (cpp/envs/craftax/full/mobs*.h), function by function.

Craftax's own functions run with their random draws taken from the draws we
give ours (tests/oracles/craftax_full_oracle.py); on the same packed state both
must give the same state, exactly, and take the same number of draws. The
states are Craftax's worlds, states its own step reaches, and states with the
player put on every floor among mobs of every class, projectiles in flight,
armour and enchantments, by day and night and in the boss fight's waves; each
run is a sequence (one check's output is the next one's input), so mobs move,
attack, shoot, die, despawn and spawn over time.
"""

from __future__ import annotations

import collections
import functools
from typing import Any

import numpy as np
import pytest

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "craftax_full_mobs_phase"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

import craftax_full_oracle as oracle  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from craftax.craftax import game_logic  # noqa: E402
from craftax.craftax.constants import (  # noqa: E402
    FLOOR_MOB_MAPPING,
    MOB_TYPE_DAMAGE_MAPPING,
    SOLID_BLOCK_MAPPING,
    BlockType,
)

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


@functools.cache
def field_names() -> list[tuple[int, str]]:
    """(first packed index, name) of every leaf of a state."""
    leaves = jax.tree_util.tree_flatten_with_path(oracle.new_world(0))[0]
    out, i = [], 0
    for path, leaf in leaves:
        out.append((i, jax.tree_util.keystr(path)))
        i += int(np.asarray(leaf).size)
    return out


def field_of(index: int) -> str:
    name = ""
    for start, n in field_names():
        if start > index:
            break
        name = f"{n}[{index - start}]"
    return name


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
        f"{field_of(i)} ours {got[i]} Craftax {want[i]}" for i in differ[:8]
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


# --- tests -----------------------------------------------------------------


def test_draw_counts() -> None:
    assert _core.craftax_full_update_mobs_draws == DRAWS["update_mobs"]
    assert _core.craftax_full_spawn_mobs_draws == DRAWS["spawn_mobs"]


def test_unknown_phase() -> None:
    state = oracle.pack_state(oracle.new_world(0))
    with pytest.raises(ValueError, match="no phase"):
        _core.craftax_full_mobs_phase("move_mobs", state, [0.5] * 18)


@pytest.mark.parametrize("seed", [0, 1])
def test_worlds(seed: int) -> None:
    """Craftax's own worlds, the player on the surface as generated."""
    rng = np.random.default_rng(seed)
    run_sequence(to_numpy(oracle.new_world(seed)), rng, 6, f"world {seed}")


def _floor_run(level: int, seed: int, steps: int) -> None:
    rng = np.random.default_rng([level, seed])
    st = to_numpy(oracle.new_world(seed))
    place_player(st, rng, level)
    populate(st, rng, far=seed % 2 == 1)
    run_sequence(st, rng, steps, f"floor {level} seed {seed}")


@pytest.mark.parametrize("level", range(9))
def test_floors(level: int) -> None:
    """Every floor, mobs of every class near the player (some far enough to
    despawn), projectiles in flight, random defences and light."""
    before = EVENTS.copy()
    for seed in (0, 1):
        _floor_run(level, seed, 5)
    seen = EVENTS - before
    for event in ("moved", "despawned", "spawned", "player hit", "ranged_mobs attacked"):
        assert seen[event] > 0, f"floor {level}: no mob {event}, {dict(seen)}"


def test_boss_waves() -> None:
    """The boss floor: waves spawn on graves near the player, of the types of
    the floor the fight has reached; between waves nothing spawns."""
    rng = np.random.default_rng(8)
    spawned = 0
    for seed in range(3):
        st = to_numpy(oracle.new_world(seed))
        place_player(st, rng, 8)
        populate(st, rng)
        for wave in (3, 0):
            st.boss_timesteps_to_spawn_this_round[...] = wave
            st.melee_mobs.mask[8] = False
            st.ranged_mobs.mask[8] = False
            st.mob_map[8] = False
            before = st.melee_mobs.mask[8].sum() + st.ranged_mobs.mask[8].sum()
            st = check("spawn_mobs", st, rng, f"boss seed {seed} wave {wave}")
            after = st.melee_mobs.mask[8].sum() + st.ranged_mobs.mask[8].sum()
            spawned += int(after - before) if wave else 0
            assert wave or after == before
            st = run_sequence(st, rng, 2, f"boss seed {seed}")
    assert spawned > 0, "no wave spawned a mob: the test would not see a wrong grave rule"


def test_projectiles_hit() -> None:
    """Projectiles that hit: mob shots next to the player and towards a table,
    the player's arrows and spells into mobs (which may die of them)."""
    rng = np.random.default_rng(11)
    hits = 0
    before = EVENTS.copy()
    for seed in range(4):
        st = to_numpy(oracle.new_world(seed))
        level = seed * 2
        place_player(st, rng, level)
        populate(st, rng)
        px, py = (int(v) for v in st.player_position)
        # A mob shot one cell away, flying at the player.
        st.mob_projectiles.position[level, 0] = (px, py - 1)
        st.mob_projectile_directions[level, 0] = (0, 1)
        st.mob_projectiles.mask[level, 0] = True
        # The player's projectile right next to a weak mob, flying into it.
        mob = st.melee_mobs
        if mob.mask[level, 0]:
            mx, my = (int(v) for v in mob.position[level, 0])
            st.player_projectiles.position[level, 0] = (mx, my - 1)
            st.player_projectile_directions[level, 0] = (0, 1)
            st.player_projectiles.mask[level, 0] = True
            st.player_projectiles.type_id[level, 0] = rng.choice([0, 2, 3, 4])
            mob.health[level, 0] = 0.5
        health = float(st.player_health)
        out = check("update_mobs", st, rng, f"projectiles seed {seed}")
        hits += float(out.player_health) < health
        run_sequence(out, rng, 3, f"projectiles seed {seed}")
    assert hits > 0
    seen = EVENTS - before
    assert seen["killed"] > 0 and seen["block broken"] > 0, dict(seen)


def _damage(damage: np.ndarray, defense: list, fused: bool) -> np.float32:
    """Craftax's get_damage, the sum of (1 - defence) * damage in float32:
    each product rounded then added, or (fused) each product added as one
    fused multiply-add (in float64, then rounded)."""
    total = np.float32(0)
    for d, e in zip(damage, defense, strict=True):
        a, b = np.float32(np.float32(1) - np.float32(e)), np.float32(d)
        total = np.float32(float(a) * float(b) + float(total)) if fused else total + a * b
    return np.float32(total)


def _blow(rng: np.random.Generator, level: int, melee: bool) -> dict:
    """A random blow on the player: its armour, enchantments, sleep and the
    mob (melee) or shot type, and the damage before defence."""
    c = {
        "armour": rng.integers(0, 3, size=4),
        "ench": rng.integers(0, 3, size=4),
        "sleeping": bool(rng.random() < 0.5),
        "type": int(rng.integers(8)),
    }
    damage = np.asarray(MOB_TYPE_DAMAGE_MAPPING)[c["type"], 1 if melee else 3]
    scale = np.float32(3.5 if melee and c["sleeping"] else 1.0)
    hit = damage * scale * np.float32(1.5 if level == 8 else 1.0)
    armour = np.float32(0)
    for a in c["armour"]:
        armour = np.float32(armour + np.float32(a) * np.float32(0.1))
    guard = [armour]
    for k in (1, 2):
        g = np.float32(0)
        for e in c["ench"]:
            g = np.float32(g + np.float32(0.2 if e == k else 0.0))
        guard.append(g)
    c["plain"] = _damage(hit, guard, fused=False)
    c["fused"] = _damage(hit, guard, fused=True)
    return c


def test_damage_arithmetic() -> None:
    """A melee mob's blow on the player (asleep or not, in the boss fight or
    not) and a mob's shot, through armour and its enchantments, half of them
    where rounding each product and fusing it with the sum give different
    float32 results (so the test tells the two apart); and the player's
    arrows and spells into the striking mob, with every attribute level."""
    rng = np.random.default_rng(31)
    world = to_numpy(oracle.new_world(0))
    plain_wrong = 0
    for case in range(40):
        st = jax.tree_util.tree_map(np.copy, world)
        level = 8 if case % 3 == 2 else int(rng.integers(8))
        melee = case % 4 < 2
        blow = _blow(rng, level, melee)
        for _ in range(500):
            if case % 2 == 1 or blow["plain"] != blow["fused"]:
                break
            blow = _blow(rng, level, melee)
        st.player_level[...] = level
        px, py = int(rng.integers(2, 46)), int(rng.integers(2, 46))
        st.player_position[...] = (px, py)
        st.mob_map[level] = False
        for name in CLASSES + ("mob_projectiles", "player_projectiles"):
            getattr(st, name).mask[level] = False
        st.inventory.armour[...] = blow["armour"]
        st.armour_enchantments[...] = blow["ench"]
        st.is_sleeping[...] = blow["sleeping"]
        st.player_health[...] = np.float32(0)  # so that the damage shows exactly
        for attr in ("player_dexterity", "player_intelligence"):
            getattr(st, attr)[...] = rng.integers(1, 6)
        st.bow_enchantment[...] = rng.integers(0, 3)
        if melee:  # a melee mob next to the player strikes (and stays) ...
            mobs = st.melee_mobs
            mobs.position[level, 0] = (px, py - 1)
            mobs.mask[level, 0] = True
            mobs.attack_cooldown[level, 0] = 0
            mobs.type_id[level, 0] = blow["type"]
            mobs.health[level, 0] = np.float32(100)
            st.mob_map[level, px, py - 1] = True
            # ... and the player's projectile flies from its cell into it.
            st.player_projectiles.position[level, 0] = (px, py)
            st.player_projectile_directions[level, 0] = (0, -1)
            st.player_projectiles.mask[level, 0] = True
            st.player_projectiles.type_id[level, 0] = rng.choice([0, 4, 2, 3])
        else:  # a shot one cell from the player, flying at it
            st.mob_projectiles.position[level, 0] = (px, py - 1)
            st.mob_projectile_directions[level, 0] = (0, 1)
            st.mob_projectiles.mask[level, 0] = True
            st.mob_projectiles.type_id[level, 0] = blow["type"]
        out = check("update_mobs", st, rng, f"damage case {case}")
        plain_wrong += np.float32(out.player_health) != -blow["plain"]
    assert plain_wrong >= 10, f"only {plain_wrong} cases tell fused sums from plain ones"


@pytest.mark.slow
def test_real_steps() -> None:
    """States Craftax's own step reaches with random actions, on the surface
    and with the player moved to some floors (slow: compiling Craftax's step
    alone takes about a minute)."""
    rng = np.random.default_rng(5)
    state = oracle.new_world(3)
    step = oracle.real_step()
    for t in range(12):
        state, _, _ = step(state, jnp.int32(rng.integers(43)), jax.random.PRNGKey(t))
    st = to_numpy(state)
    run_sequence(st, rng, 3, "real steps, surface")
    for level in (1, 5, 8):
        moved = to_numpy(state)
        place_player(moved, rng, level)
        run_sequence(moved, rng, 3, f"real steps, floor {level}")


# --- the exhaustive runs ---------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("level", range(9))
def test_floors_long(level: int) -> None:
    for seed in range(2, 10):
        _floor_run(level, seed, 30)


@pytest.mark.slow
def test_real_steps_long() -> None:
    rng = np.random.default_rng(6)
    step = oracle.real_step()
    for seed in range(4):
        state = oracle.new_world(seed)
        for t in range(200):
            state, _, done = step(state, jnp.int32(rng.integers(43)), jax.random.PRNGKey(t))
            if t % 20 == 19:
                st = to_numpy(state)
                if rng.random() < 0.5:
                    place_player(st, rng, int(rng.integers(9)))
                    populate(st, rng, far=True)
                run_sequence(st, rng, 4, f"real seed {seed} t={t}")
