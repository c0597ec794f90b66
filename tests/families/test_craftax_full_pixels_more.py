"""The full Craftax game's pixel view against craftax 1.6.1: night and sleep, projectiles
at the map's corners, the observation's scale, the texture loader's checks, and a
frame's time (test_craftax_full_pixels.py holds the helpers and the main comparisons).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "craftax_full_pixels"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

import craftax_full_oracle as oracle  # noqa: E402
import jax  # noqa: E402
from test_craftax_full_pixels import (  # noqa: E402
    DIRECTIONS,
    PROJECTILES,
    assert_same_view,
    craftax_renderer,
    edit,
    ours,
    random_scene,
    set_at,
)

from envpool_x.families import craftax_full_textures as textures  # noqa: E402


@pytest.fixture(scope="module")
def world() -> Any:
    return oracle.new_world(0)


def test_night_and_sleep_on_the_surface(world: Any) -> None:
    # Each light level over the same scene, awake and asleep.
    rng = np.random.default_rng(7)
    scene = random_scene(world, rng, level=0)
    views = []
    for light in (1.0, 0.75, 0.5, 0.4999, 0.3, 0.05, 0.0):
        for sleeping in (False, True):
            state = edit(scene, light_level=light, is_sleeping=sleeping)
            views.append(assert_same_view(state, 10, f"light {light} sleeping {sleeping}"))
    assert not np.array_equal(views[0], views[-2])  # night changed the picture
    assert not np.array_equal(views[0], views[1])  # so did sleep
    # Underground the light level is not used.
    deep = edit(scene, player_level=3, light_level=0.0)
    np.testing.assert_array_equal(ours(deep, 10), ours(edit(deep, light_level=1.0), 10))


def test_projectile_directions_and_map_edges(world: Any) -> None:
    # Every direction of every projectile type, one projectile a state, in
    # the view's corner cell at the map's corners.
    for corner in ([0, 0], [47, 47], [0, 47], [47, 0]):
        for d, direction in enumerate(DIRECTIONS):
            kind = d % 8
            fields = {"player_position": np.array(corner), "player_level": 0}
            for name in PROJECTILES:
                mobs = getattr(world, name)
                fields[name] = {
                    "position": set_at(mobs.position, (0, 0), np.array(corner) + [1, -1]),
                    "mask": set_at(np.zeros_like(mobs.mask), (0, 0), True),
                    "type_id": set_at(mobs.type_id, (0, 0), kind),
                }
                key = name.replace("projectiles", "projectile_directions")
                fields[key] = set_at(getattr(world, key), (0, 0), direction)
            assert_same_view(edit(world, **fields), 10, f"corner {corner} direction {direction}")


def test_observation_is_the_view_over_255(world: Any) -> None:
    # Craftax-Pixels-v1's observation, the view at 10 pixels a cell / 255, is
    # ours times float32(1 / 255): XLA divides by a constant so.
    over_255 = jax.jit(lambda pixels: pixels / 255.0)
    rng = np.random.default_rng(11)
    for _ in range(4):
        state = random_scene(world, rng, level=0)
        theirs = np.asarray(over_255(craftax_renderer(10)(state)))
        mine = ours(state, textures.OBS_BLOCK_PIXELS) * np.float32(1.0 / 255.0)
        np.testing.assert_array_equal(mine, theirs)


@pytest.mark.slow
def test_observation_is_craftax_pixels_envs(world: Any) -> None:
    from craftax.craftax.envs.craftax_pixels_env import CraftaxPixelsEnv

    env = CraftaxPixelsEnv(CraftaxPixelsEnv.default_static_params())
    observe = jax.jit(env.get_obs)
    rng = np.random.default_rng(12)
    for _ in range(8):
        state = random_scene(world, rng, level=0)
        theirs = np.asarray(observe(state))
        assert theirs.shape == (130, 110, 3)
        mine = ours(state, textures.OBS_BLOCK_PIXELS) * np.float32(1.0 / 255.0)
        np.testing.assert_array_equal(mine, theirs)


def test_texture_loading_is_checked() -> None:
    parts = [a.ravel() for a in textures.full_textures(10)]
    with pytest.raises(ValueError, match="array 3"):
        _core.craftax_full_set_textures(10, parts[:3] + [parts[3][:-1]] + parts[4:])
    with pytest.raises(ValueError, match="expected 16 arrays"):
        _core.craftax_full_set_textures(10, parts[:-1])
    with pytest.raises(ValueError, match="block size"):
        _core.craftax_full_set_textures(2, parts)
    assert not _core.craftax_full_has_textures(11)
    with pytest.raises(RuntimeError, match="not loaded"):
        _core.craftax_full_pixels(oracle.pack_state(oracle.new_world(0)), 11)
    textures.load_textures(10)
    with pytest.raises(ValueError, match="numbers"):
        _core.craftax_full_pixels([0.0] * 5, 10)


def test_time_a_frame(world: Any) -> None:
    # Drawing only (no packing), at the observation's 10 pixels a cell, by
    # night on the surface (the static's threefry is the dearest part) and
    # underground.
    textures.load_textures(10)
    rng = np.random.default_rng(5)
    night = oracle.pack_state(edit(random_scene(world, rng, level=0), light_level=0.2))
    deep = oracle.pack_state(random_scene(world, rng, level=4))
    took = {
        "night": _core.craftax_full_time_pixels(night, 10, 2000),
        "underground": _core.craftax_full_time_pixels(deep, 10, 2000),
    }
    print({k: f"{v * 1e6:.1f} us" for k, v in took.items()})
    assert 0 < took["underground"] < 2e-3 and 0 < took["night"] < 5e-3, took
