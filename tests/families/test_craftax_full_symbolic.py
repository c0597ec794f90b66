"""Craftax-Symbolic-v1's observation (the full game) against craftax 1.6.1's own.

Our WriteSymbolicObs (cpp/envs/craftax/full/symbolic_obs.h, through the test
hook ``_core.craftax_full_symbolic_obs``) must give, bit for bit, what Craftax's
jitted ``render_craftax_symbolic`` gives for the same state: on Craftax's own
worlds, and on the states its own step reaches under random actions. The
edited states (every floor, every mob, the light threshold, the map's edge, a
full inventory) are in test_craftax_full_symbolic_edits.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import ci_sample

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "craftax_full_symbolic_obs"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

import craftax_full_oracle as oracle  # noqa: E402
import jax  # noqa: E402

ROWS, COLS, CELL = 9, 11, 83
MAP_PART = ROWS * COLS * CELL
TAIL = (
    [
        f"sqrt({n})/10"
        for n in "wood stone coal iron diamond sapphire ruby sapling torches arrows".split()
    ]
    + ["books/2", "pickaxe/4", "sword/4", "sword_enchantment", "bow_enchantment", "bow"]
    + [f"sqrt(potion {i})/10" for i in range(6)]
    + [
        f"{n}/10"
        for n in "health food drink energy mana xp dexterity strength intelligence".split()
    ]
    + [f"direction {d}" for d in range(1, 5)]
    + [f"armour {i}/2" for i in range(4)]
    + [f"armour enchantment {i}" for i in range(4)]
    + ["light_level", "is_sleeping", "is_resting", "spell 0", "spell 1", "player_level/10"]
    + ["level cleared", "boss vulnerable"]
)


def where(i: int) -> str:
    """What index ``i`` of the observation holds, in words."""
    if i >= MAP_PART:
        return TAIL[i - MAP_PART]
    cell, channel = divmod(i, CELL)
    row, col = divmod(cell, COLS)
    if channel < 37:
        what = f"block {channel}"
    elif channel < 42:
        what = f"item {channel - 37}"
    elif channel < 82:
        what = f"mob class {(channel - 42) // 8} type {(channel - 42) % 8}"
    else:
        what = "light"
    return f"cell ({row}, {col}) {what}"


def assert_same_obs(state, label: str) -> np.ndarray:
    """Our observation of ``state`` is Craftax's, bit for bit; returns it."""
    expected = oracle.observe(state)
    got = _core.craftax_full_symbolic_obs(oracle.pack_state(state))
    assert expected.dtype == np.float32 and expected.shape == (
        _core.craftax_full_symbolic_obs_size,
    )
    assert got.dtype == np.float32 and got.shape == expected.shape
    differ = np.nonzero(got.view(np.uint32) != expected.view(np.uint32))[0]
    assert differ.size == 0, f"{label}: " + "; ".join(
        f"{where(i)}: ours {got[i]!r}, Craftax's {expected[i]!r}" for i in differ[:8]
    )
    return expected


def test_size_is_craftax_symbolic_v1s() -> None:
    assert _core.craftax_full_symbolic_obs_size == 8268 == MAP_PART + len(TAIL)


def test_the_hook_rejects_a_state_of_the_wrong_size() -> None:
    with pytest.raises(ValueError):
        _core.craftax_full_symbolic_obs([0.0] * 10)


@pytest.mark.parametrize("seed", ci_sample(list(range(10)), {0, 1, 2}))
def test_craftax_worlds(seed: int) -> None:
    obs = assert_same_obs(oracle.new_world(seed), f"world {seed}")
    # A new world shows lit cells and the player's full intrinsics.
    assert obs[82:MAP_PART:CELL].sum() > 0
    assert obs[MAP_PART + TAIL.index("health/10")] > 0


def run_random_play(seed: int, steps: int) -> int:
    """Craftax's own step under random actions from world ``seed`` (a new world
    after each episode's end), our observation checked after every step.
    Returns the number of distinct observations seen."""
    rng = np.random.default_rng(seed)
    step = oracle.real_step()
    state = oracle.new_world(seed)
    key = jax.random.PRNGKey(seed)
    seen = set()
    for t in range(steps):
        key, sub = jax.random.split(key)
        state, _, done = step(state, np.int32(rng.integers(43)), sub)
        obs = assert_same_obs(state, f"seed {seed} step {t}")
        seen.add(obs.tobytes())
        if bool(done):
            state = oracle.new_world(seed + 1000 + t)
    return len(seen)


@pytest.mark.parametrize("seed", ci_sample(list(range(6)), {0, 1}))
def test_states_of_craftaxs_own_step(seed: int) -> None:
    steps = 200 if seed < 2 else 1000
    assert run_random_play(seed, steps) > steps // 4  # the play moved the view


def test_time_per_observation() -> None:
    """Reports our µs per observation (a written observation each env step);
    fails only far above what it takes (about a microsecond or two)."""
    packed = oracle.pack_state(oracle.new_world(0))
    us = min(_core.craftax_full_symbolic_obs_us(packed, 20000) for _ in range(3))
    print(f"\nWriteSymbolicObs: {us:.3f} us per call")
    assert 0 < us < 50
