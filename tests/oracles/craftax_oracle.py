"""Craftax 1.6.1's JAX Classic step, driven by given random draws (the parity tests' oracle).

Craftax draws its in-step randomness with ``jax.random.uniform`` and
``jax.random.choice``. While its step is traced, both are replaced by host
callbacks that take the next number of a queue the test fills with the draws it
gives our env too, and turn it into an outcome by the rules our C++ uses
(cpp/envs/craftax/classic_draws.h): a uniform is the number itself, a choice
without weights is ``floor(u * n)``, a weighted one the first index whose
running weight exceeds ``u * total``.
"""

from __future__ import annotations

import functools
import os
from collections import deque
from typing import Any

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from craftax.craftax_classic import game_logic, renderer, world_gen  # noqa: E402
from craftax.craftax_classic.envs.craftax_state import EnvParams, StaticEnvParams  # noqa: E402
from jax.experimental import io_callback  # noqa: E402

DRAWS: deque[float] = deque()


def _next_draw() -> float:
    return float(DRAWS.popleft())


def _host_uniform() -> np.ndarray:
    return np.float32(_next_draw())


def _host_index(n: np.ndarray) -> np.ndarray:
    return np.int32(min(int(_next_draw() * int(n)), int(n) - 1))


def _host_weighted(p: np.ndarray) -> np.ndarray:
    u = _next_draw()
    running = np.cumsum(np.asarray(p, dtype=np.float32).astype(np.float64))
    above = np.nonzero(running > u * running[-1])[0]
    return np.int32(above[0] if above.size else len(running) - 1)


def _uniform(key: Any, shape: tuple[int, ...] = (), *args: Any, **kwargs: Any) -> jax.Array:
    assert shape == (), "Craftax's step draws scalar uniforms only"
    return io_callback(_host_uniform, jax.ShapeDtypeStruct((), jnp.float32), ordered=True)


def _choice(
    key: Any, a: Any, shape: tuple[int, ...] = (), replace: bool = True, p: Any = None, **kw: Any
) -> jax.Array:
    a = jnp.asarray(a)
    out = jax.ShapeDtypeStruct((), jnp.int32)
    if p is None:
        index = io_callback(_host_index, out, jnp.int32(a.shape[0]), ordered=True)
    else:
        index = io_callback(_host_weighted, out, jnp.asarray(p, jnp.float32), ordered=True)
    picked = a[index]
    return picked.reshape(shape + a.shape[1:]) if shape else picked


PARAMS = EnvParams()
STATIC = StaticEnvParams()


def _traced_step(state: Any, action: Any, key: Any) -> tuple[Any, Any, Any, Any]:
    # The key's splits give the new state_rng (the draws come from DRAWS).
    new_state, reward = game_logic.craftax_step(key, state, action, PARAMS, STATIC)
    done = game_logic.is_game_over(new_state, PARAMS)
    return new_state, reward, done, renderer.render_craftax_symbolic(new_state)


def make_step() -> Any:
    """A jitted Craftax step ``(state, action, key) -> (state, reward, done, obs)``
    whose random draws come from :data:`DRAWS` (traced once with the patches);
    ``key`` (a ``jax.random.PRNGKey``) only makes the new ``state_rng``."""
    jitted = jax.jit(_traced_step)
    example = _example_args()  # Craftax's world generator keeps the real draws
    real_uniform, real_choice = jax.random.uniform, jax.random.choice
    jax.random.uniform, jax.random.choice = _uniform, _choice
    try:
        jitted = jitted.lower(*example).compile()
    finally:
        jax.random.uniform, jax.random.choice = real_uniform, real_choice
    return jitted


def _example_args() -> tuple[Any, Any, Any]:
    return new_world(0), jnp.int32(0), jax.random.PRNGKey(0)


_generate = jax.jit(lambda key: world_gen.generate_world(key, PARAMS, STATIC))


def new_world(seed: int) -> Any:
    """Craftax's own world for ``seed``."""
    return _generate(jax.random.PRNGKey(seed))


def observe(state: Any) -> np.ndarray:
    """Craftax's symbolic observation of ``state``."""
    return np.asarray(renderer.render_craftax_symbolic(state))


def pack_state(state: Any) -> list[float]:
    """``state`` in the order of our state (cpp/envs/craftax/classic_state_io.h)."""
    s = jax.tree_util.tree_map(np.asarray, state)
    out: list[np.ndarray] = [s.map.ravel(), s.mob_map.ravel()]
    pos = s.player_position
    scalars = [pos[0], pos[1], s.player_direction, s.player_health, s.player_food]
    scalars += [s.player_drink, s.player_energy, s.is_sleeping, s.player_recover]
    scalars += [s.player_hunger, s.player_thirst, s.player_fatigue]
    out.append(np.array(scalars, dtype=np.float64))
    inv = s.inventory
    names = ["wood", "stone", "coal", "iron", "diamond", "sapling", "wood_pickaxe"]
    names += ["stone_pickaxe", "iron_pickaxe", "wood_sword", "stone_sword", "iron_sword"]
    out.append(np.array([getattr(inv, n) for n in names], dtype=np.float64))
    for mobs in (s.zombies, s.cows, s.skeletons, s.arrows):
        out += [mobs.position[:, 0], mobs.position[:, 1], mobs.health]
        out += [mobs.attack_cooldown, mobs.mask]
    out += [s.arrow_directions[:, 0], s.arrow_directions[:, 1]]
    out += [s.growing_plants_positions[:, 0], s.growing_plants_positions[:, 1]]
    out += [s.growing_plants_age, s.growing_plants_mask]
    out += [np.array([s.light_level]), s.achievements, np.array([s.timestep])]
    out.append(np.asarray(s.state_rng, dtype=np.float64))  # a raw uint32[2] PRNGKey
    return [float(v) for part in out for v in np.asarray(part, dtype=np.float64).ravel()]


def with_inventory(state: Any, amount: int) -> Any:
    """``state`` with ``amount`` of every material and sapling (no tools)."""
    inv = state.inventory.replace(
        wood=amount, stone=amount, coal=amount, iron=amount, diamond=0, sapling=amount
    )
    return state.replace(inventory=inv)


def at_timestep(state: Any, timestep: int) -> Any:
    """``state`` moved to ``timestep``, with that time's daylight."""
    light = game_logic.calculate_light_level(jnp.int32(timestep), PARAMS)
    return state.replace(timestep=jnp.int32(timestep), light_level=light)


@functools.cache
def pixel_renderer(block: int) -> Any:
    """Craftax's ``render_craftax_pixels`` at ``block`` pixels a cell, jitted
    (0..255 floats; its pixel env's observation is this / 255)."""
    return jax.jit(renderer.make_craftax_pixel_renderer(block))


@functools.cache
def pixel_observer() -> Any:
    """Craftax-Classic-Pixels' ``get_obs``, jitted: the pixels at 7 / 255."""
    render = renderer.make_craftax_pixel_renderer(7)
    return jax.jit(lambda state: render(state) / 255.0)
