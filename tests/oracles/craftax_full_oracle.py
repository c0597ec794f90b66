"""Craftax 1.6.1's full game (JAX), driven by given random draws: the parity tests' oracle.

Craftax draws the randomness inside a step with ``jax.random.uniform``,
``jax.random.choice`` and ``jax.random.randint``, each a scalar, and the number
of draws a step takes is fixed by its traced program. While a Craftax function
is traced here, the three are replaced by host callbacks that take the next
number of :data:`DRAWS` (the draws the test gives our env too) and turn it
into an outcome by the rules of our C++ (cpp/envs/craftax/full/draws.h): a
uniform is the number itself, a choice without weights ``floor(u * n)``, a
weighted one the first index whose running weight exceeds ``u * total``, and
``randint(lo, hi)`` is ``lo + floor(u * (hi - lo))``.

A state is packed as Craftax's pytree leaves in order
(cpp/envs/craftax/full/state_io.h unpacks the same list).
"""

from __future__ import annotations

import functools
import os
from collections import deque
from collections.abc import Callable
from typing import Any

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from craftax.craftax import game_logic, renderer  # noqa: E402
from craftax.craftax.craftax_state import EnvParams, StaticEnvParams  # noqa: E402
from craftax.craftax.world_gen import world_gen  # noqa: E402
from jax.experimental import io_callback  # noqa: E402

DRAWS: deque[float] = deque()
PARAMS = EnvParams()
STATIC = StaticEnvParams()


def _next_draw() -> float:
    return float(DRAWS.popleft())


def _host_uniform() -> np.ndarray:
    return np.float32(_next_draw())


def _host_index(n: np.ndarray) -> np.ndarray:
    return np.int32(min(int(_next_draw() * int(n)), int(n) - 1))


def _host_weighted(p: np.ndarray) -> np.ndarray:
    u = _next_draw()
    running = np.cumsum(np.asarray(p, dtype=np.float32).ravel().astype(np.float64))
    above = np.nonzero(running > u * running[-1])[0]
    return np.int32(above[0] if above.size else len(running) - 1)


def _scalar_shape(shape: Any) -> tuple[int, ...]:
    shape = tuple(shape) if shape is not None else ()
    assert shape in ((), (1,)), f"Craftax's step draws scalars only, got shape {shape}"
    return shape


def _uniform(key: Any, shape: Any = (), dtype: Any = None, minval: Any = 0.0, maxval: Any = 1.0):
    shape = _scalar_shape(shape)
    u = io_callback(_host_uniform, jax.ShapeDtypeStruct((), jnp.float32), ordered=True)
    return (minval + u * (maxval - minval)).reshape(shape)


def _choice(key: Any, a: Any, shape: Any = (), replace: bool = True, p: Any = None, axis: int = 0):
    shape = _scalar_shape(shape)
    a = jnp.arange(a) if isinstance(a, int) else jnp.asarray(a)
    out = jax.ShapeDtypeStruct((), jnp.int32)
    if p is None:
        index = io_callback(_host_index, out, jnp.int32(a.shape[0]), ordered=True)
    else:
        index = io_callback(_host_weighted, out, jnp.asarray(p, jnp.float32), ordered=True)
    picked = a[index]
    return picked.reshape(shape + a.shape[1:]) if shape else picked


def _randint(key: Any, shape: Any = (), minval: Any = 0, maxval: Any = 1, dtype: Any = jnp.int32):
    shape = _scalar_shape(shape)
    span = jnp.asarray(maxval, jnp.int32) - jnp.asarray(minval, jnp.int32)
    offset = io_callback(_host_index, jax.ShapeDtypeStruct((), jnp.int32), span, ordered=True)
    return (jnp.asarray(minval, jnp.int32) + offset).astype(dtype).reshape(shape)


def compile_with_draws(fn: Callable[..., Any], *example: Any) -> Any:
    """``jax.jit(fn)`` compiled for ``example``'s shapes, with Craftax's random
    draws taken from :data:`DRAWS` (the patches hold only while tracing)."""
    patched = {"uniform": _uniform, "choice": _choice, "randint": _randint}
    real = {name: getattr(jax.random, name) for name in patched}
    for name, f in patched.items():
        setattr(jax.random, name, f)
    try:
        # A wrapper of its own: jit caches a function's trace, and one traced
        # without the patches (real_step's) must not be reused here.
        return jax.jit(lambda *args: fn(*args)).lower(*example).compile()
    finally:
        for name, f in real.items():
            setattr(jax.random, name, f)


