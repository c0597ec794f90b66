"""Craftax-Symbolic-v1's observation on edited states: what random play rarely
reaches (every floor by its ladders, mobs and projectiles of every class and
type in view, the light threshold, the map's edge, a full inventory, high
attributes), each compared bit for bit with craftax 1.6.1's own observation.

States are edited as their packed numbers (``oracle.pack_state``), field by
field under Craftax's names, and loaded back with ``oracle.unpack_state``.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from conftest import ci_sample

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "craftax_full_symbolic_obs"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

import craftax_full_oracle as oracle  # noqa: E402
import jax  # noqa: E402
from test_craftax_full_symbolic import CELL, COLS, MAP_PART, ROWS, TAIL, assert_same_obs  # noqa: E402

CLASSES = ("melee_mobs", "passive_mobs", "ranged_mobs", "mob_projectiles", "player_projectiles")
SLOTS = {
    "melee_mobs": 3,
    "passive_mobs": 3,
    "ranged_mobs": 2,
    "mob_projectiles": 3,
    "player_projectiles": 3,
}


@functools.cache
def world(seed: int):
    return oracle.new_world(seed)


class Packed:
    """A state as its packed numbers, its fields (Craftax's names, e.g.
    ``inventory.wood``, ``melee_mobs.position``) as writable views."""

    def __init__(self, state) -> None:
        self.like = state
        self.values = np.array(oracle.pack_state(state))
        self.fields = {}
        start = 0
        for path, leaf in jax.tree_util.tree_flatten_with_path(state)[0]:
            shape = np.shape(leaf)
            self.fields[jax.tree_util.keystr(path).lstrip(".")] = (start, shape)
            start += math.prod(shape)
        assert start == self.values.size

    def __getitem__(self, name: str) -> np.ndarray:
        start, shape = self.fields[name]
        return self.values[start : start + math.prod(shape)].reshape(shape)

    def __setitem__(self, name: str, value) -> None:
        self[name][...] = value

    def state(self):
        return oracle.unpack_state(self.values, self.like)


def put_mob(p: Packed, kind: str, slot: int, pos, type_id: int, alive: bool = True) -> None:
    level = int(p["player_level"])
    p[f"{kind}.position"][level, slot] = pos
    p[f"{kind}.type_id"][level, slot] = type_id
    p[f"{kind}.mask"][level, slot] = alive


def clear_mobs(p: Packed) -> None:
    for kind in CLASSES:
        p[f"{kind}.mask"] = 0


def at_floor(seed: int, level: int, offset=(0, 0), ladder: str = "down_ladders") -> Packed:
    """World ``seed`` with the player on floor ``level`` beside its ladder."""
    p = Packed(world(seed))
    p["player_level"] = level
    p["player_position"] = np.clip(p[ladder][level] + np.asarray(offset), 0, 47)
    return p


def mob_channels(obs: np.ndarray) -> np.ndarray:
    return obs[:MAP_PART].reshape(ROWS, COLS, CELL)[:, :, 42:82]


@pytest.mark.parametrize("level", ci_sample(list(range(9)), {0, 1, 4, 8}))
@pytest.mark.parametrize("ladder", ["down_ladders", "up_ladders"])
def test_every_floor_by_its_ladders(level: int, ladder: str) -> None:
    for offset in [(0, 0), (2, -3), (-4, 5)]:
        p = at_floor(0, level, offset, ladder)
        assert_same_obs(p.state(), f"floor {level} near {ladder} {offset}")
    # Lit all over: the ladder itself is in view (the first floor has no way
    # up; the last, the boss's, no ladder at all).
    p = at_floor(0, level, (0, 0), ladder)
    p["light_map"][level] = 1.0
    obs = assert_same_obs(p.state(), f"floor {level} lit")
    items = obs[:MAP_PART].reshape(ROWS, COLS, CELL)[:, :, 37:42]
    if level != 8 and (level, ladder) != (0, "up_ladders"):
        assert items[4, 5, 2:4].sum() == 1, "no ladder under the player"


@pytest.mark.parametrize("type_id", range(8))
def test_mobs_of_every_class_and_type(type_id: int) -> None:
    p = at_floor(1, 2, (0, 0))
    p["light_map"][2] = 1.0
    clear_mobs(p)
    px, py = p["player_position"]
    for c, kind in enumerate(CLASSES):
        put_mob(p, kind, 0, (px - 4 + 2 * c, py - 5 + c), type_id)
        put_mob(p, kind, 1, (px + 4 - c, py + 5 - 2 * c), (type_id + 3) % 8)
    obs = assert_same_obs(p.state(), f"mobs of type {type_id}")
    assert mob_channels(obs).sum() == 10


def test_later_slots_overwrite_earlier_ones() -> None:
    """Craftax sets each slot's flag, so a dead or off-screen slot clears what
    an earlier slot set at its (cell, type); an off-screen slot just above or
    left of the view lands on the far row or column (JAX's negative index)."""
    p = at_floor(2, 3, (1, 1))
    p["light_map"][3] = 1.0
    clear_mobs(p)
    px, py = p["player_position"]
    put_mob(p, "melee_mobs", 0, (px + 1, py), 2)
    put_mob(p, "melee_mobs", 1, (px + 1, py), 2, alive=False)  # clears slot 0's flag
    put_mob(p, "passive_mobs", 0, (px + 4, py + 2), 1)
    put_mob(p, "passive_mobs", 1, (px - 5, py + 2), 1)  # one row above: wraps to the last row
    put_mob(p, "ranged_mobs", 0, (px, py + 5), 4)
    put_mob(p, "ranged_mobs", 1, (px, py - 6), 4, alive=False)  # wraps onto slot 0's cell
    put_mob(p, "mob_projectiles", 0, (px - 4, py - 5), 0)
    put_mob(p, "mob_projectiles", 1, (px - 14, py - 17), 0)  # far off: dropped
    put_mob(p, "player_projectiles", 0, (px + 2, py + 2), 9)  # past the last channel: dropped
    put_mob(p, "player_projectiles", 1, (px + 3, py + 3), -3)  # counts from the end
    obs = assert_same_obs(p.state(), "overwrites")
    mobs = mob_channels(obs)
    assert mobs[5, 5, 2] == 0 and mobs[8, 7, 8 + 1] == 0 and mobs[4, 10, 16 + 4] == 0
    assert mobs[0, 0, 24] == 1


@pytest.mark.parametrize("seed", ci_sample(list(range(12)), {0, 1, 2, 3}))
def test_random_mobs_around_the_player(seed: int) -> None:
    """Every slot of every class on the player's floor and the next, near the
    view (some off it), of random types, alive or not, the light patchy."""
    rng = np.random.default_rng(seed)
    level = int(rng.integers(9))
    p = at_floor(seed % 3, level, tuple(rng.integers(-3, 4, size=2)))
    p["light_map"][level] = rng.choice([0.0, 0.04, 0.5, 1.0], size=(48, 48))
    px, py = p["player_position"]
    for kind in CLASSES:
        for lvl in (level, (level + 1) % 9):
            for slot in range(SLOTS[kind]):
                pos = (px + rng.integers(-6, 7), py + rng.integers(-7, 8))
                p[f"{kind}.position"][lvl, slot] = pos
                p[f"{kind}.type_id"][lvl, slot] = rng.integers(-2, 10)
                p[f"{kind}.mask"][lvl, slot] = rng.random() < 0.7
    assert_same_obs(p.state(), f"random mobs {seed}")


def test_the_light_threshold() -> None:
    p = Packed(world(0))
    px, py = p["player_position"] = (20, 20)
    f32 = np.float32
    values = [
        0.0,
        0.05,
        np.nextafter(f32(0.05), f32(1)),
        np.nextafter(f32(0.05), f32(0)),
        0.0500001,
        1.0,
        -1.0,
    ]
    for i, v in enumerate(values):
        p["light_map"][0, px - 4 + i, py - 5 : py + 6] = v
    obs = assert_same_obs(p.state(), "light threshold")
    light = obs[82:MAP_PART:CELL].reshape(ROWS, COLS)
    assert light[:7, 0].tolist() == [0, 0, 1, 0, 1, 1, 0]
    for level in (0.0, 0.123, 0.5, 0.9999, 1.0):
        p["light_level"] = level
        assert_same_obs(p.state(), f"light level {level}")


@pytest.mark.parametrize(
    "pos",
    [(0, 0), (0, 47), (47, 0), (47, 47), (3, 4), (44, 43), (4, 5), (2, 24), (24, 46), (46, 1)],
)
def test_the_maps_edge(pos) -> None:
    for level in (0, 5):
        p = Packed(world(1))
        p["player_level"] = level
        p["player_position"] = pos
        p["light_map"][level] = 1.0
        clear_mobs(p)
        put_mob(p, "melee_mobs", 0, (pos[0] + 1, pos[1]), 1)
        put_mob(p, "passive_mobs", 0, (pos[0] - 1, pos[1] - 1), 0)
        obs = assert_same_obs(p.state(), f"edge {pos} floor {level}")
        cells = obs[:MAP_PART].reshape(ROWS, COLS, CELL)
        assert cells[:, :, 82].sum() < ROWS * COLS or pos in [(4, 5)], (
            "the view should leave the map"
        )


@pytest.mark.parametrize(
    ("level", "pos"), [(-1, (20, 20)), (9, (20, 20)), (12, (3, 3)), (2, (-20, 70)), (4, (80, -15))]
)
def test_states_no_play_reaches(level: int, pos) -> None:
    """A floor index out of range (JAX's reads count a negative one from the
    end, then clamp) and a player far outside the map (Craftax's slice of
    its padded map clamps there)."""
    p = Packed(world(2))
    p["player_level"] = level
    p["player_position"] = pos
    p["light_map"] = 1.0
    p["monsters_killed"][8] = 9
    p["melee_mobs.position"][:, 0] = pos
    p["melee_mobs.type_id"][:, 0] = 3
    p["melee_mobs.mask"][:, 0] = True
    assert_same_obs(p.state(), f"level {level} at {pos}")


@pytest.mark.parametrize("seed", ci_sample(list(range(20)), {0, 1, 2, 3, 4, 5}))
def test_inventory_intrinsics_and_flags(seed: int) -> None:
    rng = np.random.default_rng(seed)
    p = Packed(world(seed % 2))
    for name in "wood stone coal iron diamond sapling arrows torches ruby sapphire".split():
        p[f"inventory.{name}"] = rng.integers(0, 100)
    p["inventory.potions"] = rng.integers(0, 100, size=6)
    p["inventory.books"] = rng.integers(0, 6)
    p["inventory.pickaxe"] = rng.integers(0, 5)
    p["inventory.sword"] = rng.integers(0, 5)
    p["inventory.bow"] = rng.integers(0, 2)
    p["inventory.armour"] = rng.integers(0, 3, size=4)
    p["armour_enchantments"] = rng.integers(0, 3, size=4)
    p["sword_enchantment"] = rng.integers(0, 3)
    p["bow_enchantment"] = rng.integers(0, 3)
    p["learned_spells"] = rng.random(2) < 0.5
    p["player_health"] = rng.choice([rng.random() * 10, rng.integers(0, 10), 0.1, 9.9])
    for name in "food drink energy mana".split():
        p[f"player_{name}"] = rng.integers(0, 10)
    p["player_xp"] = rng.choice([rng.integers(0, 10), rng.integers(0, 300)])
    for name in "dexterity strength intelligence".split():
        p[f"player_{name}"] = rng.integers(1, 6)
    p["player_direction"] = rng.integers(0, 6)
    p["is_sleeping"] = rng.random() < 0.5
    p["is_resting"] = rng.random() < 0.5
    p["light_level"] = rng.random()
    level = rng.integers(9)
    p["player_level"] = level
    p["monsters_killed"][level] = rng.choice([0, 7, 8, 30])
    p["boss_timesteps_to_spawn_this_round"] = rng.integers(-2, 3)
    for kind in ("melee_mobs", "ranged_mobs", "passive_mobs"):
        p[f"{kind}.mask"][level] = rng.random(SLOTS[kind]) < 0.2
    assert_same_obs(p.state(), f"inventory {seed}")


def test_the_tail_flags_each_way() -> None:
    """Level cleared and boss vulnerable, on and off (random draws may miss one)."""
    p = Packed(world(0))
    p["player_level"] = 8
    clear_mobs(p)
    for killed, wait, melee, want in [
        (8, 0, False, (1, 1)),
        (7, 1, False, (0, 0)),
        (9, -1, True, (1, 0)),
    ]:
        p["monsters_killed"][8] = killed
        p["boss_timesteps_to_spawn_this_round"] = wait
        p["melee_mobs.mask"][8, 1] = melee
        obs = assert_same_obs(p.state(), f"flags {killed} {wait} {melee}")
        assert tuple(obs[MAP_PART + TAIL.index("level cleared") :]) == want


@pytest.mark.parametrize("seed", ci_sample(list(range(30)), {0, 1, 2, 3, 4}))
def test_fuzzed_states(seed: int) -> None:
    """Random numbers in every field the observation reads, the map's values
    included (some outside the block and item types)."""
    rng = np.random.default_rng(seed)
    p = Packed(world(seed % 3))
    level = rng.integers(9)
    p["player_level"] = level
    # Now and then the player stands just outside the map.
    p["player_position"] = (
        rng.integers(-2, 50, size=2) if rng.random() < 0.3 else rng.integers(0, 48, size=2)
    )
    p["map"][level] = rng.integers(0, 40, size=(48, 48))
    p["item_map"][level] = rng.integers(0, 7, size=(48, 48))
    p["light_map"][level] = rng.random((48, 48)) * 0.1
    for kind in CLASSES:
        p[f"{kind}.position"][level] = np.asarray(p["player_position"]) + rng.integers(
            -12, 13, size=(SLOTS[kind], 2)
        )
        p[f"{kind}.type_id"][level] = rng.integers(-10, 20, size=SLOTS[kind])
        p[f"{kind}.mask"][level] = rng.random(SLOTS[kind]) < 0.8
    for name in "wood stone coal iron diamond sapling arrows torches ruby sapphire books".split():
        p[f"inventory.{name}"] = rng.integers(0, 1000)
    p["inventory.potions"] = rng.integers(0, 1000, size=6)
    p["player_health"] = rng.normal() * 20
    p["player_mana"] = rng.integers(-5, 200)
    p["player_xp"] = rng.integers(0, 5000)
    p["light_level"] = rng.random()
    assert_same_obs(p.state(), f"fuzz {seed}")
