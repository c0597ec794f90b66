"""The rules every new full Craftax world keeps, floor by floor (craftax
1.6.1's world_gen and its configs), checked on one world given as named arrays
(craftax_full_oracle.worldgen_fields): the tests run them on our worlds and on
Craftax's own, so that a rule here is Craftax's and not just ours."""

from __future__ import annotations

import numpy as np

SIZE = 48
CENTRE = SIZE // 2
LEVELS = 9
# Craftax's BlockType.
(
    INVALID, OUT_OF_BOUNDS, GRASS, WATER, STONE, TREE, WOOD, PATH, COAL, IRON, DIAMOND,
    CRAFTING_TABLE, FURNACE, SAND, LAVA, PLANT, RIPE_PLANT, WALL, DARKNESS, WALL_MOSS,
    STALAGMITE, SAPPHIRE, RUBY, CHEST, FOUNTAIN, FIRE_GRASS, ICE_GRASS, GRAVEL, FIRE_TREE,
    ICE_SHRUB, ENCHANTMENT_TABLE_FIRE, ENCHANTMENT_TABLE_ICE, NECROMANCER, GRAVE, GRAVE2,
    GRAVE3, NECROMANCER_VULNERABLE,
) = range(37)  # fmt: skip
NUM_BLOCKS = 37
# Craftax's ItemType.
NO_ITEM, TORCH, LADDER_DOWN, LADDER_UP = 0, 1, 2, 3

SMOOTH = (0, 2, 5, 6, 7, 8)
DUNGEONS = (1, 3, 4)
MINES_BLOCKS = {PATH, WATER, STONE, STALAGMITE, COAL, IRON, DIAMOND, SAPPHIRE, RUBY, LAVA}
DUNGEON_BLOCKS = {WALL, WALL_MOSS, DARKNESS, PATH, CHEST}
# The blocks each floor may hold (its config's blocks; the boss floor's corner
# (0, 0) is stone: Craftax's diamond step writes stone there on a floor
# without stone). The fire level's sand threshold lies above its lava
# threshold, so it never has sand.
ALLOWED = (
    {GRASS, WATER, SAND, STONE, PATH, TREE, COAL, IRON, DIAMOND, LAVA},
    DUNGEON_BLOCKS | {FOUNTAIN},
    MINES_BLOCKS,
    DUNGEON_BLOCKS | {WATER, ENCHANTMENT_TABLE_ICE},
    DUNGEON_BLOCKS | {FOUNTAIN, ENCHANTMENT_TABLE_FIRE},
    MINES_BLOCKS,
    {FIRE_GRASS, LAVA, STONE, FIRE_TREE, COAL, RUBY},
    {ICE_GRASS, WATER, STONE, ICE_SHRUB, DIAMOND, SAPPHIRE},
    {PATH, WALL, WALL_MOSS, GRAVE, GRAVE2, GRAVE3, NECROMANCER, STONE},
)
# Smooth floors: the start cell's block, and around it (Euclidean distance
# squared up to the bound, within the reach of the fade of water and
# mountains given each config's thresholds and strengths) only these blocks.
SPAWN = {0: GRASS, 2: PATH, 5: PATH, 6: FIRE_GRASS, 7: ICE_GRASS, 8: NECROMANCER}
SAFE = {
    0: (8, {GRASS, TREE}),
    2: (12, {PATH, STALAGMITE}),
    5: (12, {PATH, STALAGMITE}),
    6: (6, {FIRE_GRASS, FIRE_TREE}),
    7: (6, {ICE_GRASS, ICE_SHRUB}),
    8: (42, {PATH, GRAVE, GRAVE2, GRAVE3, NECROMANCER}),
}
# The block ladders stand on, and which ladders each floor shows.
LADDER_BLOCK = (PATH, PATH, PATH, PATH, PATH, PATH, FIRE_GRASS, ICE_GRASS, PATH)
HAS_DOWN = (True,) * 8 + (False,)
HAS_UP = (False,) + (True,) * 7 + (False,)
DEFAULT_LIGHT = (1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0)

_XS, _YS = np.meshgrid(np.arange(SIZE), np.arange(SIZE), indexing="ij")
DIST2 = (_XS - CENTRE) ** 2 + (_YS - CENTRE) ** 2


def world(fields: dict[str, np.ndarray], i: int) -> dict[str, np.ndarray]:
    """World ``i`` of a batch of named arrays."""
    return {name: np.asarray(v[i]) for name, v in fields.items()}