def _full_step(state: Any, action: Any, key: Any) -> tuple[Any, Any, Any]:
    new_state, reward = game_logic.craftax_step(key, state, action, PARAMS, STATIC)
    return new_state, reward, game_logic.is_game_over(new_state, PARAMS, STATIC)


@functools.cache
def step_with_draws() -> Any:
    """Craftax's whole step ``(state, action, key) -> (state, reward, done)``
    with its draws from :data:`DRAWS`; ``key`` (a raw ``uint32[2]`` key) only
    makes the new ``state_rng``."""
    return compile_with_draws(_full_step, new_world(0), jnp.int32(0), jax.random.PRNGKey(0))


@functools.cache
def real_step() -> Any:
    """Craftax's own step with its own randomness (to reach varied states)."""
    return jax.jit(_full_step)


_generate = jax.jit(lambda key: world_gen.generate_world(key, PARAMS, STATIC))


def new_world(seed: int) -> Any:
    """Craftax's own world for ``seed``."""
    return _generate(jax.random.PRNGKey(seed))


def pack_state(state: Any) -> list[float]:
    """``state``'s leaves in order, flattened (the order of full/state_io.h)."""
    leaves = jax.tree_util.tree_leaves(state)
    return np.concatenate([np.asarray(x, np.float64).ravel() for x in leaves]).tolist()


def unpack_state(values: Any, like: Any) -> Any:
    """The inverse of :func:`pack_state`: ``values`` in the shapes and dtypes of ``like``."""
    leaves, tree = jax.tree_util.tree_flatten(like)
    values = np.asarray(values, np.float64)
    out, i = [], 0
    for leaf in leaves:
        leaf = np.asarray(leaf)
        n = leaf.size
        out.append(jnp.asarray(values[i : i + n].reshape(leaf.shape).astype(leaf.dtype)))
        i += n
    assert i == values.size, f"{values.size} numbers for a state of {i}"
    return jax.tree_util.tree_unflatten(tree, out)


@functools.cache
def symbolic_observer() -> Any:
    """Craftax-Symbolic's observation of a state, jitted."""
    return jax.jit(renderer.render_craftax_symbolic)


def observe(state: Any) -> np.ndarray:
    return np.asarray(symbolic_observer()(state))


# A packed state's fields by name (leaves named as ``inventory.wood``).


@functools.cache
def _state_shapes() -> Any:
    return jax.eval_shape(
        lambda key: world_gen.generate_world(key, PARAMS, STATIC), jax.random.PRNGKey(0)
    )


def template() -> Any:
    """A state of zeros with Craftax's tree, shapes and dtypes (for
    :func:`unpack_state`'s ``like``, without compiling the generator)."""
    return jax.tree_util.tree_map(lambda s: jnp.zeros(s.shape, s.dtype), _state_shapes())


def fields(packed: Any) -> dict[str, np.ndarray]:
    """A packed state (or a batch of them, one per row) as named arrays."""
    packed = np.asarray(packed, np.float64)
    batch = packed.shape[:-1]
    out = {}
    for name, (offset, shape) in state_layout().items():
        n = int(np.prod(shape, dtype=np.int64))
        out[name] = packed[..., offset : offset + n].reshape(batch + shape)
    return out


@functools.cache
def state_layout() -> dict[str, tuple[int, tuple[int, ...]]]:
    """Each leaf of a state by its dotted name (``inventory.wood``): its
    offset and shape in a packed state."""
    layout, offset = {}, 0
    for path, leaf in jax.tree_util.tree_flatten_with_path(_state_shapes())[0]:
        shape = tuple(leaf.shape)
        layout[jax.tree_util.keystr(path).lstrip(".")] = (offset, shape)
        offset += int(np.prod(shape, dtype=np.int64))
    return layout


def field(packed: np.ndarray, name: str) -> np.ndarray:
    """A view of leaf ``name`` in the packed state ``packed`` (a float64
    array), to read or edit in place."""
    offset, shape = state_layout()[name]
    return packed[offset : offset + int(np.prod(shape, dtype=np.int64))].reshape(shape)


