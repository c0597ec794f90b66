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

import numpy as np
import pytest

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "craftax_full_mobs_phase"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

import craftax_full_oracle as oracle  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from craftax.craftax.constants import (  # noqa: E402
    MOB_TYPE_DAMAGE_MAPPING,
)
from craftax_full_mobs_helpers import (  # noqa: E402
    CLASSES,
    DRAWS,
    EVENTS,
    check,
    place_player,
    populate,
    run_sequence,
    to_numpy,
)

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