def check_floors(w: dict[str, np.ndarray], always_diamond: bool = False) -> None:
    """The floors' rules: blocks, the start's safe area, ladders, light."""
    blocks = w["map"].astype(int)
    items = w["item_map"].astype(int)
    light = w["light_map"]
    down = w["down_ladders"].astype(int)
    up = w["up_ladders"].astype(int)
    for level in range(LEVELS):
        floor, floor_items = blocks[level], items[level]
        assert set(np.unique(floor)) <= ALLOWED[level], (level, set(np.unique(floor)))
        if level in SMOOTH:
            assert floor[CENTRE, CENTRE] == SPAWN[level], level
            bound, near = SAFE[level]
            assert set(np.unique(floor[DIST2 <= bound])) <= near, level
        # Ladders: on a ladder block (or the corner (0, 0) of a floor without
        # one, where Craftax's choice with no weight lands); the up ladder wins
        # a shared cell.
        valid = floor == LADDER_BLOCK[level]
        for pos in (down[level], up[level]):
            assert valid[pos[0], pos[1]] or (not valid.any() and tuple(pos) == (0, 0)), level
        same = tuple(down[level]) == tuple(up[level])
        expected = np.zeros_like(floor_items)
        expected[floor_items == TORCH] = TORCH
        if HAS_DOWN[level]:
            expected[down[level][0], down[level][1]] = LADDER_DOWN
        if HAS_UP[level]:
            expected[up[level][0], up[level][1]] = LADDER_UP
        np.testing.assert_array_equal(floor_items, expected, err_msg=f"items of floor {level}")
        assert (floor_items == LADDER_DOWN).sum() == (
            HAS_DOWN[level] and not (same and HAS_UP[level])
        )
        assert (floor_items == LADDER_UP).sum() == HAS_UP[level]
        # Light: in [0, 1]; lit floors all 1; on dark ones a torch's light at
        # the up ladder (drawn even on the boss floor, which shows no ladder).
        assert light[level].min() >= 0.0 and light[level].max() <= 1.0
        if DEFAULT_LIGHT[level] == 1.0:
            assert (light[level] == 1.0).all(), level
        else:
            # The 9 x 9 patch's centre is lit. Its corner is placed as JAX's
            # dynamic_update_slice does: a negative index counts from the end,
            # then the patch is shifted to fit the map.
            corner = up[level] - 4
            x0, y0 = np.clip(np.where(corner < 0, corner + SIZE, corner), 0, SIZE - 9)
            assert light[level][x0 + 4, y0 + 4] == 1.0, level
        if level in DUNGEONS:
            check_dungeon(level, floor, floor_items)
        else:
            assert not (floor_items == TORCH).any()
    overworld = blocks[0]
    if always_diamond and (overworld == STONE).any():
        assert (overworld == DIAMOND).any()


def check_dungeon(level: int, floor: np.ndarray, items: np.ndarray) -> None:
    """Rooms' torches lie on room cells; one enchantment table where the
    config has one; a few chests."""
    special = {1: None, 3: ENCHANTMENT_TABLE_ICE, 4: ENCHANTMENT_TABLE_FIRE}[level]
    fountain = WATER if level == 3 else FOUNTAIN
    room_blocks = {PATH, CHEST, fountain} | ({special} if special else set())
    torches = items == TORCH
    assert 0 < torches.sum() <= 32
    assert set(np.unique(floor[torches])) <= room_blocks, level
    if special is not None:
        assert (floor == special).sum() == 1, level
    assert 1 <= (floor == CHEST).sum() <= 8, level
    # Walls next to an open cell (4-neighbourhood), darkness elsewhere.
    open_ = np.pad(~np.isin(floor, (WALL, WALL_MOSS, DARKNESS)), 1)
    near = (
        open_[1:-1, 1:-1] | open_[:-2, 1:-1] | open_[2:, 1:-1] | open_[1:-1, :-2] | open_[1:-1, 2:]
    )
    np.testing.assert_array_equal(floor == DARKNESS, ~near, err_msg=f"darkness of floor {level}")


def check_start(w: dict[str, np.ndarray], god_mode: bool = False) -> None:
    """The player, inventory, mobs and the rest of a new game."""
    assert tuple(w["player_position"].astype(int)) == (CENTRE, CENTRE)
    assert int(w["player_level"]) == 0 and int(w["player_direction"]) == 3
    assert float(w["player_health"]) == 9.0
    for name in ("player_food", "player_drink", "player_energy", "player_mana"):
        assert int(w[name]) == 9, name
    for name in ("player_dexterity", "player_strength", "player_intelligence"):
        assert int(w[name]) == 1, name
    assert sorted(w["potion_mapping"].astype(int)) == list(range(6))
    assert list(w["monsters_killed"].astype(int)) == [10] + [0] * 8
    assert int(w["boss_timesteps_to_spawn_this_round"]) == 7
    assert int(w["timestep"]) == 0 and not w["achievements"].any()
    assert not w["mob_map"].any() and not w["growing_plants_mask"].any()
    for mobs in (
        "melee_mobs",
        "passive_mobs",
        "ranged_mobs",
        "mob_projectiles",
        "player_projectiles",
    ):
        assert (w[f"{mobs}.health"] == 1.0).all() and not w[f"{mobs}.mask"].any(), mobs
        assert not w[f"{mobs}.position"].any() and not w[f"{mobs}.type_id"].any(), mobs
    assert (w["mob_projectile_directions"] == 1).all()
    assert (w["player_projectile_directions"] == 1).all()
    wood = int(w["inventory.wood"])
    assert wood == (99 if god_mode else 0)
    assert int(w["inventory.pickaxe"]) == (4 if god_mode else 0)
    assert (w["inventory.armour"] == (2 if god_mode else 0)).all()
    assert (w["inventory.potions"] == (99 if god_mode else 0)).all()
    expected_light = 1.0 - abs(np.cos(np.pi * 0.3)) ** 3
    assert abs(float(w["light_level"]) - expected_light) < 1e-6
