"""Craftax-Symbolic-v1's whole step against craftax 1.6.1's JAX step, step by step.

Each episode starts from Craftax's own world (its generator, seed by seed),
loaded into our C++ game (CraftaxSim, the family's test hook); both then take
the same random actions and the same random draws (tests/oracles/
craftax_full_oracle.py hands ours to Craftax), and the whole state, the
observation, the reward and the end of the episode must agree exactly, to the
episode's end. The parts of a step are checked one by one, on states made to
reach their rare branches, in test_craftax_full_{player,actions,mobs}*.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("craftax")
_core = pytest.importorskip("envpool_x._core")
if not hasattr(_core, "CraftaxSim"):
    pytest.skip("built without ENVPOOL_X_CRAFTAX", allow_module_level=True)

import craftax_full_oracle as oracle  # noqa: E402

#: More draws than a step takes: each side takes what its step needs, and
#: the counts must agree.
SPARE_DRAWS = 256
#: Steps after which a test episode is cut (none ran that long; a test asserts it).
EPISODE_CAP = 5000


def run_episode(seed: int, max_steps: int, start: Any = None, weights: Any = None) -> int:
    """Step both games from Craftax's world ``seed`` (or ``start``) with random
    actions (drawn with ``weights``); return the steps taken."""
    rng = np.random.default_rng(seed)
    keys = np.random.default_rng([seed, 1])  # the state_rng keys: a stream of their own
    state = oracle.new_world(seed) if start is None else start
    sim = _core.CraftaxSim()
    sim.set_state(oracle.pack_state(state))
    step = oracle.step_with_draws()
    for t in range(max_steps):
        action = int(rng.choice(43, p=weights))
        draws = (rng.integers(0, 2**24, size=SPARE_DRAWS) / 2**24).astype(np.float32)
        oracle.DRAWS.clear()
        oracle.DRAWS.extend(draws.tolist())
        key = keys.integers(0, 2**32, size=2, dtype=np.uint32)  # a raw JAX key
        state, reward, done = step(state, np.int32(action), key)
        taken = SPARE_DRAWS - len(oracle.DRAWS)
        our_reward, our_done, used = sim.step(action, draws.tolist())
        assert used == taken, f"step {t}: we took {used} draws, Craftax {taken}"
        sim.set_state_rng(*(int(w) for w in np.asarray(state.state_rng)))
        expected = np.asarray(oracle.pack_state(state))
        differ = np.nonzero(expected != sim.get_state())[0]
        fields = [oracle.field_at(int(i)) for i in differ[:8]]
        assert differ.size == 0, f"seed {seed} step {t} action {action}: {fields}"
        np.testing.assert_array_equal(sim.obs(), oracle.observe(state), err_msg=f"step {t}")
        assert np.float32(our_reward) == np.float32(reward), f"step {t}"
        assert our_done == bool(done), f"step {t}"
        if done:
            break
    return t + 1


def test_state_layout_is_craftax_pytree() -> None:
    packed = oracle.pack_state(oracle.new_world(3))
    assert len(packed) == _core.craftax_full_state_size
    assert _core.craftax_full_roundtrip(packed) == packed


@pytest.mark.parametrize("seed", [0, 1])
def test_whole_random_episodes_match_craftax(seed: int) -> None:
    # Random play dies within a few hundred steps (hunger, thirst, zombies).
    assert run_episode(seed, max_steps=EPISODE_CAP) < EPISODE_CAP


def test_episode_from_our_world_matches_craftax() -> None:
    # A world of our generator (the one the envs play), loaded into Craftax.
    start = oracle.unpack_state(_core.craftax_full_new_world(7), oracle.template())
    assert run_episode(7, EPISODE_CAP, start=start) < EPISODE_CAP


def test_full_inventory_actions_match_craftax() -> None:
    # Craftax's god-mode inventory (every material, tool, potion and book):
    # crafting, placing, shooting, spells, potions, books and enchanting happen.
    from craftax.craftax.world_gen.world_gen import get_new_full_inventory

    start = oracle.new_world(4).replace(inventory=get_new_full_inventory())
    weights = np.ones(43)
    weights[[1, 2, 3, 4]] = 3.0  # moving finds tables, mobs and ladders
    assert run_episode(4, EPISODE_CAP, start=start, weights=weights / weights.sum()) < EPISODE_CAP


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 12))
def test_more_whole_episodes_match_craftax(seed: int) -> None:
    assert run_episode(seed, max_steps=EPISODE_CAP) < EPISODE_CAP
