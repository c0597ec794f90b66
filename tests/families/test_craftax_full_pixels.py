"""The full Craftax game's pixel view (``craftax_full_pixels``) against craftax 1.6.1.

Our C++ view of a state is compared with Craftax's own jitted
``make_craftax_pixel_renderer(block)`` of the same state, at 10 pixels a cell
(Craftax-Pixels-v1's observation) and 16 (render()'s default; 64 in the slow
suite): Craftax's worlds on every floor, states its own step reaches with
random actions, and states edited to show what play rarely shows together
(every block and item, mobs of every class and type, projectiles in every
direction, night, sleep, the map's edge, a full inventory, out-of-range
values that Craftax's clamped table reads turn into some texture).

Every value is exact, the night's too: XLA's CPU compiler contracts three of
the night's multiply-adds into fmas, and our C++ does the same
(cpp/envs/craftax/full/pixels_map.h).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "craftax_full_pixels"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

import craftax_full_oracle as oracle  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from conftest import ci_sample  # noqa: E402
from envpool_x.families import craftax_full_textures as textures  # noqa: E402

BLOCKS = ci_sample([10, 16, 64], keep={10, 16})


@functools.cache
def craftax_renderer(block: int) -> Any:
    from craftax.craftax.renderer import make_craftax_pixel_renderer

    return jax.jit(make_craftax_pixel_renderer(block))


def ours(state: Any, block: int, portable: bool = False) -> np.ndarray:
    textures.load_textures(block)
    return _core.craftax_full_pixels(oracle.pack_state(state), block, portable=portable)


def assert_same_view(state: Any, block: int, what: str = "") -> np.ndarray:
    """Our view of ``state`` equals Craftax's, bit for bit, with the CPU's fma
    instruction and without (the portable path); returns it."""
    theirs = np.asarray(craftax_renderer(block)(state))
    packed = oracle.pack_state(state)
    textures.load_textures(block)
    mine = _core.craftax_full_pixels(packed, block)
    assert mine.shape == theirs.shape == ((9 + 4) * block, 11 * block, 3), what
    assert mine.dtype == np.float32
    np.testing.assert_array_equal(mine, theirs, err_msg=what)
    portable = _core.craftax_full_pixels(packed, block, portable=True)
    np.testing.assert_array_equal(portable, theirs, err_msg=f"{what} (portable)")
    return mine


# --- edited states -------------------------------------------------------------------


def edit(state: Any, **fields: Any) -> Any:
    """``state`` with ``fields`` replaced (numpy values, in the fields' dtypes);
    ``mobs=...`` style keys take dicts of the mob table's fields."""
    changes = {}
    for name, value in fields.items():
        old = getattr(state, name)
        if isinstance(value, dict):
            changes[name] = old.replace(
                **{k: jnp.asarray(v, getattr(old, k).dtype) for k, v in value.items()}
            )
        else:
            changes[name] = jnp.asarray(value, jnp.asarray(old).dtype)
    return state.replace(**changes)


def set_at(array: Any, index: Any, value: Any) -> np.ndarray:
    out = np.array(array)
    out[index] = value
    return out


MOB_TYPES = {"melee_mobs": 8, "passive_mobs": 3, "ranged_mobs": 8}
PROJECTILES = ("mob_projectiles", "player_projectiles")
DIRECTIONS = np.array([[-1, 0], [1, 0], [0, -1], [0, 1], [0, 0], [1, 1], [-1, 1]])


def random_scene(
    base: Any, rng: np.random.Generator, level: int | None = None, cycle: int | None = None
) -> Any:
    """``base`` with a random floor, player, mobs, projectiles, light and inventory:
    values in and (now and then) out of Craftax's ranges. With ``cycle``, the
    mobs' types go round every type (and two out of range) as ``cycle`` counts
    up, and most mobs stand in view."""
    if level is None:
        level = int(rng.choice([0, 0, 1, 2, 3, 4, 5, 6, 7, 8, -1, 9]))
    row = level if level < 9 else 8  # the floor Craftax's clamped read draws
    edge = rng.random() < 0.3
    pos = rng.choice([0, 1, 3, 44, 46, 47], size=2) if edge else rng.integers(5, 43, size=2)
    light_map = np.where(rng.random((48, 48)) < 0.3, 1.0, rng.random((48, 48)))
    light_map[rng.random((48, 48)) < 0.15] = 0.0
    fields: dict[str, Any] = {
        "player_level": level,
        "player_position": pos,
        "player_direction": rng.integers(0, 6),
        "is_sleeping": rng.random() < 0.3,
        "light_level": rng.choice([0.0, 0.1, 0.3, 0.49, 0.5, 0.8, 1.0, rng.random()]),
        "state_rng": rng.integers(0, 2**32, size=2, dtype=np.uint64).astype(np.uint32),
        "map": set_at(base.map, row, rng.integers(0, 37, (48, 48))),
        "item_map": set_at(
            base.item_map, row, rng.choice(5, (48, 48), p=[0.6, 0.1, 0.1, 0.1, 0.1])
        ),
        "light_map": set_at(base.light_map, row, light_map),
        "monsters_killed": set_at(base.monsters_killed, row, rng.choice([0, 7, 8, 12])),
        "boss_timesteps_to_spawn_this_round": rng.choice([-1, 0, 5]),
        "player_health": rng.choice([rng.uniform(-1, 25), 0.5, 9.0, 10.0]),
        "player_food": rng.integers(-2, 30),
        "player_drink": rng.integers(-2, 30),
        "player_energy": rng.integers(-2, 30),
        "player_mana": rng.integers(-2, 30),
        "player_xp": rng.integers(-2, 12),
        "player_dexterity": rng.integers(-2, 12),
        "player_strength": rng.integers(-2, 12),
        "player_intelligence": rng.integers(-2, 12),
        "learned_spells": rng.random(2) < 0.5,
        "sword_enchantment": rng.integers(-1, 4),
        "bow_enchantment": rng.integers(-1, 4),
        "armour_enchantments": rng.integers(-1, 4, size=4),
    }
    counts = {
        k: rng.integers(-3, 120) if rng.random() < 0.3 else rng.integers(0, 10)
        for k in ("wood", "stone", "coal", "iron", "diamond", "sapling", "arrows", "torches")
    }
    counts.update(ruby=rng.integers(0, 30), sapphire=rng.integers(0, 30), books=rng.integers(0, 3))
    fields["inventory"] = {
        **counts,
        "pickaxe": rng.integers(-1, 6),
        "sword": rng.integers(-1, 6),
        "bow": rng.integers(-1, 3),
        "armour": rng.integers(-1, 4, size=4),
        "potions": rng.integers(-2, 30, size=6),
    }
    for name in (*MOB_TYPES, *PROJECTILES):
        mobs = getattr(base, name)
        n = mobs.mask.shape[1]
        types = MOB_TYPES.get(name, 8)
        offsets = rng.integers(-6, 7, (n, 2))
        type_id = rng.integers(-2, types + 2, n)
        if cycle is not None:
            in_view = np.stack([rng.integers(-4, 5, n), rng.integers(-5, 6, n)], axis=1)
            offsets = np.where(rng.random((n, 1)) < 0.8, in_view, offsets)
            type_id = (cycle * n + np.arange(n)) % (types + 2) - 1
        fields[name] = {
            "position": set_at(mobs.position, row, pos + offsets),
            "mask": set_at(mobs.mask, row, rng.random(n) < 0.85),
            "type_id": set_at(mobs.type_id, row, type_id),
        }
    for name in PROJECTILES:
        dirs = getattr(base, name.replace("projectiles", "projectile_directions"))
        fields[name.replace("projectiles", "projectile_directions")] = set_at(
            dirs, row, DIRECTIONS[rng.integers(0, len(DIRECTIONS), 3)]
        )
    return edit(base, **fields)


@pytest.fixture(scope="module")
def world() -> Any:
    return oracle.new_world(0)


# --- tests ---------------------------------------------------------------------------


@pytest.mark.parametrize("block", BLOCKS)
def test_textures_equal_craftax(block: int) -> None:
    from craftax.craftax.constants import load_all_textures

    theirs = {k: np.asarray(v) for k, v in load_all_textures()[block].items()}
    (blocks, small_blocks, items, items_alpha, player, player_alpha, mobs, mobs_alpha) = (
        textures.full_textures(block)[:8]
    )
    digits, digits_alpha, digits_zero, digits_zero_alpha = textures.full_textures(block)[8:12]
    icons, overlays, overlays_alpha, noise = textures.full_textures(block)[12:]
    b = block
    np.testing.assert_array_equal(blocks, theirs["block_textures"])
    np.testing.assert_array_equal(small_blocks, theirs["smaller_block_textures"])
    cell = np.s_[:, :b, :b]
    np.testing.assert_array_equal(items, theirs["full_map_item_textures"][cell][..., :3])
    item_alpha = theirs["full_map_item_textures"][cell][..., 3:]
    np.testing.assert_array_equal(items_alpha, np.repeat(item_alpha, 3, axis=-1))
    centre = np.s_[:, 4 * b : 5 * b, 5 * b : 6 * b]
    np.testing.assert_array_equal(player, theirs["full_map_player_textures"][centre])
    np.testing.assert_array_equal(player_alpha, theirs["full_map_player_textures_alpha"][centre])
    names = ("melee_mob", "passive_mob", "ranged_mob", "projectile")
    np.testing.assert_array_equal(mobs, np.concatenate([theirs[f"{n}_textures"] for n in names]))
    np.testing.assert_array_equal(
        mobs_alpha, np.concatenate([theirs[f"{n}_texture_alphas"] for n in names])
    )
    np.testing.assert_array_equal(digits, theirs["number_textures"])
    np.testing.assert_array_equal(digits_alpha, theirs["number_textures_alpha"])
    np.testing.assert_array_equal(digits_zero, theirs["number_textures_with_zero"])
    np.testing.assert_array_equal(digits_zero_alpha, theirs["number_textures_alpha_with_zero"])
    expected_icons = [
        theirs[k]
        for k in (
            "health_texture",
            "hunger_texture",
            "thirst_texture",
            "energy_texture",
            "mana_texture",
            "sapling_texture",
            "torch_inv_texture",
            "book_texture",
            "fireball_inv_texture",
            "iceball_inv_texture",
            "xp_texture",
            "dex_texture",
            "str_texture",
            "int_texture",
        )
    ]
    expected_icons += [theirs["bow_textures"][1], theirs["player_projectile_textures"][0]]
    expected_icons += list(theirs["potion_textures"])
    expected_icons += list(theirs["pickaxe_textures"][1:]) + list(theirs["sword_textures"][1:])
    expected_icons += list(theirs["armour_textures"][1]) + list(theirs["armour_textures"][2])
    np.testing.assert_array_equal(icons, np.stack(expected_icons))
    enchantments = [
        theirs["sword_enchantment_textures"][1:],
        theirs["arrow_enchantment_textures"][1:],
    ]
    enchantments += [
        theirs["armour_enchantment_textures"][1],
        theirs["armour_enchantment_textures"][2],
    ]
    rgba = np.concatenate(enchantments)
    np.testing.assert_array_equal(overlays, rgba[..., :3])
    np.testing.assert_array_equal(overlays_alpha, np.repeat(rgba[..., 3:], 3, axis=-1))
    np.testing.assert_array_equal(noise, theirs["night_noise_intensity_texture"][:, :, 0])
    # What C++ takes as empty must be Craftax's zeros.
    assert not theirs["smaller_empty_texture"].any() and not theirs["pickaxe_textures"][0].any()
    assert not theirs["armour_textures"][0].any() and not theirs["bow_textures"][0].any()
    assert not theirs["sword_enchantment_textures"][0].any()
    assert not theirs["armour_enchantment_textures"][0].any()


@pytest.mark.parametrize("block", BLOCKS)
@pytest.mark.parametrize("seed", [0, 1])
def test_craftax_worlds_on_every_floor(block: int, seed: int) -> None:
    # Craftax's own floors, the player at each floor's ladders (lit there).
    state = oracle.new_world(seed)
    assert_same_view(state, block, "surface")
    for level in range(1, 9):
        for ladders in (state.up_ladders, state.down_ladders):
            moved = edit(state, player_level=level, player_position=np.asarray(ladders[level]))
            assert_same_view(moved, block, f"floor {level} at {np.asarray(ladders[level])}")


def run_real_episode(seed: int, steps: int, block: int, every: int = 5) -> int:
    """Craftax's own step with random actions (more moves and do's); compares the
    view every ``every`` steps; returns how many views were compared."""
    rng = np.random.default_rng(seed)
    weights = np.ones(43)
    weights[1:6] = 6.0
    weights /= weights.sum()
    state, key, compared = oracle.new_world(seed), jax.random.PRNGKey(seed), 0
    step = oracle.real_step()
    for t in range(steps):
        key, sub = jax.random.split(key)
        state, _, done = step(state, jnp.int32(rng.choice(43, p=weights)), sub)
        if t % every == 0:
            assert_same_view(state, block, f"seed {seed} step {t}")
            compared += 1
        if bool(done):
            break
    return compared


@pytest.mark.parametrize("block", BLOCKS)
def test_states_craftax_step_reaches(block: int) -> None:
    assert run_real_episode(seed=3, steps=60, block=block) >= 5


@pytest.mark.slow
def test_states_craftax_step_reaches_long() -> None:
    for seed in range(4):
        run_real_episode(seed=seed, steps=400, block=10, every=3)


LEVELS = (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8)
LIGHTS = (0.0, 0.2, 0.4999, 0.5, 0.8, 1.0)


@pytest.mark.parametrize("block", BLOCKS)
def test_edited_scenes(block: int, world: Any) -> None:
    rng = np.random.default_rng(block)
    seen_types: dict[str, set[int]] = {name: set() for name in (*MOB_TYPES, *PROJECTILES)}
    nights = sleeping = 0
    for i in range(24):
        level = LEVELS[i % len(LEVELS)] if i < 22 else None
        state = random_scene(world, rng, level=level, cycle=i)
        if level == 0:
            state = edit(state, light_level=LIGHTS[i % len(LIGHTS)])
        assert_same_view(state, block, f"scene {i}")
        row = min(int(state.player_level), 8)
        pos = np.asarray(state.player_position)
        for name in seen_types:
            mobs = getattr(state, name)
            local = np.asarray(mobs.position[row]) - pos + [4, 5]
            shown = np.asarray(mobs.mask[row]) & np.all((local >= 0) & (local < [9, 11]), axis=1)
            seen_types[name] |= set(np.asarray(mobs.type_id[row])[shown].tolist())
        nights += int(state.player_level) == 0 and float(state.light_level) < 0.5
        sleeping += bool(state.is_sleeping)
    for name, types in MOB_TYPES.items():  # the scenes did show every type in view
        assert set(range(types)) <= seen_types[name], (name, seen_types[name])
    assert set(range(8)) <= seen_types["mob_projectiles"] | seen_types["player_projectiles"]
    assert nights >= 3 and sleeping >= 3, (nights, sleeping)


@pytest.mark.slow
@pytest.mark.parametrize("block", [10, 16, 64])
def test_edited_scenes_many(block: int, world: Any) -> None:
    rng = np.random.default_rng(100 + block)
    for i in range(300 if block < 64 else 60):
        assert_same_view(random_scene(world, rng), block, f"scene {i}")