def field_at(index: int) -> str:
    """The leaf (and the index in it) of position ``index`` of a packed state."""
    for name, (offset, shape) in state_layout().items():
        size = int(np.prod(shape, dtype=np.int64))
        if offset <= index < offset + size:
            return f"{name}{list(np.unravel_index(index - offset, shape)) if shape else ''}"
    raise IndexError(index)


# ---------------------------------------------------------------------------
# Part "player": the player's own actions (tests/families/test_craftax_full_player*.py).
# Each of Craftax's functions below, vmapped over a batch of packed states
# (and their actions), so that a test sweeps many states and actions in one call.

_PLAYER_FUNCTIONS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "change_floor": lambda s, a, p: game_logic.change_floor(s, a, p, STATIC),
    "do_crafting": lambda s, a, p: game_logic.do_crafting(s, a),
    "place_block": lambda s, a, p: game_logic.place_block(s, a, STATIC),
    "drink_potion": lambda s, a, p: game_logic.drink_potion(s, a),
    "boss_logic": lambda s, a, p: game_logic.boss_logic(s, STATIC),
    "level_up_attributes": lambda s, a, p: game_logic.level_up_attributes(s, a, p),
    "move_player": lambda s, a, p: game_logic.move_player(s, a, p),
    "update_plants": lambda s, a, p: game_logic.update_plants(s, STATIC),
    "update_player_intrinsics": lambda s, a, p: game_logic.update_player_intrinsics(s, a, STATIC),
    "calculate_inventory_achievements": lambda s, a, p: game_logic.calculate_inventory_achievements(
        s
    ),
    "clip_inventory_and_intrinsics": lambda s, a, p: game_logic.clip_inventory_and_intrinsics(s, p),
}
PLAYER_FUNCTIONS = tuple(_PLAYER_FUNCTIONS)


@functools.cache
def _player_batch_fn(name: str, params: EnvParams) -> Any:
    fn = _PLAYER_FUNCTIONS[name]
    return jax.jit(jax.vmap(lambda s, a: fn(s, a, params)))


def player_batch(
    name: str, states: np.ndarray, actions: np.ndarray, params: EnvParams = PARAMS
) -> np.ndarray:
    """Craftax's function ``name`` on each packed state (rows of ``states``)
    with its action; returns the packed results. It runs 64 rows at a time
    (the last batch padded), so that one shape is compiled."""
    states = np.asarray(states, np.float64)
    actions = np.asarray(actions, np.int32)
    leaves, tree = jax.tree_util.tree_flatten(new_world(0))
    out = np.empty_like(states)
    for start in range(0, states.shape[0], 64):
        rows, acts = states[start : start + 64], actions[start : start + 64]
        n = rows.shape[0]
        rows = np.concatenate([rows, np.repeat(rows[-1:], 64 - n, axis=0)])
        acts = np.concatenate([acts, np.zeros(64 - n, np.int32)])
        batched, i = [], 0
        for leaf in leaves:
            leaf = np.asarray(leaf)
            batched.append(rows[:, i : i + leaf.size].reshape((64, *leaf.shape)).astype(leaf.dtype))
            i += leaf.size
        result = _player_batch_fn(name, params)(jax.tree_util.tree_unflatten(tree, batched), acts)
        flat = [
            np.asarray(x, np.float64).reshape(64, -1) for x in jax.tree_util.tree_leaves(result)
        ]
        out[start : start + n] = np.concatenate(flat, axis=1)[:n]
    return out


@functools.cache
def _is_game_over_fn(params: EnvParams) -> Any:
    return jax.jit(jax.vmap(lambda s: game_logic.is_game_over(s, params, STATIC)))


def is_game_over_batch(states: np.ndarray, params: EnvParams = PARAMS) -> np.ndarray:
    """Craftax's is_game_over of each packed state (rows of ``states``)."""
    like = new_world(0)
    batched = [unpack_state(row, like) for row in np.asarray(states, np.float64)]
    stacked = jax.tree_util.tree_map(lambda *x: jnp.stack(x), *batched)
    return np.asarray(_is_game_over_fn(params)(stacked))
