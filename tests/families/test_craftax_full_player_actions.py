"""Crafting, placing, ladders and moves of the full Craftax game against
craftax 1.6.1's do_crafting, place_block, change_floor and move_player, on
edited states that make each branch happen; every action 0..42 on each
(test_craftax_full_player.py has the sweeps and the upkeep)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "craftax_full_player_phases"):
    pytest.skip("built without the full Craftax player hooks", allow_module_level=True)

import craftax_full_oracle as oracle  # noqa: E402
from craftax_full_player_helpers import (  # noqa: E402
    ASCEND,
    BLOCK,
    CLOSE_BLOCKS,
    DESCEND,
    DIRECTIONS,
    ITEM_TORCH,
    LADDER_DOWN,
    LADDER_DOWN_BLOCKED,
    LADDER_UP,
    NUM_BLOCKS,
    PLACE_FURNACE,
    PLACE_PLANT,
    PLACE_STONE,
    PLACE_TABLE,
    PLACE_TORCH,
    SWEEPS,
    compare,
    edit,
    player,
    require,
    set_cell,
    sweep_of,
    world,
)

MATERIALS = ("wood", "stone", "coal", "iron", "diamond")
# (action, materials needed, needs a furnace, the tool it makes or None, its level)
RECIPES = (
    (11, {"wood": 1}, False, "pickaxe", 1),
    (12, {"wood": 1, "stone": 1}, False, "pickaxe", 2),
    (13, {"wood": 1, "stone": 1, "iron": 1, "coal": 1}, True, "pickaxe", 3),
    (20, {"wood": 1, "diamond": 3}, False, "pickaxe", 4),
    (14, {"wood": 1}, False, "sword", 1),
    (15, {"wood": 1, "stone": 1}, False, "sword", 2),
    (16, {"wood": 1, "stone": 1, "iron": 1, "coal": 1}, True, "sword", 3),
    (21, {"wood": 1, "diamond": 2}, False, "sword", 4),
    (22, {"iron": 3, "coal": 3}, True, "armour", 1),
    (23, {"diamond": 3}, False, "armour", 2),
    (25, {"wood": 1, "stone": 1}, False, "arrows", 99),
    (38, {"wood": 1, "coal": 1}, False, "torches", 99),
)


def workshop(table: tuple[int, int] | None, furnace: tuple[int, int] | None) -> np.ndarray:
    """World 0 with grass around the player and a table / furnace at those
    offsets from it (None: none)."""
    row = world(0).copy()
    level, x, y = player(row)
    oracle.field(row, "map")[level, x - 3 : x + 4, y - 3 : y + 4] = BLOCK["grass"]
    if table is not None:
        set_cell(row, "map", level, x + table[0], y + table[1], BLOCK["crafting_table"])
    if furnace is not None:
        set_cell(row, "map", level, x + furnace[0], y + furnace[1], BLOCK["furnace"])
    return row


def inventory(base: np.ndarray, materials: dict[str, int], **others: object) -> np.ndarray:
    changes = {f"inventory.{m}": materials.get(m, 0) for m in MATERIALS}
    changes |= {f"inventory.{k}": v for k, v in others.items()}
    return edit(base, changes)


def recipe_states(action: int, needs: dict, furnace: bool, tool: str, level: int) -> list:
    """Exactly enough for the recipe, one short of each material, the tool
    already made (or the count at 99), too far from the table or furnace."""
    shop = workshop(CLOSE_BLOCKS[action % 8], (1, 1) if furnace else None)
    below = {"armour": np.array([level - 1, level, level, level])}.get(tool, level - 1)
    at = {"armour": np.full(4, level)}.get(tool, level)
    states = [inventory(shop, needs, **{tool: below}), inventory(shop, needs, **{tool: at})]
    for m in needs:
        states.append(inventory(shop, {**needs, m: needs[m] - 1}, **{tool: below}))
    full = dict.fromkeys(MATERIALS, 9)
    states.append(inventory(shop, full, **{tool: below}))
    states.append(inventory(workshop((2, 0), (1, 1) if furnace else None), needs, **{tool: below}))
    if furnace:
        states.append(inventory(workshop((0, 1), (0, 2)), needs, **{tool: below}))
    return states


CRAFTING = (0, 5, *range(11, 17), 20, 21, 22, 23, 25, 38)


@pytest.mark.parametrize("which", SWEEPS)
@pytest.mark.parametrize("recipe", RECIPES, ids=lambda r: f"action{r[0]}")
def test_crafting_recipes(recipe: tuple, which: str) -> None:
    action, needs, furnace, tool, level = recipe
    states = recipe_states(action, needs, furnace, tool, level)
    o = compare("do_crafting", states, sweep=sweep_of(which, CRAFTING))
    made = o.changed(f"inventory.{tool}") & (o.actions == action)
    require(made & (o.index == 0), f"action {action} crafts with exactly enough")
    full = len(needs) + 2  # the state with plenty of everything
    assert set(o.index[made]) == {0, full}, "crafted without enough, the tool or a workshop"


@pytest.mark.parametrize("which", SWEEPS)
def test_crafting_armour_slots(which: str) -> None:
    shop = workshop((0, 1), (1, 0))
    states = [
        inventory(shop, {"iron": 9, "coal": 9, "diamond": 9}, armour=np.array(a))
        for a in (
            [0, 0, 0, 0],
            [1, 0, 2, 0],
            [2, 2, 1, 2],
            [1, 1, 1, 1],
            [2, 2, 2, 2],
            [2, 1, 2, 0],
        )
    ]
    o = compare("do_crafting", states, sweep=sweep_of(which, CRAFTING))
    require(o.changed("inventory.armour"), "armour is made")


def place_states(rng: np.random.Generator) -> list[np.ndarray]:
    """The cell the player faces as every block, with or without an item or a
    mob on it, with enough or too little to place; the player on the map's
    edges facing off it; sapling slots full."""
    states = []
    for block in range(NUM_BLOCKS):
        for variant in range(3):
            row = world(0).copy()
            level, x, y = player(row)
            direction = int(rng.integers(1, 5))
            dx, dy = DIRECTIONS[direction]
            oracle.field(row, "player_direction")[...] = direction
            set_cell(row, "map", level, x + dx, y + dy, block)
            set_cell(row, "item_map", level, x + dx, y + dy, [0, 0, ITEM_TORCH][variant])
            set_cell(row, "mob_map", level, x + dx, y + dy, variant == 1 and block % 4 == 0)
            light = oracle.field(row, "light_map")[level]
            light[x - 6 : x + 7, y - 6 : y + 7] = rng.random((13, 13)).astype(np.float32)
            enough = variant != 2 or block % 2 == 0
            inv = {"wood": 2 if enough else 1, "stone": int(enough), "torches": int(enough)}
            inv |= {"sapling": int(enough)}
            states.append(edit(row, {f"inventory.{k}": v for k, v in inv.items()}))
    for x, y, direction in (
        (0, 10, 3),
        (47, 10, 4),
        (10, 0, 1),
        (10, 47, 2),
        (0, 0, 1),
        (47, 47, 4),
    ):
        for toward in (direction, {1: 2, 2: 1, 3: 4, 4: 3}[direction]):
            row = edit(world(0), {"player_position": (x, y), "player_direction": toward})
            row = edit(row, {"inventory.wood": 5, "inventory.stone": 5, "inventory.torches": 5})
            level = player(row)[0]
            dx, dy = DIRECTIONS[toward]
            set_cell(row, "map", level, min(max(x + dx, 0), 47), min(max(y + dy, 0), 47), 2)
            set_cell(row, "item_map", level, min(max(x + dx, 0), 47), min(max(y + dy, 0), 47), 0)
            oracle.field(row, "inventory.sapling")[...] = 3
            states.append(row)
    full = edit(states[BLOCK["grass"] * 3], {"growing_plants_mask": np.ones(10)})
    states.append(full)
    states.append(edit(states[BLOCK["grass"] * 3], {"player_level": 2}))
    return states


@pytest.mark.parametrize("which", SWEEPS)
def test_place_every_block_and_edge(which: str) -> None:
    states = place_states(np.random.default_rng(8))
    sweep = (0, 5, PLACE_STONE, PLACE_TABLE, PLACE_FURNACE, PLACE_PLANT, PLACE_TORCH, 38)
    o = compare("place_block", states, sweep=sweep_of(which, sweep))
    block, actions = o.changed("map"), o.actions
    for action, what in (
        (PLACE_TABLE, "table"),
        (PLACE_FURNACE, "furnace"),
        (PLACE_PLANT, "plant"),
    ):
        require(block & (actions == action), f"a {what} is placed")
    require(o.changed("light_map") & (actions == PLACE_TORCH), "a torch lights")
    require(o.changed("growing_plants_mask"), "a sapling starts growing")
    require(block & (actions == PLACE_PLANT) & ~o.changed("growing_plants_mask"), "slots full")
    facing_water = np.array([_faced(s) == BLOCK["water"] for s in states])[o.index]
    require(block & (actions == PLACE_STONE) & facing_water, "stone fills water")


def _faced(row: np.ndarray) -> int:
    level, x, y = player(row)
    dx, dy = DIRECTIONS.get(int(oracle.field(row, "player_direction")), (0, 0))
    return int(oracle.field(row, "map")[level, min(max(x + dx, 0), 47), min(max(y + dy, 0), 47)])


def floor_states() -> list[np.ndarray]:
    """Every floor, on each kind of ladder (or none), with the floor cleared or
    one monster short, with its achievement or without."""
    states = []
    for level in range(9):
        for item in (0, LADDER_DOWN, LADDER_UP, LADDER_DOWN_BLOCKED):
            for killed in (7, 8):
                row = edit(world(0), {"player_level": level})
                _, x, y = player(row)
                set_cell(row, "item_map", level, x, y, item)
                oracle.field(row, "monsters_killed")[level] = killed
                oracle.field(row, "achievements")[28:36] = (level + item + killed) % 2
                oracle.field(row, "player_xp")[...] = level % 3
                states.append(row)
    return states


@pytest.mark.parametrize("which", SWEEPS)
def test_floors_and_ladders(which: str) -> None:
    states = floor_states()
    sweep = sweep_of(which, (0, 4, 17, DESCEND, ASCEND, 20))
    o = compare("change_floor", states, sweep=sweep)
    moved = o.changed("player_level")
    require(moved & (o.actions == DESCEND), "descends")
    require(moved & (o.actions == ASCEND), "ascends")
    require(~moved & (o.actions == DESCEND) & o.changed("player_xp"), "xp without a move")
    # floor_states' order: 8 states a floor, by ladder (none, down, up,
    # blocked), then 7 or 8 monsters killed.
    kind = o.index % 8
    require(~moved & (o.actions == DESCEND) & (kind == 2), "a ladder down, one monster short")
    require(~moved & (o.actions == DESCEND) & (kind == 7), "a blocked ladder, cleared")
    o = compare("change_floor", states, sweep=sweep, god_mode=True)
    require(o.changed("player_level") & (o.actions == DESCEND) & (kind == 0), "god mode")


def move_states(rng: np.random.Generator) -> list[np.ndarray]:
    """The player in the middle, on the edges and in the corners, facing every
    way, the cells around it of random blocks with mobs here and there."""
    states = []
    spots = [(24, 24), (0, 5), (47, 5), (5, 0), (5, 47), (0, 0), (47, 47), (0, 47), (47, 0)]
    for k in range(24):
        x, y = spots[k % len(spots)] if k < 18 else tuple(rng.integers(1, 47, 2))
        level = int(rng.choice([0, 2, 8]))
        row = edit(world(0), {"player_position": (x, y), "player_level": level})
        oracle.field(row, "player_direction")[...] = rng.integers(1, 5)
        near = (slice(max(x - 1, 0), x + 2), slice(max(y - 1, 0), y + 2))
        shape = oracle.field(row, "map")[level][near].shape
        blocks = rng.choice([2, 3, 14, 4, 7, 13, 17, 25, 26, 18, 0, 1, *range(37)], shape)
        oracle.field(row, "map")[level][near] = blocks
        oracle.field(row, "mob_map")[level][near] = rng.random(shape) < 0.2
        states.append(row)
    return states


@pytest.mark.parametrize("which", SWEEPS)
def test_moves(which: str) -> None:
    states = move_states(np.random.default_rng(9))
    sweep = sweep_of(which, (0, 1, 2, 3, 4, 5, 6))
    o = compare("move_player", states, sweep=sweep)
    moved = o.changed("player_position")
    require(moved, "a move")
    require(~moved & (o.actions >= 1) & (o.actions <= 4), "a blocked move")
    require(o.changed("player_direction") & ~moved, "turns without moving")
    o = compare("move_player", states, sweep=sweep, god_mode=True)
    require(o.changed("player_position") & ~moved, "moves in god mode where it may not")


@pytest.mark.slow
def test_actions_exhaustive() -> None:
    """More random edits of each kind."""
    for seed in range(10, 13):
        rng = np.random.default_rng(seed)
        compare("place_block", place_states(rng))
        compare("move_player", move_states(rng))
        compare("move_player", move_states(rng), god_mode=True)
    compare("change_floor", floor_states(), god_mode=True)
    for recipe in RECIPES:
        compare("do_crafting", recipe_states(*recipe), god_mode=True)
